// Golly's RLE: "#" lines, the "x = W, y = H, rule = R" header, then runs of cells up to '!'.
// Where Golly is lenient and nothing is ambiguous (cells beyond the declared W x H, no final
// '!') this reader is too; where Golly silently guesses (unknown characters, a count with no
// cell after it, no header) it reports the line instead.
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "cellgraph/error.hpp"
#include "cellgraph/source/pattern.hpp"
#include "src/source/line_reader.hpp"
#include "src/source/pattern_text.hpp"

namespace cellgraph {
namespace {

using pattern_text::trim;

constexpr std::int64_t kMaxExtent = std::numeric_limits<std::int32_t>::max();  // Golly's int
constexpr std::uint32_t kMaxState = 255;
// Live cells are stored one by one: a 12-byte file must not ask for gigabytes.
constexpr std::uint64_t kMaxLiveCells = std::uint64_t(1) << 28;
constexpr const char* kHeaderForm = "expected 'x = W, y = H, rule = R'";

template <typename Int>
bool parse_integer(std::string_view text, Int& value) {
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  return error == std::errc() && stop == end && !text.empty();
}

std::string describe(char c) {
  if (c >= ' ' && c <= '~') return std::string("'") + c + "'";
  static constexpr char kHex[] = "0123456789abcdef";
  const auto byte = static_cast<unsigned char>(c);
  return std::string("byte 0x") + kHex[byte >> 4] + kHex[byte & 15];
}

// Reads "x = W, y = H[, rule = R]" from the front of a line, blanks optional.
class HeaderParser {
 public:
  explicit HeaderParser(std::string_view line) : rest_(line) {}

  bool parse(std::int64_t& width, std::int64_t& height, std::string_view& rule) {
    if (!(key("x") && size(width) && symbol(',') && key("y") && size(height))) return false;
    rule = {};
    skip_blanks();
    if (rest_.empty()) return true;
    if (!(symbol(',') && key("rule"))) return false;
    rule = trim(rest_);
    if (rule.ends_with(',')) rule.remove_suffix(1);  // Golly allows a trailing comma
    return !rule.empty() && rule.find_first_of(" \t") == std::string_view::npos;
  }

 private:
  void skip_blanks() { rest_ = rest_.substr(std::min(rest_.find_first_not_of(" \t"), rest_.size())); }
  bool symbol(char c) {
    skip_blanks();
    if (rest_.empty() || rest_.front() != c) return false;
    rest_.remove_prefix(1);
    return true;
  }
  bool key(std::string_view name) {
    skip_blanks();
    if (!rest_.starts_with(name)) return false;
    rest_.remove_prefix(name.size());
    return symbol('=');
  }
  bool size(std::int64_t& value) {
    skip_blanks();
    const std::size_t digits = std::min(rest_.find_first_not_of("0123456789"), rest_.size());
    if (!parse_integer(rest_.substr(0, digits), value) || value > kMaxExtent) return false;
    rest_.remove_prefix(digits);
    return true;
  }

  std::string_view rest_;
};

class RleReader {
 public:
  RleReader(std::istream& in, const std::string& name) : lines_(in), name_(name) {}

  Pattern read() {
    return detail::naming_file_when_out_of_memory(
        name_, [&] { return lines_.number(); },
        [&] {
          read_up_to_header();
          read_body();
          return std::move(pattern_);
        });
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { throw ParseError(name_, lines_.number(), what); }

  // Comments, "#CXRLE" and "#r" lines, blank lines, then the header.
  void read_up_to_header() {
    bool leading = true;  // Golly honours "#CXRLE" only in the file's first lines
    while (lines_.next(line_)) {
      const std::string_view line = line_;
      if (trim(line).empty()) continue;
      if (line.starts_with("#CXRLE") && leading) {
        read_xrle(line);
        continue;
      }
      leading = false;
      if (line.starts_with("#r")) {
        pattern_text::set_rule(pattern_, trim(line.substr(2)), name_, lines_.number());
      } else if (!line.starts_with('#')) {
        read_header(line);
        return;
      }
    }
    throw ParseError(name_, 0, std::string("missing header: ") + kHeaderForm);
  }

  // "#CXRLE Pos=x,y Gen=g": only the position matters here.
  void read_xrle(std::string_view line) {
    const std::size_t key = line.find("Pos=");
    if (key == std::string_view::npos) return;
    std::string_view value = line.substr(key + 4);
    value = value.substr(0, value.find_first_of(" \t"));
    const std::size_t comma = value.find(',');
    std::int32_t x = 0, y = 0;  // Golly reads the position as two ints
    if (comma == std::string_view::npos || !parse_integer(value.substr(0, comma), x) ||
        !parse_integer(value.substr(comma + 1), y))
      fail("bad #CXRLE position " + quoted_text(value) + ": expected Pos=x,y");
    origin_x_ = x;
    origin_y_ = y;
    saw_position_ = true;
  }

  void read_header(std::string_view line) {
    if (!line.starts_with('x')) fail(std::string("missing header: ") + kHeaderForm);
    std::int64_t width = 0, height = 0;
    std::string_view rule;
    if (!HeaderParser(line).parse(width, height, rule))
      fail("bad header " + quoted_text(trim(line)) + ": " + kHeaderForm);
    if (!rule.empty()) pattern_text::set_rule(pattern_, rule, name_, lines_.number());
    if (pattern_.bounded_size) fit_to_bounded_grid(width, height);
  }

  // What Golly's readrle does when the rule names a bounded grid: with no "#CXRLE Pos" it centres
  // a pattern that fits and puts any other at the grid's top-left corner; and it skips cells
  // further right or down than the grid's size, counted from the pattern's top-left.
  void fit_to_bounded_grid(std::int64_t width, std::int64_t height) {
    const auto [grid_width, grid_height] = *pattern_.bounded_size;
    if (!saw_position_) {
      const bool fits = width > 0 && width <= grid_width && height > 0 && height <= grid_height;
      origin_x_ = pattern_text::bounded_grid_origin(fits ? width : grid_width);
      origin_y_ = pattern_text::bounded_grid_origin(fits ? height : grid_height);
    }
    clip_width_ = grid_width;
    clip_height_ = grid_height;
  }

  void read_body() {
    while (lines_.next(line_)) {
      if (line_.starts_with('#')) continue;  // Golly reads "#" lines in the body as comments
      if (read_body_line(line_)) return;
    }
    // Golly accepts a body with no '!'; a dangling count has nothing to repeat, though.
    if (count_line_ != 0) fail_dangling_count(count_line_);
  }

  // Returns true at the final '!'. Counts may continue on the next line, as Golly reads them.
  bool read_body_line(std::string_view line) {
    for (std::size_t i = 0; i < line.size(); ++i) {
      const char c = line[i];
      if (c >= '0' && c <= '9') {
        add_digit(c);
        continue;
      }
      if (c == ' ' || c == '\t') {
        if (count_line_ != 0) fail_dangling_count(lines_.number());
        continue;
      }
      if (c == '!') {
        if (count_line_ != 0) fail_dangling_count(lines_.number());
        return true;
      }
      const std::int64_t run = take_count();
      if (c == 'b' || c == '.') {
        advance_x(run);
      } else if (c == '$') {
        x_ = 0;
        y_ += run;
        if (y_ > kMaxExtent) fail("the pattern is too tall");
      } else if (c == 'o') {
        add_run(run, 1);
      } else if (c >= 'A' && c <= 'X') {
        add_run(run, std::uint32_t(c - 'A' + 1));
      } else if (c >= 'p' && c <= 'y') {
        // Golly's states 25..255: a prefix p..y for 24, 48, .. 240, then A..X for 1..24.
        const char low = i + 1 < line.size() ? line[++i] : '\0';
        if (low < 'A' || low > 'X') fail("state prefix " + describe(c) + " is not followed by a letter A..X");
        const std::uint32_t state = 24 * std::uint32_t(c - 'p' + 1) + std::uint32_t(low - 'A' + 1);
        if (state > kMaxState) fail("state " + std::to_string(state) + " ('" + c + low + "') is above 255");
        add_run(run, state);
      } else {
        fail("unexpected character " + describe(c) + " in the pattern");
      }
    }
    return false;
  }

  void add_digit(char digit) {
    if (count_line_ == 0) count_line_ = lines_.number();
    count_ = count_ * 10 + (digit - '0');
    if (count_ > kMaxExtent) fail("count is too large");
  }

  // The count before a tag: 1 if none was written.
  std::int64_t take_count() {
    const std::int64_t run = count_line_ == 0 ? 1 : count_;
    if (count_line_ != 0 && run == 0) fail("count 0 before a cell or '$'");
    count_ = 0;
    count_line_ = 0;
    return run;
  }

  [[noreturn]] void fail_dangling_count(std::size_t line) const {
    throw ParseError(name_, line, "count " + std::to_string(count_) + " is not followed by a cell or '$'");
  }

  void advance_x(std::int64_t run) {
    x_ += run;
    if (x_ > kMaxExtent) fail("the pattern is too wide");
  }

  void add_run(std::int64_t run, std::uint32_t state) {
    const bool row_kept = clip_height_ == 0 || y_ < clip_height_;
    const std::int64_t end = clip_width_ == 0 ? x_ + run : std::min(x_ + run, clip_width_);
    if (row_kept && end > x_ && pattern_.cells.size() + std::uint64_t(end - x_) > kMaxLiveCells)
      fail("the pattern has more than " + std::to_string(kMaxLiveCells) + " live cells");
    if (row_kept && end > x_)
      cell_memory_.require(pattern_.cells.size() + std::uint64_t(end - x_), name_, lines_.number());
    if (row_kept)
      for (std::int64_t x = x_; x < end; ++x) pattern_.cells.push_back({origin_x_ + x, origin_y_ + y_, state});
    advance_x(run);
  }

  pattern_text::LineReader lines_;
  const std::string& name_;
  std::string line_;
  Pattern pattern_;
  pattern_text::CellMemory cell_memory_;

  std::int64_t origin_x_ = 0, origin_y_ = 0;  // Golly coordinates of the pattern's top-left
  bool saw_position_ = false;
  std::int64_t clip_width_ = 0, clip_height_ = 0;  // 0: no bounded grid in the rule
  std::int64_t x_ = 0, y_ = 0;                     // the next cell, from the top-left
  std::int64_t count_ = 0;
  std::size_t count_line_ = 0;  // where the pending count began; 0: none pending
};

}  // namespace

Pattern read_rle(std::istream& in, const std::string& name) { return RleReader(in, name).read(); }

}  // namespace cellgraph
