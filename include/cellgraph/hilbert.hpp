// Positions along a Hilbert curve, in 2 or 3 dimensions: numbering cells or points in this
// order puts neighbors in space near each other in id order (what a gather-bound step on a
// mesh needs from its numbering).
#pragma once
#include <cstdint>
#include <vector>

#include "cellgraph/graph.hpp"

namespace cellgraph {

// Position of the integer point `axes` (dims of 2 or 3 coordinates, each below 2^bits) along
// the Hilbert curve through the 2^bits-sided square or cube; bits * dims <= 63.
std::uint64_t hilbert_index(const std::uint32_t* axes, int dims, int bits);

// Each vertex's position along a Hilbert curve through the bounding box of g's coordinates
// (a grid of 2^31 a side in 2D, 2^21 in 3D; axes along which all points agree are left out,
// so a flat mesh in 3D gets the 2D curve). Throws when g has no coordinates.
std::vector<std::uint64_t> hilbert_keys(const Graph& g);

}  // namespace cellgraph
