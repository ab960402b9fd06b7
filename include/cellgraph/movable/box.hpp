// Where movable cells live, and the geometry every backend computes alike: the box (periodic
// or closed), distances by minimum image, and the uniform grid of bins the neighbor search
// sorts particles into. Everything here is CG_HD and uses +, -, * and comparisons only, so
// that the CPU and the GPU take the same decisions bit for bit (C++17: nvcc sees it).
#pragma once
#include <cstdint>
#include <limits>

#include "cellgraph/hd.hpp"

namespace cellgraph {

// Axis-aligned box [0, length[0]) x [0, length[1]) (x [0, length[2]) in 3D).
//   periodic: every axis wraps; positions must lie in [0, length); distances are taken to
//             the nearest image (minimum image).
//   closed:   walls; positions may lie anywhere (models keep them inside), distances are plain.
struct Box {
  int dims = 2;                        // 2 or 3
  double length[3] = {1.0, 1.0, 1.0};  // unused axes: 1
  bool periodic = true;
};

// b - a along one axis, the nearest image in a periodic box. With a, b in [0, L) the plain
// difference lies in (-L, L), so one correction reaches the nearest image.
template <class T>
CG_HD inline T axis_delta(T a, T b, T length, bool periodic) {
  T d = b - a;
  if (periodic) {
    const T half = length * T(0.5);
    if (d > half) d -= length;
    else if (d < -half) d += length;
  }
  return d;
}

// A coordinate x just moved by its velocity component v, kept inside the box along an axis of
// that length: periodic, back into [0, length) (from one length out at most); closed,
// reflected at the walls, v reversed. The step of the Vicsek and MCA models.
CG_HD inline void keep_inside(bool periodic, double& x, double& v, double length) {
  if (periodic) {
    if (x >= length) {
      x -= length;
    } else if (x < 0.0) {
      x += length;
      if (x >= length) x = 0.0;  // -tiny + L rounds to L
    }
  } else if (x < 0.0) {
    x = -x, v = -v;
  } else if (x > length) {
    x = 2.0 * length - x, v = -v;
  }
}

// The box's lengths in the coordinate type, as kernels take them.
template <class T>
struct BoxIn {
  int dims;
  bool periodic;
  T length[3];
};

template <class T>
inline BoxIn<T> box_in(const Box& box) {
  return {box.dims, box.periodic, {T(box.length[0]), T(box.length[1]), T(box.length[2])}};
}

// Squared distance (nearest image) from point i of the SoA coordinates `from` to point j of
// `to`: two points of one set, or one point then and now (how far a cell has moved).
template <class T>
CG_HD inline T squared_distance(const BoxIn<T>& box, const T* const* from, std::uint32_t i, const T* const* to,
                                std::uint32_t j) {
  T sum = 0;
  for (int a = 0; a < box.dims; ++a) {
    const T d = axis_delta(from[a][i], to[a][j], box.length[a], box.periodic);
    sum += d * d;
  }
  return sum;
}

template <class T>
CG_HD inline T squared_distance(const BoxIn<T>& box, const T* const* axis, std::uint32_t i, std::uint32_t j) {
  return squared_distance(box, axis, i, axis, j);
}

// Neighbors are the particles within `cutoff` of each other, the distance included:
// squared_distance <= cutoff_squared(cutoff), both rounded in T.
template <class T>
CG_HD inline T cutoff_squared(double cutoff) {
  const T c = T(cutoff);
  return c * c;
}

// The uniform grid of bins: bins[a] along axis a (1 on unused axes), each at least the cutoff
// wide, with a margin for the rounding of T (make_cell_grid), so that two particles within
// the cutoff always sit in the same or adjacent bins. Bins are numbered x fastest.
struct CellGrid {
  int dims = 2;
  bool periodic = true;
  std::uint32_t bins[3] = {1, 1, 1};
  double per_length[3] = {1.0, 1.0, 1.0};  // bins[a] / length[a]

  CG_HD std::uint64_t count() const { return std::uint64_t(bins[0]) * bins[1] * bins[2]; }

  // The bin of coordinate x along axis a. Monotone in x; coordinates outside the box (closed
  // boxes) fall in the outermost bins, which keeps neighbors in adjacent bins.
  CG_HD std::uint32_t along(int a, double x) const {
    const double q = x * per_length[a];
    if (!(q >= 0.0)) return 0;  // negative (or NaN, refused before the search)
    if (q >= double(bins[a])) return bins[a] - 1;
    return std::uint32_t(q);
  }
  CG_HD std::uint32_t key(std::uint32_t bx, std::uint32_t by, std::uint32_t bz) const {
    return (bz * bins[1] + by) * bins[0] + bx;
  }
};

// The bin of particle p of SoA coordinates.
template <class T>
CG_HD inline std::uint32_t bin_key(const CellGrid& grid, const T* const* axis, std::uint32_t p) {
  std::uint32_t b[3] = {0, 0, 0};
  for (int a = 0; a < grid.dims; ++a) b[a] = grid.along(a, double(axis[a][p]));
  return grid.key(b[0], b[1], b[2]);
}

// The bins along one axis that can hold neighbors of a particle in bin b: b-1, b, b+1
// (wrapped in periodic boxes, cut at closed walls), or every bin when there are fewer than 3
// (a periodic axis would visit a bin twice).
struct BinSpan {
  std::uint32_t first, count, bins;
  bool wrap;
  CG_HD std::uint32_t operator[](std::uint32_t k) const {
    const std::uint32_t b = first + k;
    return wrap && b >= bins ? b - bins : b;
  }
};

CG_HD inline BinSpan bin_span(const CellGrid& grid, int a, std::uint32_t b) {
  const std::uint32_t n = grid.bins[a];
  if (a >= grid.dims) return {0, 1, 1, false};
  if (n < 3) return {0, n, n, false};
  if (grid.periodic) return {b == 0 ? n - 1 : b - 1, 3, n, true};
  const std::uint32_t first = b == 0 ? 0 : b - 1, last = b + 1 < n ? b + 1 : n - 1;
  return {first, last - first + 1, n, false};
}

// Calls visit(b) once for every bin b that can hold neighbors of a particle in bin `key`
// (itself included), z slowest, x fastest.
template <class Visit>
CG_HD inline void for_each_adjacent_bin(const CellGrid& grid, std::uint32_t key, Visit&& visit) {
  const std::uint32_t bx = key % grid.bins[0], by = key / grid.bins[0] % grid.bins[1],
                      bz = key / grid.bins[0] / grid.bins[1];
  const BinSpan xs = bin_span(grid, 0, bx), ys = bin_span(grid, 1, by), zs = bin_span(grid, 2, bz);
  for (std::uint32_t k = 0; k < zs.count; ++k)
    for (std::uint32_t j = 0; j < ys.count; ++j)
      for (std::uint32_t i = 0; i < xs.count; ++i) visit(grid.key(xs[i], ys[j], zs[k]));
}

}  // namespace cellgraph
