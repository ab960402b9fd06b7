// cellgraph perfmodel measure: the sweep the performance model is fitted on. Sources of
// several sizes (grids, random geometric meshes, R-MAT graphs with hubs, graph files) times
// models, each the median step of timed runs after warm-ups, on one rank or, under mpirun,
// on N parts (every rank runs its part; rank 0 writes the CSV). Each source is loaded and
// compiled once for all models.
#include <omp.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>

#include "cellgraph/coloring.hpp"
#include "cellgraph/error.hpp"
#include "cellgraph/output/atomic_file.hpp"
#include "cellgraph/output/progress.hpp"
#include "cellgraph/perfmodel.hpp"
#include "partition/mpi.hpp"
#include "tools/cellgraph/bench/bench_support.hpp"
#include "tools/cellgraph/perfmodel/commands.hpp"
#if CELLGRAPH_HAVE_CUDA
#include "tools/cellgraph/bench/cusparse_baseline.hpp"
#endif

namespace cellgraph::cli {
namespace {

namespace pm = perfmodel;

// Defaults: from launch-bound to memory-bound sizes, and neighbors per cell from 4 to 26 (a
// Life cell moves 18 to 106 bytes), so that the two-term fit can tell a cell's cost from a
// byte's: 2D von Neumann (4 neighbors) and Moore (8) grids of range 1 and 2 (12, 24), a 3D
// Moore grid (26), random geometric graphs of mean degree 4, 8 and 16, and R-MAT graphs (hubs).
// The GPU sweep takes about 2 minutes on an H100 (docs/PERFORMANCE_MODEL.md); the CPU sweep
// about 2 minutes on two cores.
constexpr const char* kGpuSources =
    "grid,grid:vonneumann@16:24:4,grid:vonneumann:2@16:24:4,grid:moore:2@16:24:4,grid3d@18:24:3,"
    "rgg:4@16:22:3,rgg@16:22:2,rgg:16@16:22:3,rmat@16:20:2";
constexpr const char* kGpuSizes = "16:26:2";
constexpr const char* kCpuSources =
    "grid,grid:vonneumann@12:20:4,grid:vonneumann:2@12:20:4,grid:moore:2@12:20:4,grid3d@12:18:3,"
    "rgg:4@12:18:3,rgg@12:18:2,rgg:16@12:18:3,rmat@10:16:3";
constexpr const char* kCpuSizes = "12:20:2";
// Colored updates run only up to this many cells by default, and not on hub graphs: a colored
// step launches a sweep per class, and an R-MAT graph's coloring has hundreds of classes
// (colored Ising on R-MAT 2^22 alone took minutes on an H100).
constexpr const char* kGpuColoredMaxCells = "2^22";
constexpr const char* kCpuColoredMaxCells = "2^18";

// "16:28:2" (from:to:step), "16", or several of these joined by ',' or '+': log2 of the cells.
std::vector<unsigned> parse_sizes(const std::string& text) {
  std::vector<unsigned> sizes;
  std::string item;
  std::istringstream in(text);
  auto number = [&](const std::string& s) {
    unsigned v = 0;
    auto [stop, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || stop != s.data() + s.size())
      throw Error("bad sizes " + quoted_text(text) + ": " + quoted_text(s) +
                  " is not a whole number (sizes are log2 of the cells: 16:28:2)");
    return v;
  };
  while (std::getline(in, item, text.find('+') != std::string::npos ? '+' : ',')) {
    std::vector<std::string> p;
    std::istringstream parts(item);
    for (std::string s; std::getline(parts, s, ':');) p.push_back(s);
    if (p.empty() || p.size() > 3)
      throw Error("bad sizes " + quoted_text(text) + ": " + quoted_text(item) + " is not N or FROM:TO[:STEP]");
    const unsigned from = number(p[0]), to = p.size() > 1 ? number(p[1]) : from, step = p.size() > 2 ? number(p[2]) : 1;
    if (step == 0 || to < from)
      throw Error("bad sizes " + quoted_text(text) + ": " + quoted_text(item) + " is an empty range");
    for (unsigned k = from; k <= to; k += step) sizes.push_back(k);
  }
  if (sizes.empty()) throw Error("bad sizes " + quoted_text(text) + ": no size");
  for (unsigned k : sizes)
    if (k < 4 || k > 31)
      throw Error("bad sizes " + quoted_text(text) + ": 2^" + std::to_string(k) + " cells (sizes are 4 to 31)");
  return sizes;
}

struct SweepSource {
  std::string label;  // the CSV's source column
  SourceSpec spec;
};

// One --sources item, KIND[:ARG][@SIZES], as the sources it stands for.
std::vector<SweepSource> expand_source(const std::string& item, const std::vector<unsigned>& default_sizes) {
  const std::string kind = item.substr(0, item.find_first_of(":@"));
  if (kind == "graph" || kind == "mesh") {  // a file: no sizes; the rest is its path
    if (item.size() <= kind.size() + 1 || item[kind.size()] != ':')
      throw Error("source " + quoted_text(item) + ": " + kind + ":PATH names a file");
    SweepSource s;
    const std::string path = item.substr(kind.size() + 1);
    (kind == "graph" ? s.spec.graph_file : s.spec.mesh_file) = path;
    s.label = item;
    return {s};
  }
  const auto at = item.find('@');
  const std::string head = item.substr(0, at);
  const std::string arg = head.size() > kind.size() ? head.substr(kind.size() + 1) : "";
  const std::vector<unsigned> sizes = at == std::string::npos ? default_sizes : parse_sizes(item.substr(at + 1));
  std::vector<SweepSource> out;
  for (unsigned k : sizes) {
    SweepSource s;
    const std::string cells = std::to_string(std::uint64_t(1) << k);
    if (kind == "grid" || kind == "grid3d") {
      const bool three = kind == "grid3d";
      const unsigned x = three ? (k + 2) / 3 : (k + 1) / 2, y = three ? (k + 1) / 3 : k / 2, z = three ? k / 3 : 0;
      s.spec.grid =
          std::to_string(1u << x) + "x" + std::to_string(1u << y) + (three ? "x" + std::to_string(1u << z) : "");
      s.spec.neighborhood = arg.empty() ? "moore" : arg;
      s.spec.boundary = "periodic";
      s.label = "grid:" + s.spec.grid + ":" + s.spec.neighborhood;
    } else if (kind == "rgg" || kind == "er") {
      s.spec.generator = kind + ":" + cells + ":" + (arg.empty() ? "8" : arg);
      s.label = s.spec.generator;
    } else if (kind == "rmat") {
      s.spec.generator = "rmat:" + std::to_string(k) + ":" + (arg.empty() ? "16" : arg);
      s.label = s.spec.generator;
    } else {
      throw Error("unknown source " + quoted_text(item) +
                  " (grid[:NEIGHBORHOOD], grid3d[:NEIGHBORHOOD], rgg[:DEGREE], "
                  "rmat[:EDGE_FACTOR], er[:DEGREE], each with @SIZES if its own; graph:PATH, mesh:PATH)");
    }
    out.push_back(s);
  }
  return out;
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  std::istringstream in(text);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) items.push_back(item);
  return items;
}

// The cells of a grid ("64x64", "16x16x16") or a generated graph ("rgg:4096:8", "rmat:12:16").
std::uint64_t expected_cells(const std::string& spec) {
  if (spec.rfind("rmat:", 0) == 0) return std::uint64_t(1) << std::stoul(spec.substr(5));
  if (spec.find(':') != std::string::npos) return std::stoull(spec.substr(spec.find(':') + 1));
  std::uint64_t cells = 1;
  std::istringstream in(spec);
  for (std::string side; std::getline(in, side, 'x');) cells *= std::stoull(side);
  return cells;
}

struct SweepModel {
  pm::ModelSpec spec;
  const models::ModelInfo* info = nullptr;
  models::Params params;
  UpdateRule update;
};

std::vector<SweepModel> sweep_models(const std::string& text) {
  std::vector<SweepModel> out;
  for (const std::string& item : split_list(text)) {
    SweepModel m;
    m.spec = pm::parse_model_spec(item);
    m.info = &models::find_model(m.spec.name);
    m.params.insert(m.spec.params.begin(), m.spec.params.end());
    m.update = m.spec.update.empty() ? m.info->default_update : parse_update_rule(m.spec.update);
    out.push_back(std::move(m));
  }
  if (out.empty()) throw Error("--models names no model");
  return out;
}

// The slowest rank's seconds for one call of advance(steps) (collective).
double timed_advance(Simulation& sim, std::uint64_t steps) {
  mpi::barrier();
  const auto start = std::chrono::steady_clock::now();
  sim.advance(steps);
  return mpi::max(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
}

// Median seconds per step. The step count grows until a timed run lasts about min_time; every
// count is run once untimed first (on CUDA that captures its step graphs). Timed runs are
// fewer than `repeats` where they would take more than max_time in all (at least one). Every
// rank takes the same decisions, from the slowest rank's times.
double seconds_per_step(Simulation& sim, double min_time, int repeats, double max_time, std::uint64_t& steps) {
  constexpr std::uint64_t kMaxSteps = std::uint64_t(1) << 20;
  steps = 2;
  for (;;) {
    sim.advance(steps);
    const double t = timed_advance(sim, steps);
    if (t >= min_time / 2 || steps >= kMaxSteps) break;
    const double factor = std::min(64.0, std::max(2.0, std::ceil(min_time / std::max(t, 1e-9))));
    steps = std::min<std::uint64_t>(kMaxSteps, (std::uint64_t(double(steps) * factor) + 1) & ~std::uint64_t(1));
    if (steps >= 64) steps = (steps + 63) / 64 * 64;  // whole CUDA graphs of 64 steps
  }
  std::vector<double> t{timed_advance(sim, steps)};
  const int affordable = int(std::max(1.0, std::floor(max_time / std::max(t[0], 1e-9))));
  for (int r = 1; r < std::min(repeats, affordable); ++r) t.push_back(timed_advance(sim, steps));
  std::sort(t.begin(), t.end());
  return t[t.size() / 2] / double(steps);
}

po::options_description measure_options() {
  po::options_description d("cellgraph perfmodel measure");
  d.add_options()("help,h", "show this help")("out", po::value<std::string>(),
                                              "the CSV to write (rank 0 writes it; required)")(
      "append", po::bool_switch(), "add the rows to an existing --out file (its header must be this command's)")(
      "sources", po::value<std::string>(),
      (std::string("comma-separated: grid[:NEIGHBORHOOD] (2D, periodic), grid3d[:NEIGHBORHOOD], rgg[:DEGREE] "
                   "(default 8), rmat[:EDGE_FACTOR] (default 16), er[:DEGREE], each swept over --sizes or its own "
                   "@SIZES (16:24:2, or 16+20); graph:PATH and mesh:PATH once. Default: ") +
       kGpuSources + " (cuda), " + kCpuSources + " (cpu)")
          .c_str())("sizes", po::value<std::string>(),
                    (std::string("log2 of the cells: FROM:TO[:STEP] or a list (16,20,24). Default: ") + kGpuSizes +
                     " (cuda), " + kCpuSizes + " (cpu)")
                        .c_str())(
      "models", po::value<std::string>()->default_value("lifelike,sir,ising"),
      "comma-separated NAME[:key=value...][@UPDATE]: sir:beta=0.05:tau=8, lifelike@alpha:0.5; the model's own "
      "update unless given (ising: colored)")("repeats", po::value<int>()->default_value(3),
                                              "timed runs per row (the median is kept)")(
      "min-time", po::value<double>()->default_value(0.05, "0.05"),
      "seconds a timed run should last at least (sets the steps)")(
      "max-time", po::value<double>()->default_value(1.0, "1"),
      "seconds the timed runs of one row may take in all: fewer repeats (at least one) where a run is slower")(
      "colored-max-cells", po::value<std::string>(),
      (std::string("run colored updates only on sources of at most this many cells (2^K or a number). Default: ") +
       kGpuColoredMaxCells + " (cuda), " + kCpuColoredMaxCells + " (cpu)")
          .c_str())("colored-on-hubs", po::bool_switch(),
                    "run colored updates on hub graphs too (R-MAT: hundreds of classes; slow)")(
      "budget", po::value<double>()->default_value(0, "0"),
      "seconds the sweep may take: sources after the first not started by then are left out, with a note (0: no "
      "limit)")("fill", po::value<double>()->default_value(0.5), "initial density of state 1");
  d.add(backend_options()).add(layout_options()).add(partition_method_options());
  return d;
}

// The sweep the options ask for.
struct Sweep {
  std::string out_path;
  bool append = false;
  SimulationOptions options;
  bool gpu = false;
  int repeats = 3;
  double min_time = 0, max_time = 0, fill = 0, budget = 0;
  std::vector<SweepSource> sources;
  std::vector<SweepModel> models;
  CompileOptions compile;
  std::uint64_t colored_max_cells = 0;
  bool colored_on_hubs = false;

  // Whether a model runs on a source (colored updates are limited; see kGpuColoredMaxCells).
  bool runs_on(const SweepModel& m, std::uint64_t cells, const std::string& kind) const {
    if (m.update.mode != UpdateMode::colored) return true;
    return cells <= colored_max_cells && (colored_on_hubs || kind != "hubs");
  }
};

Sweep sweep_from(const po::variables_map& vm) {
  if (!vm.count("out")) throw Error("--out FILE is required (the CSV of timings)");
  Sweep s;
  s.out_path = vm["out"].as<std::string>();
  s.append = vm["append"].as<bool>();
  s.options = simulation_options(vm);
  s.gpu = s.options.backend == BackendKind::cuda;
  if (s.gpu && !cuda_device_available()) throw Error("--backend cuda: no CUDA device is available");
  s.repeats = vm["repeats"].as<int>();
  s.min_time = vm["min-time"].as<double>(), s.fill = vm["fill"].as<double>();
  if (s.repeats < 1) throw Error("--repeats must be at least 1");
  if (!(s.min_time > 0 && s.min_time <= 60)) throw Error("--min-time must be from 0 to 60 seconds");
  if (!(s.fill >= 0 && s.fill <= 1)) throw Error("--fill must be a density from 0 to 1");
  const std::vector<unsigned> sizes = parse_sizes(vm.count("sizes") ? vm["sizes"].as<std::string>()
                                                  : s.gpu           ? kGpuSizes
                                                                    : kCpuSizes);
  for (const std::string& item : split_list(vm.count("sources") ? vm["sources"].as<std::string>()
                                            : s.gpu             ? kGpuSources
                                                                : kCpuSources))
    for (SweepSource& source : expand_source(item, sizes)) s.sources.push_back(std::move(source));
  if (s.sources.empty()) throw Error("--sources names no source");
  s.models = sweep_models(vm["models"].as<std::string>());
  s.compile = compile_options(vm);
  s.max_time = vm["max-time"].as<double>(), s.budget = vm["budget"].as<double>();
  if (!(s.max_time > 0)) throw Error("--max-time must be positive");
  if (!(s.budget >= 0)) throw Error("--budget must be a number of seconds (0: no limit)");
  s.colored_max_cells = parse_count(vm.count("colored-max-cells") ? vm["colored-max-cells"].as<std::string>()
                                    : s.gpu                       ? kGpuColoredMaxCells
                                                                  : kCpuColoredMaxCells,
                                    "--colored-max-cells");
  s.colored_on_hubs = vm["colored-on-hubs"].as<bool>();
  return s;
}

// Rank 0's CSV: the earlier rows (--append), then each new row as it is measured; the file
// appears, whole, when the sweep ends.
std::unique_ptr<AtomicFile> open_timings(const Sweep& s) {
  std::string earlier;
  if (s.append && std::ifstream(s.out_path)) {
    // A well-formed CSV (throws otherwise), written again under this header: a CSV from
    // before the launches and depth columns keeps its rows, those fields empty (unknown).
    earlier = pm::csv_header() + "\n";
    for (const pm::Measurement& m : pm::read_measurements(s.out_path)) earlier += pm::csv_row(m) + "\n";
  }
  auto csv = std::make_unique<AtomicFile>(s.out_path);
  csv->stream() << (earlier.empty() ? pm::csv_header() + "\n" : earlier);
  return csv;
}

// What the sweep will take, before it is built: rows (a generated graph's kind is known from
// its generator: R-MAT has hubs) and its timed runs, each row about (repeats + 3) runs of
// --min-time (the step count's search, the untimed run, the timed ones); and the machine.
void announce(const Sweep& s, const pm::Machine& machine, int ranks, int threads) {
  std::size_t planned = 0;
  for (const SweepSource& source : s.sources)
    for (const SweepModel& m : s.models) {
      const bool known = source.spec.graph_file.empty() && source.spec.mesh_file.empty();
      const std::uint64_t cells = !source.spec.grid.empty() ? expected_cells(source.spec.grid)
                                  : known                   ? expected_cells(source.spec.generator)
                                                            : 0;
      planned += s.runs_on(m, cells, source.spec.generator.rfind("rmat:", 0) == 0 ? "hubs" : "graph");
    }
  std::cout << "perfmodel measure: " << planned << " rows planned, about "
            << std::lround(double(planned) * (s.repeats + 3) * s.min_time)
            << " s of timed runs plus building the sources"
            << (s.budget > 0 ? ", within a budget of " + three_digits(s.budget) + " s" : "") << "\n";
  std::cout << "perfmodel measure: " << s.sources.size() << " sources x " << s.models.size() << " models on " << ranks
            << (ranks > 1 ? " ranks" : " rank") << ", " << machine.backend << " on " << machine.device << " ("
            << machine.sm_count << (s.gpu ? " SMs" : " cores") << ", " << threads << (s.gpu ? " GPU" : " threads")
            << " per rank, clock " << std::lround(machine.clock_mhz) << " MHz, cache "
            << three_digits(machine.cache_bytes / 1048576) << " MiB); copy " << three_digits(machine.copy_gbps)
            << " GB/s\n"
            << std::flush;
}

// The machine, and (rank 0) the copy bandwidth measured now, before the sweep takes the
// memory; rank 0 announces the sweep. Collective.
pm::Machine this_machine(const Sweep& s, int ranks, bool root, int& threads) {
  const SimulationOptions rank_opts = ranks > 1 ? rank_options(s.options) : s.options;
  threads = s.gpu ? 1 : rank_opts.threads > 0 ? rank_opts.threads : omp_get_max_threads();
  pm::Machine machine = pm::describe_machine(s.options.backend, threads);
  if (root) {
#if CELLGRAPH_HAVE_CUDA
    if (s.gpu) machine.copy_gbps = cuda::device_copy_bandwidth() / 1e9;
#endif
    if (!s.gpu) machine.copy_gbps = host_copy_bandwidth(threads) / 1e9;
    announce(s, machine, ranks, threads);
  }
  mpi::barrier();
  return machine;
}

// One source as this rank runs it (the whole on one rank, its part on several), and what the
// rows of its models share. The steps' shapes are computed once per source, when a model
// first needs them (collective).
struct SourceRun {
  explicit SourceRun(Source loaded) : source(std::move(loaded)) {}
  Source source;
  pm::Measurement base;                   // the columns every row of the source shares
  std::vector<std::uint32_t> partition;   // several ranks: each vertex's part
  std::shared_ptr<const Layout> layout;   // this rank's
  std::uint64_t stored = 0;               // every part's stored indices, padding included
  std::vector<std::uint64_t> part_sizes;  // each part's cells and stored indices (rank r's at 2r, 2r + 1)
  double cells_max = 0;                   // the largest part's cells
  std::vector<std::uint32_t> initial;
  std::uint32_t multiprocessors = 0;                     // the L1s a GPU step's gathers go through (0: a CPU)
  std::vector<std::uint32_t> coloring;                   // the whole graph's, for colored models on several ranks
  std::uint32_t colors = 0;                              // its classes: a colored step exchanges after each
  std::map<bool, pm::StepShape> sync_shapes;             // by ModelInfo::sweep_traits (the gather paths differ)
  std::map<bool, std::vector<pm::PartWork>> sync_parts;  // likewise, each part's own (several ranks)
  std::optional<pm::StepShape> colored_shape;

  // A shape's columns as the busiest rank's: the longest walk, and the most gathers a part
  // reads, per cell of the largest part (the model multiplies them by its cells: parts
  // balanced by work differ in cells, and a small part may gather more per cell). Collective.
  pm::StepShape busiest(pm::StepShape shape) const {
    shape.depth = mpi::max(shape.depth);
    shape.gathers = mpi::max(shape.gathers * layout->num_vertices) / cells_max;
    shape.missed_gathers = mpi::max(shape.missed_gathers * layout->num_vertices) / cells_max;
    shape.packed_signals = mpi::max(double(shape.packed_signals)) > 0;
    return shape;
  }
};

pm::Measurement base_row(const std::string& label, const Graph& g, const CompileOptions& compile_opts,
                         const pm::Machine& machine, int ranks, int threads) {
  pm::Measurement base;
  base.source = label;
  base.kind = pm::layout_kind(g, compile_opts);
  base.backend = machine.backend;
  base.ranks = std::uint32_t(ranks);
  base.threads = std::uint32_t(threads);
  base.cells = g.num_vertices();
  base.part_cells_max = g.num_vertices();
  base.device = machine.device;
  base.sm_count = machine.sm_count;
  base.clock_mhz = machine.clock_mhz;
  base.cache_bytes = machine.cache_bytes;
  base.copy_gbps = machine.copy_gbps;
  return base;
}

// The source loaded and compiled (on several ranks partitioned as `run` partitions it, this
// rank's part compiled). Collective.
SourceRun prepare_source(const Sweep& s, const SweepSource& item, const po::variables_map& vm,
                         const pm::Machine& machine, int ranks, int threads, bool root) {
  SourceRun run(load_source(item.spec));
  const Graph& g = run.source.graph;
  const std::uint64_t n = g.num_vertices();
  if (n < std::uint64_t(ranks))
    throw Error(item.label + ": " + std::to_string(n) + " cells for " + std::to_string(ranks) + " ranks");
  run.base = base_row(item.label, g, s.compile, machine, ranks, threads);
  if (ranks == 1) {
    run.layout = std::make_shared<const Layout>(compile(g, s.compile));
  } else {
    run.partition = partition_for_ranks(g, partition_options_from(vm, run.source));
    run.layout = compile_rank_part(g, run.partition, s.compile);
    if (root) {
      const PartitionReport r = partition_report(g, run.partition, std::uint32_t(ranks));
      run.base.part_cells_max = *std::max_element(r.vertices.begin(), r.vertices.end());
      run.base.halo_cells_max = *std::max_element(r.halo.begin(), r.halo.end());
      run.base.peers_max = *std::max_element(r.peers.begin(), r.peers.end());
      run.base.boundary_share = r.boundary_share();
      run.base.send_cells_max = r.sends_max();
    }
  }
  std::vector<std::uint64_t> stored{pm::stored_indices(*run.layout)};
  mpi::sum(stored);
  run.stored = stored[0];
  run.part_sizes.assign(2 * std::size_t(ranks), 0);
  run.part_sizes[2 * std::size_t(mpi::rank())] = run.layout->num_vertices;
  run.part_sizes[2 * std::size_t(mpi::rank()) + 1] = pm::stored_indices(*run.layout);
  mpi::sum(run.part_sizes);
  for (int r = 0; r < ranks; ++r) run.cells_max = std::max(run.cells_max, double(run.part_sizes[2 * std::size_t(r)]));
  run.initial = random_fill(std::uint32_t(n), s.fill, s.options.seed);
  run.multiprocessors = s.gpu ? machine.sm_count : 0;
  return run;
}

// A colored step's shape: the classes the simulation steps through, of the same coloring (both
// backends color alike, coloring.hpp), the whole graph's on a part. Collective.
void record_colored_shape(SourceRun& run, std::uint64_t seed, int ranks) {
  const Layout& layout = *run.layout;
  std::vector<std::uint32_t> local;
  if (ranks == 1) {
    local = greedy_coloring(layout, seed);
  } else {
    local.resize(layout.num_vertices);
    for (std::uint32_t v = 0; v < layout.num_vertices; ++v) local[v] = run.coloring[layout.local_to_user[v]];
  }
  const ColorClasses classes = color_classes(layout, local, ranks == 1 ? 0 : run.colors);
  run.colored_shape = run.busiest(
      pm::step_shape(layout, &classes, pm::gather_path(pm::step_plan(layout, {}, true), run.multiprocessors)));
}

// A synchronous step's shape for models with or without a one-bit signal: each rank's part, in
// rank order, and the columns from them, as annotate computes them. Collective.
void record_sync_shape(SourceRun& run, const SweepModelTraits& model, SignalPacking packing, int ranks) {
  const Layout& layout = *run.layout;
  const bool signal = model.gathers_signal;
  const pm::StepShape own = pm::step_shape(
      layout, nullptr, pm::gather_path(pm::step_plan(layout, model, false, packing), run.multiprocessors));
  std::string list;
  for (const std::string& part : mpi::all_gather(pm::format_parts({pm::part_work(layout, own)})))
    list += (list.empty() ? "" : ";") + part;
  std::vector<pm::PartWork> parts = pm::parse_parts(list);
  run.sync_shapes[signal] = pm::busiest_part_shape(parts, std::uint64_t(run.cells_max));
  if (ranks > 1) run.sync_parts[signal] = std::move(parts);
}

// Each model's state, bytes per cell and variables, counted once from its first simulation.
using StateSizes = std::map<std::string, std::pair<double, std::uint32_t>>;

// One model on one source: its simulation built and started, the step's shape recorded, and
// timed. Collective; rank 0's row is the one written.
pm::Measurement measure_model(const Sweep& s, SourceRun& run, const SweepModel& m, StateSizes& state, int ranks) {
  const Graph& g = run.source.graph;
  const std::uint64_t n = g.num_vertices();
  SimulationOptions o = s.options;
  o.update = m.update;
  const bool colored = m.update.mode == UpdateMode::colored;
  if (colored && ranks > 1 && run.coloring.empty()) {
    run.coloring = greedy_coloring(g, s.options.seed);
    run.colors = run.coloring.empty() ? 1 : *std::max_element(run.coloring.begin(), run.coloring.end()) + 1;
  }
  if (colored && !run.colored_shape) record_colored_shape(run, s.options.seed, ranks);
  std::unique_ptr<Simulation> sim =
      ranks == 1 ? m.info->make(m.params, run.layout, o)
                 : make_part_simulation(g, run.partition, run.layout, *m.info, m.params, o, &run.coloring);
  const bool signal = m.info->sweep_traits.gathers_signal;
  if (!colored && !run.sync_shapes.count(signal)) record_sync_shape(run, m.info->sweep_traits, o.signal_packing, ranks);
  if (m.info->initial_variables) sim->import_state(m.info->initial_variables(m.params, run.initial, s.options.seed), 0);
  else sim->set_states(run.initial);
  const std::string key = m.spec.key();
  if (!state.count(key)) {  // once per model; collective: rank 0 gets the whole graph's variables
    const std::vector<std::vector<std::uint8_t>> variables = sim->export_state();
    double bytes = 0;
    for (const auto& variable : variables) bytes += double(variable.size()) / double(n);
    state[key] = {bytes, std::uint32_t(variables.size())};
  }
  pm::Measurement row = run.base;
  row.model = key;
  row.update = update_rule_text(m.update);
  row.state_bytes = state[key].first;
  row.variables = state[key].second;
  row.exchanges = ranks > 1 ? (colored ? run.colors : 1) : 0;
  pm::record_shape(row, colored ? *run.colored_shape : run.sync_shapes.at(signal));
  if (!colored && ranks > 1) row.parts = run.sync_parts.at(signal);
  row.bytes_per_cell = pm::step_bytes(1, double(run.stored) / double(n), row.state_bytes, colored);
  if (ranks > 1)
    for (int r = 0; r < ranks; ++r)
      row.part_bytes_max = std::max(
          row.part_bytes_max, pm::step_bytes(double(run.part_sizes[2 * std::size_t(r)]),
                                             double(run.part_sizes[2 * std::size_t(r) + 1]), row.state_bytes, colored));
  row.seconds_per_step = seconds_per_step(*sim, s.min_time, s.repeats, s.max_time, row.steps);
  if (ranks > 1) row.halo_path = sim->trades_halo_on_device() ? "device" : "host";
  return row;
}

void print_row(const std::string& label, const pm::Measurement& row) {
  std::cout << label << "  " << row.model << " (" << row.update << ")  " << row.cells << " cells, "
            << three_digits(row.bytes_per_cell) << " B/cell, " << row.launches
            << (row.launches > 1 ? " launches" : " launch") << ", depth " << three_digits(row.depth) << ": "
            << three_digits(row.seconds_per_step * 1e6) << " us/step, "
            << three_digits(double(row.cells) / row.seconds_per_step) << " updates/s (" << row.steps << " steps)\n"
            << std::flush;
}

}  // namespace

int perfmodel_measure(const Args& args) {
  po::variables_map vm;
  if (!parse_perfmodel_options(
          args, measure_options(), nullptr,
          "usage: [mpirun -np N] cellgraph perfmodel measure --out FILE [--sources ...] [--sizes ...] "
          "[--models ...] [--backend cpu|cuda]",
          vm))
    return 0;
  const Sweep s = sweep_from(vm);
  const int ranks = mpi::size();
  const bool root = mpi::rank() == 0;
  std::unique_ptr<AtomicFile> csv;
  if (root) csv = open_timings(s);
  int threads = 1;
  const pm::Machine machine = this_machine(s, ranks, root, threads);

  StateSizes state;
  const auto sweep_start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return mpi::max(std::chrono::duration<double>(std::chrono::steady_clock::now() - sweep_start).count());
  };
  std::size_t measured = 0;
  std::vector<std::string> left_out;  // sources not started within the budget
  Progress progress(root ? Progress::Mode::automatic : Progress::Mode::off, s.sources.size(), 0, "", "source");
  for (const SweepSource& item : s.sources) {
    progress.update(std::uint64_t(&item - s.sources.data()));
    // Collective: every rank leaves the same sources out. The first source always runs.
    if (s.budget > 0 && &item != &s.sources.front() && elapsed() > s.budget) {
      left_out.push_back(item.label);
      continue;
    }
    SourceRun run = prepare_source(s, item, vm, machine, ranks, threads, root);
    for (const SweepModel& m : s.models) {
      if (!s.runs_on(m, run.base.cells, run.base.kind)) {
        if (root)
          std::cout << item.label << "  " << m.spec.key() << " (" << update_rule_text(m.update) << "): skipped ("
                    << (run.base.cells > s.colored_max_cells
                            ? "colored updates run on at most --colored-max-cells cells"
                            : "colored updates run on hub graphs only with --colored-on-hubs")
                    << ")\n";
        continue;
      }
      const pm::Measurement row = measure_model(s, run, m, state, ranks);
      if (!root) continue;
      csv->stream() << pm::csv_row(row) << "\n";
      ++measured;
      print_row(item.label, row);
    }
  }
  progress.finish();
  const double took = elapsed();
  if (root) {
    csv->commit();
    std::cout << "wrote " << s.out_path << ": " << measured << " rows in " << std::lround(took) << " s\n";
    if (!left_out.empty()) {
      std::cout << "note: the budget of " << three_digits(s.budget) << " s was spent; " << left_out.size()
                << " source(s) left out:";
      for (const std::string& l : left_out) std::cout << " " << l;
      std::cout << "\n";
    }
  }
  return 0;
}

}  // namespace cellgraph::cli
