// GPU suite for the movable cellular automaton (models/mca.hpp): runs on the GPU equal the
// CPU's bit for bit (every variable, the observables, the lists) while plates crack, bonds
// break and form, in 2D and 3D, periodic and closed, with and without a skin, damping, and
// lists in hub rows (warp and block folds from the same self). Skipped without a GPU.
#include <doctest/doctest.h>

#include "mca_check.hpp"

using namespace cellgraph;
using namespace cellgraph::test;

namespace {

void check_same_mca_run(McaRun run, const std::vector<std::uint64_t>& chunks) {
  McaRun on_gpu = run;
  on_gpu.backend = BackendKind::cuda;
  auto cpu = make_mca(run);
  auto gpu = make_mca(on_gpu);
  CHECK(gpu->backend_name() == "cuda");
  const McaState start(cpu->export_state(), run.box.dims);
  for (std::uint64_t steps : chunks) {
    cpu->advance(steps);
    gpu->advance(steps);
    INFO(run.box.dims, "D ", run.box.periodic ? "periodic" : "closed", " skin ", run.skin, " at step ", cpu->step());
    CHECK(gpu->export_state() == cpu->export_state());
    CHECK(gpu->observables() == cpu->observables());
    CHECK(same_graph(gpu->current_neighbors(), cpu->current_neighbors()));
    check_same_layout(gpu->rebuilt_layout(), cpu->rebuilt_layout());
    CHECK(gpu->rebuild_stats().rebuilds == cpu->rebuild_stats().rebuilds);
  }
  const McaState end(gpu->export_state(), run.box.dims);
  CHECK(check_bonds_symmetric(end) == 0);
  CHECK(end.bonds != start.bonds);  // bonds broke or formed on the way
}

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE(
      "gpu: mca: plates that crack run on the GPU as on the CPU, bit for bit (2D, 3D, periodic, closed, any skin)" *
      doctest::skip(!cuda_device_available())) {
    for (int dims : {2, 3})
      for (bool periodic : {true, false})
        for (double skin : {0.0, 0.3}) {
          McaRun run;
          run.box = dims == 2 ? make_box(2, 140, 80, 1, periodic) : make_box(3, 80, 40, 14, periodic);
          run.particles = dims == 2 ? 8000 : 9000;
          run.params = {{"pull", "0.1"}, {"break", "0.03"}, {"form", "1.02"}, {"thermal", "0.02"}, {"kc", "2"}};
          if (dims == 3) run.params["layers"] = "4";
          run.skin = skin;
          run.seed = 11;
          check_same_mca_run(run, {1, 2, 60, 400});
        }
  }

  TEST_CASE("gpu: mca: damped runs with lists in hub rows (warp and block folds) equal the CPU" *
            doctest::skip(!cuda_device_available())) {
    for (double skin : {0.0, 0.25}) {
      McaRun run;
      run.box = make_box(2, 80, 50, 1, false);
      run.particles = 3000;
      run.params = {{"pull", "0.1"}, {"break", "0.03"}, {"form", "1.02"}, {"thermal", "0.03"}, {"damping", "0.2"}};
      run.skin = skin;
      run.compile.hub_degree = 4;
      run.compile.giant_degree = 6;
      check_same_mca_run(run, {1, 30, 300});
    }
  }

  TEST_CASE("gpu: mca: a 10^5-particle plate equals the CPU after 200 steps" *
            doctest::skip(!cuda_device_available())) {
    McaRun run;
    run.box = make_box(2, 500, 260, 1, false);
    run.particles = 100000;
    run.params = {{"pull", "0.2"}, {"break", "0.02"}, {"thermal", "0.01"}};
    run.skin = 0.2;
    check_same_mca_run(run, {100, 100});
  }
}
