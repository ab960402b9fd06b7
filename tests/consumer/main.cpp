// Uses an installed cellgraph through its public headers only: a grid source, its compiled
// layout, the "lifelike" model made by name from the registry, a blinker and a glider run on
// the CPU backend (and on the CUDA backend where the library has it and a GPU is present), and
// a run through the library's driver writing its statistics. Exits non-zero on any mismatch,
// printing what differed.
#include <cstdint>
#include <cstdio>
#include <exception>
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cellgraph/layout.hpp"
#include "cellgraph/run/driver.hpp"
#include "cellgraph/run/writers.hpp"
#include "cellgraph/simulation.hpp"
#include "cellgraph/source/source.hpp"
#include "models/registry.hpp"

namespace {

using namespace cellgraph;
using Cells = std::vector<std::pair<int, int>>;  // (x, y)

int failures = 0;

void check(bool ok, const std::string& what) {
  std::printf("%s: %s\n", ok ? "ok" : "FAILED", what.c_str());
  if (!ok) ++failures;
}

// States in user ids: 1 at the listed cells, shifted by (dx, dy) around the torus.
std::vector<std::uint32_t> states_at(const GridSpec& grid, const Cells& cells, int dx = 0, int dy = 0) {
  std::vector<std::uint32_t> states(grid.cell_count(), 0);
  for (auto [x, y] : cells) states[grid.cell_id((x + dx) % grid.size[0], (y + dy) % grid.size[1])] = 1;
  return states;
}

void run(BackendKind backend, const std::string& name) {
  SourceSpec spec;
  spec.grid = "8x8";  // Moore neighborhood, periodic: the defaults
  const Source source = load_source(spec);
  check(source.grid.has_value() && source.graph.num_vertices() == 64, name + ": an 8x8 grid source");
  const GridSpec& grid = *source.grid;
  auto layout = std::make_shared<const Layout>(compile(source.graph));

  SimulationOptions options;
  options.backend = backend;
  const models::ModelInfo& life = models::find_model("lifelike");
  auto sim = life.make({{"rule", "B3/S23"}}, layout, options);

  const Cells vertical{{3, 2}, {3, 3}, {3, 4}}, horizontal{{2, 3}, {3, 3}, {4, 3}};
  sim->set_states(states_at(grid, vertical));
  sim->advance(1);
  check(sim->states() == states_at(grid, horizontal), name + ": the blinker turns after 1 step");
  sim->advance(1);
  check(sim->states() == states_at(grid, vertical), name + ": and back after 2");

  // A glider moves one cell down and right every 4 generations; on an 8x8 torus it is home
  // again after 32.
  const Cells glider{{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}};
  auto fresh = life.make({{"rule", "B3/S23"}}, layout, options);
  fresh->set_states(states_at(grid, glider));
  fresh->advance(4);
  check(fresh->states() == states_at(grid, glider, 1, 1), name + ": the glider moves (1, 1) in 4 steps");
  fresh->advance(28);
  check(fresh->step() == 32 && fresh->states() == states_at(grid, glider), name + ": and is home after 32");
  const auto census = fresh->census();
  check(census.size() >= 2 && census[0] == 59 && census[1] == 5, name + ": census 59 dead, 5 alive");

  // The run loop is the library's: statistics every 8 steps of a glider, at steps 32 to 64.
  const std::string stats = "consumer-" + name + ".csv";
  RunDriver driver(*fresh);
  driver.add(std::make_unique<CensusStatsWriter>(stats, *fresh, 8));
  const RunResult result = driver.run(64);
  check(!result.stopped() && result.first_step == 32 && fresh->step() == 64, name + ": the driver ran to step 64");
  std::ifstream written(stats);
  std::string line, last;
  int rows = 0;
  for (std::getline(written, line); std::getline(written, line); ++rows) last = line;
  check(rows == 5 && last == "64,59,5", name + ": its statistics have rows 32, 40, ..., 64, the last " + last);
  std::remove(stats.c_str());
}

}  // namespace

int main() {
  try {
    // Every model file's registration ran: the static initializers of objects nothing refers to.
    const auto& registered = cellgraph::models::registered_models();
    std::string names;
    for (const auto& model : registered) names += " " + model.name;
    std::printf("registered models:%s\n", names.c_str());
    bool all = true;
    for (const char* name : {"lifelike", "sir", "ising", "cloud", "golly", "greenberghastings"}) {
      bool found = false;
      for (const auto& model : registered) found = found || model.name == name;
      all = all && found;
      if (!found) std::printf("missing model %s\n", name);
    }
    check(all, "the models of every model file are registered");

    run(cellgraph::BackendKind::cpu, "cpu");
    if (cellgraph::cuda_device_available()) run(cellgraph::BackendKind::cuda, "cuda");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "consumer: %s\n", e.what());
    return 2;
  }
  if (failures) std::fprintf(stderr, "consumer: %d check(s) failed\n", failures);
  return failures ? 1 : 0;
}
