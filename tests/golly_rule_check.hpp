// Running Golly rule files (the golly model) on tori and comparing with bgolly: the rows of
// golly_rule_references.hpp, and patterns compared inside their bounding boxes (bgolly writes
// RLE without a position).
#pragma once
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "cellgraph/source/grid.hpp"
#include "cellgraph/source/pattern.hpp"
#include "data_path.hpp"
#include "golly_rule_references.hpp"
#include "models/registry.hpp"

namespace cellgraph::testing {

inline GridSpec golly_torus(std::int64_t width, std::int64_t height, const std::string& neighborhood = "moore") {
  GridSpec grid;
  grid.size = {width, height, 1};
  grid.stencil = parse_stencil(neighborhood, 2);
  return grid;
}

// The golly model running data/rules/RULE.rule.
inline std::unique_ptr<Simulation> golly_simulation(const std::string& rule, const GridSpec& grid,
                                                    SimulationOptions options = {},
                                                    CompileOptions compile_options = {}) {
  auto layout = std::make_shared<const Layout>(compile(build_grid_graph(grid), compile_options));
  return models::find_model("golly").make({{"rule", rule}, {"dir", data_path("rules")}}, layout, options);
}

// A soup: each cell live with probability `density`, in a state from 1 to states - 1.
inline std::vector<std::uint32_t> random_soup(std::size_t cells, std::uint32_t states, double density,
                                              std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::bernoulli_distribution live(density);
  std::uniform_int_distribution<std::uint32_t> state(1, states - 1);
  std::vector<std::uint32_t> soup(cells, 0);
  for (auto& s : soup)
    if (live(rng)) s = state(rng);
  return soup;
}

// The non-zero cells inside their bounding box, row by row (0 outside the pattern).
struct Crop {
  std::int64_t width = 0, height = 0;
  std::vector<std::uint32_t> cells;
  friend bool operator==(const Crop&, const Crop&) = default;
};

inline Crop crop_of_cells(const std::vector<PatternCell>& live) {
  Crop c;
  if (live.empty()) return c;
  std::int64_t x0 = live[0].x, y0 = live[0].y, x1 = x0, y1 = y0;
  for (const PatternCell& p : live) {
    x0 = std::min(x0, p.x), x1 = std::max(x1, p.x);
    y0 = std::min(y0, p.y), y1 = std::max(y1, p.y);
  }
  c.width = x1 - x0 + 1;
  c.height = y1 - y0 + 1;
  c.cells.assign(std::size_t(c.width * c.height), 0);
  for (const PatternCell& p : live) c.cells[std::size_t((p.y - y0) * c.width + (p.x - x0))] = p.state;
  return c;
}

// States of a width x height grid, row-major.
inline Crop crop_of_states(const std::vector<std::uint32_t>& states, std::int64_t width) {
  std::vector<PatternCell> live;
  for (std::size_t i = 0; i < states.size(); ++i)
    if (states[i]) live.push_back({std::int64_t(i) % width, std::int64_t(i) / width, states[i]});
  return crop_of_cells(live);
}

// Where two crops first differ, for messages; empty when they are equal.
inline std::string crop_difference(const Crop& engine, const Crop& golly) {
  if (engine.width != golly.width || engine.height != golly.height)
    return "bounding boxes differ: engine " + std::to_string(engine.width) + "x" + std::to_string(engine.height) +
           ", bgolly " + std::to_string(golly.width) + "x" + std::to_string(golly.height);
  for (std::size_t i = 0; i < engine.cells.size(); ++i)
    if (engine.cells[i] != golly.cells[i])
      return "cell (" + std::to_string(std::int64_t(i) % engine.width) + "," +
             std::to_string(std::int64_t(i) / engine.width) + ") of the bounding box: engine " +
             std::to_string(engine.cells[i]) + ", bgolly " + std::to_string(golly.cells[i]);
  return "";
}

inline std::uint64_t live_cells(const Simulation& sim) {
  const std::vector<std::uint64_t> census = sim.census();
  std::uint64_t live = 0;
  for (std::size_t s = 1; s < census.size(); ++s) live += census[s];
  return live;
}

// Runs every group of rows (same pattern, rule, torus and neighborhood) from its pattern,
// checking the population at each row's generation and the final pattern where bgolly wrote
// one. Returns the rows checked.
inline int check_golly_rule_references(BackendKind backend) {
  using Key = std::tuple<std::string, std::string, int, int, std::string>;
  std::map<Key, std::vector<const GollyRuleReference*>> groups;
  for (const GollyRuleReference& r : kGollyRuleReferences)
    groups[{r.pattern, r.rule, r.width, r.height, r.neighborhood}].push_back(&r);
  int checked = 0;
  for (auto& [key, rows] : groups) {
    const auto& [pattern_file, rule, width, height, neighborhood] = key;
    const GridSpec grid = golly_torus(width, height, neighborhood);
    SimulationOptions options;
    options.backend = backend;
    options.threads = 1;  // grids this small gain nothing from threads (a parallel region per step)
    auto sim = golly_simulation(rule, grid, options);
    std::uint64_t dropped = 0;
    sim->set_states(place_pattern(read_pattern_file(data_path("patterns/" + pattern_file)), grid, &dropped));
    REQUIRE(dropped == 0);
    std::sort(rows.begin(), rows.end(), [](auto* a, auto* b) { return a->generation < b->generation; });
    for (const GollyRuleReference* r : rows) {
      sim->advance(std::uint64_t(r->generation) - sim->step());
      INFO(r->command);
      CHECK(live_cells(*sim) == std::uint64_t(r->population));
      if (r->final_rle) {
        const Crop golly = crop_of_cells(read_pattern_file(data_path("patterns/" + std::string(r->final_rle))).cells);
        const Crop engine = crop_of_states(sim->states(), width);
        CHECK_MESSAGE(engine == golly, crop_difference(engine, golly));
      }
      ++checked;
    }
  }
  return checked;
}

}  // namespace cellgraph::testing
