// The random models' rules, their parameters, and reproducibility: the same seed gives the
// same states for any thread count and layout; another seed gives other states.
#include <doctest/doctest.h>

#include <algorithm>

#include "cellgraph/error.hpp"
#include "cellgraph/source/generators.hpp"
#include "cellgraph/source/source.hpp"
#include "model_runs.hpp"

using namespace cellgraph;
using namespace cellgraph::test;

namespace {

std::vector<std::uint32_t> one_at(std::uint32_t n, std::uint32_t v, std::uint32_t state = 1) {
  std::vector<std::uint32_t> s(n, 0);
  s[v] = state;
  return s;
}

struct Case {
  const char* model;
  models::Params params;
  const char* update;
};

const Case kCases[] = {
    {"sir", {{"beta", "0.3"}, {"tau", "3"}}, "sync"},
    {"sir", {{"beta", "0.2"}, {"gamma", "0.3"}}, "alpha:0.7"},
    {"sis", {{"beta", "0.3"}, {"gamma", "0.2"}}, "colored"},
    {"forestfire", {{"p", "0.05"}, {"f", "0.001"}}, "sync"},
    {"ising", {{"T", "2.5"}}, "colored"},
    {"ising", {{"T", "1.5"}, {"dynamics", "glauber"}, {"h", "0.1"}}, "alpha:0.5"},
    {"lifelike", {{"rule", "B3/S23"}, {"p", "0.7"}}, "sync"},
    {"lifelike", {{"rule", "/2/3"}, {"p", "0.9"}}, "colored"},
    {"rulenumber", {{"kind", "outer"}, {"rule", "224"}}, "alpha:0.5"},
};

}  // namespace

TEST_CASE("sir: an infected cell stays infected tau steps, then recovers for good") {
  auto sim = make_model("sir", {{"beta", "0"}, {"tau", "3"}}, path_graph(3));
  sim->set_states(one_at(3, 1));
  for (int step = 1; step <= 2; ++step) {
    sim->advance(1);
    CHECK(sim->states() == one_at(3, 1));
  }
  sim->advance(1);
  CHECK(sim->states() == one_at(3, 1, 2));
  sim->advance(5);
  CHECK(sim->states() == one_at(3, 1, 2));
}

TEST_CASE("sir and sis: with beta = 1 the infection moves one contact per step") {
  auto sir = make_model("sir", {{"beta", "1"}, {"tau", "1"}}, path_graph(5));
  sir->set_states(one_at(5, 0));
  sir->advance(1);
  CHECK(sir->states() == std::vector<std::uint32_t>{2, 1, 0, 0, 0});
  sir->advance(2);
  CHECK(sir->states() == std::vector<std::uint32_t>{2, 2, 2, 1, 0});
  auto sis = make_model("sis", {{"beta", "1"}, {"tau", "1"}}, path_graph(3));
  sis->set_states(one_at(3, 1));
  sis->advance(1);
  CHECK(sis->states() == std::vector<std::uint32_t>{1, 0, 1});  // recovered to susceptible
  sis->advance(1);
  CHECK(sis->states() == std::vector<std::uint32_t>{0, 1, 0});
}

TEST_CASE("sir: infection needs an infected neighbor, a geometric period ends at rate gamma") {
  const Graph g = erdos_renyi_graph(20000, 4, 1);
  auto sim = make_model("sir", {{"beta", "0"}, {"gamma", "0.25"}}, g);
  std::vector<std::uint32_t> all_infected(20000, 1);
  sim->set_states(all_infected);
  sim->advance(1);
  CHECK(double(sim->census()[2]) / 20000 == doctest::Approx(0.25).epsilon(0.04));  // 3.3 sd
  CHECK(sim->census()[0] == 0);
}

TEST_CASE("forest fire: fire spreads along trees and burns out, growth and lightning") {
  auto fire = make_model("forestfire", {{"p", "0"}, {"f", "0"}}, path_graph(4));
  fire->set_states({2, 1, 1, 0});
  fire->advance(1);
  CHECK(fire->states() == std::vector<std::uint32_t>{0, 2, 1, 0});
  fire->advance(2);
  CHECK(fire->states() == std::vector<std::uint32_t>{0, 0, 0, 0});
  auto grow = make_model("forestfire", {{"p", "1"}, {"f", "0"}}, path_graph(4));
  grow->advance(1);
  CHECK(grow->census()[1] == 4);
  auto lightning = make_model("forestfire", {{"p", "0"}, {"f", "1"}}, path_graph(4));
  lightning->set_states({1, 0, 1, 1});
  lightning->advance(1);
  CHECK(lightning->states() == std::vector<std::uint32_t>{2, 0, 2, 2});
}

TEST_CASE("ising: at T -> 0 Metropolis only lowers the energy, observables are per site") {
  auto sim = make_model("ising", {{"T", "0.000001"}}, build_grid_graph(square_grid(16, 16, von_neumann_stencil(2, 1))),
                        with_update("colored"));
  std::vector<std::uint32_t> up(256, 1);
  up[17] = 0;  // one spin against its four neighbors flips back
  sim->set_states(up);
  CHECK(sim->observable_names() == std::vector<std::string>{"magnetization", "energy"});
  auto before = sim->observables();
  CHECK(before[0] == doctest::Approx(254.0 / 256));
  CHECK(before[1] == doctest::Approx((-512.0 + 8) / 256));  // 512 bonds, 4 broken
  sim->advance(1);
  CHECK(sim->states() == std::vector<std::uint32_t>(256, 1));
  CHECK(sim->observables() == std::vector<double>{1.0, -2.0});
}

TEST_CASE("probabilistic life: p = 1 is the plain rule, p = 0 freezes, p = 1/2 takes half") {
  const Graph g = build_grid_graph(square_grid(64, 64));
  const auto soup = random_fill(4096, 0.4, 3);
  auto plain = make_model("lifelike", {{"rule", "B3/S23"}}, g);
  auto one = make_model("lifelike", {{"rule", "B3/S23"}, {"p", "1"}}, g);
  auto zero = make_model("lifelike", {{"rule", "B3/S23"}, {"p", "0"}}, g);
  auto flip = make_model("lifelike", {{"rule", "B012345678/S"}, {"p", "0.5"}}, g);
  for (auto* s : {plain.get(), one.get(), zero.get(), flip.get()}) s->set_states(soup);
  for (auto* s : {plain.get(), one.get(), zero.get(), flip.get()}) s->advance(1);
  CHECK(one->states() == plain->states());
  CHECK(zero->states() == soup);
  std::uint64_t changed = 0;
  const auto after = flip->states();
  for (std::size_t i = 0; i < soup.size(); ++i) changed += after[i] != soup[i];
  CHECK(double(changed) / 4096 == doctest::Approx(0.5).epsilon(0.07));  // 4.5 sd
}

TEST_CASE("models: parameters are checked by name and range") {
  const Graph g = path_graph(3);
  CHECK_THROWS_WITH_AS(make_model("sir", {{"betta", "0.1"}}, g), doctest::Contains("no parameter 'betta'"), Error);
  CHECK_THROWS_WITH_AS(make_model("sir", {{"beta", "1.5"}}, g), doctest::Contains("beta must be a number"), Error);
  CHECK_THROWS_AS(make_model("ising", {{"T", "0"}}, g), Error);
  CHECK_THROWS_AS(make_model("ising", {{"dynamics", "heatbath"}}, g), Error);
  CHECK_THROWS_AS(make_model("forestfire", {{"rule", "B3/S23"}}, g), Error);
  CHECK_THROWS_AS(make_model("lifelike", {{"p", "-0.1"}}, g), Error);
}

TEST_CASE("models: every model and update mode repeats itself for any thread count and layout") {
  const Graph g = rmat_graph(10, 8, 7);
  CompileOptions other;
  other.sort_window = 5;
  other.hub_degree = 20;
  other.giant_degree = 60;
  const auto start = random_fill(g.num_vertices(), 0.3, 4);
  for (const Case& c : kCases) {
    INFO(c.model, " ", c.update);
    auto reference = make_model(c.model, c.params, g, with_update(c.update, 3, 1));
    auto threaded = make_model(c.model, c.params, g, with_update(c.update, 3, 2), other);
    auto reseeded = make_model(c.model, c.params, g, with_update(c.update, 4, 2));
    for (auto* s : {reference.get(), threaded.get(), reseeded.get()}) {
      s->set_states(start);
      s->advance(7);
    }
    CHECK(reference->export_state() == threaded->export_state());
    CHECK(reference->observables() == threaded->observables());
    CHECK(reference->states() != reseeded->states());
  }
}

TEST_CASE("initial cells: by fraction, by exact count, by list") {
  const auto by_count = random_fill_count(1000, 37, 5);
  CHECK(std::count(by_count.begin(), by_count.end(), 1u) == 37);
  CHECK(by_count == random_fill_count(1000, 37, 5));
  CHECK(by_count != random_fill_count(1000, 37, 6));
  CHECK(random_fill_count(10, 10, 1) == std::vector<std::uint32_t>(10, 1));
  CHECK_THROWS_AS(random_fill_count(10, 11, 1), Error);
  CHECK(listed_cells(5, "0,3") == std::vector<std::uint32_t>{1, 0, 0, 1, 0});
  CHECK_THROWS_WITH_AS(listed_cells(5, "0,5"), doctest::Contains("vertex 5 does not exist"), Error);
  CHECK_THROWS_AS(listed_cells(5, "1,,2"), Error);
  CHECK_THROWS_AS(listed_cells(5, "x"), Error);
}
