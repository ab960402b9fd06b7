// Rule numbers: exact decoding, Wolfram's elementary rows, slot order on grids (shifts), and
// numbers that encode Life-like rules equal to the lifelike model.
#include <doctest/doctest.h>

#include <bit>
#include <functional>

#include "cellgraph/error.hpp"
#include "cellgraph/source/generators.hpp"
#include "cellgraph/source/source.hpp"
#include "cli_run.hpp"
#include "model_runs.hpp"
#include "models/rule_number.hpp"

using namespace cellgraph;
using namespace cellgraph::test;
using models::RuleNumber;

namespace {

GridSpec ring(std::int64_t n, int radius = 1) {
  GridSpec g;
  g.dims = 1;
  g.size = {n, 1, 1};
  g.stencil = moore_stencil(1, radius);
  return g;
}

RuleNumber rule_on(const Graph& g, const models::Params& params) {
  return models::read_rule_number(params, compile(g));
}

// The table's entries 0, 1, ... as a string of 0s and 1s.
std::string entries(const RuleNumber& r, std::uint32_t count) {
  std::string s;
  for (std::uint32_t i = 0; i < count; ++i) s += r.entry(i) ? '1' : '0';
  return s;
}

// The rule number, in hex, whose entry i is next(i), for `count` entries.
std::string number_of(std::uint32_t count, const std::function<bool(std::uint32_t)>& next) {
  std::string hex = "0x";
  for (std::uint32_t top = (count + 3) / 4 * 4; top; top -= 4) {
    unsigned nibble = 0;
    for (std::uint32_t i = top - 4; i < top; ++i) nibble |= (i < count && next(i)) << (i % 4);
    hex += "0123456789abcdef"[nibble];
  }
  return hex;
}

// The number whose next state is the cell at index bit `bit`: the rule copies one neighbor.
std::string copying(std::uint32_t count, std::uint32_t bit) {
  return number_of(count, [bit](std::uint32_t i) { return i >> bit & 1; });
}

// Rows of a single live cell in the middle of a ring, '#' live.
std::vector<std::string> elementary_rows(const std::string& rule, std::uint32_t width, int rows) {
  auto sim = make_model("rulenumber", {{"rule", rule}}, build_grid_graph(ring(width)));
  std::vector<std::uint32_t> s(width, 0);
  s[width / 2] = 1;
  sim->set_states(s);
  std::vector<std::string> out;
  for (int r = 0; r < rows; ++r, sim->advance(1)) {
    out.emplace_back();
    for (std::uint32_t c : sim->states()) out.back() += c ? '#' : '.';
  }
  return out;
}

// Both models from the same random start, `steps` steps; the end states, which must not be
// trivial for the comparison to mean anything.
void check_same_as_lifelike(const Graph& g, const models::Params& numbered, const std::string& lifelike,
                            CompileOptions c = {}) {
  auto a = make_model("rulenumber", numbered, g, {}, c);
  auto b = make_model("lifelike", {{"rule", lifelike}}, g);
  const auto start = random_fill(g.num_vertices(), 0.35, 11);
  a->set_states(start);
  b->set_states(start);
  for (int step = 0; step < 40; step += 8) {
    a->advance(8);
    b->advance(8);
    CHECK(a->states() == b->states());
  }
  CHECK(b->census()[1] > 0);
  CHECK(b->census()[0] > 0);
}

}  // namespace

TEST_CASE("rulenumber: decimal and hex numbers decode exactly into 512 bits") {
  models::RuleNumberWords w;
  models::parse_rule_number("110", w);
  CHECK(w[0] == 110);
  models::parse_rule_number(
      "0xDEADbeef00000000"
      "0000000000000001"
      "0000000000000000"
      "0000000000000003",
      w);
  CHECK(w[0] == 3);
  CHECK(w[1] == 0);
  CHECK(w[2] == 1);
  CHECK(w[3] == 0xdeadbeef00000000u);
  models::parse_rule_number("340282366920938463463374607431768211457", w);  // 2^128 + 1
  CHECK((w[0] == 1 && w[1] == 0 && w[2] == 1 && w[3] == 0));
  models::parse_rule_number(
      "134078079299425970995740249982058461274793658205923933777235614437217640300735469768018742981669034276"
      "90031858186486050853753882811946569946433649006084095",
      w);  // 2^512 - 1
  for (std::uint64_t word : w) CHECK(word == ~std::uint64_t(0));
  models::parse_rule_number(
      "134078079299425970995740249982058461274793658205923933777235614437217640300735469768018742981669034276"
      "90031858186486050853753882811946569946433649006084094",
      w);  // 2^512 - 2
  CHECK(w[0] == ~std::uint64_t(1));
  CHECK(w[7] == ~std::uint64_t(0));
  CHECK_THROWS_WITH_AS(models::parse_rule_number(
                           "13407807929942597099574024998205846127479365820592393377723561443721764030073546976801874"
                           "298166903427690031858186486050853753882811946569946433649006084096",
                           w),  // 2^512
                       doctest::Contains("is too large (at most 2^512 - 1)"), Error);
  CHECK_THROWS_AS(models::parse_rule_number("0x1" + std::string(128, '0'), w), Error);
  for (const char* bad : {"", "0x", "-1", "1.5", " 30", "30 ", "3e2", "0x1g", "ff", "+7"})
    CHECK_THROWS_WITH_AS(models::parse_rule_number(bad, w), doctest::Contains("rule must be a whole number"), Error);
}

TEST_CASE("rulenumber: elementary tables in Wolfram's order, entry 4 left + 2 centre + right") {
  const Graph g = build_grid_graph(ring(16));
  CHECK(entries(rule_on(g, {{"rule", "30"}}), 8) == "01111000");  // 000 -> 0, 001 -> 1, ..., 111 -> 0
  CHECK(entries(rule_on(g, {{"rule", "110"}}), 8) == "01110110");
  CHECK(entries(rule_on(g, {{"rule", "0x96"}}), 8) == "01101001");  // 150: left ^ centre ^ right
  const RuleNumber r2 = rule_on(build_grid_graph(ring(16, 2)), {{"rule", "0xffff0000"}, {"radius", "2"}});
  CHECK(entries(r2, 32) == std::string(16, '0') + std::string(16, '1'));
  CHECK(r2.slots == 4);
  // Slot k of a radius-2 row is offset -2, -1, +1, +2: index bits 4, 3, 1, 0; the cell is bit 2.
  CHECK(r2.slot_bit(0) == 4);
  CHECK(r2.slot_bit(1) == 3);
  CHECK(r2.slot_bit(2) == 1);
  CHECK(r2.slot_bit(3) == 0);
}

TEST_CASE("rulenumber: rules 30 and 110 from one live cell, as in A New Kind of Science") {
  CHECK(elementary_rows("30", 15, 8) == std::vector<std::string>{
                                            ".......#.......",
                                            "......###......",
                                            ".....##..#.....",
                                            "....##.####....",
                                            "...##..#...#...",
                                            "..##.####.###..",
                                            ".##..#....#..#.",
                                            "##.####..######",
                                        });
  CHECK(elementary_rows("110", 15, 8) == std::vector<std::string>{
                                             ".......#.......",
                                             "......##.......",
                                             ".....###.......",
                                             "....##.#.......",
                                             "...#####.......",
                                             "..##...#.......",
                                             ".###..##.......",
                                             "##.#.###.......",
                                         });
}

TEST_CASE("rulenumber: a table that copies one neighbor shifts the grid (slot order)") {
  // Radius 2, next = the cell two to the left (index bit 4): everything moves right by 2.
  const GridSpec line = ring(12, 2);
  auto right = make_model("rulenumber", {{"rule", copying(32, 4)}, {"radius", "2"}}, build_grid_graph(line));
  right->set_states({1, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0});
  right->advance(1);
  CHECK(right->states() == std::vector<std::uint32_t>{0, 0, 1, 1, 0, 1, 0, 0, 0, 0, 0, 0});
  // Moore, next = the N neighbor (bit 7: NW N NE W C E SW S SE): everything moves down.
  const GridSpec g = square_grid(5, 4);
  auto down = make_model("rulenumber", {{"kind", "moore"}, {"rule", copying(512, 7)}}, build_grid_graph(g));
  std::vector<std::uint32_t> s(20, 0), moved(20, 0);
  s[g.cell_id(1, 0)] = s[g.cell_id(2, 3)] = 1;
  moved[g.cell_id(1, 1)] = moved[g.cell_id(2, 0)] = 1;
  down->set_states(s);
  down->advance(1);
  CHECK(down->states() == moved);
  // Von Neumann, next = the E neighbor (bit 1: N W C E S): everything moves left.
  auto left = make_model("rulenumber", {{"kind", "vonneumann"}, {"rule", copying(32, 1)}},
                         build_grid_graph(square_grid(5, 4, von_neumann_stencil(2, 1))));
  left->set_states(moved);
  left->advance(1);
  std::vector<std::uint32_t> shifted(20, 0);
  shifted[g.cell_id(0, 1)] = shifted[g.cell_id(1, 0)] = 1;
  CHECK(left->states() == shifted);
}

TEST_CASE("rulenumber: numbers that encode Life-like rules equal the lifelike model") {
  auto life = [](bool self, int n) { return n == 3 || (self && n == 2); };
  const std::string moore_life =
      number_of(512, [&](std::uint32_t i) { return life(i >> 4 & 1, std::popcount(i & ~16u)); });
  const Graph torus = build_grid_graph(square_grid(48, 40));
  check_same_as_lifelike(torus, {{"kind", "moore"}, {"rule", moore_life}}, "B3/S23");
  CompileOptions hubs;  // every cell a hub: partial folds merged by combine()
  hubs.hub_degree = 8;
  check_same_as_lifelike(torus, {{"kind", "moore"}, {"rule", moore_life}}, "B3/S23", hubs);
  check_same_as_lifelike(torus, {{"kind", "outer"}, {"rule", "224"}}, "B3/S23");  // Wolfram's code for Life

  // Von Neumann B1/S012: the index is N W C E S, the cell bit 2.
  const Graph diamond = build_grid_graph(square_grid(48, 40, von_neumann_stencil(2, 1)));
  const std::string vn = number_of(32, [](std::uint32_t i) {
    const int n = std::popcount(i & ~4u);
    return (i & 4) ? n <= 2 : n == 1;
  });
  check_same_as_lifelike(diamond, {{"kind", "vonneumann"}, {"rule", vn}}, "B1/S012");

  // On graph files: totalistic sums 3, 4 (cell included) = B34/S23; outer 224 = Life.
  const Graph graph = erdos_renyi_graph(3000, 5, 2);
  check_same_as_lifelike(graph, {{"kind", "totalistic"}, {"rule", "24"}}, "B34/S23");
  check_same_as_lifelike(graph, {{"kind", "outer"}, {"rule", "224"}}, "B3/S23");
}

TEST_CASE("rulenumber: bad parameters and neighborhoods give clear errors") {
  const Graph line = build_grid_graph(ring(16));
  const Graph square = build_grid_graph(square_grid(8, 8));
  const Graph graph = erdos_renyi_graph(100, 4, 1);
  auto fails = [](const Graph& g, const models::Params& p, const std::string& message) {
    CHECK_THROWS_WITH_AS(make_model("rulenumber", p, g), doctest::Contains(message.c_str()), Error);
  };
  fails(line, {{"rule", "256"}},
        "rule 256 is too large for kind=elementary: 8 neighborhoods of 3 cells, so it must be below 2^8");
  fails(line, {{"rule", "thirty"}}, "rule must be a whole number, decimal or hex (0x...), not 'thirty'");
  fails(line, {{"kind", "hex"}}, "kind must be one of elementary, moore, vonneumann, totalistic, outer");
  fails(line, {{"radius", "5"}}, "radius must be a whole number from 1 to 4");
  fails(line, {{"radius", "2"}},
        "kind=elementary radius=2 needs 4 neighbor slots (a 1D grid with --neighborhood moore:r), but this "
        "grid's cells have 2");
  fails(square, {{"kind", "moore"}, {"radius", "1"}}, "radius applies to kind=elementary only");
  fails(square, {{"kind", "vonneumann"}}, "kind=vonneumann needs 4 neighbor slots");
  fails(line, {{"kind", "moore"}}, "kind=moore needs 8 neighbor slots (a 2D grid with --neighborhood moore)");
  fails(graph, {{"kind", "moore"}}, "kind=moore tells neighbors apart by position");
  fails(graph, {{"kind", "elementary"}}, "on graphs use kind=totalistic or kind=outer");
  fails(square, {{"kind", "totalistic"}, {"rule", "1024"}}, "10 entries for 8 neighbors, so it must be below 2^10");
  fails(square, {{"kind", "outer"}, {"rule", "0x40000"}}, "must be below 2^18");
  fails(square, {{"rulee", "30"}}, "has no parameter 'rulee'");
  CHECK_NOTHROW(make_model("rulenumber", {{"kind", "totalistic"}, {"rule", "1023"}}, square));
  CHECK_NOTHROW(make_model("rulenumber", {{"kind", "outer"}, {"rule", "0x" + std::string(128, 'f')}}, graph));
}

TEST_CASE("rulenumber: the CLI lists the model and runs it") {
  CHECK(run_cli("models").out.find("rulenumber\n") != std::string::npos);
  const auto bad = run_cli("run --model rulenumber --param kind=moore --rule 30 --grid 64 --steps 1");
  CHECK(bad.status == 1);
  CHECK(bad.out.find("kind=moore needs 8 neighbor slots") != std::string::npos);
  CHECK(run_cli("run --model rulenumber --rule 30 --grid 64 --cells 32 --steps 10").status == 0);
}
