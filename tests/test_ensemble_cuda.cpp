// GPU suite for ensembles: every member of a CUDA ensemble equals, bit for bit, the CPU
// reference run of its point with its seed, for every model and update mode; finished members
// stay their plain runs. Skipped without a GPU.
#include <doctest/doctest.h>

#include "cellgraph/source/generators.hpp"
#include "cellgraph/source/source.hpp"
#include "cli_run.hpp"
#include "data_path.hpp"
#include "ensemble_runs.hpp"
#include "scratch.hpp"

using namespace cellgraph;
using namespace cellgraph::test;

namespace {

constexpr BackendKind kCuda = BackendKind::cuda;

// `run` (an ensemble) on --backend cpu and cuda writes the same stats, summary and member states,
// byte for byte; returns what the CUDA run printed.
std::string same_files_on_cpu_and_cuda(const std::string& run) {
  ScratchDir dir;
  std::string printed;
  for (const std::string name : {"cpu", "cuda"}) {
    const auto r = run_cli(run + " --backend " + name + " --stats " + dir / (name + ".csv") + " --summary " +
                           dir / (name + "-sum.csv") + " --states-out " + dir / (name + ".txt"));
    REQUIRE_MESSAGE(r.status == 0, r.out);
    CHECK(r.out.find(" on " + name) != std::string::npos);
    printed = r.out;
  }
  CHECK(read_file(dir / "cpu.csv") == read_file(dir / "cuda.csv"));
  CHECK(read_file(dir / "cpu-sum.csv") == read_file(dir / "cuda-sum.csv"));
  CHECK(read_file(dir / "cpu.txt") == read_file(dir / "cuda.txt"));
  return printed;
}

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE("gpu: every member of a CUDA ensemble equals the CPU reference run of its point" *
            doctest::skip(!cuda_device_available())) {
    const Graph grid = build_grid_graph(square_grid(23, 17, moore_stencil(2, 1), {BoundaryKind::fixed, 1}));
    const Graph hubs = rmat_graph(10, 16, 9);  // with small_hubs(): hubs and giant hubs
    const std::initializer_list<std::uint64_t> chunks = {1, 1, 7};
    for (const char* update : {"sync", "alpha:0.6", "colored"}) {
      check_members("sir", {{{"beta", "0.2"}, {"tau", "4"}}, {{"beta", "0.5"}, {"tau", "2"}}}, grid, update, {}, 3,
                    chunks, 0.3, kCuda);
      check_members("sis", {{{"beta", "0.1"}, {"gamma", "0.2"}}}, hubs, update, small_hubs(), 3, chunks, 0.3, kCuda);
      check_members("forestfire", {{{"p", "0.02"}, {"f", "0.0005"}}, {{"p", "0.1"}, {"f", "0.01"}}}, grid, update, {},
                    3, chunks, 0.3, kCuda);
      check_members("ising", {{{"T", "1.5"}}, {{"T", "2.2"}}, {{"T", "1.8"}, {"dynamics", "glauber"}, {"h", "0.05"}}},
                    grid, update, {}, 3, chunks, 0.3, kCuda);
      check_members("lifelike", {{{"rule", "B3/S23"}}, {{"rule", "B36/S23"}, {"p", "0.8"}}}, hubs, update, small_hubs(),
                    3, chunks, 0.3, kCuda);
      check_members("greenberghastings", {{{"threshold", "1"}, {"refractory", "3"}, {"p", "0.01"}}}, grid, update, {},
                    3, chunks, 0.3, kCuda);
      check_members("rulenumber", {{{"kind", "totalistic"}, {"rule", "0x1e6"}}}, hubs, update, small_hubs(), 3, chunks,
                    0.3, kCuda);
    }
  }

  TEST_CASE("gpu: warps of members: 70 members a vertex, on a grid and around hubs" *
            doctest::skip(!cuda_device_available())) {
    const Graph grid = build_grid_graph(square_grid(40, 30));
    const Graph hubs = rmat_graph(10, 16, 9);
    for (const char* update : {"sync", "alpha:0.6", "colored"}) {
      check_members("ising", {{{"T", "2.0"}}, {{"T", "2.5"}}}, grid, update, {}, 35, {1, 5}, 0.5, kCuda);
      check_members("sir", {{{"beta", "0.3"}, {"tau", "3"}}}, hubs, update, small_hubs(), 70, {1, 5}, 0.1, kCuda);
    }
  }

  TEST_CASE("gpu: CUDA ensemble members that finish stop being stepped and stay their plain runs" *
            doctest::skip(!cuda_device_available())) {
    const Graph torus = build_grid_graph(square_grid(20, 16));
    const Graph infecting = build_grid_graph(square_grid(20, 16, moore_stencil(2, 1), {BoundaryKind::fixed, 1}));
    const std::initializer_list<std::uint64_t> chunks = {3, 13, 24, 1, 19};
    for (const char* update : {"sync", "alpha:0.7", "colored"}) {
      CHECK(check_members("sir", {{{"beta", "0.05"}, {"tau", "2"}}, {{"beta", "0.3"}, {"tau", "3"}}}, torus, update, {},
                          6, chunks, 0.02, kCuda) > 0);
      CHECK(check_members("sir", {{{"beta", "0.05"}, {"tau", "1"}}}, infecting, update, {}, 4, chunks, 0.0, kCuda, 1) ==
            0);
      check_members("lifelike", {{{"rule", "B3/S23"}}, {{"rule", "B03/S2"}}}, torus, update, {}, 4, chunks, 0.05,
                    kCuda);
    }
  }

  TEST_CASE("gpu: two-state outer totalistic members stepped 64 to a word equal their plain runs" *
            doctest::skip(!cuda_device_available())) {
    const Graph boundary = build_grid_graph(square_grid(23, 17, moore_stencil(2, 1), {BoundaryKind::fixed, 1}));
    const Graph wide = build_grid_graph(square_grid(30, 21, moore_stencil(2, 4)));  // 80 neighbors
    const Graph rgg = random_geometric_graph(3000, 12, 5);
    const Graph hubs = rmat_graph(10, 16, 9);
    const std::initializer_list<std::uint64_t> chunks = {1, 2, 9, 20};
    // Points that share a word (40 replicas) and members over two words (70).
    check_members("lifelike", {{{"rule", "B3/S23"}}, {{"rule", "B36/S23"}}}, boundary, "sync", {}, 40, chunks, 0.3,
                  kCuda, 1);  // a live boundary: its word is every member's bit
    check_members("lifelike", {{{"rule", "B3/S23"}}}, hubs, "sync", small_hubs(), 70, chunks, 0.3, kCuda);
    check_members("lifelike", {{{"rule", "B3/S23"}}, {{"rule", "B03/S2"}}}, rgg, "sync", {}, 3, chunks, 0.3, kCuda);
    check_members("lifelike", {{{"rule", "B25,26,27,28,29,30/S20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35"}}}, wide,
                  "sync", {}, 5, chunks, 0.4, kCuda);

    // Which layout each ensemble takes.
    const models::ModelInfo& life = models::find_model("lifelike");
    auto layout = std::make_shared<const Layout>(compile(boundary, {}));
    auto layout_of = [&](const models::Params& params, const char* update) {
      SimulationOptions options = with_update(update, 7);
      options.backend = kCuda;
      return life.make_ensemble({params}, 4, layout, options)->members_per_word();
    };
    CHECK(layout_of({{"rule", "B3/S23"}}, "sync") == 64);
    CHECK(layout_of({{"rule", "B3/S23"}, {"p", "0.8"}}, "sync") == 1);
    CHECK(layout_of({{"rule", "B3/S23"}}, "colored") == 1);
    CHECK(layout_of({{"rule", "/2/3"}}, "sync") == 1);  // Generations
  }

  TEST_CASE("gpu: packed members take states set between steps" * doctest::skip(!cuda_device_available())) {
    const Graph torus = build_grid_graph(square_grid(31, 19));
    const models::ModelInfo& life = models::find_model("lifelike");
    auto layout = std::make_shared<const Layout>(compile(torus, {}));
    SimulationOptions options = with_update("sync", 11);
    options.backend = kCuda;
    const models::Params params = {{"rule", "B3/S23"}};
    auto ensemble = life.make_ensemble({params}, 66, layout, options);
    REQUIRE(ensemble->members_per_word() == 64);
    std::vector<std::unique_ptr<Simulation>> plain;
    for (std::uint32_t m = 0; m < 66; ++m) {
      SimulationOptions own = with_update("sync", ensemble->seed(m));
      plain.push_back(life.make(params, layout, own));
      const auto fill = random_fill(torus.num_vertices(), 0.35, ensemble->seed(m));
      ensemble->set_states(m, fill);
      plain[m]->set_states(fill);
    }
    ensemble->advance(5);
    for (auto& sim : plain) sim->advance(5);
    for (std::uint32_t m : {0u, 64u, 65u}) {  // reset after steps: packed again before the next
      const auto fill = random_fill(torus.num_vertices(), 0.5, 1000 + m);
      ensemble->set_states(m, fill);
      plain[m]->set_states(fill);
    }
    ensemble->advance(3);
    for (auto& sim : plain) sim->advance(3);
    CHECK(ensemble->census(1) == plain[1]->census());  // unpacked here, stepped packed after
    ensemble->advance(8);
    for (auto& sim : plain) sim->advance(8);
    for (std::uint32_t m = 0; m < 66; ++m) {
      INFO("member ", m);
      CHECK(ensemble->states(m) == plain[m]->states());
      CHECK(ensemble->census(m) == plain[m]->census());
    }
  }

  TEST_CASE("gpu: cli: a Life ensemble on CUDA writes what the CPU writes, byte for byte" *
            doctest::skip(!cuda_device_available())) {
    const std::string printed = same_files_on_cpu_and_cuda(
        "run --rule B36/S23 --grid 48x40 --fill 0.3 --replicas 100 --steps 40 --stats-every 10 --member 99");
    CHECK(printed.find("multi-spin") != std::string::npos);
  }

  TEST_CASE("gpu: Golly rule files and the cloud model run as CUDA ensembles" *
            doctest::skip(!cuda_device_available())) {
    GridSpec torus = square_grid(20, 20);
    torus.boundary = {BoundaryKind::periodic, 0};
    check_members("golly", {{{"rule", "BriansBrain"}, {"dir", data_path("rules")}}}, build_grid_graph(torus), "sync",
                  {}, 3, {1, 1, 7}, 0.3, kCuda);
    GridSpec cloud;
    cloud.dims = 3;
    cloud.size = {9, 8, 5};
    cloud.stencil = cloud_stencil();
    cloud.boundary = {BoundaryKind::fixed, 0};
    check_members("cloud", {{}, {{"p_ext", "0.2"}}}, build_grid_graph(cloud), "sync", {}, 3, {1, 1, 7}, 0.3, kCuda);
  }

  TEST_CASE("gpu: cli: an ensemble on CUDA writes what the CPU writes, byte for byte" *
            doctest::skip(!cuda_device_available())) {
    same_files_on_cpu_and_cuda(
        "run --model ising --grid 24x24 --neighborhood vonneumann --fill 1 --sweep T=2.0:2.5:3 --replicas 40 "
        "--steps 60 --stats-every 20 --member 77");
  }
}
