// GPU suite for partitioned runs: parts on the CUDA backend (in-process, each on its own
// thread and stream, trading halos through pinned host buffers) equal the whole run on the
// CPU, for every update mode, on grids and on graphs with hubs; and CUDA ranks under mpirun,
// trading halos device to device or through the host, write what one CPU process writes.
// Partitioned ensembles likewise: CUDA parts in one process, and CUDA ranks under mpirun.
// Skipped without a GPU.
#include <doctest/doctest.h>

#include <filesystem>

#include "cellgraph/partition.hpp"
#include "cellgraph/source/generators.hpp"
#include "cellgraph/source/source.hpp"
#include "cli_run.hpp"
#include "partitioned_ensembles.hpp"
#include "scratch.hpp"

using namespace cellgraph;
using namespace cellgraph::test;

namespace {

void check_gpu_parts(const std::string& model, const models::Params& params, const Graph& g, std::uint32_t parts,
                     const std::string& update, const CompileOptions& compile = {},
                     SignalPacking packing = SignalPacking::automatic, SweepFusion fusion = SweepFusion::automatic) {
  INFO(model, " ", update, " on ", parts, " GPU parts");
  SimulationOptions cpu = with_update(update, 23), gpu = cpu;
  gpu.backend = BackendKind::cuda;
  gpu.signal_packing = packing;
  gpu.sweep_fusion = fusion;
  check_partitioned_identity(model, params, g, partition_graph(g, parts, {}), parts, cpu, gpu, compile);
}

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE("gpu: partitioned runs on the CUDA backend equal the whole CPU run" *
            doctest::skip(!cuda_device_available())) {
    const Graph grid = build_grid_graph(square_grid(131, 97, moore_stencil(2, 1), {BoundaryKind::fixed, 1}));
    const Graph hubs = rmat_graph(13, 16, 9);
    for (const char* update : {"sync", "alpha:0.6", "colored"}) {
      check_gpu_parts("lifelike", {{"rule", "B3/S23"}}, grid, 3, update);
      check_gpu_parts("ising", {{"T", "2.3"}}, grid, 4, update);
      check_gpu_parts("sir", {{"beta", "0.3"}, {"tau", "2"}}, hubs, 3, update, small_hubs());  // fused
      check_gpu_parts("sir", {{"beta", "0.3"}, {"tau", "2"}}, hubs, 3, update, small_hubs(), SignalPacking::automatic,
                      SweepFusion::never);  // hubs apart
      check_gpu_parts("lifelike", {{"rule", "/2/3"}, {"p", "0.9"}}, hubs, 2, update, small_hubs());
    }
    for (const char* update : {"sync", "alpha:0.6"}) {  // halo cells' signals packed each step
      check_gpu_parts("lifelike", {{"rule", "B3/S23"}}, grid, 3, update, {}, SignalPacking::always);
      check_gpu_parts("sir", {{"beta", "0.3"}, {"tau", "2"}}, hubs, 3, update, small_hubs(), SignalPacking::always);
    }
  }

  TEST_CASE("gpu: partitioned ensembles on the CUDA backend equal the whole CPU ensemble, member by member" *
            doctest::skip(!cuda_device_available())) {
    const Graph grid = build_grid_graph(square_grid(23, 17, moore_stencil(2, 1), {BoundaryKind::fixed, 1}));
    const Graph hubs = rmat_graph(9, 8, 3);
    constexpr BackendKind kCuda = BackendKind::cuda;
    for (std::uint32_t parts : {2u, 3u})
      for (const Graph* g : {&grid, &hubs}) {
        const auto partition = partition_graph(*g, parts, {});
        for (const char* update : {"sync", "alpha:0.6", "colored"}) {
          check_ensemble_parts("sir", {{{"beta", "0.3"}, {"tau", "3"}}, {{"beta", "0.6"}, {"tau", "2"}}}, *g, partition,
                               parts, update, 3, kCuda);
          check_ensemble_parts("ising", {{{"T", "2.0"}}, {{"T", "3.0"}}}, *g, partition, parts, update, 2, kCuda);
        }
        check_ensemble_parts("lifelike", {{{"rule", "B3/S23"}}}, *g, partition, parts, "sync", 70, kCuda);
        check_ensemble_parts("forestfire", {{{"p", "0.05"}, {"f", "0.01"}}}, *g, partition, parts, "alpha:0.5", 3,
                             kCuda);
      }
    const Graph small = build_grid_graph(square_grid(30, 20));
    const auto three = partition_graph(small, 3, {});
    for (const char* update : {"sync", "alpha:0.6", "colored"})  // members finished on every part retire
      CHECK(check_ensemble_parts("sir", {{{"beta", "0.1"}, {"tau", "2"}}, {{"beta", "0.4"}, {"tau", "2"}}}, small,
                                 three, 3, update, 6, kCuda, {5, 12, 30}, 0.01) > 0);
  }

  TEST_CASE("gpu: ensembles on CUDA ranks under mpirun write what one CPU process writes" *
            doctest::skip(!cuda_device_available() || !std::filesystem::exists(mpiexec_path()))) {
    ScratchDir dir;
    const std::vector<std::string> runs = {
        " run --generate rmat:12 --model sir --param tau=3 --sweep beta=0.2,0.5 --replicas 3 --fill-count 20 "
        "--steps 25 --stats-every 5 --member 4 ",
        " run --model ising --grid 30x24 --neighborhood vonneumann --fill 1 --sweep T=2.0,2.6 --replicas 2 --steps 15 "
        "--stats-every 5 --member 3 ",
        " run --grid 40x30 --rule B36/S23 --fill 0.4 --replicas 70 --steps 20 --stats-every 4 --member 69 "};
    for (const std::string& run : runs) {
      INFO(run);
      auto outputs = [&](const std::string& tag) {
        return "--stats " + dir / (tag + ".csv") + " --summary " + dir / (tag + "-sum.csv") + " --states-out " +
               dir / (tag + ".txt");
      };
      REQUIRE(run_cli(run + "--backend cpu " + outputs("cpu")).status == 0);
      for (int ranks : {2, 3, 4}) {
        const std::string tag = "gpu" + std::to_string(ranks);
        const CommandResult gpu = run_cli_ranks(ranks, run + "--backend cuda " + outputs(tag));
        REQUIRE_MESSAGE(gpu.status == 0, gpu.out);
        CHECK(gpu.out.find("on cuda") != std::string::npos);
        CHECK(read_file(dir / (tag + ".csv")) == read_file(dir / "cpu.csv"));
        CHECK(read_file(dir / (tag + "-sum.csv")) == read_file(dir / "cpu-sum.csv"));
        CHECK(read_file(dir / (tag + ".txt")) == read_file(dir / "cpu.txt"));
      }
    }
  }

  TEST_CASE("gpu: CUDA ranks under mpirun write what one CPU process writes" *
            doctest::skip(!cuda_device_available() || !std::filesystem::exists(mpiexec_path()))) {
    ScratchDir dir;
    const std::string run = " run --generate rmat:14 --rule B2/S23 --fill 0.2 --steps 30 --stats-every 5 ";
    REQUIRE(run_cli(run + "--backend cpu --stats " + dir / "cpu.csv" + " --states-out " + dir / "cpu.txt").status == 0);
    const CommandResult gpu =
        run_cli_ranks(2, run + "--backend cuda --stats " + dir / "gpu.csv" + " --states-out " + dir / "gpu.txt");
    REQUIRE_MESSAGE(gpu.status == 0, gpu.out);
    CHECK(gpu.out.find("cuda (device halo) x 2 ranks") != std::string::npos);  // one host: GPUs map each other
    CHECK(read_file(dir / "gpu.csv") == read_file(dir / "cpu.csv"));
    CHECK(read_file(dir / "gpu.txt") == read_file(dir / "cpu.txt"));
    const CommandResult host = run_cli_ranks(
        2, run + "--backend cuda --halo host --stats " + dir / "host.csv" + " --states-out " + dir / "host.txt");
    REQUIRE_MESSAGE(host.status == 0, host.out);
    CHECK(host.out.find("cuda x 2 ranks") != std::string::npos);
    CHECK(read_file(dir / "host.csv") == read_file(dir / "cpu.csv"));
    CHECK(read_file(dir / "host.txt") == read_file(dir / "cpu.txt"));
  }

  TEST_CASE("gpu: ranks writing each other's halos on the device equal one CPU process" *
            doctest::skip(!cuda_device_available() || !std::filesystem::exists(mpiexec_path()))) {
    // Two state variables (SIR's state and age), 3 ranks (a slab of the grid has two peers),
    // runs of 65 steps between statistics (a captured graph of 64 steps from either buffer,
    // then one step alone) and the halo refreshed by a restart.
    ScratchDir dir;
    const std::string run = " run --grid 96x64 --model sir --param beta=0.4 --param tau=3 --stats-every 65 ";
    REQUIRE(run_cli(run + "--fill 0.05 --steps 150 --backend cpu --stats " + dir / "cpu.csv" + " --states-out " +
                    dir / "cpu.txt")
                .status == 0);
    const CommandResult gpu = run_cli_ranks(3, run + "--fill 0.05 --steps 150 --backend cuda --halo device --stats " +
                                                   dir / "gpu.csv" + " --states-out " + dir / "gpu.txt");
    REQUIRE_MESSAGE(gpu.status == 0, gpu.out);
    CHECK(gpu.out.find("cuda (device halo) x 3 ranks") != std::string::npos);
    CHECK(read_file(dir / "gpu.csv") == read_file(dir / "cpu.csv"));
    CHECK(read_file(dir / "gpu.txt") == read_file(dir / "cpu.txt"));
    const std::string device = "--backend cuda --halo device ";
    const CommandResult first =
        run_cli_ranks(3, run + device + "--fill 0.05 --steps 17 --checkpoint " + dir / "c.ckpt");
    REQUIRE_MESSAGE(first.status == 0, first.out);
    const CommandResult rest = run_cli_ranks(
        3, run + device + "--steps 150 --restart " + dir / "c.ckpt" + " --states-out " + dir / "rest.txt");
    REQUIRE_MESSAGE(rest.status == 0, rest.out);
    CHECK(read_file(dir / "rest.txt") == read_file(dir / "cpu.txt"));
    // Colored updates trade once per class through the host, whatever --halo says.
    const std::string ising = " run --grid 64x48 --model ising --param T=2.3 --steps 12 --stats-every 4 ";
    REQUIRE(run_cli(ising + "--backend cpu --stats " + dir / "icpu.csv").status == 0);
    const CommandResult colored = run_cli_ranks(2, ising + "--backend cuda --halo device --stats " + dir / "igpu.csv");
    REQUIRE_MESSAGE(colored.status == 0, colored.out);
    CHECK(read_file(dir / "igpu.csv") == read_file(dir / "icpu.csv"));
  }
}
