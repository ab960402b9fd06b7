#include "cellgraph/output/grid_slice.hpp"

#include <charconv>

#include "cellgraph/error.hpp"

namespace cellgraph {
namespace {

constexpr char kAxes[] = "xyz";

}  // namespace

GridSlice parse_grid_slice(const std::string& text) {
  const auto refuse = [&] { throw Error("a slice is x=K, y=K or z=K (K a whole number), not '" + text + "'"); };
  if (text.size() < 3 || text[1] != '=') refuse();
  GridSlice slice;
  switch (text[0]) {
    case 'x':
      slice.axis = 0;
      break;
    case 'y':
      slice.axis = 1;
      break;
    case 'z':
      slice.axis = 2;
      break;
    default:
      refuse();
  }
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data() + 2, end, slice.index);
  if (error != std::errc() || stop != end) refuse();
  return slice;
}

std::string grid_slice_text(const GridSlice& slice) {
  return std::string(1, kAxes[slice.axis]) + "=" + std::to_string(slice.index);
}

std::string slice_orientation(const GridSlice& slice) {
  return slice.axis == 2 ? "x across, y down" : slice.axis == 1 ? "x across, z up" : "y across, z up";
}

void check_grid_slice(const GridSlice& slice, const GridSpec& grid) {
  if (grid.dims != 3)
    throw Error("slice " + grid_slice_text(slice) + ": slices are planes of 3D grids, this grid is " +
                std::to_string(grid.dims) + "D");
  if (slice.axis < 0 || slice.axis > 2) throw Error("slice: the axis must be x, y or z");
  const std::int64_t size = grid.size[std::size_t(slice.axis)];
  if (slice.index < 0 || slice.index >= size)
    throw Error("slice " + grid_slice_text(slice) + " is outside the grid: " + kAxes[slice.axis] + " runs from 0 to " +
                std::to_string(size - 1));
}

SlicePlane slice_plane(const std::vector<std::uint32_t>& states, const GridSpec& grid, const GridSlice& slice) {
  check_grid_slice(slice, grid);
  if (states.size() != grid.cell_count())
    throw Error("slice: " + std::to_string(states.size()) + " states for " + std::to_string(grid.cell_count()) +
                " cells");
  const std::int64_t nx = grid.size[0], ny = grid.size[1], nz = grid.size[2], k = slice.index;
  SlicePlane plane;
  auto take = [&](std::int64_t x, std::int64_t y, std::int64_t z) {
    plane.states.push_back(states[grid.cell_id(x, y, z)]);
  };
  switch (slice.axis) {
    case 2:
      plane.width = nx, plane.height = ny;
      plane.states.assign(states.begin() + std::ptrdiff_t(grid.cell_id(0, 0, k)),
                          states.begin() + std::ptrdiff_t(grid.cell_id(0, 0, k) + std::uint64_t(nx * ny)));
      break;
    case 1:
      plane.width = nx, plane.height = nz;
      for (std::int64_t z = nz - 1; z >= 0; --z)
        for (std::int64_t x = 0; x < nx; ++x) take(x, k, z);
      break;
    default:
      plane.width = ny, plane.height = nz;
      for (std::int64_t z = nz - 1; z >= 0; --z)
        for (std::int64_t y = 0; y < ny; ++y) take(k, y, z);
  }
  return plane;
}

}  // namespace cellgraph
