// Pictures of 1D grids: the space-time diagram of a run, a row of cells per step with time going
// down, as elementary cellular automata are drawn.
#pragma once
#include <cstdint>
#include <vector>

#include "cellgraph/output/palette.hpp"

namespace cellgraph {

// A diagram holds at most this many rows, and this many cells in all (a byte each): grids wider
// than 65536 cells get fewer rows.
inline constexpr std::uint64_t kSpaceTimeRows = 4096;
inline constexpr std::uint64_t kSpaceTimeCells = std::uint64_t{1} << 28;

// The steps of a run from `first` to `last` that a diagram shows: every step when they fit, else
// the first, the last and the multiples of `stride` between them.
struct SpaceTimeRows {
  std::uint64_t first = 0, last = 0, stride = 1;

  // The fewest rows, never more than the grid allows (kSpaceTimeRows, kSpaceTimeCells): the
  // smallest stride that fits. Throws Error for a grid too wide for three rows.
  static SpaceTimeRows plan(std::uint64_t width, std::uint64_t first, std::uint64_t last);

  std::uint64_t count() const;
  bool holds(std::uint64_t step) const;
  std::uint64_t row_of(std::uint64_t step) const;  // for a step it holds
};

// The most rows a diagram of a `width`-cell grid may have: kSpaceTimeRows, fewer for wide grids.
std::uint64_t space_time_max_rows(std::uint64_t width);

class SpaceTime {
 public:
  SpaceTime(std::int64_t width, const SpaceTimeRows& rows);

  const SpaceTimeRows& rows() const { return rows_; }
  // Keeps the states of `step`, one of the rows, as palette indices. Throws Error for another
  // step or another number of states.
  void record(std::uint64_t step, const std::vector<std::uint32_t>& states, const StatePalette& palette);
  // width x rows().count() palette indices, a cell each: the rows recorded so far, the others
  // in the background index (StatePalette::kBackground).
  const IndexedImage& cells() const { return cells_; }

 private:
  SpaceTimeRows rows_;
  IndexedImage cells_;  // allocated by the first record()
};

}  // namespace cellgraph
