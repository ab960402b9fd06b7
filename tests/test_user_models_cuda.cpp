// GPU suite for models written by users: the tutorial's model, compiled once from its one
// file (models/greenberg_hastings.model.cpp), equals the CPU reference bit for bit in every
// variable, on grids and on graphs with hubs, in every update mode. Skipped without a GPU.
#include <doctest/doctest.h>

#include "cellgraph/identity.hpp"
#include "cellgraph/source/generators.hpp"
#include "cellgraph/source/graph_file.hpp"
#include "cellgraph/source/source.hpp"
#include "data_path.hpp"
#include "model_runs.hpp"

using namespace cellgraph;
using namespace cellgraph::test;

namespace {

// States 0, 1 and 2 spread over the graph, so that every branch of the rule runs.
std::vector<std::uint32_t> mixed_start(std::uint32_t n) {
  std::vector<std::uint32_t> s = random_fill(n, 0.2, 8);
  const std::vector<std::uint32_t> refractory = random_fill(n, 0.2, 9);
  for (std::uint32_t v = 0; v < n; ++v)
    if (!s[v] && refractory[v]) s[v] = 2;
  return s;
}

void check_identity(const models::Params& params, const Graph& g, const std::string& update, CompileOptions c = {}) {
  SimulationOptions cpu_options = with_update(update, 21), gpu_options = cpu_options;
  gpu_options.backend = BackendKind::cuda;
  auto cpu = make_model("greenberghastings", params, g, cpu_options, c);
  auto gpu = make_model("greenberghastings", params, g, gpu_options, c);
  const auto start = mixed_start(g.num_vertices());
  cpu->set_states(start);
  gpu->set_states(start);
  INFO(update);
  check_same_steps(*cpu, *gpu);
}

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE("gpu: the tutorial's model equals the CPU bit for bit" * doctest::skip(!cuda_device_available())) {
    const Graph grid = build_grid_graph(square_grid(61, 43, moore_stencil(2, 1), {BoundaryKind::fixed, 0}));
    const Graph hubs = rmat_graph(13, 16, 9);
    const Graph mesh = read_graph_file(data_path("graphs/metis/github-KarypisLab-METIS/4elt.graph"));
    const models::Params noisy = {{"threshold", "2"}, {"refractory", "3"}, {"p", "0.002"}};
    for (const char* update : {"sync", "alpha:0.6", "colored"}) {
      check_identity(noisy, grid, update);
      check_identity(noisy, hubs, update, small_hubs());
      check_identity({}, mesh, update);
    }
  }
}
