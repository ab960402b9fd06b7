// Synthetic graphs for benchmarks, reproducible from a seed (Philox keyed by the seed).
#pragma once
#include <cstdint>
#include <string>

#include "cellgraph/graph.hpp"

namespace cellgraph {

// A random geometric graph: n points uniform in the unit square, joined when closer than the
// radius that gives `mean_degree` on average; vertices numbered bin by bin along a Hilbert
// curve so that neighbors have near ids, as in a renumbered mesh file. Planar-like, degrees Poisson around the mean.
Graph random_geometric_graph(std::uint32_t n, double mean_degree, std::uint64_t seed);

// Graph500's Kronecker (R-MAT) graph: 2^scale vertices, edge_factor * 2^scale edges drawn
// with a = 0.57, b = c = 0.19, vertex ids permuted; symmetrised, loops and duplicates dropped.
// Heavy-tailed degrees: hubs.
Graph rmat_graph(int scale, int edge_factor, std::uint64_t seed);

// An Erdos-Renyi random graph of n vertices and mean degree c: round(c n / 2) edges between
// uniformly drawn pairs (loops dropped, the rare duplicates merged), so degrees tend to
// Poisson(c). Epidemic thresholds and final sizes are known exactly for it.
Graph erdos_renyi_graph(std::uint32_t n, double mean_degree, std::uint64_t seed);

// "rgg:N[:mean_degree]", "rmat:SCALE[:edge_factor]" or "er:N[:mean_degree]" (default 4).
// Throws Error for anything else.
Graph generate_graph(const std::string& spec, std::uint64_t seed);

// What a generator spec implies, before anything is drawn: vertices, edges (as drawn, before
// duplicates merge) and the bytes that drawing the graph and running it take, on the high side.
// Throws Error for a malformed spec, as generate_graph does.
struct GeneratedSize {
  std::uint64_t vertices = 0, edges = 0, bytes = 0;
};
GeneratedSize generated_size(const std::string& spec);

}  // namespace cellgraph
