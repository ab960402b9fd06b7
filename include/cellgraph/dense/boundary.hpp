// Grid boundaries for the dense kernels, with the graph engine's meaning (source/grid.hpp):
// periodic wraps, fixed reads a constant state, reflective mirrors with the edge cell
// repeated (x = -1 -> 0, x = -2 -> 1).
#pragma once
#include <cstdint>

#include "cellgraph/hd.hpp"

namespace cellgraph::dense {

enum class Edge : std::uint8_t { periodic, fixed, reflective };

// The cell that coordinate c (any integer) stands for on an axis of n cells, or -1 when it is
// outside a fixed boundary. Periodic and reflective grids behave as the infinite grid made of
// these images, which is what lets a kernel run several generations on a tile with a halo.
CG_HD inline std::int64_t image(std::int64_t c, std::int64_t n, Edge edge) {
  if (c >= 0 && c < n) return c;
  if (edge == Edge::fixed) return -1;
  if (edge == Edge::periodic) return ((c % n) + n) % n;
  const std::int64_t m = ((c % (2 * n)) + 2 * n) % (2 * n);
  return m < n ? m : 2 * n - 1 - m;
}

// image() without a division when c is at most one axis length outside [0, n), the common case
// of a tile's halo.
CG_HD inline std::int64_t near_image(std::int64_t c, std::int64_t n, Edge edge) {
  if (c >= 0 && c < n) return c;
  if (edge == Edge::fixed) return -1;
  if (c >= -n && c < 2 * n) {
    if (edge == Edge::periodic) return c < 0 ? c + n : c - n;
    return c < 0 ? -1 - c : 2 * n - 1 - c;
  }
  return image(c, n, edge);
}

}  // namespace cellgraph::dense
