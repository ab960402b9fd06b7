// Skilling's form of the Hilbert curve (J. Skilling, "Programming the Hilbert curve", AIP
// Conf. Proc. 707, 2004): the axes are turned into the curve's "transpose" in place, whose
// bits, interleaved from the top, are the position along the curve.
#include "cellgraph/hilbert.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "cellgraph/error.hpp"

namespace cellgraph {

std::uint64_t hilbert_index(const std::uint32_t* axes, int dims, int bits) {
  if (dims < 2 || dims > 3 || bits < 1 || bits * dims > 63)
    throw Error("hilbert_index: 2 or 3 dimensions, at most 63 bits");
  std::uint32_t x[3];
  std::copy(axes, axes + dims, x);
  // Undo the rotations and reflections of each level, top level first.
  for (std::uint32_t q = std::uint32_t(1) << (bits - 1); q > 1; q >>= 1) {
    const std::uint32_t p = q - 1;
    for (int i = 0; i < dims; ++i) {
      if (x[i] & q) {
        x[0] ^= p;  // reflect
      } else {      // exchange the low bits of x[0] and x[i]
        const std::uint32_t t = (x[0] ^ x[i]) & p;
        x[0] ^= t;
        x[i] ^= t;
      }
    }
  }
  // Gray-code the result.
  for (int i = 1; i < dims; ++i) x[i] ^= x[i - 1];
  std::uint32_t t = 0;
  for (std::uint32_t q = std::uint32_t(1) << (bits - 1); q > 1; q >>= 1)
    if (x[dims - 1] & q) t ^= q - 1;
  for (int i = 0; i < dims; ++i) x[i] ^= t;
  std::uint64_t index = 0;
  for (int b = bits - 1; b >= 0; --b)
    for (int i = 0; i < dims; ++i) index = (index << 1) | ((x[i] >> b) & 1u);
  return index;
}

std::vector<std::uint64_t> hilbert_keys(const Graph& g) {
  const int dims = g.coord_dim;
  if (dims != 2 && dims != 3) throw Error("a Hilbert order needs the vertices' coordinates (a mesh, or rgg)");
  const std::uint32_t n = g.num_vertices();
  double low[3], high[3];
  for (int d = 0; d < dims; ++d) {
    low[d] = std::numeric_limits<double>::infinity();
    high[d] = -low[d];
  }
  for (std::uint32_t v = 0; v < n; ++v)
    for (int d = 0; d < dims; ++d) {
      const double c = g.coords[std::size_t(v) * dims + d];
      if (!std::isfinite(c)) throw Error("vertex " + std::to_string(v) + " has a coordinate that is not finite");
      low[d] = std::min(low[d], c), high[d] = std::max(high[d], c);
    }
  // Axes along which the points spread (a flat mesh in 3D has two): the curve runs through those.
  int axis[3], spread = 0;
  for (int d = 0; d < dims; ++d)
    if (high[d] > low[d]) axis[spread++] = d;
  const int bits = spread == 3 ? 21 : 31;
  const double cells = std::ldexp(1.0, bits);
  std::vector<std::uint64_t> keys(n, 0);
  for (std::uint32_t v = 0; v < n && spread > 0; ++v) {
    std::uint32_t axes[3];
    for (int a = 0; a < spread; ++a) {
      const int d = axis[a];
      const double unit = (g.coords[std::size_t(v) * dims + d] - low[d]) / (high[d] - low[d]);
      axes[a] = std::uint32_t(std::min(cells - 1, std::floor(unit * cells)));
    }
    keys[v] = spread == 1 ? axes[0] : hilbert_index(axes, spread, bits);
  }
  return keys;
}

}  // namespace cellgraph
