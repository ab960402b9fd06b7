// Regular grids as a source: sizes, a neighborhood stencil and a boundary, compiled to the
// canonical graph like any other source (there is no second engine for grids).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "cellgraph/graph.hpp"

namespace cellgraph {

struct Offset {
  int dx = 0, dy = 0, dz = 0;
  friend bool operator==(const Offset&, const Offset&) = default;
};

enum class BoundaryKind { periodic, fixed, reflective };

struct Boundary {
  BoundaryKind kind = BoundaryKind::periodic;
  std::uint32_t value = 0;  // state of the boundary cell for `fixed`
};

struct GridSpec {
  int dims = 2;
  std::array<std::int64_t, 3> size{1, 1, 1};  // x (columns), y (rows, top to bottom), z
  std::vector<Offset> stencil;                // slot k of every cell = stencil[k]
  Boundary boundary;

  std::uint64_t cell_count() const { return std::uint64_t(size[0]) * size[1] * size[2]; }
  // Cell id of (x, y, z): x + X * (y + Y * z); row-major, the order of PNG and RLE rows.
  std::uint64_t cell_id(std::int64_t x, std::int64_t y, std::int64_t z = 0) const {
    return std::uint64_t(x + size[0] * (y + size[1] * z));
  }
};

// Stencils. Moore and von Neumann list offsets in raster order (z, then y, then x, each from
// -range to range), skipping the centre. Hexagonal uses Golly's skewed layout: (-1,-1), (0,-1),
// (-1,0), (1,0), (0,1), (1,1).
std::vector<Offset> moore_stencil(int dims, int range);
std::vector<Offset> von_neumann_stencil(int dims, int range);
std::vector<Offset> hexagonal_stencil();
// Dobashi et al.'s cloud neighborhood (3D): the six cells at distance 1 along the axes, and at
// distance 2 in x+-2, y+-2 and z-2 only (activation spreads upward, z up), in raster order:
// (0,0,-2), (0,0,-1), (0,-2,0), (0,-1,0), (-2,0,0), (-1,0,0), (1,0,0), (2,0,0), (0,1,0),
// (0,2,0), (0,0,1).
std::vector<Offset> cloud_stencil();

// "moore", "moore:2", "vonneumann", "vonneumann:3", "hex", "cloud" (3D), or an explicit list of offsets
// "custom:1,0,0;-1,0,0;0,2,0" (2 or 3 numbers each). Throws Error for anything else.
std::vector<Offset> parse_stencil(const std::string& text, int dims);
// "512x512", "64x64x64", "1000" (1D). Throws Error for anything else.
std::array<std::int64_t, 3> parse_grid_size(const std::string& text, int* dims);
// "periodic", "fixed", "fixed:1", "reflective" (alias "open" = "fixed:0").
Boundary parse_boundary(const std::string& text);

// Throws Error if the grid has no cells, too many for 32-bit ids, or a stencil reaching into
// a dimension the grid does not have. (On a periodic axis narrower than the stencil a cell may
// meet the same neighbor twice, or itself: that is what the torus means, as in Golly.)
void check_grid(const GridSpec& spec);

// The grid as a slotted graph. Periodic: wraps. Fixed: kBoundaryVertex. Reflective: the
// mirror image across the edge, x = -1 -> 0, x = -2 -> 1 (the edge cell is repeated).
Graph build_grid_graph(const GridSpec& spec);

}  // namespace cellgraph
