// Orders a layout can keep its vertices in, within the degree-sort windows (CompileOptions::
// order): the input's ids, along a Hilbert curve through the coordinates, or reverse
// Cuthill-McKee (Boost.Graph), which needs no coordinates and keeps every edge's ends within
// the graph's profile of each other.
#pragma once
#include <cstdint>
#include <vector>

#include "cellgraph/graph.hpp"
#include "cellgraph/layout.hpp"

namespace cellgraph {

// Each vertex's place in `order` (any two vertices compare by place, then by id); empty for
// VertexOrder::input. Throws for hilbert when g has no coordinates.
std::vector<std::uint64_t> vertex_places(const Graph& g, VertexOrder order);

}  // namespace cellgraph
