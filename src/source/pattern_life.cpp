// Alan Hensel's Life 1.05 ("#P x y" blocks of '.' and '*') and Life 1.06 ("x y" per live cell),
// read as Golly's readpclife reads them: both kinds of line are accepted in either version.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

#include "cellgraph/error.hpp"
#include "cellgraph/source/pattern.hpp"
#include "src/source/line_reader.hpp"
#include "src/source/pattern_text.hpp"

namespace cellgraph {
namespace {

using pattern_text::starts_with_word;
using pattern_text::trim;

// Reads blank-separated 32-bit integers (Golly reads coordinates with "%d") until the text ends.
bool parse_integers(std::string_view text, std::int32_t* values, int count) {
  for (int i = 0; i < count; ++i) {
    text = trim(text);
    const auto [stop, error] = std::from_chars(text.data(), text.data() + text.size(), values[i]);
    if (error != std::errc() || (stop != text.data() + text.size() && *stop != ' ' && *stop != '\t')) return false;
    text.remove_prefix(std::size_t(stop - text.data()));
  }
  return trim(text).empty();
}

bool all_neighbour_counts(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '8'; });
}

// Life 1.05 writes rules survival first, "#R 23/3"; Golly's canonical form is "B3/S23". Other
// rule forms pass through unchanged.
std::string canonical_rule(std::string_view rule) {
  const std::size_t colon = std::min(rule.find(':'), rule.size());
  const std::string_view totalistic = rule.substr(0, colon), suffix = rule.substr(colon);
  const std::size_t slash = totalistic.find('/');
  if (slash == std::string_view::npos) return std::string(rule);
  const std::string_view survive = totalistic.substr(0, slash), born = totalistic.substr(slash + 1);
  if (!all_neighbour_counts(survive) || !all_neighbour_counts(born)) return std::string(rule);
  return "B" + std::string(born) + "/S" + std::string(survive) + std::string(suffix);
}

class LifeReader {
 public:
  LifeReader(std::istream& in, const std::string& name) : lines_(in), name_(name) {}

  Pattern read() {
    return detail::naming_file_when_out_of_memory(
        name_, [&] { return lines_.number(); },
        [&] {
          while (lines_.next(line_)) read_line(trim(line_));
          remove_duplicates();
          return std::move(pattern_);
        });
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { throw ParseError(name_, lines_.number(), what); }

  void read_line(std::string_view line) {
    if (line.empty()) return;
    const char first = line.front();
    if (first == '#') {
      read_directive(line);
    } else if (first == '.' || first == '*') {
      read_block_row(line);
    } else if (first == '-' || std::isdigit(static_cast<unsigned char>(first))) {
      read_cell(line);
    } else {
      fail("unexpected line " + quoted_text(line));
    }
  }

  // "#Life 1.0x", "#D" descriptions and any other "#" line are comments, as in Golly.
  void read_directive(std::string_view line) {
    if (starts_with_word(line, "#P")) {
      read_block_position(line.substr(2));
    } else if (starts_with_word(line, "#N")) {
      set_rule("B3/S23");
    } else if (starts_with_word(line, "#R")) {
      const std::string_view rule = trim(line.substr(2));
      if (rule.empty()) fail("#R without a rule");
      set_rule(canonical_rule(rule));
    }
  }

  // "#P x y" starts a block at (x, y). A bare "#P" starts it where the previous block ended
  // (below it, at its left edge), at (0, 0) for the first: Golly keeps its position there.
  void read_block_position(std::string_view coordinates) {
    if (trim(coordinates).empty()) return;
    std::int32_t xy[2];
    if (!parse_integers(coordinates, xy, 2)) fail("bad #P line: expected '#P x y'");
    left_ = x_ = xy[0];
    y_ = xy[1];
  }

  void read_block_row(std::string_view row) {
    for (const char c : row) {
      if (c == '*') {
        add_cell(x_, y_);
      } else if (c != '.') {
        fail("unexpected character " + quoted_text(std::string_view(&c, 1)) + " in a #P block row");
      }
      ++x_;
    }
    x_ = left_;
    ++y_;
  }

  void read_cell(std::string_view line) {
    std::int32_t xy[2];
    if (!parse_integers(line, xy, 2)) fail("bad cell line " + quoted_text(line) + ": expected 'x y'");
    add_cell(xy[0], xy[1]);
  }

  void add_cell(std::int64_t x, std::int64_t y) {
    cell_memory_.require(pattern_.cells.size() + 1, name_, lines_.number());
    pattern_.cells.push_back({x, y, 1});
  }

  void set_rule(std::string_view rule) { pattern_text::set_rule(pattern_, rule, name_, lines_.number()); }

  // Overlapping blocks and repeated 1.06 lines name a cell twice; Golly sets it once.
  void remove_duplicates() {
    auto& cells = pattern_.cells;
    const auto row_major = [](const PatternCell& a, const PatternCell& b) {
      return a.y != b.y ? a.y < b.y : a.x < b.x;
    };
    const auto same_place = [](const PatternCell& a, const PatternCell& b) { return a.x == b.x && a.y == b.y; };
    std::stable_sort(cells.begin(), cells.end(), row_major);
    cells.erase(std::unique(cells.begin(), cells.end(), same_place), cells.end());
  }

  pattern_text::LineReader lines_;
  const std::string& name_;
  std::string line_;
  Pattern pattern_;
  pattern_text::CellMemory cell_memory_;
  std::int64_t x_ = 0, y_ = 0, left_ = 0;  // the next block cell; left_: the block's left edge
};

}  // namespace

Pattern read_life(std::istream& in, const std::string& name) { return LifeReader(in, name).read(); }

}  // namespace cellgraph
