// Runs the rows of golly_references.hpp through the engine and compares populations.
#pragma once
#include <doctest/doctest.h>

#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "cellgraph/source/pattern.hpp"
#include "data_path.hpp"
#include "golly_references.hpp"
#include "models/registry.hpp"

namespace cellgraph::testing {

// Runs every group of rows (same pattern, rule and grid) whose cost, cells x last generation,
// is within `budget`; returns how many rows were checked. Groups whose pattern does not fit the
// grid are skipped: Golly computes generation 1 from the whole pattern and clips afterwards,
// while the engine drops the outside cells when it places the pattern (MANIFEST rule 3).
inline int check_golly_references(BackendKind backend, double budget, int* unfitting = nullptr) {
  using Key = std::tuple<std::string, std::string, int, int>;
  std::map<Key, std::vector<const GollyReference*>> groups;
  for (const GollyReference& r : kGollyReferences) groups[{r.pattern, r.rule, r.width, r.height}].push_back(&r);
  int checked = 0;
  for (auto& [key, rows] : groups) {
    const auto& [pattern_file, rule_with_suffix, width, height] = key;
    int last = 0;
    for (auto* r : rows) last = std::max(last, r->generation);
    if (double(width) * height * last > budget) continue;
    const auto colon = rule_with_suffix.find(':');
    GridSpec grid;
    grid.size = {width, height, 1};
    grid.stencil = moore_stencil(2, 1);
    grid.boundary.kind = rule_with_suffix[colon + 1] == 'T' ? BoundaryKind::periodic : BoundaryKind::fixed;
    const Pattern pattern = read_pattern_file(data_path("patterns/" + pattern_file));
    auto layout = std::make_shared<const Layout>(compile(build_grid_graph(grid)));
    SimulationOptions options;  // Golly's bounded plane: a fixed boundary of state 0
    options.backend = backend;
    auto sim = models::find_model("lifelike").make({{"rule", rule_with_suffix.substr(0, colon)}}, layout, options);
    std::uint64_t dropped = 0;
    const auto start = place_pattern(pattern, grid, &dropped);
    if (dropped) {
      if (unfitting) *unfitting += int(rows.size());
      continue;
    }
    sim->set_states(start);
    std::sort(rows.begin(), rows.end(), [](auto* a, auto* b) { return a->generation < b->generation; });
    for (const GollyReference* r : rows) {
      sim->advance(std::uint64_t(r->generation) - sim->step());
      const auto census = sim->census();
      std::uint64_t live = 0;
      for (std::size_t s = 1; s < census.size(); ++s) live += census[s];
      INFO(std::string(r->command));
      CHECK(live == std::uint64_t(r->population));
      ++checked;
    }
  }
  return checked;
}

}  // namespace cellgraph::testing
