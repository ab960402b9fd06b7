// GPU suite: every CUDA kernel against the CPU reference, bit for bit. Skipped without a GPU;
// on the GPU machine: build/tests/cellgraph_tests --test-suite=gpu
#include <doctest/doctest.h>

#include "cellgraph/identity.hpp"
#include "cellgraph/source/generators.hpp"
#include "cellgraph/source/graph_file.hpp"
#include "cellgraph/source/source.hpp"
#include "data_path.hpp"
#include "models/registry.hpp"

using namespace cellgraph;

namespace {

// Runs the same model from the same state on both backends and compares after each chunk.
void check_identity(const Graph& g, const std::string& rule, const std::vector<std::uint64_t>& chunks,
                    double density = 0.4, std::uint32_t boundary_value = 0, CompileOptions c = {},
                    SignalPacking packing = SignalPacking::automatic, SweepFusion fusion = SweepFusion::automatic) {
  auto layout = std::make_shared<const Layout>(compile(g, c));
  const models::ModelInfo& life = models::find_model("lifelike");
  SimulationOptions cpu_options, gpu_options;
  cpu_options.boundary_value = gpu_options.boundary_value = boundary_value;
  gpu_options.backend = BackendKind::cuda;
  gpu_options.signal_packing = packing;
  gpu_options.sweep_fusion = fusion;
  auto cpu = life.make({{"rule", rule}}, layout, cpu_options);
  auto gpu = life.make({{"rule", rule}}, layout, gpu_options);
  const auto start = random_fill(g.num_vertices(), density, 11);
  cpu->set_states(start);
  gpu->set_states(start);
  REQUIRE(gpu->states() == start);
  for (std::uint64_t steps : chunks) {
    cpu->advance(steps);
    gpu->advance(steps);
    const auto a = cpu->states(), b = gpu->states();
    INFO("rule ", rule, ", step ", cpu->step(), ", cpu hash ", state_hash(a), ", gpu hash ", state_hash(b));
    auto mismatch = first_difference(a, b);
    CHECK_MESSAGE(!mismatch, (mismatch ? mismatch->describe() : ""));
    CHECK(cpu->census() == gpu->census());
    CHECK(gpu->step() == cpu->step());
  }
}

GridSpec grid(std::int64_t w, std::int64_t h, Boundary b, std::vector<Offset> stencil = moore_stencil(2, 1)) {
  GridSpec g;
  g.size = {w, h, 1};
  g.boundary = b;
  g.stencil = std::move(stencil);
  return g;
}

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE("gpu: grids, every boundary and rule, odd sizes" * doctest::skip(!cuda_device_available())) {
    for (Boundary b :
         {Boundary{BoundaryKind::periodic, 0}, Boundary{BoundaryKind::fixed, 1}, Boundary{BoundaryKind::reflective, 0}})
      for (const char* rule : {"B3/S23", "B36/S23", "B2/S", "B3678/S34678", "/2/3"})
        check_identity(build_grid_graph(grid(37, 23, b)), rule, {1, 2, 61, 64, 65}, 0.4,
                       b.kind == BoundaryKind::fixed && std::string(rule) != "/2/3" ? b.value : 0);
    check_identity(build_grid_graph(grid(1031, 997, {BoundaryKind::periodic, 0})), "B3/S23", {1, 3, 10});
  }

  TEST_CASE("gpu: other stencils and dimensions" * doctest::skip(!cuda_device_available())) {
    check_identity(build_grid_graph(grid(50, 41, {}, hexagonal_stencil())), "B2/S34", {7, 64});
    check_identity(build_grid_graph(grid(50, 41, {BoundaryKind::reflective, 0}, von_neumann_stencil(2, 2))),
                   "B3,4/S2,3,5", {9});
    GridSpec cube;
    cube.dims = 3;
    cube.size = {19, 17, 13};
    cube.stencil = moore_stencil(3, 1);
    check_identity(build_grid_graph(cube), "B5,6,7/S4,5,6", {8}, 0.2);
  }

  TEST_CASE("gpu: irregular graphs, hubs, long CUDA-graph runs" * doctest::skip(!cuda_device_available())) {
    check_identity(random_geometric_graph(20000, 6.0, 2), "B2/S23", {1, 64, 128, 5});
    check_identity(random_geometric_graph(1 << 21, 6.0, 4), "B2/S23", {1, 4, 3});  // 2-step graphs
    CompileOptions hubs;
    hubs.hub_degree = 48;
    check_identity(rmat_graph(14, 16, 3), "B2,3,10/S1,2,3,40", {1, 2, 64, 33}, 0.3, 0, hubs);
    check_identity(rmat_graph(14, 16, 3), "/2/4", {70}, 0.3);
    hubs.giant_degree = 300;  // giant hubs: a block each
    check_identity(rmat_graph(16, 16, 8), "B2,3,10/S1,2,3,40", {1, 64, 3}, 0.3, 0, hubs);
    check_identity(rmat_graph(20, 16, 1), "B3/S23", {2, 5}, 0.5);  // automatic thresholds
    check_identity(read_graph_file(data_path("graphs/metis/github-KarypisLab-METIS/4elt.graph")), "B2/S23", {200});
  }

  // A sweep as one launch (automatic on small layouts with hubs) or as three on two streams.
  TEST_CASE("gpu: fused and split sweeps equal the CPU" * doctest::skip(!cuda_device_available())) {
    const auto never = SweepFusion::never, always = SweepFusion::always;
    const auto automatic = SignalPacking::automatic;
    CompileOptions hubs;
    hubs.hub_degree = 48;
    hubs.giant_degree = 300;
    for (SweepFusion fusion : {always, never})
      check_identity(rmat_graph(16, 16, 8), "B2,3,10/S1,2,3,40", {1, 64, 3}, 0.3, 0, hubs, automatic, fusion);
    check_identity(rmat_graph(20, 16, 1), "B3/S23", {2, 5}, 0.5, 0, {}, automatic, always);  // large: fused on demand
    check_identity(build_grid_graph(grid(37, 23, {BoundaryKind::fixed, 1})), "B3/S23", {1, 64}, 0.4, 1, {}, automatic,
                   always);  // no hubs: the fused kernel is the ordinary one
    // copter2 (degrees 3 to 44): hubs from degree 25 by the small graphs' rule, one launch
    const Graph copter2 = read_graph_file(data_path("graphs/metis/debian-libmetis-doc/copter2.graph"));
    REQUIRE(compile(copter2).num_hub_vertices() > 0);
    for (SweepFusion fusion : {SweepFusion::automatic, always, never})
      check_identity(copter2, "B2/S23", {1, 100, 63}, 0.4, 0, {}, automatic, fusion);
  }

  // Neighbors read from packed signal bits (automatic on large layouts only): the boundary
  // cell's bit, Generations' dying states (not live), hubs, giants and short runs of words.
  TEST_CASE("gpu: gathers from packed signals equal the CPU" * doctest::skip(!cuda_device_available())) {
    const SignalPacking on = SignalPacking::always;
    for (const char* rule : {"B3/S23", "B2/S", "/2/3", "B3678/S34678"})
      check_identity(build_grid_graph(grid(37, 23, {BoundaryKind::fixed, 1})), rule, {1, 2, 61, 64, 65}, 0.4,
                     std::string(rule) == "/2/3" ? 0 : 1, {}, on);
    check_identity(build_grid_graph(grid(5, 3, {BoundaryKind::periodic, 0})), "B3/S23", {1, 7}, 0.5, 0, {}, on);
    check_identity(build_grid_graph(grid(50, 41, {BoundaryKind::reflective, 0}, von_neumann_stencil(2, 2))),
                   "B3,4/S2,3,5", {9}, 0.4, 0, {}, on);
    check_identity(random_geometric_graph(20000, 6.0, 2), "B2/S23", {1, 64, 128, 5}, 0.4, 0, {}, on);
    CompileOptions hubs;
    hubs.hub_degree = 48;
    check_identity(rmat_graph(14, 16, 3), "B2,3,10/S1,2,3,40", {1, 2, 64, 33}, 0.3, 0, hubs, on);
    hubs.giant_degree = 300;
    check_identity(rmat_graph(16, 16, 8), "/2/4", {1, 64, 3}, 0.3, 0, hubs, on);
    check_identity(rmat_graph(20, 16, 1), "B3/S23", {2, 5}, 0.5);  // automatic: packed
    const Graph scattered = erdos_renyi_graph(1 << 18, 6.0, 2);    // automatic: packed from 2^17 cells
    REQUIRE(gathers_scattered(compile(scattered)));
    check_identity(scattered, "B3/S23", {3, 64}, 0.5);
    check_identity(random_geometric_graph(1 << 21, 6.0, 4), "B2/S23", {3}, 0.4, 0, {}, SignalPacking::never);
  }
}

#include "golly_check.hpp"

TEST_SUITE("gpu") {
  TEST_CASE("gpu: every Golly reference row" * doctest::skip(!cuda_device_available())) {
    int unfitting = 0;
    const int checked = testing::check_golly_references(BackendKind::cuda, 1e12, &unfitting);
    MESSAGE(checked << " rows checked on the GPU, " << unfitting << " skipped (pattern larger than the grid)");
    CHECK(checked + unfitting == int(std::size(testing::kGollyReferences)));
    CHECK(checked >= 50);
  }
}

TEST_SUITE("gpu") {
  TEST_CASE("gpu: a run restarted across backends continues bit-identically" *
            doctest::skip(!cuda_device_available())) {
    CompileOptions hubs;
    hubs.hub_degree = 48;
    hubs.giant_degree = 300;
    auto layout = std::make_shared<const Layout>(compile(rmat_graph(15, 16, 6), hubs));
    const models::ModelInfo& life = models::find_model("lifelike");
    SimulationOptions gpu_options;
    gpu_options.backend = BackendKind::cuda;
    auto cpu = life.make({{"rule", "B2/S23"}}, layout, {});
    auto gpu = life.make({{"rule", "B2/S23"}}, layout, gpu_options);
    auto straight = life.make({{"rule", "B2/S23"}}, layout, {});
    const auto start = random_fill(layout->num_vertices, 0.4, 21);
    straight->set_states(start);
    straight->advance(150);
    cpu->set_states(start);
    cpu->advance(37);
    gpu->import_state(cpu->export_state(), cpu->step());  // CPU -> GPU
    gpu->advance(70);
    cpu->import_state(gpu->export_state(), gpu->step());  // GPU -> CPU
    cpu->advance(43);
    CHECK(cpu->step() == 150);
    CHECK(cpu->states() == straight->states());
  }
}
