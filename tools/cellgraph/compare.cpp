// cellgraph compare: one automaton through the graph engine and through each dense grid kernel
// on one backend, from the same start. Every K steps the states must hash alike; at the first
// difference the command replays the run step by step and names the first differing step and
// cell, then exits 1. The table: cell updates/s, bandwidth against a copy measured in the same
// run, and each kernel's speed against the graph engine's. --golly also runs bgolly (Golly's
// QuickLife) on the same grid and start and compares populations. --model cloud runs the cloud
// model (models/cloud.hpp) on 3D grids: the graph engine against the bit-packed cloud kernel,
// all three variables of every cell hashed.
#include <omp.h>

#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

#include "cellgraph/dense/automaton.hpp"
#include "cellgraph/error.hpp"
#include "cellgraph/memory_budget.hpp"
#include "cellgraph/output/progress.hpp"
#include "cellgraph/source/pattern.hpp"
#include "cellgraph/source/source.hpp"
#include "models/cloud.hpp"
#include "tools/cellgraph/bench/bench_support.hpp"
#include "tools/cellgraph/cli.hpp"
#if CELLGRAPH_HAVE_CUDA
#include "tools/cellgraph/bench/cusparse_baseline.hpp"
#endif

namespace cellgraph::cli {
namespace {

using namespace cellgraph::dense;

po::options_description compare_options() {
  po::options_description d("cellgraph compare");
  d.add_options()("help,h", "show this help")("grid", po::value<std::string>(), "grid W (1D), WxH (2D) or WxHxD (3D)")(
      "model", po::value<std::string>()->default_value("lifelike"),
      "lifelike (--rule), or cloud (Dobashi et al.'s clouds on a 3D grid, its own neighborhood; --param as for "
      "`run`; --fill is the initial cld, 0 if not given)")("param", po::value<std::vector<std::string>>()->composing(),
                                                           "cloud parameter NAME=VALUE (repeatable)")(
      "boundary", po::value<std::string>()->default_value("periodic"),
      "periodic, fixed[:state] (open = fixed:0), reflective (edge cell mirrored); cloud: default open")(
      "neighborhood", po::value<std::string>()->default_value("moore"), "moore or vonneumann (range 1)")(
      "rule", po::value<std::string>(),
      "Life-like or Generations rule (B3/S23, /2/3, ...; default: the pattern's, else B3/S23), or a Wolfram "
      "elementary rule W0..W255 on a 1D grid")(
      "pattern", po::value<std::string>(), "initial pattern (Golly RLE, Life 1.05/1.06), placed as Golly places it")(
      "fill", po::value<double>(), "initial random soup: each cell live with this probability (as `run --fill`)")(
      "seed", unsigned_value<std::uint64_t>(1), "seed of --fill")("steps", unsigned_value<std::uint64_t>(100),
                                                                  "steps to run")(
      "check-every", unsigned_value<std::uint64_t>(10), "compare state hashes every K steps (and at the end)")(
      "kernels", po::value<std::string>()->default_value("graph,byte,bitpacked"),
      "what to run, the first being the reference: graph (the graph engine), byte (a byte per cell: Life-like "
      "and Generations, 1D/2D/3D), bitpacked (a bit per cell: two-state rules on 2D Moore grids, and the cloud "
      "model); a kernel that cannot run the case is skipped with the reason")(
      "backend", po::value<std::string>()->default_value("auto"), "cpu, cuda, or auto (cuda when there is a GPU)")(
      "threads", po::value<int>()->default_value(0), "CPU threads (0: all)")(
      "generations-per-pass", po::value<int>()->default_value(0),
      "bitpacked, and byte on 2D Moore grids, on cuda: generations fused in one launch (1 to 32, the byte kernel "
      "at most 16; 0: each kernel's choice, printed with its tiles)")(
      "golly", po::bool_switch(),
      "also run bgolly (QuickLife, two-state rules, periodic or fixed:0 2D grids) from the same start and compare "
      "populations at every check")("markdown", po::bool_switch(), "print the table as Markdown (for BENCHMARKS.md)");
  return d;
}

struct Case {
  GridShape shape;
  GridSpec grid;  // the same grid for patterns and RLE
  std::string rule_name, neighborhood_name;
  bool elementary = false, cloud = false;
  CloudRule cloud_rule;
  LifeRule life;
  ElementaryRule wolfram;
  std::optional<Pattern> pattern;
  double density = 0;
  std::uint64_t seed = 1;
};

// The cloud model's case: its parameters, its neighborhood, open boundaries unless told.
void read_cloud_case(const po::variables_map& vm, Case& c) {
  if (vm.count("rule") || vm.count("pattern") || vm["golly"].as<bool>())
    throw Error("--model cloud takes --param, --fill and --seed, not --rule, --pattern or --golly");
  if (!vm["neighborhood"].defaulted()) throw Error("--model cloud has its own neighborhood; leave out --neighborhood");
  if (c.grid.dims != 3) throw Error("--model cloud runs on 3D grids (--grid WxHxD, z up)");
  models::Params params;
  std::string text;
  if (vm.count("param"))
    for (const std::string& kv : vm["param"].as<std::vector<std::string>>()) {
      const auto eq = kv.find('=');
      if (eq == std::string::npos || eq == 0) throw Error("--param wants NAME=VALUE, not " + quoted_text(kv));
      params[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
  for (const auto& [name, value] : params) text += " " + name + "=" + value;
  const models::CloudSettings settings = models::read_cloud_params(params);
  c.cloud = true;
  c.cloud_rule = {settings.model.extinction, settings.model.vapor, settings.model.activation, settings.hum0,
                  settings.act0};
  c.rule_name = "cloud" + text;
  c.neighborhood_name = "cloud";
  c.grid.stencil = cloud_stencil();
}

Case read_case(const po::variables_map& vm) {
  Case c;
  if (!vm.count("grid")) throw Error("--grid WxH is required (the pattern goes on it)");
  c.grid.size = parse_grid_size(vm["grid"].as<std::string>(), &c.grid.dims);
  const std::string model = vm["model"].as<std::string>();
  if (model != "lifelike" && model != "cloud")
    throw Error("--model: compare runs lifelike or cloud, not " + quoted_text(model));
  const bool cloud = model == "cloud";
  if (!cloud && vm.count("param")) throw Error("--param applies to --model cloud (lifelike rules come by --rule)");
  c.grid.boundary = parse_boundary(cloud && vm["boundary"].defaulted() ? "open" : vm["boundary"].as<std::string>());
  c.shape.dims = c.grid.dims;
  for (int axis = 0; axis < 3; ++axis) c.shape.size[axis] = c.grid.size[axis];
  const std::string neighborhood = vm["neighborhood"].as<std::string>();
  c.neighborhood_name = neighborhood;
  if (neighborhood == "moore") c.shape.neighborhood = Neighborhood::moore;
  else if (neighborhood == "vonneumann") c.shape.neighborhood = Neighborhood::von_neumann;
  else
    throw Error("--neighborhood: the dense kernels run moore or vonneumann (range 1), not " +
                quoted_text(neighborhood));
  c.grid.stencil =
      c.shape.neighborhood == Neighborhood::moore ? moore_stencil(c.grid.dims, 1) : von_neumann_stencil(c.grid.dims, 1);
  c.shape.edge = c.grid.boundary.kind == BoundaryKind::periodic ? Edge::periodic
                 : c.grid.boundary.kind == BoundaryKind::fixed  ? Edge::fixed
                                                                : Edge::reflective;
  c.shape.edge_value = c.grid.boundary.value;
  c.seed = get_unsigned<std::uint64_t>(vm, "seed");
  if (cloud) {
    read_cloud_case(vm, c);
    c.density = vm.count("fill") ? vm["fill"].as<double>() : 0.0;
    if (!(c.density >= 0 && c.density <= 1)) throw Error("--fill must be a density from 0 to 1");
    return c;
  }

  if (vm.count("pattern") && vm.count("fill")) throw Error("choose one initial state: --fill or --pattern");
  if (!vm.count("pattern") && !vm.count("fill"))
    throw Error("an initial state is required: --fill DENSITY or --pattern FILE");
  if (vm.count("pattern")) {
    if (c.grid.dims != 2) throw Error("--pattern needs a 2D grid");
    c.pattern = read_pattern_file(vm["pattern"].as<std::string>());
  } else {
    c.density = vm["fill"].as<double>();
    if (!(c.density >= 0 && c.density <= 1)) throw Error("--fill must be a density from 0 to 1");
  }
  c.rule_name = vm.count("rule")                        ? vm["rule"].as<std::string>()
                : c.pattern && !c.pattern->rule.empty() ? c.pattern->rule
                                                        : "B3/S23";
  c.elementary = parse_elementary_rule(c.rule_name, c.wolfram);
  if (c.elementary && c.grid.dims != 1) throw Error("elementary rules (" + c.rule_name + ") run on 1D grids");
  try {
    if (!c.elementary) c.life = parse_life_rule(c.rule_name);
  } catch (const Error& e) {  // a pattern's own rule is reported at its line
    if (vm.count("rule") || !c.pattern) throw;
    throw ParseError(vm["pattern"].as<std::string>(), c.pattern->rule_line, e.what());
  }
  return c;
}

std::string boundary_text(const Boundary& b) {
  if (b.kind == BoundaryKind::periodic) return "periodic";
  if (b.kind == BoundaryKind::reflective) return "reflective";
  return "fixed:" + std::to_string(b.value);
}

std::vector<std::uint8_t> pattern_states(const Case& c) {
  std::uint64_t dropped = 0;
  const std::vector<std::uint32_t> placed = place_pattern(*c.pattern, c.grid, &dropped);
  if (dropped)
    std::cerr << "cellgraph compare: " << dropped << " pattern cells fall outside the grid and are dropped\n";
  std::vector<std::uint8_t> states(placed.size());
  for (std::size_t i = 0; i < placed.size(); ++i) {
    if (placed[i] > 255) throw Error("pattern state " + std::to_string(placed[i]) + " is above 255");
    states[i] = std::uint8_t(placed[i]);
  }
  return states;
}

void start(Automaton& a, const Case& c, const std::vector<std::uint8_t>& pattern) {
  if (c.pattern) a.set_states(pattern);
  else a.fill_random(c.seed, c.density);
}

struct Entry {
  std::string kind;  // graph, byte, bitpacked
  std::unique_ptr<Automaton> automaton;
  double seconds = 0;  // advance() time over the timed chunks
  std::uint64_t timed_steps = 0;
};

std::vector<Entry> make_entries(const Case& c, const std::string& list, Device device, const KernelOptions& options,
                                bool with_golly, std::vector<std::string>& notes) {
  std::vector<Entry> entries;
  std::stringstream in(list);
  for (std::string kind; std::getline(in, kind, ',');) {
    if (kind != "graph" && kind != "byte" && kind != "bitpacked")
      throw Error("--kernels: unknown kernel " + quoted_text(kind) + " (graph, byte, bitpacked)");
    if (c.cloud) {
      if (kind == "byte")
        notes.push_back("byte: skipped: the cloud model runs on the graph engine and the bit-packed kernel");
      else if (kind == "graph")
        entries.push_back({kind, make_graph_cloud_automaton(device, c.shape, c.cloud_rule, options.threads)});
      else entries.push_back({kind, make_cloud_automaton(device, c.shape, c.cloud_rule, options)});
      continue;
    }
    if (c.elementary) {
      if (kind != "byte") {
        notes.push_back(kind + ": skipped: elementary rules run on the byte kernel only");
        continue;
      }
      // No graph model runs elementary rules: the CPU byte kernel is the reference.
      if (device == Device::cuda)
        entries.push_back({"byte", make_elementary_automaton(Device::cpu, c.shape, c.wolfram, options.threads)});
      entries.push_back({"byte", make_elementary_automaton(device, c.shape, c.wolfram, options.threads)});
      continue;
    }
    if (kind == "graph") {
      entries.push_back({kind, make_graph_automaton(device, c.shape, c.life, options.threads)});
      continue;
    }
    const KernelKind k = kind == "byte" ? KernelKind::byte : KernelKind::bitpacked;
    if (std::string why = unsupported_reason(k, c.shape, c.life); !why.empty()) {
      notes.push_back(kind + ": skipped: " + why);
      continue;
    }
    entries.push_back({kind, make_life_automaton(k, device, c.shape, c.life, options)});
  }
  if (entries.size() < (with_golly ? 1u : 2u))
    throw Error("--kernels: fewer than two kernels can run this case (and no --golly), nothing to compare");
  return entries;
}

// After a hash mismatch at `step`: both automata again from the start, one step at a time, to
// the first step and cell where they differ.
std::string locate_difference(Automaton& reference, Automaton& other, const Case& c,
                              const std::vector<std::uint8_t>& pattern, std::uint64_t step) {
  start(reference, c, pattern);
  start(other, c, pattern);
  for (std::uint64_t s = 0; s <= step; ++s) {
    if (s) reference.advance(1), other.advance(1);
    if (reference.hash() != other.hash()) {
      const auto cell = first_mismatch(reference, other);
      return "at step " + std::to_string(s) + ", " + (cell ? cell->describe() : std::string("hashes only"));
    }
  }
  return "(not reproduced step by step)";
}

// bgolly's populations at steps 1..N (-i 1: bounded grids step one generation at a time) and
// its speed from its own timestamps (-b), which leave out reading the pattern.
struct GollyRun {
  std::map<std::uint64_t, std::uint64_t> population;
  double seconds = 0;
};

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char ch : s) q += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return q + "'";
}

std::string run_process(const std::string& command) {
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) throw Error("cannot run " + command);
  std::string out;
  char buffer[4096];
  while (std::size_t n = fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
  if (pclose(pipe) != 0) throw Error("bgolly failed: " + command + "\n" + out);
  return out;
}

std::uint64_t golly_number(std::string text) {
  text.erase(std::remove(text.begin(), text.end(), ','), text.end());
  return std::stoull(text);
}

GollyRun run_golly(const Case& c, const std::vector<std::uint8_t>& initial, std::uint64_t steps) {
  if (c.elementary || c.grid.dims != 2 || !c.life.two_state())
    throw Error("--golly runs two-state Life-like rules on 2D grids (bgolly's QuickLife)");
  const Boundary& b = c.grid.boundary;
  if (b.kind == BoundaryKind::reflective || (b.kind == BoundaryKind::fixed && b.value != 0))
    throw Error("--golly: Golly has no grid with this boundary (only periodic and fixed:0)");
  const std::string rule = rule_text(c.life) + (b.kind == BoundaryKind::periodic ? ":T" : ":P") +
                           std::to_string(c.grid.size[0]) + "," + std::to_string(c.grid.size[1]);
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("cellgraph-compare-" + std::to_string(::getpid()) + ".rle");
  {
    std::ofstream out(file);
    write_rle(out, std::vector<std::uint32_t>(initial.begin(), initial.end()), c.grid, rule_text(c.life), 2);
    if (!out) throw Error("cannot write " + file.string());
  }
  const std::string base = "bgolly -a QuickLife -m " + std::to_string(steps) + " -r " + shell_quote(rule) + " ";
  GollyRun run;
  try {
    std::istringstream counts(run_process(base + "-i 1 " + shell_quote(file.string())));
    for (std::string line; std::getline(counts, line);)
      if (auto colon = line.find(": "); colon != std::string::npos && std::isdigit(static_cast<unsigned char>(line[0])))
        run.population[golly_number(line.substr(0, colon))] = golly_number(line.substr(colon + 2));
    std::istringstream times(run_process(base + "-b -q " + shell_quote(file.string())));
    double first = -1, last = 0;
    for (std::string line; std::getline(times, line);) {
      double t;
      std::uint64_t generation;
      if (std::istringstream(line) >> t >> generation) (first < 0 ? first : last) = t, last = t;
    }
    run.seconds = last - first;
  } catch (...) {
    std::filesystem::remove(file);
    throw;
  }
  std::filesystem::remove(file);
  return run;
}

// The copy bandwidth every row's share is measured against, and the line that names it.
std::pair<double, std::string> copy_ceiling(bool gpu, int threads) {
  if (gpu) {
#if CELLGRAPH_HAVE_CUDA
    const double ceiling = cuda::device_copy_bandwidth();
    return {ceiling, "cuda on " + cuda::device_name() + "; device copy bandwidth (2 GiB cudaMemcpy, read + write) " +
                         three_digits(ceiling / 1e9) + " GB/s"};
#endif
    return {0, ""};
  }
  const double ceiling = host_copy_bandwidth(threads);
  return {ceiling, "cpu, " + std::to_string(threads) + " threads; copy bandwidth (read + write) " +
                       three_digits(ceiling / 1e9) + " GB/s"};
}

// The checked run: every kernel the same chunks, their hashes compared after each; the first
// chunk warms up, the others are timed. Fills the reference's population at each check; false
// (with the message printed) where a kernel differs.
bool checked_run(std::vector<Entry>& entries, const Case& c, const std::vector<std::uint8_t>& pattern,
                 std::uint64_t steps, std::uint64_t every, std::map<std::uint64_t, std::uint64_t>& population) {
  Entry& reference = entries.front();
  population = {{0, reference.automaton->population()}};
  Progress progress(Progress::Mode::automatic, steps, c.shape.cell_count() * entries.size());
  for (std::uint64_t done = 0; done < steps || done == 0;) {
    const std::uint64_t chunk = std::min(every - done % every, steps - done);
    const bool timed = done > 0 || chunk == steps;
    std::uint64_t reference_hash = 0;
    for (Entry& e : entries) {
      const auto begin = std::chrono::steady_clock::now();
      e.automaton->advance(chunk);
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
      if (timed) e.seconds += seconds, e.timed_steps += chunk;
      const std::uint64_t hash = e.automaton->hash();
      if (&e == &reference) reference_hash = hash;
      else if (hash != reference_hash) {
        const std::string where = locate_difference(*reference.automaton, *e.automaton, c, pattern, done + chunk);
        std::cerr << "cellgraph compare: " << e.automaton->name() << " differs from " << reference.automaton->name()
                  << " " << where << "\n";
        return false;
      }
    }
    done += chunk;
    population[done] = reference.automaton->population();
    std::cout << "step " << done << ": hash " << std::hex << reference_hash << std::dec << ", population "
              << population[done] << (entries.size() > 1 ? ", all " + std::to_string(entries.size()) + " agree" : "")
              << "\n";
    progress.update(done);
    if (steps == 0) break;
  }
  progress.finish();
  return true;
}

// The rates table: each kernel's updates per second, bytes per update, share of the copy
// bandwidth and ratio to the graph engine.
void print_table(const std::vector<Entry>& entries, const std::optional<GollyRun>& golly, std::uint64_t cells,
                 std::uint64_t steps, double ceiling, bool markdown) {
  auto rate_of = [&](const Entry& e) {
    return e.seconds > 0 ? double(cells) * double(e.timed_steps) / e.seconds : 0.0;
  };
  double graph_rate = 0;
  for (const Entry& e : entries)
    if (e.kind == "graph") graph_rate = rate_of(e);
  if (markdown)
    std::cout << "\n| kernel | cell updates/s | bytes/update | % of copy | vs graph engine |\n|---|---|---|---|---|\n";
  auto row = [&](const std::string& name, double rate, double bytes) {
    const std::string percent = bytes > 0 ? three_digits(100 * rate * bytes / ceiling) : "-";
    const std::string ratio = graph_rate > 0 ? three_digits(rate / graph_rate) + "x" : "-";
    if (markdown)
      std::cout << "| " << name << " | " << three_digits(rate) << " | " << (bytes > 0 ? three_digits(bytes) : "-")
                << " | " << percent << " | " << ratio << " |\n";
    else
      std::cout << std::left << std::setw(64) << name << std::right << std::setw(10) << three_digits(rate)
                << " updates/s  " << std::setw(7) << (bytes > 0 ? three_digits(bytes) : "-") << " B/update  "
                << std::setw(5) << percent << "% of copy  " << std::setw(7) << ratio << " vs graph engine\n";
  };
  for (const Entry& e : entries) row(e.automaton->name(), rate_of(e), e.automaton->bytes_per_update());
  if (golly && golly->seconds > 0)
    row("bgolly QuickLife (1 thread)", double(cells) * double(steps) / golly->seconds, 0);
}

}  // namespace

int compare_command(const Args& args) {
  po::variables_map vm;
  if (!parse_options(
          args, compare_options(),
          "usage: cellgraph compare --grid WxH (--fill D | --pattern FILE) [--rule R] [--steps N] "
          "[--check-every K] [--kernels graph,byte,bitpacked] [--backend cpu|cuda] [--golly]\n"
          "       cellgraph compare --model cloud --grid WxHxD [--param NAME=VALUE ...] [--fill D] [--steps N] ...",
          vm))
    return 0;
  const Case c = read_case(vm);
  const std::uint64_t steps = get_unsigned<std::uint64_t>(vm, "steps");
  const std::uint64_t every = get_unsigned<std::uint64_t>(vm, "check-every");
  if (every == 0) throw Error("--check-every must be at least 1");
  const std::string backend = vm["backend"].as<std::string>();
  if (backend != "auto" && backend != "cpu" && backend != "cuda")
    throw Error("--backend must be cpu, cuda or auto, not " + quoted_text(backend));
  const bool gpu = backend == "cuda" || (backend == "auto" && cuda_device_available());
  KernelOptions options;
  options.threads = vm["threads"].as<int>();
  if (options.threads < 0) throw Error("--threads must be 0 or more");
  options.generations_per_pass = vm["generations-per-pass"].as<int>();
  const int threads = options.threads > 0 ? options.threads : omp_get_max_threads();
  if (vm["golly"].as<bool>() && (c.elementary || !c.life.two_state() || c.grid.dims != 2))
    throw Error("--golly runs two-state Life-like rules on 2D grids (bgolly's QuickLife)");

  // The graph engine holds the grid's compiled layout; the dense kernels start from a byte a cell.
  if (vm["kernels"].as<std::string>().find("graph") != std::string::npos) check_grid_memory(c.grid);
  else
    check_memory(2 * c.grid.cell_count(),
                 "--grid " + vm["grid"].as<std::string>() + " (" + std::to_string(c.grid.cell_count()) + " cells)");
  // The ceiling first: the graph engine sets aside L2 for its layout while it lives (persisting
  // accesses), which took a 2 GiB copy on an H200 from 4.2 to 1.35 TB/s.
  const auto [ceiling, machine] = copy_ceiling(gpu, threads);
  std::vector<std::string> notes;
  std::vector<Entry> entries = make_entries(c, vm["kernels"].as<std::string>(), gpu ? Device::cuda : Device::cpu,
                                            options, vm["golly"].as<bool>(), notes);
  const std::vector<std::uint8_t> pattern = c.pattern ? pattern_states(c) : std::vector<std::uint8_t>{};
  for (Entry& e : entries) start(*e.automaton, c, pattern);

  const std::uint64_t cells = c.shape.cell_count();
  std::cout << "compare " << c.rule_name << " on " << vm["grid"].as<std::string>() << " " << c.neighborhood_name << " "
            << boundary_text(c.grid.boundary) << " (" << cells << " cells), "
            << (c.pattern ? "pattern " + vm["pattern"].as<std::string>()
                          : "fill " + three_digits(c.density) + " seed " + std::to_string(c.seed))
            << ", " << steps << " steps; " << machine << "\n";
  for (const std::string& note : notes) std::cout << "note: " << note << "\n";

  std::map<std::uint64_t, std::uint64_t> population;
  if (!checked_run(entries, c, pattern, steps, every, population)) return 1;

  std::optional<GollyRun> golly;
  if (vm["golly"].as<bool>()) {
    const std::vector<std::uint8_t> initial = c.pattern ? pattern : [&] {
      auto fresh = make_life_automaton(KernelKind::byte, Device::cpu, c.shape, c.life, {threads});
      start(*fresh, c, pattern);
      return fresh->states();
    }();
    golly = run_golly(c, initial, steps);
    for (const auto& [step, live] : population)
      if (step > 0 && golly->population.count(step) && golly->population.at(step) != live) {
        std::cerr << "cellgraph compare: bgolly's population at step " << step << " is " << golly->population.at(step)
                  << ", " << entries.front().automaton->name() << "'s " << live << "\n";
        return 1;
      }
    std::cout << "bgolly QuickLife: populations agree at every check\n";
  }

  print_table(entries, golly, cells, steps, ceiling, vm["markdown"].as<bool>());
  std::cout << "timed: advance() over steps " << (steps > every ? every : 0) << ".." << steps
            << " (the first chunk warms up; hashing not timed)"
            << (golly ? "; bgolly: its own timestamps from generation 0 to " + std::to_string(steps) : "") << "\n";
  return 0;
}

}  // namespace cellgraph::cli
