// cellgraph bench --suite partition, run under mpirun (mpirun -np N cellgraph bench --suite
// partition): B3/S23 Life on N parts, one per rank, with METIS and with block partitions. For
// each case: what the split costs (edge cut, halo cells), the partitioned step, and, to see
// how much of the exchange the interior hides, the same part's step with no exchange and the
// exchange alone (through the host). Where the ranks' GPUs map each other's memory, the step
// is timed on both halo paths, device to device and through the host, in the same run. Times
// are the slowest rank's, medians of the repeats. Strong scaling: the same command on 1, 2, 4,
// ... ranks; weak scaling: the per-rank grid, stacked N high.
#include <algorithm>
#include <iostream>

#include "cellgraph/error.hpp"
#include "models/lifelike.hpp"
#include "partition/mpi.hpp"
#include "tools/cellgraph/bench/bench_support.hpp"
#include "tools/cellgraph/cli.hpp"

namespace cellgraph::cli {
namespace {

struct PartitionCase {
  std::string name;
  SourceSpec source;
  std::uint64_t steps;
  bool metis = true;  // grids: slabs are as good as METIS gets, and METIS on 10^8 cells takes minutes
};

std::vector<PartitionCase> partition_cases(bool gpu) {
  const int ranks = mpi::size();
  PartitionCase strong{"grid (strong)", {}, gpu ? 40u : 10u, false}, weak{"grid (weak)", {}, strong.steps, false},
      mesh{"rgg mesh (strong)", {}, strong.steps}, small{"4elt.graph (strong)", {}, 400};
  strong.name = "grid " + std::string(gpu ? "16384x16384" : "4096x4096") + " (strong)";
  strong.source.grid = gpu ? "16384x16384" : "4096x4096";
  weak.source.grid = gpu ? "8192x" + std::to_string(8192 * ranks) : "2048x" + std::to_string(2048 * ranks);
  weak.name = "grid " + std::string(gpu ? "8192x8192" : "2048x2048") + " per rank (weak)";
  mesh.name = std::string(gpu ? "rgg 2^24" : "rgg 2^22") + " mesh (strong)";
  mesh.source.generator = gpu ? "rgg:16777216:8" : "rgg:4194304:8";
  small.source.graph_file = "graphs/metis/github-KarypisLab-METIS/4elt.graph";
  return {strong, weak, mesh, small};
}

// The slowest rank's median seconds per step of `run(steps)`.
template <class F>
double seconds_per_step(int repeats, std::uint64_t steps, F&& run) {
  return mpi::max(median_seconds(repeats,
                                 [&] {
                                   mpi::barrier();
                                   run(steps);
                                 }) /
                  double(steps));
}

// The halo exchange alone: one byte per cell (Life's state), every peer, `steps` times.
double exchange_seconds_per_step(const Layout& L, int repeats, std::uint64_t steps) {
  mpi::Transport transport;
  std::vector<std::uint8_t> send(L.send_cells.size(), 1), halo(L.num_halo, 0);
  return seconds_per_step(repeats, steps, [&](std::uint64_t n) {
    for (std::uint64_t i = 0; i < n; ++i) transport.start(L, 0, 1, send.data(), halo.data()), transport.finish();
  });
}

}  // namespace

int bench_partition(const po::variables_map& vm, SimulationOptions options, int repeats) {
  const bool gpu = options.backend == BackendKind::cuda;
  const bool root = mpi::rank() == 0;
  const models::Params life = {{"rule", "B3/S23"}};
  options = rank_options(options);
  // Both paths where the device one is taken (decided alike on every rank).
  const bool both_paths =
      gpu && mpi::size() > 1 && options.halo->maps_peer_devices() && options.halo_path != HaloPath::host;
  if (root)
    std::cout
        << "bench suite partition: B3/S23, 50% fill, ranks: " << mpi::size() << ", backend "
        << (gpu ? "cuda" : "cpu, " + std::to_string(options.threads) + " threads per rank")
        << "; the slowest rank's median step\n"
        << (both_paths ? "; step: halo device to device, host halo: through the host and MPI" : "") << "\n"
        << "| case | ranks | method | cells | edge cut | halo cells | cell updates/s | step ms | host halo step ms "
           "| no-exchange step ms | exchange ms (host) | exchange hidden (host) |\n"
           "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const PartitionCase& c : partition_cases(gpu)) {
    SourceSpec spec = c.source;
    if (!spec.graph_file.empty()) spec.graph_file = data_file(spec.graph_file);
    const Source source = load_source(spec);
    const Graph& g = source.graph;
    for (PartitionMethod method : {PartitionMethod::block, PartitionMethod::metis}) {
      if (method == PartitionMethod::metis && (mpi::size() == 1 || !c.metis)) continue;  // one part either way
      PartitionOptions po;
      po.method = method;
      const std::vector<std::uint32_t> partition = partition_for_ranks(g, po);
      const auto layout = compile_rank_part(g, partition, compile_options(vm));
      const auto fill = random_fill(g.num_vertices(), 0.5, options.seed);
      std::vector<std::uint32_t> mine;  // the part's cells of the fill, in ascending user id
      for (std::uint32_t i = 0; i < layout->num_vertices; ++i)
        mine.push_back(fill[layout->local_to_user[layout->user_to_local[i]]]);

      const auto timed_step = [&](const SimulationOptions& o) {
        auto part = models::find_model("lifelike").make(life, layout, o);
        part->set_states(mine);
        part->advance(c.steps);  // warm-up
        return seconds_per_step(repeats, c.steps, [&](std::uint64_t n) { part->advance(n); });
      };
      const double step = timed_step(options);
      SimulationOptions through_host = options;
      through_host.halo_path = HaloPath::host;
      const double host_step = both_paths ? timed_step(through_host) : step;
      SimulationOptions alone = options;
      alone.halo = nullptr;
      auto compute = models::find_model("lifelike").make(life, layout, alone);
      compute->set_states(mine);
      compute->advance(c.steps);
      const double no_exchange = seconds_per_step(repeats, c.steps, [&](std::uint64_t n) { compute->advance(n); });
      compute.reset();
      const double exchange = mpi::size() > 1 ? exchange_seconds_per_step(*layout, repeats, c.steps) : 0.0;
      const double hidden = exchange > 0 ? std::clamp((no_exchange + exchange - host_step) / exchange, 0.0, 1.0) : 0.0;
      if (!root) continue;
      const PartitionReport r = partition_report(g, partition, std::uint32_t(mpi::size()));
      std::cout << "| " << c.name << " | " << mpi::size() << " | "
                << (method == PartitionMethod::metis ? "metis" : "block") << " | " << g.num_vertices() << " | "
                << r.edge_cut << " | " << r.total_halo() << " | " << three_digits(double(g.num_vertices()) / step)
                << " | " << three_digits(step * 1e3) << " | "
                << (both_paths ? three_digits(host_step * 1e3) : std::string("-")) << " | "
                << three_digits(no_exchange * 1e3) << " | " << three_digits(exchange * 1e3) << " | "
                << (exchange > 0 ? three_digits(100 * hidden) + "%" : "-") << " |\n"
                << std::flush;
    }
  }
  return 0;
}

}  // namespace cellgraph::cli
