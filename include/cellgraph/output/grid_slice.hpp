// Planes of 3D grids, pictured cell by cell: the cells whose x, y or z is one value.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "cellgraph/source/grid.hpp"

namespace cellgraph {

struct GridSlice {
  int axis = 2;  // 0: x, 1: y, 2: z
  std::int64_t index = 0;
};

// "x=K", "y=K" or "z=K", K a whole number; throws Error otherwise.
GridSlice parse_grid_slice(const std::string& text);
std::string grid_slice_text(const GridSlice& slice);  // "z=5"

// How slice_plane() lays the plane out: "x across, y down", "x across, z up" or "y across, z up".
std::string slice_orientation(const GridSlice& slice);

// Throws Error unless `grid` is 3D and the plane lies in it.
void check_grid_slice(const GridSlice& slice, const GridSpec& grid);

// The plane as a 2D grid, as it is pictured: z=K with x across and y down (as 2D grids are
// drawn), y=K with x across and z up, x=K with y across and z up.
struct SlicePlane {
  std::int64_t width = 0, height = 0;
  std::vector<std::uint32_t> states;  // row-major from the top left
};
// Throws Error as check_grid_slice does, and unless `states` holds one state per cell.
SlicePlane slice_plane(const std::vector<std::uint32_t>& states, const GridSpec& grid, const GridSlice& slice);

}  // namespace cellgraph
