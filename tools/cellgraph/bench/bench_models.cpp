// cellgraph bench --suite models: every registered random model and update mode on one large
// grid and one mesh-like graph, against synchronous B3/S23 Life on the same source in the same
// run (the engine's plain step, the figure the other suites compare with their baselines).
#include <omp.h>

#include <iomanip>
#include <iostream>
#include <sstream>

#include "cellgraph/error.hpp"
#include "tools/cellgraph/bench/bench_support.hpp"
#include "tools/cellgraph/cli.hpp"

namespace cellgraph::cli {
namespace {

struct ModelCase {
  std::string label, model;
  models::Params params;
  std::string update;
  double fill;  // initial density of state 1
};

const std::vector<ModelCase>& model_cases() {
  static const std::vector<ModelCase> cases = {
      {"life B3/S23 (reference)", "lifelike", {{"rule", "B3/S23"}}, "sync", 0.5},
      {"life B3/S23, p = 0.5", "lifelike", {{"rule", "B3/S23"}, {"p", "0.5"}}, "sync", 0.5},
      {"life B3/S23, alpha 0.5", "lifelike", {{"rule", "B3/S23"}}, "alpha:0.5", 0.5},
      {"life B3/S23, colored", "lifelike", {{"rule", "B3/S23"}}, "colored", 0.5},
      {"sir beta 0.05 tau 8", "sir", {{"beta", "0.05"}, {"tau", "8"}}, "sync", 0.01},
      {"sis beta 0.1 gamma 0.2", "sis", {{"beta", "0.1"}, {"gamma", "0.2"}}, "sync", 0.1},
      {"forest fire p 0.01 f 1e-5", "forestfire", {{"p", "0.01"}, {"f", "0.00001"}}, "sync", 0.5},
      {"ising T 2.27 metropolis", "ising", {{"T", "2.27"}}, "colored", 0.5},
      {"ising T 2.27 glauber", "ising", {{"T", "2.27"}, {"dynamics", "glauber"}}, "colored", 0.5},
  };
  return cases;
}

}  // namespace

int bench_models(const po::variables_map& vm, SimulationOptions options, int repeats) {
  const bool gpu = options.backend == BackendKind::cuda;
  const int threads = options.threads > 0 ? options.threads : omp_get_max_threads();
  const CopyCeiling copy = copy_ceiling(options, threads);
  const double ceiling = copy.bytes_per_s;
  const std::string& machine = copy.machine;
  std::cout << "bench suite models, backend " << machine << "; copy bandwidth (read + write) "
            << three_digits(ceiling / 1e9)
            << " GB/s\nratio: cell updates/s against synchronous B3/S23 Life on the same source, same run\n"
            << "| source | model | update | cell updates/s | bytes/update | % of copy | ratio to Life |\n"
               "|---|---|---|---|---|---|---|\n";
  SourceSpec grid, mesh;
  grid.grid = gpu ? "16384x16384" : "1024x1024";
  mesh.generator = gpu ? "rgg:16777216:8" : "rgg:1048576:8";
  const std::uint64_t steps = gpu ? 20 : 4;
  for (const SourceSpec& spec : {grid, mesh}) {
    const Source source = load_source(spec);
    auto layout = std::make_shared<const Layout>(compile(source.graph, compile_options(vm)));
    const double n = layout->num_vertices;
    double reference_rate = 0;
    for (const ModelCase& c : model_cases()) {
      options.update = parse_update_rule(c.update);
      auto sim = models::find_model(c.model).make(c.params, layout, options);
      sim->set_states(random_fill(layout->num_vertices, c.fill, options.seed));
      sim->advance(steps);  // warm-up: captures the CUDA graphs
      const double rate = n * double(steps) / median_seconds(repeats, [&] { sim->advance(steps); });
      if (reference_rate == 0) reference_rate = rate;
      // Compulsory traffic: every variable read and written, the stored neighbor indices, and
      // for colored updates the class lists.
      double state_bytes = 0;
      for (const auto& variable : sim->export_state()) state_bytes += double(variable.size()) / n;
      const double bytes = 2 * state_bytes + double(layout->index_bytes()) / n + (c.update == "colored" ? 4 : 0);
      std::cout << "| " << source.description << " | " << c.label << " | " << c.update << " | " << three_digits(rate)
                << " | " << three_digits(bytes) << " | " << three_digits(100 * rate * bytes / ceiling) << " | "
                << three_digits(rate / reference_rate) << " |\n";
      std::cout.flush();
    }
  }
  return 0;
}

}  // namespace cellgraph::cli
