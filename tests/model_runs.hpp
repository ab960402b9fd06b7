// Building a registered model on a graph, for the model and backend tests.
#pragma once
#include <doctest/doctest.h>

#include <memory>
#include <string>

#include "cellgraph/identity.hpp"
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

// Hub thresholds low enough that small test graphs have hubs (a warp each) and giant hubs (a
// block each): the partial folds their combine() merges get tested.
inline CompileOptions small_hubs() {
  CompileOptions c;
  c.hub_degree = 48;
  c.giant_degree = 200;
  return c;
}

// `cpu` and `gpu`, the same model from the same start, step alike: after 1, 3, 67 and 134
// steps (single launches and captured step graphs) every variable of every vertex, the census
// and the observables are equal.
inline void check_same_steps(Simulation& cpu, Simulation& gpu) {
  for (std::uint64_t steps : {1, 2, 64, 67}) {
    cpu.advance(steps);
    gpu.advance(steps);
    INFO("at step ", cpu.step());
    const auto mismatch = first_difference(cpu.states(), gpu.states());
    CHECK_MESSAGE(!mismatch, (mismatch ? mismatch->describe() : ""));
    CHECK(cpu.export_state() == gpu.export_state());
    CHECK(cpu.census() == gpu.census());
    CHECK(cpu.observables() == gpu.observables());
  }
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
