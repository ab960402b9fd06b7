// cellgraph bench --suite ensemble: an ensemble of R members on one compiled layout against one
// plain run of the same case in the same run, in replica-cell updates per second. Member 0 is
// checked against the plain run with its seed after the same steps.
#include <omp.h>

#include <filesystem>
#include <iostream>

#include "cellgraph/ensemble.hpp"
#include "cellgraph/error.hpp"
#include "tools/cellgraph/bench/bench_support.hpp"
#include "tools/cellgraph/cli.hpp"

namespace cellgraph::cli {
namespace {

struct EnsembleCase {
  std::string label;
  SourceSpec source;
  std::string model;
  std::vector<models::Params> points;  // the sweep; the plain run takes the first
  std::uint32_t replicas;
  std::uint64_t steps;  // per timed run
  double fill;
};

std::vector<models::Params> temperatures(double first, double last, int count) {
  std::vector<models::Params> points;
  for (int i = 0; i < count; ++i) points.push_back({{"T", std::to_string(first + (last - first) * i / (count - 1))}});
  return points;
}

// The GPU sizes, or the CPU's, a few times smaller.
std::vector<EnsembleCase> ensemble_cases(bool gpu) {
  // SIR infections that last 30 steps from 1% of the cells: every member's outbreak still runs
  // when the timing ends, so no member is skipped as finished.
  const models::Params life{{"rule", "B3/S23"}}, sir{{"beta", "0.1"}, {"tau", "30"}};
  SourceSpec mesh;
  mesh.graph_file = data_file("graphs/metis/github-KarypisLab-METIS/4elt.graph");
  if (!std::filesystem::exists(mesh.graph_file)) throw Error(mesh.graph_file + ": not found (set CELLGRAPH_DATA_DIR)");
  if (gpu)
    return {{"life, rgg 2^22", generated("rgg:4194304:8"), "lifelike", {life}, 64, 10, 0.5},
            {"life, grid 4096^2 Moore", grid("4096x4096", "moore"), "lifelike", {life}, 64, 10, 0.5},
            {"sir, 4elt (METIS)", mesh, "sir", {sir}, 1024, 20, 0.01},
            {"ising 64^2, 32 T x 64", grid("64x64", "vonneumann"), "ising", temperatures(2.0, 2.5, 32), 64, 20, 1.0}};
  return {{"life, rgg 2^18", generated("rgg:262144:8"), "lifelike", {life}, 16, 4, 0.5},
          {"life, grid 1024^2 Moore", grid("1024x1024", "moore"), "lifelike", {life}, 16, 4, 0.5},
          {"sir, 4elt (METIS)", mesh, "sir", {sir}, 64, 10, 0.01},
          {"ising 64^2, 8 T x 16", grid("64x64", "vonneumann"), "ising", temperatures(2.0, 2.5, 8), 16, 10, 1.0}};
}

// Compulsory bytes of one replica-cell update: every variable read and written, the stored
// neighbor indices read once for every word of members (packed: 64 members' bits an 8-byte word,
// else each member's own copies side by side and the indices read once for all), and a colored
// step's class list (4 bytes a vertex, 8 a member pair).
double bytes_per_update(const Layout& layout, const std::vector<std::uint32_t>& widths, std::uint32_t members,
                        std::uint32_t per_word, bool colored) {
  const double n = layout.num_vertices, indices = double(layout.index_bytes()) / n;
  if (per_word > 1) {
    const double words = (members + per_word - 1) / per_word;
    return (2.0 * 8 + indices) * words / members;
  }
  double state = 0;
  for (std::uint32_t w : widths) state += 2.0 * w;
  return state + indices / members + (colored ? (members > 1 ? 8 : 4) : 0);
}

}  // namespace

int bench_ensemble(const po::variables_map& vm, SimulationOptions options, int repeats) {
  const bool gpu = options.backend == BackendKind::cuda;
  const int threads = options.threads > 0 ? options.threads : omp_get_max_threads();
  const CopyCeiling copy = copy_ceiling(options, threads);
  const double ceiling = copy.bytes_per_s;
  const std::string& machine = copy.machine;
  std::cout << "bench suite ensemble, backend " << machine << "; copy bandwidth (read + write) "
            << three_digits(ceiling / 1e9) << " GB/s\n"
            << "ratio: replica-cell updates/s of the ensemble against cell updates/s of one plain run, same run\n"
            << "| case | update | members | members a word | plain updates/s | plain B/update | plain % of copy | "
               "ensemble updates/s "
               "| ensemble B/update | ensemble % of copy | ratio | member 0 |\n"
               "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const EnsembleCase& c : ensemble_cases(gpu)) {
    const Source source = load_source(c.source);
    const models::ModelInfo& model = models::find_model(c.model);
    SimulationOptions run = options;
    if (!vm.count("update")) run.update = model.default_update;
    const bool colored = run.update.mode == UpdateMode::colored;
    auto layout = std::make_shared<const Layout>(compile(source.graph, compile_options(vm)));
    const std::uint32_t n = layout->num_vertices;
    auto ensemble = model.make_ensemble(c.points, c.replicas, layout, run);
    const std::uint32_t members = ensemble->members();
    for (std::uint32_t m = 0; m < members; ++m) {
      const auto fill = random_fill(n, c.fill, ensemble->seed(m));
      if (model.initial_variables)
        ensemble->import_state(m, model.initial_variables(c.points[m / c.replicas], fill, ensemble->seed(m)));
      else ensemble->set_states(m, fill);
    }
    SimulationOptions own = run;
    own.seed = ensemble->seed(0);
    auto plain = model.make(c.points[0], layout, own);
    const auto fill = random_fill(n, c.fill, own.seed);
    if (model.initial_variables) plain->import_state(model.initial_variables(c.points[0], fill, own.seed), 0);
    else plain->set_states(fill);

    plain->advance(c.steps);  // warm-up (captures the CUDA graphs)
    ensemble->advance(c.steps);
    const double plain_rate = double(n) * c.steps / median_seconds(repeats, [&] { plain->advance(c.steps); });
    const double ensemble_rate =
        double(n) * members * c.steps / median_seconds(repeats, [&] { ensemble->advance(c.steps); });
    const bool same = ensemble->export_state(0) == plain->export_state();
    const auto widths = ensemble->variable_widths();
    const double plain_bytes = bytes_per_update(*layout, widths, 1, 1, colored),
                 ensemble_bytes = bytes_per_update(*layout, widths, members, ensemble->members_per_word(), colored);
    std::cout << "| " << c.label << " | " << (colored ? "colored" : "sync") << " | " << members << " | "
              << ensemble->members_per_word() << " | " << three_digits(plain_rate) << " | " << three_digits(plain_bytes)
              << " | " << three_digits(100 * plain_rate * plain_bytes / ceiling) << " | " << three_digits(ensemble_rate)
              << " | " << three_digits(ensemble_bytes) << " | "
              << three_digits(100 * ensemble_rate * ensemble_bytes / ceiling) << " | "
              << three_digits(ensemble_rate / plain_rate) << "x | "
              << (same ? "equals its plain run" : "DIFFERS from its plain run") << " |\n";
    std::cout.flush();
    if (!same) throw Error(c.label + ": member 0 differs from the plain run with its seed");
  }
  return 0;
}

}  // namespace cellgraph::cli
