// A 2D grid as Golly RLE that Golly opens where it was: "#CXRLE Pos" gives the top-left of the
// live cells in Golly's coordinates, and the rule carries the grid as a bounded-grid suffix.
#include <algorithm>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

#include "cellgraph/error.hpp"
#include "cellgraph/source/pattern.hpp"

namespace cellgraph {
namespace {

constexpr std::size_t kLineWidth = 70;  // what Golly writes and the RLE convention
constexpr std::uint32_t kMaxStates = 256;

// Gathers "<count><tag>" runs into lines of at most 70 characters without splitting a run.
class RleBodyWriter {
 public:
  explicit RleBodyWriter(std::ostream& out) : out_(out) {}

  void put(std::uint64_t count, std::string_view tag) {
    std::string run = count > 1 ? std::to_string(count) : std::string();
    run += tag;
    if (line_.size() + run.size() > kLineWidth) flush_line();
    line_ += run;
  }

  void finish() {
    put(1, "!");
    flush_line();
  }

 private:
  void flush_line() {
    if (!line_.empty()) out_ << line_ << '\n';
    line_.clear();
  }

  std::ostream& out_;
  std::string line_;
};

// 'b'/'o' for two states; otherwise '.', 'A'..'X' for 1..24 and a prefix 'p'..'y' (24, 48, ..
// 240) before 'A'..'X' for 25..255, as Golly writes them.
std::string state_tag(std::uint32_t state, bool multistate) {
  if (!multistate) return state == 0 ? "b" : "o";
  if (state == 0) return ".";
  std::string tag;
  if (state > 24) tag += char('p' + (state - 1) / 24 - 1);
  tag += char('A' + (state - 1) % 24);
  return tag;
}

struct LiveBounds {
  std::int64_t left, top, right, bottom;  // inclusive; left > right when there are none
  bool empty() const { return left > right; }
};

LiveBounds live_bounds(const std::vector<std::uint32_t>& states, std::int64_t width, std::int64_t height) {
  LiveBounds box{width, height, -1, -1};
  for (std::int64_t y = 0; y < height; ++y)
    for (std::int64_t x = 0; x < width; ++x)
      if (states[std::size_t(y * width + x)] != 0) {
        box.left = std::min(box.left, x);
        box.right = std::max(box.right, x);
        box.top = std::min(box.top, y);
        box.bottom = y;
      }
  return box;
}

void check_states(const std::vector<std::uint32_t>& states, std::uint32_t num_states) {
  if (num_states > kMaxStates) throw Error("RLE holds at most 256 states, not " + std::to_string(num_states));
  const std::uint32_t max_state = std::max(num_states, 2u) - 1;
  const auto too_big = std::find_if(states.begin(), states.end(), [&](std::uint32_t s) { return s > max_state; });
  if (too_big != states.end())
    throw Error("state " + std::to_string(*too_big) + " does not fit a rule with " + std::to_string(num_states) +
                " states");
}

// The rule with its suffix replaced by this grid: ":T" wraps, ":P" is Golly's bounded plane.
std::string bounded_rule(const std::string& rule, const GridSpec& grid) {
  const char topology = grid.boundary.kind == BoundaryKind::periodic ? 'T' : 'P';
  return rule.substr(0, rule.find(':')) + ':' + topology + std::to_string(grid.size[0]) + ',' +
         std::to_string(grid.size[1]);
}

// Rows of runs; dead cells at a row's end are left out and empty rows merge into one "N$".
void write_body(std::ostream& out, const std::vector<std::uint32_t>& states, std::int64_t width, const LiveBounds& box,
                bool multistate) {
  RleBodyWriter body(out);
  std::int64_t previous_row = box.top;
  for (std::int64_t y = box.top; y <= box.bottom; ++y) {
    const auto row = states.begin() + std::ptrdiff_t(y * width);
    std::int64_t end = box.right + 1;
    while (end > box.left && row[end - 1] == 0) --end;
    if (end == box.left) continue;
    if (y > previous_row) body.put(std::uint64_t(y - previous_row), "$");
    previous_row = y;
    for (std::int64_t x = box.left; x < end;) {
      std::int64_t run_end = x + 1;
      while (run_end < end && row[run_end] == row[x]) ++run_end;
      body.put(std::uint64_t(run_end - x), state_tag(row[x], multistate));
      x = run_end;
    }
  }
  body.finish();
}

}  // namespace

void write_rle(std::ostream& out, const std::vector<std::uint32_t>& states, const GridSpec& grid,
               const std::string& rule, std::uint32_t num_states) {
  if (grid.dims != 2) throw Error("RLE can only hold a 2D grid");
  const std::int64_t width = grid.size[0], height = grid.size[1];
  if (states.size() != std::uint64_t(width) * std::uint64_t(height))
    throw Error("RLE writer: " + std::to_string(states.size()) + " states for a " + std::to_string(width) + "x" +
                std::to_string(height) + " grid");
  check_states(states, num_states);

  const LiveBounds box = live_bounds(states, width, height);
  if (!box.empty())  // grid (x, y) is Golly's (x - W/2, y - H/2), as in place_pattern
    out << "#CXRLE Pos=" << box.left - width / 2 << ',' << box.top - height / 2 << '\n';
  const std::int64_t box_width = box.empty() ? 0 : box.right - box.left + 1;
  const std::int64_t box_height = box.empty() ? 0 : box.bottom - box.top + 1;
  out << "x = " << box_width << ", y = " << box_height;
  if (!rule.empty()) out << ", rule = " << bounded_rule(rule, grid);
  out << '\n';
  write_body(out, states, width, box, num_states > 2);
}

}  // namespace cellgraph
