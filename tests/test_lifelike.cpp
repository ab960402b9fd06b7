#include <doctest/doctest.h>

#include "cellgraph/error.hpp"
#include "cellgraph/source/generators.hpp"
#include "cellgraph/source/source.hpp"
#include "models/lifelike.hpp"
#include "models/registry.hpp"

using namespace cellgraph;
using models::parse_lifelike_rule;
using models::rule_string;

namespace {

std::unique_ptr<Simulation> life_on(const Graph& g, const std::string& rule, SimulationOptions o = {},
                                    CompileOptions c = {}) {
  auto layout = std::make_shared<const Layout>(compile(g, c));
  return models::find_model("lifelike").make({{"rule", rule}}, layout, o);
}

GridSpec torus(std::int64_t w, std::int64_t h, Boundary b = {}) {
  GridSpec g;
  g.size = {w, h, 1};
  g.stencil = moore_stencil(2, 1);
  g.boundary = b;
  return g;
}

std::vector<std::uint32_t> cells(const GridSpec& g, std::initializer_list<std::pair<int, int>> live,
                                 std::uint32_t state = 1) {
  std::vector<std::uint32_t> s(g.cell_count(), 0);
  for (auto [x, y] : live) s[g.cell_id(x, y)] = state;
  return s;
}

}  // namespace

TEST_CASE("lifelike: rule spellings") {
  CHECK(rule_string(parse_lifelike_rule("B3/S23")) == "B3/S23");
  CHECK(rule_string(parse_lifelike_rule("s23/b3")) == "B3/S23");
  CHECK(rule_string(parse_lifelike_rule("23/3")) == "B3/S23");
  CHECK(rule_string(parse_lifelike_rule("HighLife")) == "B36/S23");
  CHECK(rule_string(parse_lifelike_rule("B2/S")) == "B2/S");
  CHECK(rule_string(parse_lifelike_rule("/2/3")) == "/2/3");
  CHECK(rule_string(parse_lifelike_rule("B2/S/C3")) == "/2/3");
  CHECK(rule_string(parse_lifelike_rule("345/3/6")) == "345/3/6");
  CHECK(parse_lifelike_rule("345/3/6").states == 6);
  CHECK(rule_string(parse_lifelike_rule("B3,10/S2,3")) == "B3,10/S23");
  CHECK(parse_lifelike_rule("B3,10/S2,3").birth == ((1u << 3) | (1u << 10)));
  for (const char* bad : {"", "B3", "B3/S23/X", "B3/B3", "B9x/S", "/2/1", "/2/257", "B3,64/S", "3/3/3/3", "life2"})
    CHECK_THROWS_AS(parse_lifelike_rule(bad), Error);
  CHECK_THROWS_WITH_AS(parse_lifelike_rule("B3"),
                       "unknown rule 'B3': a B part and an S part are required (B/S notation like "
                       "B3/S23, Generations like /2/3 or B2/S/C3)",
                       Error);
}

TEST_CASE("lifelike: blinker and glider on a torus") {
  GridSpec g = torus(8, 8);
  auto sim = life_on(build_grid_graph(g), "B3/S23");
  const auto blinker = cells(g, {{3, 2}, {3, 3}, {3, 4}});
  sim->set_states(blinker);
  sim->advance(1);
  CHECK(sim->states() == cells(g, {{2, 3}, {3, 3}, {4, 3}}));
  sim->advance(1);
  CHECK(sim->states() == blinker);
  // A glider crosses the 8x8 torus diagonally in 32 generations.
  const auto glider = cells(g, {{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}});
  sim->set_states(glider);
  sim->advance(4);
  CHECK(sim->states() == cells(g, {{2, 1}, {3, 2}, {1, 3}, {2, 3}, {3, 3}}));
  sim->advance(28);
  CHECK(sim->states() == glider);
  CHECK(sim->census() == std::vector<std::uint64_t>{59, 5});
}

TEST_CASE("lifelike: fixed boundary value counts as neighbors") {
  // A live boundary (fixed:1) gives each corner cell 5 live neighbors, each edge cell 3.
  GridSpec g = torus(4, 4, {BoundaryKind::fixed, 1});
  SimulationOptions o;
  o.boundary_value = 1;
  auto sim = life_on(build_grid_graph(g), "B3/S", o);
  sim->set_states(cells(g, {}));
  sim->advance(1);
  CHECK(sim->states() == cells(g, {{1, 0}, {2, 0}, {0, 1}, {3, 1}, {0, 2}, {3, 2}, {1, 3}, {2, 3}}));
  CHECK_THROWS_AS(life_on(build_grid_graph(g), "B3/S", SimulationOptions{BackendKind::cpu, 0, 2, 0}), Error);
}

TEST_CASE("lifelike: Generations dying states (Brian's Brain)") {
  GridSpec g = torus(6, 6);
  auto sim = life_on(build_grid_graph(g), "/2/3");
  CHECK(sim->num_states() == 3);
  sim->set_states(cells(g, {{2, 2}, {3, 2}}));
  sim->advance(1);
  // The two live cells start dying; the four cells touching both are born.
  auto s = sim->states();
  CHECK(s[g.cell_id(2, 2)] == 2);
  CHECK(s[g.cell_id(3, 2)] == 2);
  CHECK(s[g.cell_id(2, 1)] == 1);
  CHECK(s[g.cell_id(3, 3)] == 1);
  CHECK(sim->census()[1] == 4);
  sim->advance(1);
  CHECK(sim->states()[g.cell_id(2, 2)] == 0);
  std::vector<std::uint32_t> bad(g.cell_count(), 3);
  CHECK_THROWS_AS(sim->set_states(bad), Error);
}

TEST_CASE("lifelike: on graphs, counts above 8 and any degree") {
  // A star: the centre has 12 live leaves around it.
  std::vector<std::pair<VertexId, VertexId>> edges;
  for (VertexId leaf = 1; leaf <= 12; ++leaf) edges.emplace_back(0, leaf);
  Graph star = graph_from_edges(13, edges);
  auto sim = life_on(star, "B1,12/S0,12");
  std::vector<std::uint32_t> s(13, 1);
  s[0] = 0;
  sim->set_states(s);
  sim->advance(1);  // the centre is born of 12; each leaf, with 0, survives
  CHECK(sim->states() == std::vector<std::uint32_t>(13, 1));
  sim->advance(1);  // the centre survives with 12; the leaves, with 1, die
  CHECK(sim->census() == std::vector<std::uint64_t>{12, 1});
  CHECK(sim->states()[0] == 1);
}

TEST_CASE("lifelike: the same states whatever the threads and the layout") {
  Graph g = rmat_graph(11, 8, 9);
  const auto fill = random_fill(g.num_vertices(), 0.4, 17);
  std::vector<std::uint32_t> reference;
  for (int threads : {1, 2})
    for (std::uint32_t window : {1u, 4096u})
      for (std::uint32_t hubs : {0u, 16u, 40u}) {
        SimulationOptions o;
        o.threads = threads;
        CompileOptions c;
        c.sort_window = window;
        c.hub_degree = hubs;
        c.giant_degree = hubs == 40 ? 100 : 0;  // giant hubs folded as a block folds them
        auto sim = life_on(g, "B2/S23", o, c);
        sim->set_states(fill);
        sim->advance(12);
        if (reference.empty()) reference = sim->states();
        CHECK(sim->states() == reference);
      }
  CHECK(reference != fill);
}

TEST_CASE("lifelike: random fill is keyed by seed and vertex") {
  auto a = random_fill(10000, 0.5, 1), b = random_fill(10000, 0.5, 1), c = random_fill(10000, 0.5, 2);
  CHECK(a == b);
  CHECK(a != c);
  std::uint64_t live = 0;
  for (auto s : a) live += s;
  CHECK(live > 4800);
  CHECK(live < 5200);
  CHECK_THROWS_AS(random_fill(10, 1.5, 1), Error);
}
