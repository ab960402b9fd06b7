// GPU suite for the cloud model: the CUDA backend bit for bit equal to the CPU reference (every
// variable, update mode and observable, on grids and on a graph with hubs), and the bit-packed
// cloud kernel on the GPU equal to the graph engine cell for cell. Skipped without a GPU; on
// the GPU machine: build/tests/cellgraph_tests --test-suite=gpu -tc='*cloud*'
#include <doctest/doctest.h>

#include <array>

#include "cellgraph/identity.hpp"
#include "cellgraph/source/generators.hpp"
#include "cellgraph/source/source.hpp"
#include "cli_run.hpp"
#include "cloud_check.hpp"
#include "model_runs.hpp"

using namespace cellgraph;
using namespace cellgraph::test;

namespace {

Graph cloud_grid_graph(std::int64_t x, std::int64_t y, std::int64_t z, BoundaryKind kind) {
  GridSpec g;
  g.dims = 3;
  g.size = {x, y, z};
  g.stencil = cloud_stencil();
  g.boundary = {kind, 0};
  return build_grid_graph(g);
}

void check_cloud_identity(const models::Params& params, const Graph& g, const std::string& update,
                          CompileOptions c = {}) {
  SimulationOptions cpu_options = with_update(update, 21), gpu_options = cpu_options;
  gpu_options.backend = BackendKind::cuda;
  auto cpu = make_model("cloud", params, g, cpu_options, c);
  auto gpu = make_model("cloud", params, g, gpu_options, c);
  const auto start = models::find_model("cloud").initial_variables(params, random_fill(g.num_vertices(), 0.2, 8), 21);
  cpu->import_state(start, 0);
  gpu->import_state(start, 0);
  INFO("cloud ", update);
  check_same_steps(*cpu, *gpu);
}

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE("gpu: the cloud model equals the CPU bit for bit" * doctest::skip(!cuda_device_available())) {
    const models::Params growth = {{"hum0", "0.4"}, {"act0", "0.01"}};
    const models::Params stochastic = {
        {"hum0", "0.3"}, {"act0", "0.01"}, {"p_ext", "0.1"}, {"p_hum", "0.02"}, {"p_act", "0.003"}};
    for (const char* update : {"sync", "alpha:0.6", "colored"})
      for (const models::Params* params : {&growth, &stochastic}) {
        for (BoundaryKind kind : {BoundaryKind::fixed, BoundaryKind::periodic, BoundaryKind::reflective})
          check_cloud_identity(*params, cloud_grid_graph(37, 29, 17, kind), update);
        check_cloud_identity(*params, rmat_graph(13, 16, 9), update, small_hubs());  // hubs fold f_act by combine()
      }
  }

  TEST_CASE("gpu: the bit-packed cloud kernel equals the graph engine" * doctest::skip(!cuda_device_available())) {
    using dense::Edge;
    const dense::CloudRule growth{0, 0, 0, 0.35, 0.02}, stochastic{0.15, 0.04, 0.01, 0.3, 0.01};
    for (auto [w, h, d] : {std::array<std::int64_t, 3>{70, 9, 11},
                           {1000, 77, 20},
                           {33, 65, 40},
                           {1, 7, 5},
                           {64, 3, 4},
                           {2049, 5, 3},
                           {1088, 3, 17},  // two columns across, whole words: halo words read, not assembled
                           {70, 33, 1},    // one plane; a second band of one row
                           {31, 2, 2}})
      for (Edge edge : {Edge::fixed, Edge::periodic, Edge::reflective}) {
        check_cloud_kernel_against_graph(dense::Device::cuda, cloud_shape(w, h, d, edge), growth, {1, 2, 30}, 0.1);
        check_cloud_kernel_against_graph(dense::Device::cuda, cloud_shape(w, h, d, edge), stochastic, {1, 5, 14}, 0.2);
      }
  }

  TEST_CASE("gpu: the bit-packed cloud kernel refuses rows its word columns cannot hold" *
            doctest::skip(!cuda_device_available())) {
    // Refused before any allocation: the grid would need 48 GiB.
    CHECK_THROWS_WITH_AS(
        make_cloud_automaton(dense::Device::cuda, cloud_shape(std::int64_t(1) << 36, 1, 1, dense::Edge::periodic),
                             dense::CloudRule{}, {}),
        doctest::Contains("rows of fewer than 2^36 cells"), Error);
  }

  TEST_CASE("gpu: cellgraph compare --model cloud on the GPU" * doctest::skip(!cuda_device_available())) {
    auto r = run_cli(
        "compare --model cloud --grid 300x200x64 --boundary periodic --steps 40 --check-every 10 "
        "--backend cuda --param p_ext=0.05 --param p_hum=0.01 --param p_act=0.001");
    CHECK_MESSAGE(r.status == 0, r.out);
    CHECK(r.out.find("step 40: hash") != std::string::npos);
    CHECK(r.out.find(", all 2 agree\n") != std::string::npos);
    CHECK(r.out.find("bitpacked cloud (cuda") != std::string::npos);
  }
}
