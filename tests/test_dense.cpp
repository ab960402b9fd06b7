// Dense grid kernels (CPU) against the graph engine, cell for cell; elementary rules against
// published rows and a plain loop.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <cstdio>

#include "cellgraph/dense/automaton.hpp"
#include "cellgraph/dense/bit_logic.hpp"
#include "cellgraph/dense/cell_hash.hpp"
#include "cellgraph/error.hpp"
#include "cellgraph/source/source.hpp"
#include "cli_run.hpp"
#include "dense_check.hpp"
#include "models/lifelike.hpp"

using namespace cellgraph;
using namespace cellgraph::dense;

namespace {

GridShape shape2d(std::int64_t w, std::int64_t h, Edge edge, std::uint32_t value = 0) {
  GridShape s;
  s.size[0] = w;
  s.size[1] = h;
  s.edge = edge;
  s.edge_value = value;
  return s;
}

void check_against_graph(const GridShape& shape, const std::string& rule_name, const std::vector<KernelKind>& kinds,
                         const std::vector<std::uint64_t>& chunks, double density = 0.4) {
  test::check_kernels_against_graph(Device::cpu, shape, rule_name, kinds, chunks, density, {2});
}

const std::vector<KernelKind> kBoth = {KernelKind::byte, KernelKind::bitpacked};

}  // namespace

TEST_CASE("dense: the kernels' rule is the lifelike model's apply") {
  for (const char* name : {"B3/S23", "B36/S23", "B2/S", "B3678/S34678", "/2/3", "B0,13/S2,26/C7", "B3,10/S2,3"}) {
    const models::LifeLike model = models::parse_lifelike_rule(name);
    const LifeRule rule = parse_life_rule(name);
    CHECK(rule_text(rule) == models::rule_string(model));
    for (std::uint32_t s = 0; s < model.states; ++s)
      for (std::uint32_t live = 0; live < 70; ++live) {
        std::uint8_t self = std::uint8_t(s), out = 0;
        StateRef<models::LifeLike::Vars> in{{&self}}, next{{&out}};
        CellWrite<models::LifeLike::Vars> write{next, 0};
        model.apply(CellRead<models::LifeLike::Vars>{in, 0}, live, write, CellContext{});
        CHECK(rule.next(self, live) == out);
      }
  }
}

TEST_CASE("dense: bit-sliced count and rule logic, every neighborhood") {
  // Lane i of the words holds one of the 512 (self, 8 neighbors) combinations.
  for (const char* name : {"B3/S23", "B36/S23", "B2/S", "B3678/S34678", "B0/S8", "B012345678/S"}) {
    const LifeRule rule = parse_life_rule(name);
    for (std::uint32_t base = 0; base < 512; base += 64) {
      std::uint64_t cell[9] = {};
      for (std::uint32_t lane = 0; lane < 64; ++lane)
        for (int k = 0; k < 9; ++k) cell[k] |= std::uint64_t(((base + lane) >> k) & 1) << lane;
      // cell[4] is the centre; rows 0-2, 3-5, 6-8.
      const auto n =
          add_rows(add3(cell[0], cell[1], cell[2]), add3(cell[3], cell[4], cell[5]), add3(cell[6], cell[7], cell[8]));
      const std::uint64_t table = TableLogic(rule)(cell[4], n), conway = ConwayLogic{}(cell[4], n);
      for (std::uint32_t lane = 0; lane < 64; ++lane) {
        const std::uint32_t bits = base + lane, alive = (bits >> 4) & 1;
        const std::uint32_t live = std::uint32_t(__builtin_popcount(bits)) - alive;
        CHECK(((table >> lane) & 1) == rule.next(std::uint8_t(alive), live));
        if (rule.is_conway()) CHECK(((conway >> lane) & 1) == rule.next(std::uint8_t(alive), live));
      }
    }
  }
}

TEST_CASE("dense: byte and bit-packed kernels equal the graph engine on 2D grids") {
  for (auto [w, h] : {std::pair{37, 23}, std::pair{70, 9}, std::pair{129, 5}, std::pair{1, 7}, std::pair{64, 3}})
    for (auto [edge, value] : {std::pair{Edge::periodic, 0u}, std::pair{Edge::fixed, 0u}, std::pair{Edge::fixed, 1u},
                               std::pair{Edge::reflective, 0u}})
      for (const char* rule : {"B3/S23", "B36/S23", "B2/S", "B3678/S34678", "/2/3"})
        check_against_graph(shape2d(w, h, edge, value), rule, kBoth, {1, 2, 13, 31});
  check_against_graph(shape2d(200, 150, Edge::periodic), "B3/S23", kBoth, {1, 100}, 0.5);
  check_against_graph(shape2d(33, 40, Edge::fixed, 2), "345/3/6", kBoth, {1, 20});
}

TEST_CASE("dense: 1D and 3D grids on the byte kernel equal the graph engine") {
  GridShape line = shape2d(301, 1, Edge::periodic);
  line.dims = 1;
  for (Edge edge : {Edge::periodic, Edge::fixed, Edge::reflective}) {
    line.edge = edge;
    check_against_graph(line, "B1/S1", {KernelKind::byte}, {1, 5, 40});
  }
  GridShape cube;
  cube.dims = 3;
  cube.size[0] = 13, cube.size[1] = 11, cube.size[2] = 7;
  for (Neighborhood n : {Neighborhood::moore, Neighborhood::von_neumann})
    for (auto [edge, value] :
         {std::pair{Edge::periodic, 0u}, std::pair{Edge::fixed, 1u}, std::pair{Edge::reflective, 0u}}) {
      cube.neighborhood = n;
      cube.edge = edge;
      cube.edge_value = value;
      check_against_graph(cube, n == Neighborhood::moore ? "B5,6,7/S4,5,6" : "B2/S1,2", {KernelKind::byte}, {1, 4, 9},
                          0.25);
      check_against_graph(cube, "/3/4", {KernelKind::byte}, {1, 6}, 0.3);
    }
}

TEST_CASE("dense: random fill and hash are random_fill's and states_hash's") {
  const GridShape shape = shape2d(131, 17, Edge::periodic);
  const auto fill = random_fill(131 * 17, 0.5, 9);
  for (KernelKind kind : kBoth) {
    auto k = make_life_automaton(kind, Device::cpu, shape, parse_life_rule("B3/S23"), {1});
    k->fill_random(9, 0.5);
    const auto states = k->states();
    CHECK(std::vector<std::uint32_t>(states.begin(), states.end()) == fill);
    CHECK(k->hash() == states_hash(fill));
    std::uint64_t live = 0;
    for (auto s : fill) live += s;
    CHECK(k->population() == live);
  }
  CHECK(states_hash(std::vector<std::uint8_t>{0, 1, 0}) != states_hash(std::vector<std::uint8_t>{1, 0, 0}));
}

namespace {

std::string row_text(const std::vector<std::uint8_t>& row) {
  std::string text;
  for (auto s : row) text += s ? '#' : '.';
  return text;
}

// The plain loop an elementary rule means: every cell from its left, own and right state.
std::vector<std::uint8_t> elementary_step(const std::vector<std::uint8_t>& row, int rule, Edge edge,
                                          std::uint8_t outside) {
  const std::int64_t n = std::int64_t(row.size());
  auto at = [&](std::int64_t x) {
    const std::int64_t i = image(x, n, edge);
    return i < 0 ? outside : row[std::size_t(i)];
  };
  std::vector<std::uint8_t> next(row.size());
  for (std::int64_t x = 0; x < n; ++x) next[std::size_t(x)] = (rule >> (4 * at(x - 1) + 2 * at(x) + at(x + 1))) & 1;
  return next;
}

}  // namespace

TEST_CASE("dense: elementary rules 30 and 110") {
  GridShape line;
  line.dims = 1;
  line.size[0] = 31;
  ElementaryRule rule;
  REQUIRE(parse_elementary_rule("W30", rule));
  auto k = make_elementary_automaton(Device::cpu, line, rule, 1);
  std::vector<std::uint8_t> start(31, 0);
  start[15] = 1;
  k->set_states(start);
  // Rule 30 from one cell (Wolfram, A New Kind of Science, p. 27).
  for (const char* row :
       {"..............###..............", ".............##..#.............", "............##.####............",
        "...........##..#...#...........", "..........##.####.###..........", ".........##..#....#..#.........",
        "........##.####..######........"}) {
    k->advance(1);
    CHECK(row_text(k->states()) == row);
  }
  // Rule 110 grows to the left only.
  REQUIRE(parse_elementary_rule("w110", rule));
  k = make_elementary_automaton(Device::cpu, line, rule, 1);
  k->set_states(start);
  for (const char* row : {"..............##...............", ".............###...............",
                          "............##.#...............", "...........#####..............."}) {
    k->advance(1);
    CHECK(row_text(k->states()) == row);
  }
  // Every boundary, many rules, a random row: the kernel equals the plain loop.
  line.size[0] = 77;
  for (int number : {30, 90, 110, 184, 255, 1})
    for (auto [edge, value] :
         {std::pair{Edge::periodic, 0u}, std::pair{Edge::fixed, 1u}, std::pair{Edge::reflective, 0u}}) {
      line.edge = edge;
      line.edge_value = value;
      auto e = make_elementary_automaton(Device::cpu, line, ElementaryRule{std::uint8_t(number)}, 1);
      e->fill_random(3, 0.5);
      std::vector<std::uint8_t> expected = e->states();
      for (int s = 0; s < 50; ++s) expected = elementary_step(expected, number, edge, std::uint8_t(value));
      e->advance(50);
      CHECK(e->states() == expected);
    }
  for (const char* bad : {"W256", "30", "W", "Wx1", "W1000"}) CHECK_FALSE(parse_elementary_rule(bad, rule));
}

TEST_CASE("dense: what a kernel cannot run is refused with the reason") {
  const LifeRule brain = parse_life_rule("/2/3"), life = parse_life_rule("B3/S23");
  CHECK(unsupported_reason(KernelKind::bitpacked, shape2d(10, 10, Edge::periodic), brain) ==
        "bit-packed kernels run two-state rules only (no Generations)");
  GridShape cube;
  cube.dims = 3;
  cube.size[0] = cube.size[1] = cube.size[2] = 4;
  CHECK_THROWS_WITH_AS(make_life_automaton(KernelKind::bitpacked, Device::cpu, cube, life),
                       "the bit-packed kernel cannot run this: bit-packed kernels run 2D Moore grids only", Error);
  CHECK_THROWS_AS(make_life_automaton(KernelKind::byte, Device::cpu, shape2d(4, 4, Edge::fixed, 2), life), Error);
  CHECK_THROWS_AS(make_life_automaton(KernelKind::byte, Device::cpu, shape2d(0, 4, Edge::periodic), life), Error);
  auto k = make_life_automaton(KernelKind::bitpacked, Device::cpu, shape2d(4, 4, Edge::periodic), life);
  CHECK_THROWS_AS(k->set_states(std::vector<std::uint8_t>(16, 2)), Error);
  CHECK_THROWS_AS(k->set_states(std::vector<std::uint8_t>(15, 0)), Error);
  for (int generations : {-1, 33})
    CHECK_THROWS_WITH_AS(
        make_life_automaton(KernelKind::bitpacked, Device::cpu, shape2d(4, 4, Edge::periodic), life, {0, generations}),
        "generations per pass must be from 1 to 32, or 0 for the kernel's choice", Error);
}

TEST_CASE("dense: cellgraph compare checks every kernel against the graph engine") {
  auto ok = cellgraph::test::run_cli(
      "compare --grid 67x45 --boundary reflective --fill 0.5 --steps 30 --check-every 10 --backend cpu");
  CHECK(ok.status == 0);
  CHECK(ok.out.find(", all 3 agree\n") != std::string::npos);
  CHECK(ok.out.find("bitpacked (cpu") != std::string::npos);
  auto brain = cellgraph::test::run_cli("compare --grid 40x30 --rule /2/3 --fill 0.3 --steps 5 --backend cpu");
  CHECK(brain.status == 0);
  CHECK(brain.out.find("note: bitpacked: skipped: bit-packed kernels run two-state rules only") != std::string::npos);
  for (const char* bad :
       {"--grid 8x8 --fill 0.5 --kernels graph,fast", "--grid 8x8", "--grid 8x8 --fill 0.5 --check-every 0",
        "--grid 8x8 --fill 0.5 --rule W30", "--grid 8x8 --fill 0.5 --boundary reflective --golly"}) {
    auto r = cellgraph::test::run_cli(std::string("compare --backend cpu ") + bad);
    CHECK_MESSAGE(r.status == 1, bad);
    CHECK(r.out.find("error:") != std::string::npos);
  }
}
