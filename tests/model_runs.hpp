// Building a registered model on a graph, for the model and backend tests.
#pragma once
#include <memory>
#include <string>

#include "cellgraph/layout.hpp"
#include "cellgraph/simulation.hpp"
#include "cellgraph/source/grid.hpp"
#include "models/registry.hpp"

namespace cellgraph::test {

inline std::unique_ptr<Simulation> make_model(const std::string& name, const models::Params& params, const Graph& g,
                                              SimulationOptions options = {}, CompileOptions compile_options = {}) {
  auto layout = std::make_shared<const Layout>(compile(g, compile_options));
  return models::find_model(name).make(params, layout, options);
}

// A path 0 - 1 - ... - (n-1).
inline Graph path_graph(std::uint32_t n) {
  std::vector<std::pair<VertexId, VertexId>> edges;
  for (std::uint32_t v = 0; v + 1 < n; ++v) edges.emplace_back(v, v + 1);
  return graph_from_edges(n, edges);
}

inline SimulationOptions with_update(const std::string& rule, std::uint64_t seed = 1, int threads = 0) {
  SimulationOptions o;
  o.update = parse_update_rule(rule);
  o.seed = seed;
  o.threads = threads;
  return o;
}

inline GridSpec square_grid(std::int64_t w, std::int64_t h, std::vector<Offset> stencil = moore_stencil(2, 1),
                            Boundary boundary = {}) {
  GridSpec g;
  g.size = {w, h, 1};
  g.stencil = std::move(stencil);
  g.boundary = boundary;
  return g;
}

}  // namespace cellgraph::test
