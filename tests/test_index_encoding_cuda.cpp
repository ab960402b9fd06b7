// GPU suite for compressed neighbor lists: the CUDA backend on stencil and delta slices equals
// the CPU reference on explicit 4-byte ids, for every update mode and on layouts in and out of
// the user's order. Skipped without a GPU.
#include <doctest/doctest.h>

#include "cellgraph/coloring.hpp"
#include "cellgraph/identity.hpp"
#include "cellgraph/source/generators.hpp"
#include "cellgraph/source/graph_file.hpp"
#include "cellgraph/source/source.hpp"
#include "data_path.hpp"
#include "model_runs.hpp"

using namespace cellgraph;
using namespace cellgraph::test;

namespace {

void check_encoded_gpu(const std::string& model, const models::Params& params, const Graph& g,
                       const std::string& update, CompileOptions c = {}) {
  SimulationOptions cpu_options = with_update(update, 13), gpu_options = cpu_options;
  gpu_options.backend = BackendKind::cuda;
  CompileOptions explicit_ids = c, encoded = c;
  explicit_ids.index_encoding = IndexEncoding::explicit_ids;
  encoded.index_encoding = IndexEncoding::deltas;  // stencils, deltas and ids
  auto cpu = make_model(model, params, g, cpu_options, explicit_ids);
  auto gpu = make_model(model, params, g, gpu_options, encoded);
  const LayoutReport r = report(gpu->layout());
  CHECK(r.slices_by_encoding[0] < r.slices);  // something was encoded
  const auto start = random_fill(g.num_vertices(), 0.3, 8);
  cpu->set_states(start);
  gpu->set_states(start);
  INFO(model, " ", update);
  check_same_steps(*cpu, *gpu);
}

GridSpec grid_of(int dims, std::array<std::int64_t, 3> size, std::vector<Offset> stencil, BoundaryKind boundary) {
  GridSpec spec;
  spec.dims = dims;
  spec.size = size;
  spec.stencil = std::move(stencil);
  spec.boundary.kind = boundary;
  spec.boundary.value = boundary == BoundaryKind::fixed ? 1 : 0;
  return spec;
}

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE("gpu: stencil and delta slices equal explicit lists on grids" * doctest::skip(!cuda_device_available())) {
    for (BoundaryKind b : {BoundaryKind::periodic, BoundaryKind::fixed, BoundaryKind::reflective}) {
      INFO("boundary ", int(b));
      check_encoded_gpu("rulenumber", {{"rule", "110"}},
                        build_grid_graph(grid_of(1, {4000, 1, 1}, moore_stencil(1, 1), b)), "sync");
      const Graph moore = build_grid_graph(grid_of(2, {300, 170, 1}, moore_stencil(2, 1), b));
      for (const char* update : {"sync", "colored", "alpha:0.4"})
        check_encoded_gpu("lifelike", {{"rule", "B3/S23"}}, moore, update);
      check_encoded_gpu("ising", {{"T", "2.2"}},
                        build_grid_graph(grid_of(2, {256, 130, 1}, von_neumann_stencil(2, 1), b)), "sync");
      check_encoded_gpu("lifelike", {{"rule", "B2/S"}},
                        build_grid_graph(grid_of(2, {200, 90, 1}, hexagonal_stencil(), b)), "sync");
      check_encoded_gpu("lifelike", {{"rule", "B5/S45"}},
                        build_grid_graph(grid_of(3, {96, 40, 30}, moore_stencil(3, 1), b)), "sync");
      check_encoded_gpu("sir", {{"beta", "0.3"}, {"tau", "3"}},
                        build_grid_graph(grid_of(3, {128, 20, 20}, cloud_stencil(), b)), "sync");
    }
  }

  TEST_CASE("gpu: delta slices of meshes and random graphs equal explicit lists" *
            doctest::skip(!cuda_device_available())) {
    const Graph elt = read_graph_file(data_path("graphs/metis/github-KarypisLab-METIS/4elt.graph"));
    CompileOptions rcm;
    rcm.order = VertexOrder::rcm;
    for (const char* update : {"sync", "colored"})
      check_encoded_gpu("sir", {{"beta", "0.3"}, {"tau", "3"}}, elt, update, rcm);
    CompileOptions hilbert;
    hilbert.order = VertexOrder::hilbert;
    check_encoded_gpu("lifelike", {{"rule", "B2/S23"}}, random_geometric_graph(300000, 8, 4), "sync", hilbert);
    check_encoded_gpu("sis", {{"beta", "0.2"}, {"gamma", "0.1"}}, rmat_graph(15, 8, 2), "sync", small_hubs());
  }
}
