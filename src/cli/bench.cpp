// cellgraph bench: cell updates per second of the graph engine on standard sources, the
// achieved bandwidth against a copy measured in the same run, and the ratio to a plain CSR
// loop running the same model (the baseline a user would write first).
#include <algorithm>
#include <chrono>
#include <cstring>
#include <iomanip>
#include <iostream>
#include <memory>

#include "cellgraph/error.hpp"
#include "cellgraph/state.hpp"
#include "models/lifelike.hpp"
#include "src/cli/cli.hpp"

namespace cellgraph::cli {
namespace {

using Clock = std::chrono::steady_clock;

template <class F>
double median_seconds(int repeats, F&& run) {
  std::vector<double> t;
  for (int r = 0; r < repeats; ++r) {
    auto start = Clock::now();
    run();
    t.push_back(std::chrono::duration<double>(Clock::now() - start).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// Bytes/s of a large copy, read + write counted: the ceiling for a memory-bound step.
double copy_bandwidth(int threads) {
  const std::size_t n = std::size_t(256) << 20;
  std::vector<char> a(n, 1), b(n, 2);
  const double s = median_seconds(5, [&] {
#pragma omp parallel for num_threads(threads) schedule(static)
    for (std::int64_t chunk = 0; chunk < 256; ++chunk)
      std::memcpy(b.data() + (chunk << 20), a.data() + (chunk << 20), std::size_t(1) << 20);
  });
  return 2.0 * double(n) / s;
}

// The baseline: the same model over the CSR rows, no layout (boundary cell at index n).
template <class Model>
void csr_step(const Graph& g, const Model& model, StateRef<typename Model::Vars> cur,
              StateRef<typename Model::Vars> next, int threads) {
  using Vars = typename Model::Vars;
  const std::int64_t n = g.num_vertices();
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t v = 0; v < n; ++v) {
    typename Model::Acc acc = model.init();
    for (EdgeOffset e = g.offsets[v]; e < g.offsets[v + 1]; ++e) {
      const VertexId u = g.neighbors[e];
      model.gather(acc, CellRead<Vars>{cur, u == kBoundaryVertex ? std::uint32_t(n) : u},
                   std::uint32_t(e - g.offsets[v]));
    }
    CellWrite<Vars> out{next, std::uint32_t(v)};
    model.apply(CellRead<Vars>{cur, std::uint32_t(v)}, acc, out,
                CellContext{0, 0, std::uint32_t(v), std::uint32_t(g.offsets[v + 1] - g.offsets[v])});
  }
}

struct Case {
  std::string name;
  SourceSpec source;
  std::uint64_t steps;
};

std::vector<Case> suite(const std::string& name) {
  auto grid = [](std::string size) { SourceSpec s; s.grid = size; return s; };
  auto gen = [](std::string spec) { SourceSpec s; s.generator = spec; return s; };
  if (name == "quick") return {{"grid 512x512 moore", grid("512x512"), 20}, {"rgg 2^16", gen("rgg:65536:6"), 20}};
  if (name == "standard")
    return {{"grid 2048x2048 moore", grid("2048x2048"), 20},
            {"rgg 2^21 (mesh-like)", gen("rgg:2097152:6"), 20},
            {"rmat scale 18 (hubs)", gen("rmat:18:16"), 10}};
  throw Error("unknown suite '" + name + "' (quick, standard)");
}

}  // namespace

int bench_command(const Args& args) {
  po::options_description d("cellgraph bench");
  d.add_options()("help,h", "show this help")
      ("suite", po::value<std::string>()->default_value("standard"), "quick or standard")
      ("repeats", po::value<int>()->default_value(5), "timed repeats per case (the median is reported)")
      ("markdown", po::bool_switch(), "print the table as Markdown (for BENCHMARKS.md)");
  d.add(backend_options()).add(layout_options());
  po::variables_map vm;
  if (!parse_options(args, d, "usage: cellgraph bench [--suite standard] [--backend cpu]", vm)) return 0;
  const SimulationOptions options = simulation_options(vm);
  const int repeats = vm["repeats"].as<int>();
  if (repeats < 1) throw Error("--repeats must be at least 1");
  const int threads = options.threads > 0 ? options.threads : omp_get_max_threads();
  const bool markdown = vm["markdown"].as<bool>();
  const models::LifeLike life = models::parse_lifelike_rule("B3/S23");

  const double ceiling = copy_bandwidth(threads);
  std::cout << "backend " << (options.backend == BackendKind::cpu ? "cpu" : "cuda") << ", " << threads
            << " threads; copy bandwidth (read + write) " << std::setprecision(3) << ceiling / 1e9
            << " GB/s; model B3/S23, 50% random fill\n";
  if (markdown)
    std::cout << "| case | vertices | cell updates/s | bytes/update | GB/s | % of copy | CSR loop updates/s | speed-up vs CSR |\n"
                 "|---|---|---|---|---|---|---|---|\n";
  for (const Case& c : suite(vm["suite"].as<std::string>())) {
    Source source = load_source(c.source);
    auto layout = std::make_shared<const Layout>(compile(source.graph, compile_options(vm)));
    auto sim = make_simulation_for(life, layout, options);
    sim->set_states(random_fill(layout->num_vertices, 0.5, options.seed));
    sim->advance(1);  // warm-up
    const double n = layout->num_vertices;
    const double engine = median_seconds(repeats, [&] { sim->advance(c.steps); }) / double(c.steps);

    HostState<models::LifeLike::Vars> a(layout->num_vertices + 1), b(layout->num_vertices + 1);
    const auto fill = random_fill(layout->num_vertices, 0.5, options.seed);
    for (std::uint32_t v = 0; v < layout->num_vertices; ++v) a.array<0>()[v] = std::uint8_t(fill[v]);
    const double csr = median_seconds(repeats, [&] {
      for (std::uint64_t s = 0; s < c.steps; ++s) csr_step(source.graph, life, a.ref(), b.ref(), threads), a.swap(b);
    }) / double(c.steps);

    // Compulsory traffic: own state read and written, every stored neighbor index (padding
    // included); neighbor states are assumed to come from cache.
    const double bytes = 2.0 + 4.0 * double(layout->neighbors.size()) / n;
    const double rate = n / engine, bandwidth = rate * bytes;
    if (markdown)
      std::cout << "| " << c.name << " | " << layout->num_vertices << " | " << std::setprecision(3) << rate
                << " | " << bytes << " | " << bandwidth / 1e9 << " | " << std::setprecision(2)
                << 100 * bandwidth / ceiling << " | " << std::setprecision(3) << n / csr << " | "
                << csr / engine << "x |\n";
    else
      std::cout << std::left << std::setw(24) << c.name << std::right << std::setprecision(3)
                << std::setw(10) << n << " cells  " << std::setw(9) << rate << " updates/s  "
                << std::setw(5) << bytes << " B/update  " << std::setw(6) << bandwidth / 1e9 << " GB/s ("
                << std::setprecision(2) << 100 * bandwidth / ceiling << "% of copy)  CSR loop "
                << std::setprecision(3) << n / csr << " updates/s: x" << csr / engine << "\n";
  }
  return 0;
}

}  // namespace cellgraph::cli
