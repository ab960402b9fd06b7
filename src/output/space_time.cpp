#include "cellgraph/output/space_time.hpp"

#include <algorithm>
#include <string>

#include "cellgraph/error.hpp"

namespace cellgraph {
namespace {

// Multiples of k strictly between a and b.
std::uint64_t multiples_between(std::uint64_t k, std::uint64_t a, std::uint64_t b) {
  return b > a + 1 ? (b - 1) / k - a / k : 0;
}

}  // namespace

std::uint64_t space_time_max_rows(std::uint64_t width) {
  return std::min(kSpaceTimeRows, kSpaceTimeCells / std::max<std::uint64_t>(width, 1));
}

SpaceTimeRows SpaceTimeRows::plan(std::uint64_t width, std::uint64_t first, std::uint64_t last) {
  const std::uint64_t most = space_time_max_rows(width);
  if (most < 3)  // the first, the last and one between
    throw Error("a space-time picture of a 1D grid of " + std::to_string(width) + " cells would hold too few rows (" +
                std::to_string(kSpaceTimeCells) + " cells in all at most)");
  if (last < first) throw Error("a space-time picture: the run ends before it starts");
  SpaceTimeRows rows{first, last, 1};
  const std::uint64_t steps = last - first;
  if (steps + 1 <= most) return rows;
  // Every stride from steps / (most - 2) up fits (at most most - 2 multiples between the ends);
  // a smaller one may too.
  rows.stride = (steps + most - 3) / (most - 2);
  while (rows.stride > 1 && SpaceTimeRows{first, last, rows.stride - 1}.count() <= most) --rows.stride;
  return rows;
}

std::uint64_t SpaceTimeRows::count() const {
  if (stride == 1) return last - first + 1;
  return 1 + multiples_between(stride, first, last) + (last > first);
}

bool SpaceTimeRows::holds(std::uint64_t step) const {
  return step >= first && step <= last && (step == first || step == last || step % stride == 0);
}

std::uint64_t SpaceTimeRows::row_of(std::uint64_t step) const {
  if (step == first) return 0;
  if (step == last) return count() - 1;
  return stride == 1 ? step - first : step / stride - first / stride;
}

SpaceTime::SpaceTime(std::int64_t width, const SpaceTimeRows& rows) : rows_(rows), cells_{width, 0, {}} {
  if (width < 1) throw Error("a space-time picture needs a grid of at least one cell");
  cells_.height = std::int64_t(rows.count());
}

void SpaceTime::record(std::uint64_t step, const std::vector<std::uint32_t>& states, const StatePalette& palette) {
  if (!rows_.holds(step)) throw Error("space-time picture: step " + std::to_string(step) + " is not one of its rows");
  if (states.size() != std::size_t(cells_.width))
    throw Error("space-time picture: " + std::to_string(states.size()) + " states for a row of " +
                std::to_string(cells_.width) + " cells");
  if (cells_.pixels.empty()) cells_.pixels.assign(std::size_t(cells_.width * cells_.height), StatePalette::kBackground);
  auto row = cells_.pixels.begin() + std::ptrdiff_t(rows_.row_of(step) * std::uint64_t(cells_.width));
  for (std::uint32_t state : states) *row++ = palette.index(state);
}

}  // namespace cellgraph
