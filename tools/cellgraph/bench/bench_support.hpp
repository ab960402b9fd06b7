// cellgraph bench, the parts bench.cpp (the command and its table) takes from bench_suites.cpp:
// the suites, the CPU baseline and the host copy ceiling.
#pragma once
#include <algorithm>
#include <boost/program_options/variables_map.hpp>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cellgraph/graph.hpp"
#include "cellgraph/simulation.hpp"
#include "cellgraph/source/source.hpp"
#include "models/lifelike.hpp"

namespace cellgraph::cli {

// bench --suite models (bench_models.cpp) and --suite partition (bench_partition.cpp).
int bench_models(const boost::program_options::variables_map& vm, SimulationOptions options, int repeats);
int bench_partition(const boost::program_options::variables_map& vm, SimulationOptions options, int repeats);
// bench --suite ensemble (bench_ensemble.cpp).
int bench_ensemble(const boost::program_options::variables_map& vm, SimulationOptions options, int repeats);
// bench --suite movable or movable-quick (bench_movable.cpp).
int bench_movable(const boost::program_options::variables_map& vm, SimulationOptions options, int repeats,
                  const std::string& suite);
// Its MCA table (bench_mca.cpp): the model's plate at each size, `steps` timed steps each.
void bench_mca(const std::vector<std::uint32_t>& sizes, std::uint64_t steps, const CompileOptions& compile,
               const SimulationOptions& options);

// Sources by their spec: a grid ("4096x4096", Moore unless named) or a generator ("rgg:N:8").
inline SourceSpec grid(const std::string& size, const std::string& neighborhood = "moore") {
  SourceSpec s;
  s.grid = size;
  s.neighborhood = neighborhood;
  return s;
}
inline SourceSpec generated(const std::string& spec) {
  SourceSpec s;
  s.generator = spec;
  return s;
}

// The copy ceiling of the backend `options` names, measured now (read + write bytes/s), and
// the machine in words ("cuda on NVIDIA H200", "cpu, 2 threads"). Throws Error for CUDA
// without a device.
struct CopyCeiling {
  double bytes_per_s = 0;
  std::string machine;
};
CopyCeiling copy_ceiling(const SimulationOptions& options, int threads);

// data/RELATIVE of the repository; CELLGRAPH_DATA_DIR overrides the folder (a copy of the
// tree run from elsewhere), as for the tests.
std::string data_file(const std::string& relative);

struct BenchCase {
  std::string name;
  SourceSpec source;
  std::uint64_t steps;                    // per timed run
  bool report_steps_per_s = false;        // small graphs: steps/s says more than cells/s
  std::optional<VertexOrder> order = {};  // the case's own vertex order, over --order
};

// The cases of a suite: quick, standard, or gpu (the standard GPU set). Graph files that are
// not there are left out, with a line in `notes` each. Throws Error for an unknown name.
std::vector<BenchCase> bench_suite(const std::string& name, std::vector<std::string>& notes);

// Median wall time of `repeats` calls of run().
template <class F>
double median_seconds(int repeats, F&& run) {
  std::vector<double> t;
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    run();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// Bytes/s of a large host copy, read + write counted: the ceiling for a memory-bound step.
double host_copy_bandwidth(int threads);

struct BaselineRun {
  double seconds_per_step = 0;
  std::vector<std::uint32_t> states;  // after the last timed run, user order
  std::string detail;                 // the configuration timed, for the report
};

// The CPU baseline a user would write first: the same rule over the CSR rows with OpenMP, no
// layout (the boundary cell at index n). Median of `repeats` runs of `steps` steps, each from
// `initial`.
BaselineRun csr_loop_baseline(const Graph& g, const models::LifeLike& rule, const std::vector<std::uint32_t>& initial,
                              std::uint32_t boundary_value, std::uint64_t steps, int repeats, int threads);

}  // namespace cellgraph::cli
