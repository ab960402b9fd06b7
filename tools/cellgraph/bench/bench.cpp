// cellgraph bench: cell updates per second of the graph engine on standard sources, the
// achieved bandwidth against a copy measured in the same run, and the ratio to the baseline a
// user would write instead, run in the same process from the same start: a plain CSR loop on
// the CPU backend, cuSPARSE CSR SpMV plus a rule kernel on the CUDA backend. The baseline's
// final states must equal the engine's; a mismatch fails the command.
#include <omp.h>

#include <iomanip>
#include <iostream>
#include <limits>
#include <memory>
#include <sstream>

#include "cellgraph/error.hpp"
#include "cellgraph/identity.hpp"
#include "cellgraph/output/progress.hpp"
#include "models/lifelike.hpp"
#include "tools/cellgraph/bench/bench_support.hpp"
#include "tools/cellgraph/cli.hpp"
#if CELLGRAPH_HAVE_CUDA
#include "tools/cellgraph/bench/cusparse_baseline.hpp"
#endif

namespace cellgraph::cli {
namespace {

struct EngineRun {
  double seconds_per_step = 0;
  double bytes_per_update = 0;
  std::vector<std::uint32_t> states;  // after `steps` steps from the start
};

// Warms up, then times advance(steps) (it synchronises with the device): the median of
// `repeats`. Then runs `steps` steps from `initial` once more for the check. Layout and
// simulation are released on return, leaving the memory to the baseline.
EngineRun run_engine(const Graph& graph, const models::LifeLike& rule, const std::vector<std::uint32_t>& initial,
                     std::uint64_t steps, int repeats, const CompileOptions& compile_opts,
                     const SimulationOptions& options) {
  auto layout = std::make_shared<const Layout>(compile(graph, compile_opts));
  auto sim = models::find_model("lifelike").make({{"rule", models::rule_string(rule)}}, layout, options);
  sim->set_states(initial);
  sim->advance(steps);                 // warm-up (on CUDA, captures the step graphs when steps fill one)
  if (steps % 2) sim->advance(steps);  // and those starting from the other buffer
  EngineRun run;
  run.seconds_per_step = median_seconds(repeats, [&] { sim->advance(steps); }) / double(steps);
  // Compulsory traffic: own state read and written, every stored neighbor index (padding
  // included); neighbor states are assumed to come from cache.
  run.bytes_per_update = 2.0 + double(layout->index_bytes()) / double(layout->num_vertices);
  sim->set_states(initial);
  sim->advance(steps);
  run.states = sim->states();
  return run;
}

BaselineRun run_baseline(bool gpu, const Graph& graph, const models::LifeLike& rule,
                         const std::vector<std::uint32_t>& initial, std::uint64_t steps, int repeats,
                         const SimulationOptions& options, int threads) {
  if (!gpu) return csr_loop_baseline(graph, rule, initial, options.boundary_value, steps, repeats, threads);
#if CELLGRAPH_HAVE_CUDA
  cuda::SpmvBaselineResult r = cuda::run_cusparse_life(graph, rule, initial, options.boundary_value, int(steps),
                                                       repeats, int(std::min<std::uint64_t>(steps, 64)));
  return {r.seconds_per_step, std::move(r.states), std::move(r.algorithm)};
#else
  throw Error("this build of cellgraph has no CUDA backend (configure where nvcc is found)");
#endif
}

// "states agree", or the first vertex where they do not.
std::string compare_states(const std::vector<std::uint32_t>& engine, const std::vector<std::uint32_t>& baseline,
                           bool& agree) {
  const auto mismatch = first_difference(engine, baseline);
  agree = !mismatch;
  return agree ? "states agree" : "STATES DIFFER (engine vs baseline) at " + mismatch->describe();
}

}  // namespace

int bench_command(const Args& args) {
  po::options_description d("cellgraph bench");
  d.add_options()("help,h", "show this help")(
      "suite", po::value<std::string>()->default_value("standard"),
      "quick, standard, gpu (the standard GPU set: 16384^2 Moore and von Neumann grids, a 512^3 Moore grid, a "
      "2^24-vertex rgg in its own and in Hilbert order, R-MAT scale 24, METIS samples), "
      "metis (the METIS samples alone: 4elt and copter2), "
      "models (every random model and update mode on a grid and an rgg, against Life), "
      "partition (under mpirun -np N: Life on N parts, METIS and blocks, exchange hidden by the interior), "
      "ensemble (many members on one layout against one plain run: Life on an rgg and a Moore grid, SIR on "
      "4elt, an Ising temperature sweep), "
      "or movable (the Vicsek model: steps/s and neighbor-list rebuilds at 10^6 and 10^7 particles, 10^5 and "
      "10^6 on the CPU, the search against all pairs; movable-quick: small sizes)")(
      "repeats", po::value<int>()->default_value(5), "timed repeats per case (the median is reported)")(
      "markdown", po::bool_switch(), "print the table as Markdown (for BENCHMARKS.md)")(
      "cases", po::value<std::string>()->default_value(""), "only the suite's cases whose names contain this text");
  d.add(backend_options()).add(layout_options());
  po::variables_map vm;
  if (!parse_options(args, d, "usage: cellgraph bench [--suite standard] [--backend cpu]", vm)) return 0;
  const SimulationOptions options = simulation_options(vm);
  const int repeats = vm["repeats"].as<int>();
  if (repeats < 1) throw Error("--repeats must be at least 1");
  const int threads = options.threads > 0 ? options.threads : omp_get_max_threads();
  const bool markdown = vm["markdown"].as<bool>();
  const bool gpu = options.backend == BackendKind::cuda;
  const std::string suite = vm["suite"].as<std::string>();
  if (suite == "models") return bench_models(vm, options, repeats);
  if (suite == "partition") return bench_partition(vm, options, repeats);
  if (suite == "ensemble") return bench_ensemble(vm, options, repeats);
  if (suite == "movable" || suite == "movable-quick") return bench_movable(vm, options, repeats, suite);
  const models::LifeLike life = models::parse_lifelike_rule("B3/S23");
  std::vector<std::string> notes;
  std::vector<BenchCase> cases = bench_suite(suite, notes);
  const std::string only = vm["cases"].as<std::string>();
  std::erase_if(cases, [&](const BenchCase& c) { return c.name.find(only) == std::string::npos; });
  if (cases.empty()) throw Error("no case of the " + suite + " suite is named like " + quoted_text(only));

  // The ceiling, measured now on the machine that runs the steps.
  double ceiling = 0;
  std::string baseline_name, baseline_line;
  if (gpu) {
#if CELLGRAPH_HAVE_CUDA
    if (!cuda_device_available()) throw Error("--backend cuda: no CUDA device is available");
    ceiling = cuda::device_copy_bandwidth();
    std::cout << "bench suite " << suite << ", backend cuda on " << cuda::device_name()
              << "; device copy bandwidth (2 GiB cudaMemcpy, read + write) " << three_digits(ceiling / 1e9)
              << " GB/s; model B3/S23, 50% random fill\n";
    baseline_name = "cuSPARSE";
    baseline_line =
        "baseline: cuSPARSE CSR SpMV (float) for the live counts + one rule kernel per step, the faster "
        "of CUSPARSE_SPMV_CSR_ALG1/ALG2, timed with CUDA events, from the same start";
#else
    throw Error("this build of cellgraph has no CUDA backend (configure where nvcc is found)");
#endif
  } else {
    ceiling = host_copy_bandwidth(threads);
    const std::string backend =
        options.backend == BackendKind::reference ? "reference" : "cpu (" + cpu_vector_instructions() + ")";
    std::cout << "bench suite " << suite << ", backend " << backend << ", " << threads
              << " threads; copy bandwidth (read + write) " << three_digits(ceiling / 1e9)
              << " GB/s; model B3/S23, 50% random fill\n";
    baseline_name = "CSR loop";
    baseline_line = "baseline: plain CSR loop over the graph (the same rule, OpenMP, " + std::to_string(threads) +
                    " threads), from the same start";
  }
  for (const std::string& note : notes) std::cout << "note: " << note << "\n";
  std::cout << baseline_line << "\n";
  if (markdown)
    std::cout
        << "| case | vertices | cell updates/s | bytes/update | GB/s | % of copy | baseline updates/s | speed-up |\n"
           "|---|---|---|---|---|---|---|---|\n";

  std::vector<std::string> checks;
  int mismatches = 0;
  // Between cases, which take seconds to minutes each: which one is next and the time left.
  Progress progress(Progress::Mode::automatic, cases.size(), 0, "", "case");
  for (const BenchCase& c : cases) {
    progress.update(std::uint64_t(&c - cases.data()));
    const Source source = load_source(c.source);
    const std::uint32_t vertices = source.graph.num_vertices();
    const std::vector<std::uint32_t> fill = random_fill(vertices, 0.5, options.seed);
    CompileOptions compile_opts = compile_options(vm);
    if (c.order) compile_opts.order = *c.order;
    const EngineRun engine = run_engine(source.graph, life, fill, c.steps, repeats, compile_opts, options);
    // A baseline that cannot run this case (cuSPARSE refusing a size, say) is reported, not fatal.
    BaselineRun base;
    std::string check;
    try {
      base = run_baseline(gpu, source.graph, life, fill, c.steps, repeats, options, threads);
      bool agree = false;
      check = compare_states(engine.states, base.states, agree);
      if (!agree) ++mismatches;
    } catch (const Error& e) {
      base.seconds_per_step = std::numeric_limits<double>::quiet_NaN();
      base.detail = std::string("failed: ") + e.what();
      check = "baseline unavailable";
    }

    const double n = vertices, rate = n / engine.seconds_per_step, bandwidth = rate * engine.bytes_per_update;
    const double base_rate = n / base.seconds_per_step, speedup = base.seconds_per_step / engine.seconds_per_step;
    const std::string percent = three_digits(100 * bandwidth / ceiling);
    std::string rate_cell = three_digits(rate), base_cell = three_digits(base_rate);
    if (c.report_steps_per_s) {
      rate_cell += " (" + three_digits(1 / engine.seconds_per_step) + " steps/s)";
      base_cell += " (" + three_digits(1 / base.seconds_per_step) + " steps/s)";
    }
    if (markdown) {
      std::cout << "| " << c.name << " | " << vertices << " | " << rate_cell << " | "
                << three_digits(engine.bytes_per_update) << " | " << three_digits(bandwidth / 1e9) << " | " << percent
                << " | " << base_cell << " | " << three_digits(speedup) << "x |\n";
      checks.push_back(c.name + ": " + check + " after " + std::to_string(c.steps) + " steps (baseline " + base.detail +
                       ")");
    } else {
      std::cout << std::left << std::setw(24) << c.name << std::right << std::setw(10) << vertices << " cells  "
                << std::setw(9) << rate_cell << " updates/s  " << std::setw(5) << three_digits(engine.bytes_per_update)
                << " B/update  " << std::setw(6) << three_digits(bandwidth / 1e9) << " GB/s (" << percent
                << "% of copy)  " << baseline_name << " " << base_cell << " updates/s: x" << three_digits(speedup)
                << "  " << check << " [" << base.detail << "]\n";
    }
    std::cout.flush();
  }
  progress.finish();
  if (markdown && !checks.empty()) {
    std::cout << "\nBaseline states after the same steps from the same start:\n";
    for (const std::string& line : checks) std::cout << "- " << line << "\n";
  }
  if (mismatches) {
    std::cerr << "cellgraph bench: the baseline's states differ from the engine's in " << mismatches << " case"
              << (mismatches > 1 ? "s" : "") << "\n";
    return 1;
  }
  return 0;
}

}  // namespace cellgraph::cli
