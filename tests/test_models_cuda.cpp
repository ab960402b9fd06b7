// GPU suite for the random models and update modes: every variable of every cell, and the
// observables, bit for bit equal to the CPU reference; the GPU's Jones-Plassmann coloring
// equal to the CPU's greedy one. Skipped without a GPU.
#include <doctest/doctest.h>

#include "cellgraph/coloring.hpp"
#include "cellgraph/identity.hpp"
#include "cellgraph/source/generators.hpp"
#include "cellgraph/source/source.hpp"
#include "model_runs.hpp"

using namespace cellgraph;
using namespace cellgraph::test;

namespace {

void check_model_identity(const std::string& model, const models::Params& params, const Graph& g,
                          const std::string& update, CompileOptions c = {},
                          SignalPacking packing = SignalPacking::automatic,
                          SweepFusion fusion = SweepFusion::automatic) {
  SimulationOptions cpu_options = with_update(update, 21), gpu_options = cpu_options;
  gpu_options.backend = BackendKind::cuda;
  gpu_options.signal_packing = packing;
  gpu_options.sweep_fusion = fusion;
  auto cpu = make_model(model, params, g, cpu_options, c);
  auto gpu = make_model(model, params, g, gpu_options, c);
  const auto start = random_fill(g.num_vertices(), 0.3, 8);
  cpu->set_states(start);
  gpu->set_states(start);
  INFO(model, " ", update);
  check_same_steps(*cpu, *gpu);
}

struct Case {
  const char* model;
  models::Params params;
};

const Case kCases[] = {
    {"sir", {{"beta", "0.2"}, {"tau", "4"}}},
    {"sis", {{"beta", "0.1"}, {"gamma", "0.2"}}},
    {"forestfire", {{"p", "0.02"}, {"f", "0.0005"}}},
    {"ising", {{"T", "2.2"}}},
    {"ising", {{"T", "1.8"}, {"dynamics", "glauber"}, {"h", "0.05"}, {"J", "0.7"}}},
    {"lifelike", {{"rule", "B36/S23"}, {"p", "0.8"}}},
};

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE("gpu: Jones-Plassmann colors equal the CPU's greedy colors" * doctest::skip(!cuda_device_available())) {
    for (const Graph& g :
         {build_grid_graph(square_grid(101, 77)), random_geometric_graph(30000, 10, 2), rmat_graph(14, 16, 3)}) {
      const Layout L = compile(g, small_hubs());
      const auto gpu = gpu_coloring(L, 5);
      CHECK_NOTHROW(check_coloring(L, gpu));
      CHECK(gpu == greedy_coloring(L, 5));
    }
  }

  TEST_CASE("gpu: random models, every update mode, equal the CPU bit for bit" *
            doctest::skip(!cuda_device_available())) {
    const Graph grid = build_grid_graph(square_grid(61, 43, moore_stencil(2, 1), {BoundaryKind::fixed, 1}));
    const Graph hubs = rmat_graph(13, 16, 9);
    for (const Case& c : kCases)
      for (const char* update : {"sync", "alpha:0.6", "colored"}) {
        check_model_identity(c.model, c.params, grid, update);
        for (SweepFusion fusion : {SweepFusion::always, SweepFusion::never})  // one launch; hubs apart
          check_model_identity(c.model, c.params, hubs, update, small_hubs(), SignalPacking::automatic, fusion);
        if (std::string(update) == "colored") continue;  // colored steps read the state in place
        check_model_identity(c.model, c.params, grid, update, {}, SignalPacking::always);
        check_model_identity(c.model, c.params, hubs, update, small_hubs(), SignalPacking::always);
      }
  }

  TEST_CASE("gpu: rule numbers, by slot and by sum, equal the CPU bit for bit" *
            doctest::skip(!cuda_device_available())) {
    const Graph grid = build_grid_graph(square_grid(61, 43, moore_stencil(2, 1), {BoundaryKind::fixed, 1}));
    const Graph hubs = rmat_graph(13, 16, 9);
    CompileOptions every_cell_a_hub;  // the slots folded by a warp, merged by combine()
    every_cell_a_hub.hub_degree = 8;
    const std::string some_512_bits =  // random bits: every entry of the table matters
        "0x6694f229359b154881a0d5b3ffc6e35ccfaf00103f584ad4230824d215ceb3a1"
        "0b3510b0b46ee1da317017a6205738d16018366cf658f7a75ed34fe53a096533";
    for (const char* update : {"sync", "alpha:0.6", "colored"}) {
      check_model_identity("rulenumber", {{"kind", "moore"}, {"rule", some_512_bits}}, grid, update);
      check_model_identity("rulenumber", {{"kind", "moore"}, {"rule", some_512_bits}}, grid, update, every_cell_a_hub);
      check_model_identity("rulenumber", {{"kind", "outer"}, {"rule", some_512_bits}}, hubs, update, small_hubs());
      check_model_identity("rulenumber", {{"kind", "totalistic"}, {"rule", "0x1e6"}}, hubs, update, small_hubs());
    }
  }

  TEST_CASE("gpu: SIR on a large Erdos-Renyi graph" * doctest::skip(!cuda_device_available())) {
    check_model_identity("sir", {{"beta", "0.3"}, {"tau", "2"}}, erdos_renyi_graph(1 << 21, 4, 1), "sync");
  }
}
