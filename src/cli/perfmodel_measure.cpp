// cellgraph perfmodel measure: the sweep the performance model is fitted on. Sources of
// several sizes (grids, random geometric meshes, R-MAT graphs with hubs, graph files) times
// models, each the median step of timed runs after warm-ups, on one rank or, under mpirun,
// on N parts (every rank runs its part; rank 0 writes the CSV). Each source is loaded and
// compiled once for all models.
#include <omp.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

#include "cellgraph/coloring.hpp"
#include "cellgraph/error.hpp"
#include "cellgraph/output/atomic_file.hpp"
#include "cellgraph/perfmodel.hpp"
#include "partition/mpi.hpp"
#include "src/cli/bench_support.hpp"
#include "src/cli/perfmodel_cli.hpp"
#if CELLGRAPH_HAVE_CUDA
#include "src/backend/cuda/cusparse_baseline.hpp"
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
      throw Error("bad sizes " + quoted_text(text) + ": " + quoted_text(s) + " is not a whole number (sizes are log2 of the cells: 16:28:2)");
    return v;
  };
  while (std::getline(in, item, text.find('+') != std::string::npos ? '+' : ',')) {
    std::vector<std::string> p;
    std::istringstream parts(item);
    for (std::string s; std::getline(parts, s, ':');) p.push_back(s);
    if (p.empty() || p.size() > 3) throw Error("bad sizes " + quoted_text(text) + ": " + quoted_text(item) + " is not N or FROM:TO[:STEP]");
    const unsigned from = number(p[0]), to = p.size() > 1 ? number(p[1]) : from, step = p.size() > 2 ? number(p[2]) : 1;
    if (step == 0 || to < from) throw Error("bad sizes " + quoted_text(text) + ": " + quoted_text(item) + " is an empty range");
    for (unsigned k = from; k <= to; k += step) sizes.push_back(k);
  }
  if (sizes.empty()) throw Error("bad sizes " + quoted_text(text) + ": no size");
  for (unsigned k : sizes)
    if (k < 4 || k > 31) throw Error("bad sizes " + quoted_text(text) + ": 2^" + std::to_string(k) + " cells (sizes are 4 to 31)");
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
      s.spec.grid = std::to_string(1u << x) + "x" + std::to_string(1u << y) + (three ? "x" + std::to_string(1u << z) : "");
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
      throw Error("unknown source " + quoted_text(item) + " (grid[:NEIGHBORHOOD], grid3d[:NEIGHBORHOOD], rgg[:DEGREE], "
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
  d.add_options()("help,h", "show this help")(
      "out", po::value<std::string>(), "the CSV to write (rank 0 writes it; required)")(
      "append", po::bool_switch(), "add the rows to an existing --out file (its header must be this command's)")(
      "sources", po::value<std::string>(),
      (std::string("comma-separated: grid[:NEIGHBORHOOD] (2D, periodic), grid3d[:NEIGHBORHOOD], rgg[:DEGREE] "
                   "(default 8), rmat[:EDGE_FACTOR] (default 16), er[:DEGREE], each swept over --sizes or its own "
                   "@SIZES (16:24:2, or 16+20); graph:PATH and mesh:PATH once. Default: ") +
       kGpuSources + " (cuda), " + kCpuSources + " (cpu)")
          .c_str())(
      "sizes", po::value<std::string>(),
      (std::string("log2 of the cells: FROM:TO[:STEP] or a list (16,20,24). Default: ") + kGpuSizes + " (cuda), " +
       kCpuSizes + " (cpu)")
          .c_str())(
      "models", po::value<std::string>()->default_value("lifelike,sir,ising"),
      "comma-separated NAME[:key=value...][@UPDATE]: sir:beta=0.05:tau=8, lifelike@alpha:0.5; the model's own "
      "update unless given (ising: colored)")(
      "repeats", po::value<int>()->default_value(3), "timed runs per row (the median is kept)")(
      "min-time", po::value<double>()->default_value(0.05, "0.05"), "seconds a timed run should last at least (sets the steps)")(
      "max-time", po::value<double>()->default_value(1.0, "1"),
      "seconds the timed runs of one row may take in all: fewer repeats (at least one) where a run is slower")(
      "colored-max-cells", po::value<std::string>(),
      (std::string("run colored updates only on sources of at most this many cells (2^K or a number). Default: ") +
       kGpuColoredMaxCells + " (cuda), " + kCpuColoredMaxCells + " (cpu)")
          .c_str())(
      "colored-on-hubs", po::bool_switch(), "run colored updates on hub graphs too (R-MAT: hundreds of classes; slow)")(
      "budget", po::value<double>()->default_value(0, "0"),
      "seconds the sweep may take: sources after the first not started by then are left out, with a note (0: no limit)")(
      "fill", po::value<double>()->default_value(0.5), "initial density of state 1");
  d.add(backend_options()).add(layout_options()).add(partition_method_options());
  return d;
}

}  // namespace

int perfmodel_measure(const Args& args) {
  po::variables_map vm;
  if (!parse_perfmodel_options(args, measure_options(), nullptr,
                               "usage: [mpirun -np N] cellgraph perfmodel measure --out FILE [--sources ...] [--sizes ...] "
                               "[--models ...] [--backend cpu|cuda]",
                               vm))
    return 0;
  if (!vm.count("out")) throw Error("--out FILE is required (the CSV of timings)");
  const std::string out_path = vm["out"].as<std::string>();
  SimulationOptions options = simulation_options(vm);
  const bool gpu = options.backend == BackendKind::cuda;
  if (gpu && !cuda_device_available()) throw Error("--backend cuda: no CUDA device is available");
  const int repeats = vm["repeats"].as<int>();
  const double min_time = vm["min-time"].as<double>(), fill = vm["fill"].as<double>();
  if (repeats < 1) throw Error("--repeats must be at least 1");
  if (!(min_time > 0 && min_time <= 60)) throw Error("--min-time must be from 0 to 60 seconds");
  if (!(fill >= 0 && fill <= 1)) throw Error("--fill must be a density from 0 to 1");
  const std::vector<unsigned> sizes = parse_sizes(vm.count("sizes") ? vm["sizes"].as<std::string>() : gpu ? kGpuSizes : kCpuSizes);
  std::vector<SweepSource> sources;
  for (const std::string& item : split_list(vm.count("sources") ? vm["sources"].as<std::string>() : gpu ? kGpuSources : kCpuSources))
    for (SweepSource& s : expand_source(item, sizes)) sources.push_back(std::move(s));
  if (sources.empty()) throw Error("--sources names no source");
  const std::vector<SweepModel> sweep = sweep_models(vm["models"].as<std::string>());
  const CompileOptions compile_opts = compile_options(vm);
  const double max_time = vm["max-time"].as<double>(), budget = vm["budget"].as<double>();
  if (!(max_time > 0)) throw Error("--max-time must be positive");
  if (!(budget >= 0)) throw Error("--budget must be a number of seconds (0: no limit)");
  const std::uint64_t colored_max_cells =
      parse_count(vm.count("colored-max-cells") ? vm["colored-max-cells"].as<std::string>()
                                                : gpu ? kGpuColoredMaxCells : kCpuColoredMaxCells,
                  "--colored-max-cells");
  const bool colored_on_hubs = vm["colored-on-hubs"].as<bool>();
  // Whether a model runs on a source (colored updates are limited; see kGpuColoredMaxCells).
  auto runs_on = [&](const SweepModel& m, std::uint64_t cells, const std::string& kind) {
    if (m.update.mode != UpdateMode::colored) return true;
    return cells <= colored_max_cells && (colored_on_hubs || kind != "hubs");
  };

  const int ranks = mpi::size();
  const bool root = mpi::rank() == 0;
  // Rank 0 writes: the earlier rows (--append), then each new row as it is measured; the file
  // appears, whole, when the sweep ends.
  std::unique_ptr<AtomicFile> csv;
  if (root) {
    std::string earlier;
    if (vm["append"].as<bool>() && std::ifstream(out_path)) {
      // A well-formed CSV (throws otherwise), written again under this header: a CSV from
      // before the launches and depth columns keeps its rows, those fields empty (unknown).
      earlier = pm::csv_header() + "\n";
      for (const pm::Measurement& m : pm::read_measurements(out_path)) earlier += pm::csv_row(m) + "\n";
    }
    csv = std::make_unique<AtomicFile>(out_path);
    csv->stream() << (earlier.empty() ? pm::csv_header() + "\n" : earlier);
  }

  // The machine, and the copy bandwidth measured now (before the sweep takes the memory).
  const SimulationOptions rank_opts = ranks > 1 ? rank_options(options) : options;
  const int threads = gpu ? 1 : rank_opts.threads > 0 ? rank_opts.threads : omp_get_max_threads();
  pm::Machine machine = pm::describe_machine(options.backend, threads);
  if (root) {
#if CELLGRAPH_HAVE_CUDA
    if (gpu) machine.copy_gbps = cuda::device_copy_bandwidth() / 1e9;
#endif
    if (!gpu) machine.copy_gbps = host_copy_bandwidth(threads) / 1e9;
    // What the sweep will take, before it is built: rows (a generated graph's kind is known
    // from its generator: R-MAT has hubs) and its timed runs, each row about (repeats + 3)
    // runs of --min-time (the step count's search, the untimed run, the timed ones).
    std::size_t planned = 0;
    for (const SweepSource& s : sources)
      for (const SweepModel& m : sweep) {
        const bool known = s.spec.graph_file.empty() && s.spec.mesh_file.empty();
        const std::uint64_t cells = !s.spec.grid.empty() ? expected_cells(s.spec.grid)
                                    : known             ? expected_cells(s.spec.generator)
                                                        : 0;
        planned += runs_on(m, cells, s.spec.generator.rfind("rmat:", 0) == 0 ? "hubs" : "graph");
      }
    std::cout << "perfmodel measure: " << planned << " rows planned, about "
              << std::lround(double(planned) * (repeats + 3) * min_time) << " s of timed runs plus building the sources"
              << (budget > 0 ? ", within a budget of " + three_digits(budget) + " s" : "") << "\n";
    std::cout << "perfmodel measure: " << sources.size() << " sources x " << sweep.size() << " models on " << ranks
              << (ranks > 1 ? " ranks" : " rank") << ", " << machine.backend << " on " << machine.device << " ("
              << machine.sm_count << (gpu ? " SMs" : " cores") << ", " << threads << (gpu ? " GPU" : " threads")
              << " per rank, clock " << std::lround(machine.clock_mhz) << " MHz, cache " << three_digits(machine.cache_bytes / 1048576)
              << " MiB); copy " << three_digits(machine.copy_gbps) << " GB/s\n"
              << std::flush;
  }
  mpi::barrier();

  std::map<std::string, std::pair<double, std::uint32_t>> state;  // per model spec: bytes per cell, variables
  const auto sweep_start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return mpi::max(std::chrono::duration<double>(std::chrono::steady_clock::now() - sweep_start).count()); };
  std::size_t measured = 0;
  std::vector<std::string> left_out;  // sources not started within the budget
  for (const SweepSource& s : sources) {
    // Collective: every rank leaves the same sources out. The first source always runs.
    if (budget > 0 && &s != &sources.front() && elapsed() > budget) {
      left_out.push_back(s.label);
      continue;
    }
    SourceSpec spec = s.spec;
    const Source source = load_source(spec);
    const Graph& g = source.graph;
    const std::uint64_t n = g.num_vertices();
    if (n < std::uint64_t(ranks)) throw Error(s.label + ": " + std::to_string(n) + " cells for " + std::to_string(ranks) + " ranks");
    pm::Measurement base;
    base.source = s.label;
    base.kind = pm::layout_kind(g, compile_opts);
    base.backend = machine.backend;
    base.ranks = std::uint32_t(ranks);
    base.threads = std::uint32_t(threads);
    base.cells = n;
    base.part_cells_max = n;
    base.device = machine.device;
    base.sm_count = machine.sm_count;
    base.clock_mhz = machine.clock_mhz;
    base.cache_bytes = machine.cache_bytes;
    base.copy_gbps = machine.copy_gbps;

    std::vector<std::uint32_t> partition;
    std::shared_ptr<const Layout> layout;
    if (ranks == 1) {
      layout = std::make_shared<const Layout>(compile(g, compile_opts));
    } else {
      partition = partition_for_ranks(g, partition_options_from(vm, source));
      layout = compile_rank_part(g, partition, compile_opts);
      if (root) {
        const PartitionReport r = partition_report(g, partition, std::uint32_t(ranks));
        base.part_cells_max = *std::max_element(r.vertices.begin(), r.vertices.end());
        base.halo_cells_max = *std::max_element(r.halo.begin(), r.halo.end());
        base.peers_max = *std::max_element(r.peers.begin(), r.peers.end());
        base.boundary_share = r.boundary_share();
        base.send_cells_max = r.sends_max();
      }
    }
    std::vector<std::uint64_t> stored{layout->neighbors.size()};
    mpi::sum(stored);  // every part's stored indices, padding included
    // Each part's cells and stored indices (rank r's at 2r, 2r + 1): the busiest part's bytes.
    std::vector<std::uint64_t> part_sizes(2 * std::size_t(ranks), 0);
    part_sizes[2 * std::size_t(mpi::rank())] = layout->num_vertices;
    part_sizes[2 * std::size_t(mpi::rank()) + 1] = layout->neighbors.size();
    mpi::sum(part_sizes);
    const std::vector<std::uint32_t> initial = random_fill(std::uint32_t(n), fill, options.seed);
    std::vector<std::uint32_t> coloring;  // the whole graph's, for colored models on several ranks
    std::uint32_t colors = 0;             // its classes: a colored step exchanges after each
    // The step's launches, depth and gathers (the busiest rank's), synchronous (for models with
    // and without a one-bit signal: the gather paths differ) and colored. Collective. Gathers
    // are the most a part reads, per cell of the largest part (the model multiplies them by its
    // cells): parts balanced by work differ in cells, and a small part may gather more per cell.
    const std::uint32_t multiprocessors = gpu ? machine.sm_count : 0;
    double cells_max = 0;
    for (int r = 0; r < ranks; ++r) cells_max = std::max(cells_max, double(part_sizes[2 * std::size_t(r)]));
    auto busiest = [&](pm::StepShape shape) {
      shape.depth = mpi::max(shape.depth);
      shape.gathers = mpi::max(shape.gathers * layout->num_vertices) / cells_max;
      shape.missed_gathers = mpi::max(shape.missed_gathers * layout->num_vertices) / cells_max;
      shape.packed_signals = mpi::max(double(shape.packed_signals)) > 0;
      return shape;
    };
    std::map<bool, pm::StepShape> sync_shapes;  // by ModelInfo::gathers_signal
    std::map<bool, std::vector<pm::PartWork>> sync_parts;  // likewise, each part's own (several ranks)
    std::optional<pm::StepShape> colored_shape;

    for (const SweepModel& m : sweep) {
      if (!runs_on(m, n, base.kind)) {
        if (root)
          std::cout << s.label << "  " << m.spec.key() << " (" << update_rule_text(m.update) << "): skipped ("
                    << (n > colored_max_cells ? "colored updates run on at most --colored-max-cells cells"
                                              : "colored updates run on hub graphs only with --colored-on-hubs")
                    << ")\n";
        continue;
      }
      SimulationOptions o = options;
      o.update = m.update;
      const bool colored = m.update.mode == UpdateMode::colored;
      if (colored && ranks > 1 && coloring.empty()) {
        coloring = greedy_coloring(g, options.seed);
        colors = coloring.empty() ? 1 : *std::max_element(coloring.begin(), coloring.end()) + 1;
      }
      if (colored && !colored_shape) {
        // The classes the simulation steps through: the same coloring (both backends color
        // alike, coloring.hpp), the whole graph's on a part.
        std::vector<std::uint32_t> local;
        if (ranks == 1) {
          local = greedy_coloring(*layout, options.seed);
        } else {
          local.resize(layout->num_vertices);
          for (std::uint32_t v = 0; v < layout->num_vertices; ++v) local[v] = coloring[layout->local_to_user[v]];
        }
        const ColorClasses classes = color_classes(*layout, local, ranks == 1 ? 0 : colors);
        colored_shape = busiest(pm::step_shape(*layout, &classes, pm::gather_path(false, false, true, multiprocessors)));
      }
      std::unique_ptr<Simulation> sim = ranks == 1 ? m.info->make(m.params, layout, o)
                                                   : make_part_simulation(g, partition, layout, *m.info, m.params, o, &coloring);
      const bool signal = m.info->gathers_signal;
      if (!colored && !sync_shapes.count(signal)) {
        // Each rank's part, in rank order; the columns from them, as annotate computes them.
        const pm::StepShape own = pm::step_shape(
            *layout, nullptr, pm::gather_path(gathers_scattered(*layout), signal, false, multiprocessors, o.signal_packing));
        std::string list;
        for (const std::string& part : mpi::all_gather(pm::format_parts({pm::part_work(*layout, own)})))
          list += (list.empty() ? "" : ";") + part;
        std::vector<pm::PartWork> parts = pm::parse_parts(list);
        sync_shapes[signal] = pm::busiest_part_shape(parts, std::uint64_t(cells_max));
        if (ranks > 1) sync_parts[signal] = std::move(parts);
      }
      if (m.info->initial_variables) sim->import_state(m.info->initial_variables(m.params, initial, options.seed), 0);
      else sim->set_states(initial);
      const std::string key = m.spec.key();
      if (!state.count(key)) {  // once per model; collective: rank 0 gets the whole graph's variables
        const std::vector<std::vector<std::uint8_t>> variables = sim->export_state();
        double bytes = 0;
        for (const auto& variable : variables) bytes += double(variable.size()) / double(n);
        state[key] = {bytes, std::uint32_t(variables.size())};
      }
      pm::Measurement row = base;
      row.model = key;
      row.update = update_rule_text(m.update);
      row.state_bytes = state[key].first;
      row.variables = state[key].second;
      row.exchanges = ranks > 1 ? (colored ? colors : 1) : 0;
      const pm::StepShape& shape = colored ? *colored_shape : sync_shapes.at(signal);
      pm::record_shape(row, shape);
      if (!colored && ranks > 1) row.parts = sync_parts.at(signal);
      row.bytes_per_cell = pm::step_bytes(1, double(stored[0]) / double(n), row.state_bytes, colored);
      if (ranks > 1)
        for (int r = 0; r < ranks; ++r)
          row.part_bytes_max = std::max(row.part_bytes_max, pm::step_bytes(double(part_sizes[2 * std::size_t(r)]),
                                                                           double(part_sizes[2 * std::size_t(r) + 1]),
                                                                           row.state_bytes, colored));
      row.seconds_per_step = seconds_per_step(*sim, min_time, repeats, max_time, row.steps);
      if (ranks > 1) row.halo_path = sim->trades_halo_on_device() ? "device" : "host";
      sim.reset();
      if (!root) continue;
      csv->stream() << pm::csv_row(row) << "\n";
      ++measured;
      std::cout << s.label << "  " << key << " (" << row.update << ")  " << n << " cells, " << three_digits(row.bytes_per_cell)
                << " B/cell, " << row.launches << (row.launches > 1 ? " launches" : " launch") << ", depth "
                << three_digits(row.depth) << ": " << three_digits(row.seconds_per_step * 1e6) << " us/step, "
                << three_digits(double(n) / row.seconds_per_step) << " updates/s (" << row.steps << " steps)\n"
                << std::flush;
    }
  }
  const double took = elapsed();
  if (root) {
    csv->commit();
    std::cout << "wrote " << out_path << ": " << measured << " rows in " << std::lround(took) << " s\n";
    if (!left_out.empty()) {
      std::cout << "note: the budget of " << three_digits(budget) << " s was spent; " << left_out.size()
                << " source(s) left out:";
      for (const std::string& l : left_out) std::cout << " " << l;
      std::cout << "\n";
    }
  }
  return 0;
}

}  // namespace cellgraph::cli

// cellgraph perfmodel annotate: the launches, depth and gather columns of timings measured before
// `measure` recorded them (or by an older model), reconstructed as `measure` computes them (the
// signal packing taken as automatic: the CSV does not record --signal-bits). A row's source label names
// what `measure` built (grid:DIMSxDIMS:NEIGHBORHOOD periodic, a generator with its fixed seed,
// a file), so its layout is compiled again with the given layout options and its coloring
// taken with --seed (measure's default 1); each source is checked against the row's cells and
// bytes per cell, and a row that does not match is an error. Partitioned rows are left as they
// are (their parts would need METIS again).
namespace cellgraph::cli {

bool gathers_signal(const std::string& model_key) {
  return models::find_model(pm::parse_model_spec(model_key).name).gathers_signal;
}

namespace {

SourceSpec source_from_label(const std::string& label) {
  SourceSpec spec;
  const std::string kind = label.substr(0, label.find(':'));
  const std::string rest = label.size() > kind.size() + 1 ? label.substr(kind.size() + 1) : "";
  if (rest.empty()) throw Error("source " + quoted_text(label) + " is not one that `perfmodel measure` writes");
  if (kind == "grid") {
    const auto colon = rest.find(':');
    if (colon == std::string::npos) throw Error("source " + quoted_text(label) + ": expected grid:DIMS:NEIGHBORHOOD");
    spec.grid = rest.substr(0, colon);
    spec.neighborhood = rest.substr(colon + 1);
    spec.boundary = "periodic";
  } else if (kind == "rgg" || kind == "er" || kind == "rmat") {
    spec.generator = label;
  } else if (kind == "graph") {
    spec.graph_file = rest;
  } else if (kind == "mesh") {
    spec.mesh_file = rest;
  } else {
    throw Error("source " + quoted_text(label) + " is not one that `perfmodel measure` writes");
  }
  return spec;
}

// Synchronous partitioned rows: the source split again as measure split it (the partition
// options given), each part compiled; a row whose largest part or halo differs is left alone.
// Its busiest part's depth, gathers (the most a part reads, per cell of the largest part) and
// bytes, as measure records them. Returns the rows annotated.
std::size_t annotate_partitioned(std::vector<pm::Measurement>& rows, const po::variables_map& vm,
                                 const CompileOptions& compile_opts) {
  std::map<std::pair<std::string, std::uint32_t>, std::vector<pm::Measurement*>> by_split;
  for (pm::Measurement& m : rows)
    if (m.ranks > 1 && m.update == "sync") by_split[{m.source, m.ranks}].push_back(&m);
  std::size_t annotated = 0;
  for (auto& [key, list] : by_split) {
    const auto& [label, parts] = key;
    const Source source = load_source(source_from_label(label));
    const Graph& g = source.graph;
    const std::vector<std::uint32_t> partition = partition_graph(g, parts, partition_options_from(vm, source));
    const PartitionReport r = partition_report(g, partition, parts);
    const std::uint64_t cells_max = *std::max_element(r.vertices.begin(), r.vertices.end());
    const std::uint64_t halo_max = *std::max_element(r.halo.begin(), r.halo.end());
    if (cells_max != list[0]->part_cells_max || halo_max != list[0]->halo_cells_max) {
      std::cout << label << " on " << parts << " parts: left alone (this split's largest part and halo, " << cells_max
                << " and " << halo_max << ", are not the row's " << list[0]->part_cells_max << " and "
                << list[0]->halo_cells_max << ": other partition options?)\n";
      continue;
    }
    for (pm::Measurement* m : list) m->boundary_share = r.boundary_share(), m->send_cells_max = r.sends_max();
    std::vector<Layout> layouts;
    for (std::uint32_t p = 0; p < parts; ++p) layouts.push_back(compile_part(g, partition, parts, p, compile_opts));
    std::map<std::pair<bool, std::uint32_t>, std::vector<pm::PartWork>> works;  // by signal and multiprocessors
    for (pm::Measurement* m : list) {
      const std::uint32_t multiprocessors = m->backend == "cuda" ? m->sm_count : 0;
      const std::pair<bool, std::uint32_t> path{gathers_signal(m->model), multiprocessors};
      if (!works.count(path)) works[path] = pm::part_works(layouts, path.first, multiprocessors);
      pm::record_shape(*m, pm::busiest_part_shape(works.at(path), cells_max));
      m->parts = works.at(path);
      m->part_bytes_max = pm::busiest_part_bytes(layouts, m->state_bytes);
      ++annotated;
    }
    std::cout << label << " on " << parts << " parts: busiest part's gathers " << three_digits(list[0]->gathers) << " ("
              << three_digits(list[0]->missed_gathers) << " past the L1) a cell of the largest part\n"
              << std::flush;
  }
  return annotated;
}

}  // namespace

int perfmodel_annotate(const Args& args) {
  po::options_description d("cellgraph perfmodel annotate");
  d.add_options()("help,h", "show this help")(
      "timings", po::value<std::vector<std::string>>(), "CSV file(s) of `perfmodel measure` (the positional arguments)")(
      "out", po::value<std::string>(), "the CSV to write, every one-rank row with launches, depth, gathers and missed "
                                       "gathers, and every synchronous partitioned row whose split the partition options "
                                       "rebuild (the same largest part and halo) with those of its busiest part (required)")(
      "seed", unsigned_value<std::uint64_t>(1), "the seed the timings were measured with (colored updates: the coloring)");
  d.add(layout_options()).add(partition_method_options());
  po::variables_map vm;
  if (!parse_perfmodel_options(args, d, "timings", "usage: cellgraph perfmodel annotate TIMINGS.csv... --out CSV", vm))
    return 0;
  if (!vm.count("timings")) throw Error("no timings: name the CSV file(s) that `cellgraph perfmodel measure` wrote");
  if (!vm.count("out")) throw Error("--out FILE is required (the annotated CSV)");
  const std::uint64_t seed = get_unsigned<std::uint64_t>(vm, "seed");
  const CompileOptions compile_opts = compile_options(vm);
  std::vector<pm::Measurement> rows;
  for (const std::string& path : vm["timings"].as<std::vector<std::string>>()) {
    std::vector<pm::Measurement> more = pm::read_measurements(path);
    rows.insert(rows.end(), more.begin(), more.end());
  }
  AtomicFile out(vm["out"].as<std::string>());
  std::vector<std::string> order;  // sources in the order of their first row
  std::map<std::string, std::vector<pm::Measurement*>> by_source;
  for (pm::Measurement& m : rows)
    if (m.ranks == 1) {
      if (!by_source.count(m.source)) order.push_back(m.source);
      by_source[m.source].push_back(&m);
    }
  std::size_t annotated = 0, partitioned = rows.size();
  const auto start = std::chrono::steady_clock::now();
  for (const std::string& label : order) {
    std::vector<pm::Measurement*>& list = by_source[label];
    std::optional<Layout> layout;
    std::optional<ColorClasses> classes;
    // By the gather path's inputs: the model's signal and the row's multiprocessors (0: a CPU).
    std::map<std::pair<bool, std::uint32_t>, pm::StepShape> sync_shapes;
    std::map<std::uint32_t, pm::StepShape> colored_shapes;
    {
      const Source source = load_source(source_from_label(label));
      if (source.graph.num_vertices() != list[0]->cells)
        throw Error(list[0]->origin + ": " + label + " builds " + std::to_string(source.graph.num_vertices()) +
                    " cells, the row has " + std::to_string(list[0]->cells));
      if (pm::layout_kind(source.graph, compile_opts) != list[0]->kind)
        throw Error(list[0]->origin + ": " + label + " compiles to a layout of kind " +
                    pm::layout_kind(source.graph, compile_opts) + ", the row has " + list[0]->kind +
                    " (other layout options?)");
      layout.emplace(compile(source.graph, compile_opts));
    }
    const double stored = double(layout->neighbors.size()) / double(layout->num_vertices);
    for (pm::Measurement* m : list) {
      const bool colored = m->update == "colored";
      // The layout measured: the row's bytes per cell, as measure counts them.
      const double bytes = pm::step_bytes(1, stored, m->state_bytes, colored);
      if (std::abs(bytes - m->bytes_per_cell) > 1e-6 * m->bytes_per_cell)
        throw Error(m->origin + ": " + label + " compiles to " + three_digits(bytes) + " bytes per cell, the row has " +
                    three_digits(m->bytes_per_cell) + " (other layout options?)");
      const std::uint32_t multiprocessors = m->backend == "cuda" ? m->sm_count : 0;
      if (colored && !colored_shapes.count(multiprocessors)) {
        if (!classes) classes = color_classes(*layout, greedy_coloring(*layout, seed));
        colored_shapes[multiprocessors] =
            pm::step_shape(*layout, &*classes, pm::gather_path(false, false, true, multiprocessors));
      }
      const std::pair<bool, std::uint32_t> path{!colored && gathers_signal(m->model), multiprocessors};
      if (!colored && !sync_shapes.count(path))
        sync_shapes[path] =
            pm::step_shape(*layout, nullptr, pm::gather_path(gathers_scattered(*layout), path.first, false, multiprocessors));
      const pm::StepShape& shape = colored ? colored_shapes.at(multiprocessors) : sync_shapes.at(path);
      pm::record_shape(*m, shape);
      ++annotated;
    }
    const pm::StepShape& first = sync_shapes.empty() ? colored_shapes.begin()->second : sync_shapes.begin()->second;
    std::cout << label << ": " << layout->num_vertices << " cells, depth " << three_digits(first.depth) << ", gathers "
              << three_digits(first.gathers) << " (" << three_digits(first.missed_gathers) << " past the L1)"
              << (colored_shapes.empty() ? std::string()
                                         : ", colored " + std::to_string(colored_shapes.begin()->second.launches) +
                                               " classes, depth " + three_digits(colored_shapes.begin()->second.depth))
              << "\n"
              << std::flush;
  }
  partitioned -= annotated;
  const std::size_t split = annotate_partitioned(rows, vm, compile_opts);
  partitioned -= split;
  annotated += split;
  out.stream() << pm::csv_header() << "\n";
  for (const pm::Measurement& m : rows) out.stream() << pm::csv_row(m) << "\n";
  out.commit();
  std::cout << "wrote " << vm["out"].as<std::string>() << ": " << annotated << " rows annotated"
            << (partitioned ? ", " + std::to_string(partitioned) + " partitioned rows left without" : std::string()) << " in "
            << std::lround(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()) << " s\n";
  return 0;
}

}  // namespace cellgraph::cli
