#include <doctest/doctest.h>

#include <algorithm>

#include "cellgraph/coloring.hpp"
#include "cellgraph/error.hpp"
#include "cellgraph/source/generators.hpp"
#include "cellgraph/source/source.hpp"
#include "model_runs.hpp"

using namespace cellgraph;
using namespace cellgraph::test;

namespace {

std::vector<std::uint32_t> user_colors(const Layout& L, const std::vector<std::uint32_t>& local) {
  std::vector<std::uint32_t> user(local.size());
  for (std::uint32_t v = 0; v < L.num_vertices; ++v) user[L.local_to_user[v]] = local[v];
  return user;
}

}  // namespace

TEST_CASE("coloring: greedy colors are proper on grids, meshes and graphs with hubs") {
  const Graph graphs[] = {build_grid_graph(square_grid(37, 23)), random_geometric_graph(5000, 8, 3),
                          rmat_graph(12, 16, 5)};
  for (const Graph& g : graphs) {
    CompileOptions small_hubs;
    small_hubs.hub_degree = 64;
    small_hubs.giant_degree = 300;
    const Layout L = compile(g, small_hubs);
    const auto colors = greedy_coloring(L, 1);
    CHECK_NOTHROW(check_coloring(L, colors));
    std::uint32_t max_degree = *std::max_element(L.degree.begin(), L.degree.end());
    CHECK(*std::max_element(colors.begin(), colors.end()) <= max_degree);  // first fit never needs more
  }
}

TEST_CASE("coloring: on one-way stencils no class holds a cell and one that reads it") {
  // Each cell reads the cells two and three to its right and one above: nobody reads back.
  const std::vector<Offset> one_way = {{2, 0, 0}, {3, 0, 0}, {0, -1, 0}};
  const Graph g = build_grid_graph(square_grid(41, 29, one_way, {BoundaryKind::fixed, 0}));
  CHECK_FALSE(g.symmetric);
  CHECK(build_grid_graph(square_grid(8, 8)).symmetric);
  const Layout L = compile(g);
  const auto colors = greedy_coloring(L, 3);
  CHECK_NOTHROW(check_coloring(L, colors));  // every cell against the cells it reads
  CHECK(user_colors(L, colors) == greedy_coloring(g, 3));
  CHECK_NOTHROW(check_coloring(L, user_colors(L, greedy_coloring(g, 3))));
  // In place, a class's cells then see only earlier classes: any thread count, the same run.
  auto one = make_model("lifelike", {{"rule", "B1/S1"}}, g, with_update("colored", 3, 1));
  auto two = make_model("lifelike", {{"rule", "B1/S1"}}, g, with_update("colored", 3, 2));
  const auto start = random_fill(g.num_vertices(), 0.3, 9);
  one->set_states(start);
  two->set_states(start);
  one->advance(20);
  two->advance(20);
  CHECK(one->states() == two->states());
}

TEST_CASE("coloring: a broken coloring is reported") {
  const Layout L = compile(build_grid_graph(square_grid(8, 8)));
  auto colors = greedy_coloring(L, 1);
  const std::uint32_t v = L.user_to_local[0], right = L.user_to_local[1];
  colors[right] = colors[v];
  CHECK_THROWS_AS(check_coloring(L, colors), Error);
}

TEST_CASE("coloring: colors follow user ids, not the layout, the seed changes them") {
  const Graph g = rmat_graph(11, 8, 2);
  CompileOptions other;
  other.sort_window = 7;
  other.hub_degree = 40;
  const Layout a = compile(g), b = compile(g, other);
  CHECK(user_colors(a, greedy_coloring(a, 9)) == user_colors(b, greedy_coloring(b, 9)));
  CHECK(user_colors(a, greedy_coloring(a, 9)) != user_colors(a, greedy_coloring(a, 10)));
}

TEST_CASE("coloring: classes list every vertex once, ascending, giants and hubs first") {
  CompileOptions c;
  c.hub_degree = 64;
  c.giant_degree = 300;
  const Layout L = compile(rmat_graph(12, 16, 5), c);
  REQUIRE(L.num_giant_hubs > 0);
  const auto colors = greedy_coloring(L, 4);
  const ColorClasses k = color_classes(L, colors);
  CHECK(k.begin.back() == L.num_vertices);
  std::vector<int> seen(L.num_vertices, 0);
  for (std::uint32_t c = 0; c < k.count(); ++c) {
    CHECK(k.begin[c] <= k.giant_end[c]);
    CHECK(k.giant_end[c] <= k.hub_end[c]);
    CHECK(k.hub_end[c] <= k.begin[c + 1]);
    for (std::uint32_t i = k.begin[c]; i < k.begin[c + 1]; ++i) {
      const std::uint32_t v = k.vertices[i];
      ++seen[v];
      CHECK(colors[v] == c);
      if (i > k.begin[c]) CHECK(k.vertices[i - 1] < v);
      CHECK((v < L.num_giant_hubs) == (i < k.giant_end[c]));
      CHECK((v < L.num_hub_vertices()) == (i < k.hub_end[c]));
    }
  }
  CHECK(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
}

TEST_CASE("colored updates: a class sees the new states of the classes before it") {
  // Two cells joined by an edge; B1/S: a dead cell with one live neighbor is born, a live
  // cell dies. From (live, dead), whichever cell goes first decides the outcome.
  const Graph g = graph_from_edges(2, {{0, 1}});
  auto sim = make_model("lifelike", {{"rule", "B1/S"}}, g, with_update("colored", 5));
  sim->set_states({1, 0});
  sim->advance(1);
  const bool zero_first = coloring_priority(5, 0) > coloring_priority(5, 1);
  // 0 first: 0 dies, then 1 sees no live neighbor. 1 first: 1 is born, then 0 dies.
  CHECK(sim->states() == (zero_first ? std::vector<std::uint32_t>{0, 0} : std::vector<std::uint32_t>{0, 1}));
  auto sync = make_model("lifelike", {{"rule", "B1/S"}}, g);
  sync->set_states({1, 0});
  sync->advance(1);
  CHECK(sync->states() == std::vector<std::uint32_t>{0, 1});
}

TEST_CASE("update rules: spellings and errors") {
  CHECK(parse_update_rule("sync").mode == UpdateMode::synchronous);
  CHECK(parse_update_rule("colored").mode == UpdateMode::colored);
  CHECK(parse_update_rule("alpha:0.25").alpha == 0.25);
  CHECK(update_rule_text(parse_update_rule("alpha:0.25")) == "alpha:0.25");
  for (const char* bad : {"alpha:0", "alpha:1.5", "alpha:", "alpha:x", "async", ""})
    CHECK_THROWS_AS(parse_update_rule(bad), Error);
}

TEST_CASE("alpha-asynchronous updates: about alpha of the cells update each step") {
  // B012345678/S: every cell that updates flips.
  const Graph g = build_grid_graph(square_grid(200, 100));
  auto sim = make_model("lifelike", {{"rule", "B012345678/S"}}, g, with_update("alpha:0.3", 2));
  sim->advance(1);
  const auto counts = sim->census();
  CHECK(double(counts[1]) / 20000 == doctest::Approx(0.3).epsilon(0.05));  // 3.7 sd
}
