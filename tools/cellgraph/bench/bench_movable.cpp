// cellgraph bench --suite movable: the Vicsek model at density 4 (2D, periodic, r 1, v0 0.03,
// eta 0.5): steps/s with the lists rebuilt every step and with a Verlet skin, the time a
// rebuild takes (search, compile, state moved); the same for the MCA plate (bench_mca.cpp);
// then the neighbor search alone against all pairs on one size in the same run, their lists
// compared. Under mpirun -np N the Vicsek runs are partitioned (one region per rank, CPU
// backend; the slowest rank's times) and the MCA and search tables are left out.
#include <omp.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <iostream>

#include "cellgraph/error.hpp"
#include "cellgraph/movable/neighbor_search.hpp"
#include "models/movable_registry.hpp"
#include "partition/mpi.hpp"
#include "tools/cellgraph/bench/bench_support.hpp"
#include "tools/cellgraph/cli.hpp"

namespace cellgraph::cli {
namespace {

struct MovableSizes {
  std::vector<std::uint32_t> particles;  // Vicsek runs and searches
  std::uint32_t all_pairs;               // the search against all pairs
  std::uint64_t steps;                   // per timed run
};

MovableSizes movable_sizes(const std::string& suite, bool gpu) {
  if (suite == "movable-quick") return {{20000}, 2000, 4};
  if (gpu) return {{1000000, 10000000}, 100000, 20};
  return {{100000, 1000000}, 20000, 5};
}

const models::Params kVicsek = {{"eta", "0.5"}, {"r", "1"}, {"v0", "0.03"}};

Box density_four(std::uint32_t particles) {
  Box box;
  box.dims = 2;
  box.length[0] = box.length[1] = std::sqrt(particles / 4.0);
  return box;
}

// The model's random start: positions as the search takes them.
struct Start {
  std::vector<double> x, y;
  PointsView<double> view() const {
    PointsView<double> v;
    v.axis[0] = x.data(), v.axis[1] = y.data();
    v.count = std::uint32_t(x.size());
    return v;
  }
};

Start random_start(const models::MovableModelInfo& vicsek, const Box& box, std::uint32_t particles,
                   std::uint64_t seed) {
  const auto state = vicsek.initial_state(kVicsek, box, particles, seed);
  Start s;
  for (auto [to, bytes] : {std::pair{&s.x, &state[0]}, std::pair{&s.y, &state[1]}}) {
    to->resize(particles);
    std::memcpy(to->data(), bytes->data(), bytes->size());
  }
  return s;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string ms(double seconds) { return three_digits(seconds * 1e3); }

std::uint64_t mpi_sum(std::uint64_t mine) {
  std::vector<std::uint64_t> v = {mine};
  mpi::sum(v);
  return v[0];
}

}  // namespace

int bench_movable(const po::variables_map& vm, SimulationOptions options, int repeats, const std::string& suite) {
  const bool partitioned = mpi::size() > 1, root = mpi::rank() == 0;
  if (partitioned) {
    if (vm["backend"].defaulted()) options.backend = BackendKind::cpu;
    if (!on_host(options.backend))
      throw Error("bench --suite " + suite +
                  " under mpirun: partitioned movable runs use the CPU backend (--backend cpu)");
    options = rank_options(options);
  }
  const bool gpu = options.backend == BackendKind::cuda;
  if (gpu && !cuda_device_available()) throw Error("--backend cuda: no CUDA device is available");
  const int threads = options.threads > 0 ? options.threads : omp_get_max_threads();
  const MovableSizes sizes = movable_sizes(suite, gpu);
  const models::MovableModelInfo* vicsek = models::find_movable_model("vicsek");
  if (!vicsek) throw Error("the vicsek model is not registered");
  const CompileOptions compile = compile_options(vm);
  if (root)
    std::cout << "bench suite " << suite << ", backend "
              << (gpu ? "cuda" : "cpu, " + std::to_string(threads) + " threads")
              << (partitioned ? " per rank, " + std::to_string(mpi::size()) +
                                    " ranks (regions of the box; the slowest rank's times)"
                              : "")
              << "; Vicsek 2D, periodic, density 4, r 1, v0 0.03, eta 0.5, double positions\n"
              << "rebuild: cell-list search within r + skin, compile to the sliced layout, every variable moved to its "
                 "order; step: the sweep (with a skin, the Verlet filter and the displacement check too)\n"
              << "| particles | skin | steps/s | rebuilds / steps | ms per rebuild | ms per step besides rebuilds | "
                 "list entries / particle |\n|---|---|---|---|---|---|---|\n";
  for (std::uint32_t n : sizes.particles)
    for (double skin : {0.0, 0.3}) {
      const Box box = density_four(n);
      MovableOptions movable;
      movable.skin = skin;
      movable.compile = compile;
      movable.part = std::uint32_t(mpi::rank());
      movable.parts = std::uint32_t(mpi::size());
      auto sim = vicsek->make(kVicsek, box, n, movable, options);
      sim->import_state(vicsek->initial_state(kVicsek, box, n, options.seed), 0);
      sim->advance(2);  // warm-up: buffers allocated
      const RebuildStats before = sim->rebuild_stats();
      const auto start = std::chrono::steady_clock::now();
      sim->advance(sizes.steps);
      const double total = mpi::max(seconds_since(start));
      const RebuildStats after = sim->rebuild_stats();
      const std::uint64_t rebuilds = after.rebuilds - before.rebuilds;
      const double rebuild_seconds = mpi::max(after.seconds - before.seconds);
      const double entries = double(partitioned ? mpi_sum(after.entries) : after.entries);
      if (!root) continue;
      std::cout << "| " << n << " | " << skin << " | " << three_digits(double(sizes.steps) / total) << " | " << rebuilds
                << " / " << sizes.steps << " | " << (rebuilds ? ms(rebuild_seconds / double(rebuilds)) : "-") << " | "
                << ms((total - rebuild_seconds) / double(sizes.steps)) << " | " << three_digits(entries / n) << " |\n";
      std::cout.flush();
    }
  if (partitioned) return 0;  // the search is one process's

  bench_mca(sizes.particles, sizes.steps, compile, options);

  std::cout << "\nneighbor search alone (cutoff 1, lists in particle ids), median of " << repeats << ":\n"
            << "| particles | cell list: search ms | compile ms | all pairs ms | all pairs / cell list | lists |\n"
               "|---|---|---|---|---|---|\n";
  std::vector<std::uint32_t> search_sizes = sizes.particles;
  search_sizes.insert(search_sizes.begin(), sizes.all_pairs);
  int mismatches = 0;
  for (std::uint32_t n : search_sizes) {
    const Box box = density_four(n);
    const Start start = random_start(*vicsek, box, n, options.seed);
    double search = 0, compiling = 0, all_pairs = 0;
    std::string lists = "-";
    const bool with_all_pairs = n == sizes.all_pairs;
    if (gpu) {
      const cuda::RebuildTiming t = cuda::time_rebuild(box, 1.0, start.view(), compile, repeats);
      search = t.search_seconds, compiling = t.compile_seconds;
      if (with_all_pairs) {
        all_pairs = cuda::time_all_pairs(box, 1.0, start.view(), repeats);
        const bool agree = cuda::all_pairs_neighbors(box, 1.0, start.view()).neighbors ==
                           in_particle_ids(cuda::find_neighbors(box, 1.0, start.view())).neighbors;
        lists = agree ? "equal" : "DIFFER";
        mismatches += !agree;
      }
    } else {
      NeighborGraph found;
      search = median_seconds(repeats, [&] { found = find_neighbors(box, 1.0, start.view(), threads); });
      compiling = median_seconds(repeats, [&] { compile_neighbors(found, compile); });
      if (with_all_pairs) {
        Graph pairs;
        all_pairs = median_seconds(repeats, [&] { pairs = all_pairs_neighbors(box, 1.0, start.view(), threads); });
        const Graph cells = in_particle_ids(found);
        const bool agree = pairs.offsets == cells.offsets && pairs.neighbors == cells.neighbors;
        lists = agree ? "equal" : "DIFFER";
        mismatches += !agree;
      }
    }
    std::cout << "| " << n << " | " << ms(search) << " | " << ms(compiling) << " | "
              << (with_all_pairs ? ms(all_pairs) : "-") << " | "
              << (with_all_pairs ? three_digits(all_pairs / search) + "x" : "-") << " | " << lists << " |\n";
    std::cout.flush();
  }
  if (mismatches) {
    std::cerr << "cellgraph bench: the cell list's neighbor lists differ from all pairs'\n";
    return 1;
  }
  return 0;
}

}  // namespace cellgraph::cli
