// cellgraph bench: the suites, the plain CSR loop (the CPU baseline) and the host copy ceiling.
#include <omp.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "cellgraph/error.hpp"
#include "cellgraph/state.hpp"
#include "tools/cellgraph/bench/bench_support.hpp"
#if CELLGRAPH_HAVE_CUDA
#include "tools/cellgraph/bench/cusparse_baseline.hpp"
#endif

namespace cellgraph::cli {
namespace {

template <class Model>
void csr_step(const Graph& g, const Model& model, StateRef<typename Model::Vars> cur,
              StateRef<typename Model::Vars> next, int threads) {
  using Vars = typename Model::Vars;
  const std::int64_t n = g.num_vertices();
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t v = 0; v < n; ++v) {
    typename Model::Acc acc = initial_fold(model, CellRead<Vars>{cur, std::uint32_t(v)});
    for (EdgeOffset e = g.offsets[v]; e < g.offsets[v + 1]; ++e) {
      const VertexId u = g.neighbors[e];
      gather_neighbor(model, acc, CellRead<Vars>{cur, u == kBoundaryVertex ? std::uint32_t(n) : u},
                      std::uint32_t(e - g.offsets[v]));
    }
    CellWrite<Vars> out{next, std::uint32_t(v)};
    model.apply(CellRead<Vars>{cur, std::uint32_t(v)}, acc, out,
                CellContext{0, 0, std::uint32_t(v), std::uint32_t(g.offsets[v + 1] - g.offsets[v])});
  }
}

// The METIS sample graphs: small meshes whose steps are bound by launches and latency.
std::vector<BenchCase> metis_sample_cases(std::vector<std::string>& notes) {
  std::vector<BenchCase> cases;
  for (const char* file :
       {"graphs/metis/github-KarypisLab-METIS/4elt.graph", "graphs/metis/debian-libmetis-doc/copter2.graph"}) {
    const std::string path = data_file(file);
    if (!std::filesystem::exists(path)) {
      notes.push_back("skipped " + path + ": not found (run from the repository root or set CELLGRAPH_DATA_DIR)");
      continue;
    }
    SourceSpec s;
    s.graph_file = path;
    cases.push_back({std::filesystem::path(path).filename().string() + " (METIS)", s, 2048, true});
  }
  return cases;
}

}  // namespace

std::string data_file(const std::string& relative) {
  const char* dir = std::getenv("CELLGRAPH_DATA_DIR");
  return std::string(dir && *dir ? dir : "data") + "/" + relative;
}

std::vector<BenchCase> bench_suite(const std::string& name, std::vector<std::string>& notes) {
  if (name == "quick") return {{"grid 512x512 moore", grid("512x512"), 20}, {"rgg 2^16", generated("rgg:65536:6"), 20}};
  if (name == "standard")
    return {{"grid 2048x2048 moore", grid("2048x2048"), 20},
            {"rgg 2^21 (mesh-like)", generated("rgg:2097152:6"), 20},
            {"rmat scale 18 (hubs)", generated("rmat:18:16"), 10}};
  if (name == "gpu") {
    std::vector<BenchCase> cases = {
        {"grid 16384^2 moore", grid("16384x16384"), 20},
        {"grid 16384^2 vonneumann", grid("16384x16384", "vonneumann"), 20},
        {"grid 512^3 moore", grid("512x512x512"), 20},
        {"rgg 2^24 (mesh-like)", generated("rgg:16777216:6"), 20},
        {"rgg 2^24, hilbert order", generated("rgg:16777216:6"), 20, false, VertexOrder::hilbert},
        {"rmat scale 24 (hubs)", generated("rmat:24:16"), 10}};
    for (BenchCase& c : metis_sample_cases(notes)) cases.push_back(std::move(c));
    return cases;
  }
  if (name == "metis") return metis_sample_cases(notes);
  throw Error("unknown suite " + quoted_text(name) + " (quick, standard, gpu, metis)");
}

CopyCeiling copy_ceiling(const SimulationOptions& options, int threads) {
  if (options.backend == BackendKind::cuda) {
#if CELLGRAPH_HAVE_CUDA
    if (!cuda_device_available()) throw Error("--backend cuda: no CUDA device is available");
    return {cuda::device_copy_bandwidth(), "cuda on " + cuda::device_name()};
#else
    throw Error("this build of cellgraph has no CUDA backend (configure where nvcc is found)");
#endif
  }
  return {host_copy_bandwidth(threads), "cpu, " + std::to_string(threads) + " threads"};
}

double host_copy_bandwidth(int threads) {
  const std::size_t n = std::size_t(256) << 20;
  std::vector<char> a(n, 1), b(n, 2);
  const double s = median_seconds(5, [&] {
#pragma omp parallel for num_threads(threads) schedule(static)
    for (std::int64_t chunk = 0; chunk < 256; ++chunk)
      std::memcpy(b.data() + (chunk << 20), a.data() + (chunk << 20), std::size_t(1) << 20);
  });
  return 2.0 * double(n) / s;
}

BaselineRun csr_loop_baseline(const Graph& g, const models::LifeLike& rule, const std::vector<std::uint32_t>& initial,
                              std::uint32_t boundary_value, std::uint64_t steps, int repeats, int threads) {
  using Vars = models::LifeLike::Vars;
  const std::uint32_t n = g.num_vertices();
  HostState<Vars> a(std::size_t(n) + 1), b(std::size_t(n) + 1);
  auto restart = [&] {
    for (std::uint32_t v = 0; v < n; ++v) a.array<0>()[v] = std::uint8_t(initial[v]);
    a.array<0>()[n] = b.array<0>()[n] = std::uint8_t(boundary_value);
  };
  std::vector<double> seconds;
  for (int r = 0; r < repeats; ++r) {
    restart();
    seconds.push_back(median_seconds(1, [&] {
      for (std::uint64_t s = 0; s < steps; ++s) csr_step(g, rule, a.ref(), b.ref(), threads), a.swap(b);
    }));
  }
  std::sort(seconds.begin(), seconds.end());
  BaselineRun run;
  run.seconds_per_step = seconds[seconds.size() / 2] / double(steps);
  run.states.assign(a.array<0>().data(), a.array<0>().data() + n);
  run.detail = "OpenMP, " + std::to_string(threads) + " threads";
  return run;
}

}  // namespace cellgraph::cli
