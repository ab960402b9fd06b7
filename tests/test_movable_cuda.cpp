// GPU suite for movable cells: the device neighbor search, all-pairs search and compiler equal
// the CPU's (graph and layout, array for array), and Vicsek runs on the GPU equal the CPU's bit
// for bit. Skipped without a GPU.
#include <doctest/doctest.h>

#include <cmath>

#include "cellgraph/error.hpp"
#include "movable_check.hpp"

using namespace cellgraph;
using namespace cellgraph::test;

namespace {

struct DeviceCase {
  Box box;
  double cutoff;
  std::uint32_t particles;
};

std::vector<DeviceCase> device_cases() {
  std::vector<DeviceCase> cases;
  for (bool periodic : {true, false}) {
    cases.push_back({make_box(2, 30.7, 21.3, 1, periodic), 1.0, 2000});   // sparse
    cases.push_back({make_box(2, 30.7, 21.3, 1, periodic), 1.0, 20000});  // crowded
    cases.push_back({make_box(2, 11.0, 2.5, 1, periodic), 0.9, 3000});    // 2 bins across y
    cases.push_back({make_box(3, 9.1, 7.7, 6.35, periodic), 1.0, 5000});
    cases.push_back({make_box(3, 1.9, 12.0, 2.7, periodic), 0.85, 4000});  // 2 and 3 bins
  }
  return cases;
}

template <class T>
void check_device_search() {
  std::uint64_t seed = 40;
  for (const DeviceCase& c : device_cases()) {
    INFO(c.box.dims, "D ", c.box.periodic ? "periodic " : "closed ", c.particles, " particles, ",
         sizeof(T) == 4 ? "float" : "double");
    const Particles<T> p = random_particles<T>(c.box, c.particles, seed++, c.cutoff);
    const NeighborGraph cpu = find_neighbors(c.box, c.cutoff, p.view());
    const NeighborGraph gpu = cuda::find_neighbors(c.box, c.cutoff, p.view());
    CHECK(gpu.particle_of == cpu.particle_of);
    CHECK(same_graph(gpu.graph, cpu.graph));
    CHECK(same_graph(cuda::all_pairs_neighbors(c.box, c.cutoff, p.view()), in_particle_ids(cpu)));
    check_same_layout(cuda::compile_neighbors(cpu), compile_neighbors(cpu));
  }
}

void check_same_run(VicsekRun run, const std::vector<std::uint64_t>& chunks) {
  VicsekRun on_gpu = run;
  on_gpu.backend = BackendKind::cuda;
  auto cpu = make_vicsek(run);
  auto gpu = make_vicsek(on_gpu);
  CHECK(gpu->backend_name() == "cuda");
  for (std::uint64_t steps : chunks) {
    cpu->advance(steps);
    gpu->advance(steps);
    INFO(run.box.dims, "D ", run.box.periodic ? "periodic" : "closed", " skin ", run.skin, " at step ", cpu->step());
    CHECK(gpu->export_state() == cpu->export_state());
    CHECK(gpu->observables() == cpu->observables());
    CHECK(same_graph(gpu->current_neighbors(), cpu->current_neighbors()));
    check_same_layout(gpu->rebuilt_layout(), cpu->rebuilt_layout());
    CHECK(gpu->rebuild_stats().rebuilds == cpu->rebuild_stats().rebuilds);
    CHECK(gpu->rebuild_stats().entries == cpu->rebuild_stats().entries);
  }
}

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE("gpu: movable: the device cell list, all-pairs search and compiler equal the CPU's" *
            doctest::skip(!cuda_device_available())) {
    check_device_search<double>();
    check_device_search<float>();
  }

  TEST_CASE("gpu: movable: graphs with hubs are compiled on the host, to the same layout" *
            doctest::skip(!cuda_device_available())) {
    const Box box = make_box(2, 12.0, 12.0, 1, true);
    const Particles<double> p = random_particles<double>(box, 6000, 3, 1.0);
    const NeighborGraph g = find_neighbors(box, 1.0, p.view());
    CompileOptions small_hubs;
    small_hubs.hub_degree = 40;
    small_hubs.giant_degree = 60;
    const Layout expected = compile_neighbors(g, small_hubs);
    REQUIRE(expected.num_hub_slices > 0);
    check_same_layout(cuda::compile_neighbors(g, small_hubs), expected);
  }

  TEST_CASE("gpu: movable: positions outside the periodic box are refused on the device" *
            doctest::skip(!cuda_device_available())) {
    Particles<double> p;
    p.axis[0] = {0.5, 1.5, 2.5};
    p.axis[1] = {0.5, 1.5, 4.25};
    CHECK_THROWS_WITH_AS(cuda::find_neighbors(make_box(2, 4, 4, 1, true), 1.0, p.view()),
                         doctest::Contains("particle 2"), Error);
  }

  TEST_CASE("gpu: movable: Vicsek runs equal the CPU's bit for bit (2D, 3D, periodic, closed, any skin)" *
            doctest::skip(!cuda_device_available())) {
    for (int dims : {2, 3})
      for (bool periodic : {true, false})
        for (double skin : {0.0, 0.4}) {
          VicsekRun run;
          run.particles = 6000;
          run.box = dims == 2 ? make_box(2, 41.0, 37.5, 1, periodic) : make_box(3, 12.0, 11.5, 10.75, periodic);
          run.eta = 0.7;
          run.v0 = 0.12;
          run.skin = skin;
          run.seed = 23;
          check_same_run(run, {1, 2, 25, 40});
        }
  }

  TEST_CASE("gpu: movable: Vicsek with lists in hub rows (warp and block folds) equals the CPU" *
            doctest::skip(!cuda_device_available())) {
    for (double skin : {0.0, 0.4}) {
      VicsekRun run;
      run.particles = 8000;
      run.box = make_box(2, 30.0, 30.0, 1, true);
      run.eta = 0.4;
      run.v0 = 0.1;
      run.skin = skin;
      run.compile.hub_degree = 14;
      run.compile.giant_degree = 20;
      check_same_run(run, {1, 20});
    }
  }

  TEST_CASE("gpu: movable: Vicsek at low noise and 10^5 particles equals the CPU" *
            doctest::skip(!cuda_device_available())) {
    VicsekRun run;
    run.particles = 100000;
    run.box = density_four_square(run.particles);
    run.eta = 0.1;
    run.skin = 0.3;
    run.seed = 4;
    check_same_run(run, {30, 30});
  }
}
