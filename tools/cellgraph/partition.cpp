// cellgraph partition (METIS k-way or block; .part files and a report), and the set-up of a
// partitioned run: this rank's part, compiled with its halo, behind a PartitionedSimulation.
#include <omp.h>
#include <algorithm>
#include <iomanip>
#include <iostream>

#include "cellgraph/coloring.hpp"
#include "cellgraph/digest.hpp"
#include "cellgraph/error.hpp"
#include "cellgraph/output/atomic_file.hpp"
#include "cellgraph/output/file_plan.hpp"
#include "cellgraph/partition.hpp"
#include "partition/mpi.hpp"
#include "partition/partitioned_ensemble.hpp"
#include "partition/partitioned_simulation.hpp"
#include "tools/cellgraph/cli.hpp"

namespace cellgraph::cli {
po::options_description partition_method_options() {
  po::options_description d("Partitioning");
  d.add_options()("method", po::value<std::string>(),
                  "metis (k-way) or block (vertex v in part v * parts / n: slabs of a grid); "
                  "default: block for grids, metis otherwise")(
      "objective", po::value<std::string>()->default_value("cut"),
      "METIS minimizes the edge cut (cut) or the communication volume (volume)")(
      "balance", po::value<std::string>()->default_value("work"),
      "METIS keeps within the imbalance the parts' work (a vertex weighs 1 + its neighbor entries: a step's reads, "
      "which a graph with hubs concentrates) or their cells (cells)")(
      "imbalance", po::value<double>()->default_value(1.03), "METIS: largest part at most this times the mean part")(
      "contiguous", po::bool_switch(), "METIS: every part connected")(
      "partition-seed", unsigned_value<std::uint64_t>(1), "METIS's random seed");
  return d;
}

PartitionOptions partition_options_from(const po::variables_map& vm, const Source& source) {
  PartitionOptions o;
  const std::string method = vm.count("method") ? vm["method"].as<std::string>() : source.grid ? "block" : "metis";
  if (method == "metis") o.method = PartitionMethod::metis;
  else if (method == "block") o.method = PartitionMethod::block;
  else throw Error("--method must be metis or block, not " + quoted_text(method));
  const std::string objective = vm["objective"].as<std::string>();
  if (objective == "cut") o.objective = PartitionObjective::edge_cut;
  else if (objective == "volume") o.objective = PartitionObjective::volume;
  else throw Error("--objective must be cut or volume, not " + quoted_text(objective));
  const std::string balance = vm["balance"].as<std::string>();
  if (balance == "work") o.balance = PartitionBalance::work;
  else if (balance == "cells") o.balance = PartitionBalance::cells;
  else throw Error("--balance must be work or cells, not " + quoted_text(balance));
  o.imbalance = vm["imbalance"].as<double>();
  o.contiguous = vm["contiguous"].as<bool>();
  o.seed = get_unsigned<std::uint64_t>(vm, "partition-seed");
  return o;
}

namespace {

void print_report(const PartitionReport& r, std::uint64_t edges) {
  std::cout << "parts " << r.parts << ", edge cut " << r.edge_cut << " of " << edges << " edges ("
            << three_digits(edges ? 100.0 * double(r.edge_cut) / double(edges) : 0.0) << "%), halo cells "
            << r.total_halo() << ", imbalance " << three_digits(r.imbalance) << "\n"
            << "part     vertices       entries      halo     sends  boundary    (entries)  peers\n";
  for (std::uint32_t p = 0; p < r.parts; ++p)
    std::cout << std::setw(4) << p << std::setw(13) << r.vertices[p] << std::setw(14) << r.entries[p] << std::setw(10)
              << r.halo[p] << std::setw(10) << r.sends[p] << std::setw(10) << r.boundary[p] << std::setw(13)
              << r.boundary_entries[p] << std::setw(7) << r.peers[p] << "\n";
}

}  // namespace

po::options_description run_partition_options() {
  po::options_description d("Partitioned runs (mpirun -np N cellgraph run ...: one part per rank)");
  d.add_options()(
      "partition", po::value<std::string>(),
      "METIS .part file with N parts (from `cellgraph partition`); without it each run partitions its source");
  d.add(partition_method_options());
  return d;
}

std::vector<std::uint32_t> partition_for_ranks(const Graph& g, const PartitionOptions& options) {
  std::vector<std::uint32_t> partition(g.num_vertices());
  if (mpi::rank() == 0) partition = partition_graph(g, std::uint32_t(mpi::size()), options);
  mpi::broadcast(partition);
  return partition;
}

Layout compile_part(const Graph& g, const std::vector<std::uint32_t>& partition, std::uint32_t parts, std::uint32_t me,
                    const CompileOptions& options) {
  // Every part takes the whole graph's hub thresholds: a vertex is folded alike in any split.
  return compile_rows(g, part_rows(g, partition, parts, me), compile_options_for(g, options));
}

std::shared_ptr<const Layout> compile_rank_part(const Graph& g, const std::vector<std::uint32_t>& partition,
                                                const CompileOptions& options) {
  return std::make_shared<const Layout>(
      compile_part(g, partition, std::uint32_t(mpi::size()), std::uint32_t(mpi::rank()), options));
}

// True on every rank when all ranks run on one host and each one's GPU can map every other's
// memory (the device path of the halo); decided by all ranks together.
bool ranks_map_each_others_devices() {
  const std::vector<std::string> hosts = mpi::all_gather(mpi::host_name());
  const std::vector<std::string> devices = mpi::all_gather(cuda_device_bus_id());
  const bool one_host = std::all_of(hosts.begin(), hosts.end(), [&](const std::string& h) { return h == hosts[0]; });
  return mpi::all(one_host && cuda_devices_map_each_other(devices));
}

namespace {

// The part of every vertex, one part per rank: the --partition file's, or rank 0's partitioning
// (METIS need not run N times), the same on every rank.
std::vector<std::uint32_t> rank_partition(const po::variables_map& vm, const Source& source) {
  if (!vm.count("partition")) return partition_for_ranks(source.graph, partition_options_from(vm, source));
  // Every rank reads it: the same file?
  std::vector<std::uint32_t> partition =
      read_partition(vm["partition"].as<std::string>(), source.graph.num_vertices(), std::uint32_t(mpi::size()));
  mpi::agree("the --partition file", "CRC-32 " + hex32(crc32_of(partition)));
  return partition;
}

}  // namespace

SimulationOptions rank_options(SimulationOptions options) {
  // Ranks on one host share it: each takes a GPU of its own (round robin) or its share of
  // the cores (oversubscribed OpenMP threads spin against each other).
  if (options.backend == BackendKind::cuda) use_cuda_device(mpi::local_rank() % std::max(1, cuda_device_count()));
  if (options.threads == 0) options.threads = std::max(1, omp_get_num_procs() / mpi::local_size());
  options.halo =
      std::make_shared<mpi::Transport>(options.backend == BackendKind::cuda && ranks_map_each_others_devices());
  return options;
}

std::unique_ptr<Simulation> make_partitioned_simulation(const po::variables_map& vm, const Source& source,
                                                        const models::ModelInfo& model, const models::Params& params,
                                                        SimulationOptions options) {
  const Graph& g = source.graph;
  const std::vector<std::uint32_t> partition = rank_partition(vm, source);
  return make_part_simulation(g, partition, compile_rank_part(g, partition, compile_options(vm)), model, params,
                              options);
}

std::unique_ptr<Ensemble> make_partitioned_ensemble(const po::variables_map& vm, const Source& source,
                                                    const models::ModelInfo& model,
                                                    const std::vector<models::Params>& points, std::uint32_t replicas,
                                                    SimulationOptions options) {
  const Graph& g = source.graph;
  const std::vector<std::uint32_t> partition = rank_partition(vm, source);
  std::shared_ptr<const Layout> layout = compile_rank_part(g, partition, compile_options(vm));
  options = rank_options(options);
  if (options.update.mode == UpdateMode::colored)
    options.member_coloring = [&g, layout](std::uint64_t seed) {
      const std::vector<std::uint32_t> whole = greedy_coloring(g, seed);
      std::vector<std::uint32_t> mine(layout->num_vertices);
      for (std::uint32_t v = 0; v < layout->num_vertices; ++v) mine[v] = whole[layout->local_to_user[v]];
      const std::uint32_t count = whole.empty() ? 0 : *std::max_element(whole.begin(), whole.end()) + 1;
      return std::pair{mine, count};
    };
  return std::make_unique<PartitionedEnsemble>(model.make_ensemble(points, replicas, layout, options), partition,
                                               std::uint32_t(mpi::size()));
}

std::unique_ptr<Simulation> make_part_simulation(const Graph& g, const std::vector<std::uint32_t>& partition,
                                                 std::shared_ptr<const Layout> layout, const models::ModelInfo& model,
                                                 const models::Params& params, SimulationOptions options,
                                                 const std::vector<std::uint32_t>* whole_coloring) {
  options = rank_options(options);
  if (options.update.mode == UpdateMode::colored) {  // the whole graph's coloring, restricted to the part
    const std::vector<std::uint32_t> colors = whole_coloring ? *whole_coloring : greedy_coloring(g, options.seed);
    for (std::uint32_t v = 0; v < layout->num_vertices; ++v) options.colors.push_back(colors[layout->local_to_user[v]]);
    options.color_count = colors.empty() ? 0 : *std::max_element(colors.begin(), colors.end()) + 1;
  }
  return std::make_unique<PartitionedSimulation>(model.make(params, layout, options), partition,
                                                 std::uint32_t(mpi::size()));
}

int partition_command(const Args& args) {
  po::options_description d("cellgraph partition");
  d.add_options()("help,h", "show this help")("config", po::value<std::string>(),
                                              "INI file of these options (key = value); flags override it")(
      "parts", unsigned_value<std::uint32_t>(0), "number of parts (one per MPI rank or GPU)")(
      "out", po::value<std::string>(), "write the partition here (METIS .part: line i = part of vertex i)");
  d.add(source_options()).add(partition_method_options());
  po::variables_map vm;
  if (!parse_options(args, d, "usage: cellgraph partition SOURCE --parts N [--out FILE] [options]", vm)) return 0;
  const std::uint32_t parts = get_unsigned<std::uint32_t>(vm, "parts");
  if (parts == 0) throw Error("--parts N is required (N >= 1)");
  const Source source = load_source(source_spec(vm));
  const PartitionOptions o = partition_options_from(vm, source);
  if (vm.count("out")) {
    FilePlan plan;
    for (const char* option : {"config", "graph", "mesh", "pattern"})
      if (vm.count(option)) plan.reads(vm[option].as<std::string>(), std::string("--") + option);
    plan.writes(vm["out"].as<std::string>(), "--out");
    plan.check();
    AtomicFile::check_writable(vm["out"].as<std::string>());
  }
  const std::vector<std::uint32_t> partition = partition_graph(source.graph, parts, o);
  std::cout << source.description << ": " << (o.method == PartitionMethod::metis ? "METIS k-way" : "block") << "\n";
  std::uint64_t edges = 0;
  for (VertexId v = 0; v < source.graph.num_vertices(); ++v)
    for (EdgeOffset e = source.graph.offsets[v]; e < source.graph.offsets[v + 1]; ++e)
      edges += source.graph.neighbors[e] != kBoundaryVertex;
  print_report(partition_report(source.graph, partition, parts), edges / 2);
  if (vm.count("out")) write_partition(vm["out"].as<std::string>(), partition);
  return 0;
}

}  // namespace cellgraph::cli
