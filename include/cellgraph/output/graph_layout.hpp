// Positions for graphs that have none (edge lists, R-MAT and Erdos-Renyi graphs, METIS graphs),
// so that they can be pictured: Graphviz's sfdp, a multilevel force-directed layout, through
// its C library (libgvc).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "cellgraph/graph.hpp"

namespace cellgraph {

struct LayoutOptions {
  // sfdp takes about 10 s of one core at these sizes; larger graphs are refused.
  std::uint32_t max_vertices = 20000;
  std::uint64_t max_edges = 200000;  // undirected
  // sfdp's random start ("start" attribute), at least 1 (0 would be sfdp's seed from the
  // clock): the same graph and seed give the same positions.
  std::uint32_t seed = 1;
};

// Whether the graph is within the options' limits.
bool layout_fits(const Graph& graph, const LayoutOptions& options = {});

// Why the graph is not laid out, with the limits and what to do instead; for messages.
std::string layout_limit_message(const Graph& graph, const LayoutOptions& options = {});

// Two coordinates per vertex (x, y), as Graph::coords holds them with coord_dim 2, in
// Graphviz points. Connected components are laid out apart and packed side by side; vertices
// without edges stand in rows under them. Edge weights are ignored. Deterministic: the same
// graph and options give the same coordinates, in any process, since the layout seeds the C
// library's rand() and drand48(), which Graphviz draws from. Graphviz's warnings are not
// printed; one layout runs at a time. Throws Error for a graph over the limits or a seed of 0,
// and with Graphviz's message where it fails.
std::vector<double> layout_graph(const Graph& graph, const LayoutOptions& options = {});

}  // namespace cellgraph
