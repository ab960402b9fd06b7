// Choosing a pattern reader, placing a pattern on a grid, and the text helpers both readers use.
#include "cellgraph/source/pattern.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cellgraph/error.hpp"
#include "cellgraph/memory_budget.hpp"
#include "src/source/pattern_text.hpp"

namespace cellgraph {

namespace pattern_text {

bool LineReader::next(std::string& line) {
  line.clear();
  int c = in_.get();
  if (c == std::char_traits<char>::eof()) return false;
  for (; c != std::char_traits<char>::eof(); c = in_.get()) {
    if (c == '\n') break;
    if (c == '\r') {
      if (in_.peek() == '\n') in_.get();
      break;
    }
    line.push_back(static_cast<char>(c));
  }
  ++number_;
  return true;
}

std::string_view trim(std::string_view text) {
  const auto blank = [](char c) { return c == ' ' || c == '\t'; };
  while (!text.empty() && blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && blank(text.back())) text.remove_suffix(1);
  return text;
}

bool starts_with_word(std::string_view text, std::string_view word) {
  return text.starts_with(word) &&
         (text.size() == word.size() || text[word.size()] == ' ' || text[word.size()] == '\t');
}

namespace {

constexpr std::int64_t kMaxBoundedSize = 2'000'000'000;  // Golly's limit

// Reads the digits at the front of s (none: 0); false if the number is over Golly's limit.
bool take_size(std::string_view& s, std::int64_t& value) {
  value = 0;
  while (!s.empty() && std::isdigit(static_cast<unsigned char>(s.front()))) {
    value = value * 10 + (s.front() - '0');
    if (value > kMaxBoundedSize) return false;
    s.remove_prefix(1);
  }
  return true;
}

}  // namespace

void CellMemory::require(std::uint64_t cells, const std::string& file, std::size_t line) {
  if (!limit_) limit_ = memory_limit();
  const std::uint64_t bytes = 2 * sizeof(PatternCell) * cells;  // with the vector's spare capacity
  if (bytes > *limit_)
    throw ParseError(file, line,
                     "a pattern of " + std::to_string(cells) + " live cells by this line " + memory_shortfall(bytes));
}

// Golly's suffix grammar (lifealgo::setgridsize): a topology letter in either case, a width, and
// an optional ",height" (absent: square). Twists ('*') and shifts ('+n', '-n') are the Klein
// bottle and shifted-torus forms, which cellgraph's boundaries cannot express.
void set_rule(Pattern& p, std::string_view rule, const std::string& file, std::size_t line) {
  const std::size_t colon = rule.find(':');
  p.rule = std::string(rule.substr(0, colon));
  p.rule_line = line;
  p.bounded_kind = 0;
  p.bounded_size.reset();
  if (colon == std::string_view::npos) return;

  const std::string suffix(rule.substr(colon));
  const auto unsupported = [&](const char* why) {
    throw ParseError(file, line, "unsupported bounded grid " + quoted_text(suffix) + " (" + why + ")");
  };
  const auto malformed = [&] { throw ParseError(file, line, "bad bounded grid suffix " + quoted_text(suffix)); };
  const auto twisted_or_shifted = [](std::string_view s) {
    return !s.empty() && (s.front() == '*' || s.front() == '+' || s.front() == '-');
  };

  std::string_view s = std::string_view(suffix).substr(1);
  if (s.empty()) return;  // ":" alone is Golly's unbounded universe
  const char kind = static_cast<char>(std::toupper(static_cast<unsigned char>(s.front())));
  if (kind == 'K' || kind == 'C' || kind == 'S') unsupported("only :T torus and :P plane grids are supported");
  if (kind != 'T' && kind != 'P') malformed();
  s.remove_prefix(1);

  std::int64_t width = 0, height = 0;
  if (!take_size(s, width)) malformed();
  if (twisted_or_shifted(s)) unsupported("shifted edges are not supported");
  if (!s.empty() && s.front() == ',') s.remove_prefix(1);
  const bool height_given = !s.empty();
  if (!take_size(s, height)) malformed();
  if (twisted_or_shifted(s)) unsupported("shifted edges are not supported");
  if (!s.empty()) malformed();
  if (!height_given) height = width;

  if (width == 0 && height == 0) return;  // ":T" and ":T0,0" are unbounded in Golly too
  if (width == 0 || height == 0) unsupported("infinite width or height");
  p.bounded_kind = kind;
  p.bounded_size = std::array<std::int64_t, 2>{width, height};
}

}  // namespace pattern_text

std::string rule_dirs_beside_pattern(const std::string& rule_dirs, const std::string& pattern_file) {
  const std::string folder = std::filesystem::path(pattern_file).parent_path().string();
  return (rule_dirs.empty() ? "" : rule_dirs + ":") + (folder.empty() ? "." : folder);
}

Pattern read_pattern_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw Error("cannot open " + path + ": " + std::strerror(errno));
  std::stringstream content;
  content << file.rdbuf();
  if (file.bad()) throw Error("cannot read " + path + ": " + std::strerror(errno));

  // Like Golly, decide on the first non-blank line; the readers see the whole file so that
  // their line numbers are the file's.
  std::string first;
  pattern_text::LineReader lines(content);
  while (lines.next(first) && pattern_text::trim(first).empty()) {
  }
  content.clear();
  content.seekg(0);
  if (first.starts_with("#Life")) return read_life(content, path);
  return read_rle(content, path);
}

namespace {

struct Box {
  std::int64_t left = 0, top = 0, width = 0, height = 0;  // width 0: no cells
};

Box bounding_box(const Pattern& p) {
  if (p.cells.empty()) return {};
  std::int64_t left = p.cells[0].x, right = left, top = p.cells[0].y, bottom = top;
  for (const PatternCell& cell : p.cells) {
    left = std::min(left, cell.x);
    right = std::max(right, cell.x);
    top = std::min(top, cell.y);
    bottom = std::max(bottom, cell.y);
  }
  return {left, top, right - left + 1, bottom - top + 1};
}

constexpr std::int64_t kPatternMargin = 16;  // cells, at least, on each side of a pattern's box

// A side of the grid around `extent` cells of pattern: a margin of max(16, extent / 2 rounded
// up) on both sides, the whole rounded up to a multiple of 8.
std::int64_t grid_side(std::int64_t extent) {
  const std::int64_t side = extent + 2 * std::max(kPatternMargin, (extent + 1) / 2);
  return (side + 7) / 8 * 8;
}

}  // namespace

std::array<std::int64_t, 2> pattern_grid_size(const Pattern& p) {
  const Box box = bounding_box(p);
  return {grid_side(box.width), grid_side(box.height)};
}

void center_pattern(Pattern& p) {
  const Box box = bounding_box(p);
  const std::int64_t dx = pattern_text::bounded_grid_origin(box.width) - box.left;
  const std::int64_t dy = pattern_text::bounded_grid_origin(box.height) - box.top;
  for (PatternCell& cell : p.cells) {
    cell.x += dx;
    cell.y += dy;
  }
}

std::vector<std::uint32_t> place_pattern(const Pattern& p, const GridSpec& grid, std::uint64_t* dropped) {
  if (grid.dims != 2) throw Error("a pattern can only be placed on a 2D grid");
  const std::int64_t width = grid.size[0], height = grid.size[1];
  const std::int64_t left = pattern_text::bounded_grid_origin(width);
  const std::int64_t top = pattern_text::bounded_grid_origin(height);

  std::vector<std::uint32_t> states(std::uint64_t(width) * std::uint64_t(height), 0);
  std::uint64_t outside = 0;
  for (const PatternCell& cell : p.cells) {
    const std::int64_t x = cell.x - left, y = cell.y - top;
    if (x < 0 || x >= width || y < 0 || y >= height) {
      ++outside;  // Golly drops, rather than wraps, what a bounded grid cannot hold
      continue;
    }
    states[grid.cell_id(x, y)] = cell.state;
  }
  if (dropped) *dropped = outside;
  return states;
}

}  // namespace cellgraph
