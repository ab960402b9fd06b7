// cellgraph bench --suite movable, its MCA table: the model's notched plate (2D, closed box, the
// default parameters, grips pulling), steps/s with the lists rebuilt every step and with a
// Verlet skin, and the time a rebuild takes (search, compile, every variable moved: the bonds
// travel with their particles).
#include <chrono>
#include <cmath>
#include <iostream>

#include "cellgraph/error.hpp"
#include "models/movable_registry.hpp"
#include "tools/cellgraph/bench/bench_support.hpp"
#include "tools/cellgraph/cli.hpp"

namespace cellgraph::cli {

void bench_mca(const std::vector<std::uint32_t>& sizes, std::uint64_t steps, const CompileOptions& compile,
               const SimulationOptions& options) {
  const models::MovableModelInfo* mca = models::find_movable_model("mca");
  if (!mca) throw Error("the mca model is not registered");
  const models::Params params = {{"thermal", "0.01"}};
  const double radius = mca->radius(params);
  std::cout << "\nMCA plate, 2D, closed box, d 1, k 1, dt 0.05, break 0.05 (r " << radius
            << "), grips pulling at 0.01, thermal 0.01; 6 bond slots + id, flags, proposal per particle\n"
            << "| particles | skin | steps/s | rebuilds / steps | ms per rebuild | ms per step besides rebuilds | "
               "list entries / particle |\n|---|---|---|---|---|---|---|\n";
  for (std::uint32_t n : sizes)
    for (double skin : {0.0, 0.25}) {
      // the plate is about twice as wide as high (models/mca_plate.hpp); a margin of 8 around it
      Box box;
      box.dims = 2;
      box.periodic = false;
      box.length[0] = std::sqrt(std::sqrt(3.0) * n) + 16;
      box.length[1] = 0.5 * box.length[0] + 16;
      MovableOptions movable;
      movable.skin = skin;
      movable.compile = compile;
      auto sim = mca->make(params, box, n, movable, options);
      sim->import_state(mca->initial_state(params, box, n, options.seed), 0);
      sim->advance(2);  // warm-up: buffers allocated
      const RebuildStats before = sim->rebuild_stats();
      const auto start = std::chrono::steady_clock::now();
      sim->advance(steps);
      const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      const RebuildStats after = sim->rebuild_stats();
      const std::uint64_t rebuilds = after.rebuilds - before.rebuilds;
      const double rebuild_seconds = after.seconds - before.seconds;
      std::cout << "| " << n << " | " << skin << " | " << three_digits(double(steps) / total) << " | " << rebuilds
                << " / " << steps << " | " << (rebuilds ? three_digits(rebuild_seconds / double(rebuilds) * 1e3) : "-")
                << " | " << three_digits((total - rebuild_seconds) / double(steps) * 1e3) << " | "
                << three_digits(double(after.entries) / n) << " |\n";
      std::cout.flush();
    }
}

}  // namespace cellgraph::cli
