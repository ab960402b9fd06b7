// Golly RLE and Life 1.05/1.06 reading, Golly's bounded-grid placement, and the RLE writer.
// Where bgolly is installed (CELLGRAPH_BGOLLY), Golly itself checks placement and the writer.
#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "cellgraph/error.hpp"
#include "cellgraph/source/pattern.hpp"

using namespace cellgraph;

namespace {

const std::string kPatterns = std::string(CELLGRAPH_DATA_DIR) + "/patterns/";

Pattern rle(const std::string& text) {
  std::istringstream in(text);
  return read_rle(in, "t.rle");
}

Pattern life(const std::string& text) {
  std::istringstream in(text);
  return read_life(in, "t.lif");
}

std::string rle_error(const std::string& text) {
  try {
    rle(text);
  } catch (const ParseError& e) {
    return e.what();
  }
  return "no error";
}

std::string life_error(const std::string& text) {
  try {
    life(text);
  } catch (const ParseError& e) {
    return e.what();
  }
  return "no error";
}

using CellSet = std::set<std::tuple<std::int64_t, std::int64_t, std::uint32_t>>;

CellSet cell_set(const Pattern& p) {
  CellSet cells;
  for (const PatternCell& c : p.cells) cells.insert({c.x, c.y, c.state});
  return cells;
}

CellSet shifted(const CellSet& cells, std::int64_t dx, std::int64_t dy) {
  CellSet out;
  for (const auto& [x, y, s] : cells) out.insert({x + dx, y + dy, s});
  return out;
}

GridSpec grid_2d(std::int64_t width, std::int64_t height, BoundaryKind boundary = BoundaryKind::periodic) {
  GridSpec grid;
  grid.dims = 2;
  grid.size = {width, height, 1};
  grid.boundary.kind = boundary;
  return grid;
}

std::uint64_t kept_on(const Pattern& p, std::int64_t width, std::int64_t height) {
  std::uint64_t dropped = 0;
  place_pattern(p, grid_2d(width, height), &dropped);
  return p.cells.size() - dropped;
}

std::string written_rle(const std::vector<std::uint32_t>& states, const GridSpec& grid, const std::string& rule,
                        std::uint32_t num_states) {
  std::ostringstream out;
  write_rle(out, states, grid, rule, num_states);
  return out.str();
}

std::vector<std::uint32_t> random_states(std::size_t n, std::uint32_t num_states, std::mt19937& random) {
  std::uniform_int_distribution<std::uint32_t> state(1, num_states - 1);
  std::bernoulli_distribution live(0.3);
  std::vector<std::uint32_t> states(n, 0);
  for (auto& s : states)
    if (live(random)) s = state(random);
  return states;
}

// --- bgolly ---------------------------------------------------------------------------------

std::string bgolly_path() {
  const std::string path = CELLGRAPH_BGOLLY;
  return !path.empty() && std::filesystem::exists(path) ? path : std::string();
}

std::string temp_file(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("cellgraph-patterns-" + std::to_string(::getpid()) + "-" + name))
      .string();
}

void write_file(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

// Runs bgolly and returns the population it prints last ("gen: pop", pop with thousands
// separators above 999), or -1 if it printed none.
long long bgolly_population(const std::string& arguments) {
  const std::string command = bgolly_path() + " " + arguments + " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  long long population = -1;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe)) {
    std::string line(buffer);
    const std::size_t colon = line.find(": ");
    if (colon == std::string::npos || colon == 0 || line.find_first_not_of("0123456789") != colon) continue;
    std::string digits;
    for (char c : line.substr(colon + 2))
      if (c >= '0' && c <= '9') digits += c;
    if (!digits.empty()) population = std::stoll(digits);
  }
  ::pclose(pipe);
  return population;
}

// The cells Golly keeps of a pattern file on a width x height bounded plane: one generation
// under a rule where every cell survives and none is born. Multi-state patterns run as
// Generations with 256 states, where states >= 2 only age and stay alive.
long long golly_kept(const std::string& file, std::int64_t width, std::int64_t height, bool multistate) {
  const std::string size = std::to_string(width) + "," + std::to_string(height);
  const std::string rule =
      multistate ? "-a Generations -r '012345678//256:P" + size + "'" : "-a QuickLife -r 'B/S012345678:P" + size + "'";
  return bgolly_population(rule + " -m 1 -i 1 '" + file + "'");
}

struct SampleFile {
  const char* path;
  std::size_t cells;
  const char* rule;
  bool multistate;
};

// Cell counts as bgolly reports them at generation 0 ("bgolly -m 0 FILE").
constexpr SampleFile kSampleFiles[] = {
    {"life/r-pentomino.rle", 5, "B3/S23", false},
    {"life/acorn.rle", 7, "B3/S23", false},
    {"life/acorn.lif", 7, "", false},
    {"life/diehard.rle", 7, "B3/S23", false},
    {"life/gosper-glider-gun.rle", 36, "B3/S23", false},
    {"life/gosper-glider-gun-centered.rle", 36, "B3/S23", false},
    {"life/rabbits.lif", 9, "", false},
    {"generations/brians-brain-p3-oscillator.rle", 8, "/2/3", true},
    {"lifelike/ice-nine.rle", 3, "B25678/S5678", false},
    {"other-rules/p42-knightship.rle", 97, "B37/S2-i34q", false},
    {"other-rules/Jitterbug.rle", 33, "R4,C0,M1,S24..38,B22..31,NM", false},
};

}  // namespace

TEST_CASE("patterns: each sample file parses with Golly's cell count and rule") {
  for (const SampleFile& sample : kSampleFiles) {
    CAPTURE(sample.path);
    const Pattern p = read_pattern_file(kPatterns + sample.path);
    CHECK(p.cells.size() == sample.cells);
    CHECK(p.rule == sample.rule);
    CHECK(cell_set(p).size() == p.cells.size());
  }
}

TEST_CASE("patterns: acorn as RLE and as Life 1.05 holds the same cells at the same place") {
  const Pattern from_rle = read_pattern_file(kPatterns + "life/acorn.rle");
  const Pattern from_life = read_pattern_file(kPatterns + "life/acorn.lif");
  CHECK(cell_set(from_rle) == cell_set(from_life));
  CHECK(cell_set(from_rle) == CellSet{{1, 0, 1}, {3, 1, 1}, {0, 2, 1}, {1, 2, 1}, {4, 2, 1}, {5, 2, 1}, {6, 2, 1}});
}

TEST_CASE("patterns: rabbits.lif's bare #P starts the block at (0, 0), as in Golly") {
  const Pattern p = read_pattern_file(kPatterns + "life/rabbits.lif");
  CHECK(cell_set(p) ==
        CellSet{{0, 0, 1}, {4, 0, 1}, {5, 0, 1}, {6, 0, 1}, {0, 1, 1}, {1, 1, 1}, {2, 1, 1}, {5, 1, 1}, {1, 2, 1}});
}

TEST_CASE("patterns: Brian's Brain keeps states A and B") {
  const Pattern p = read_pattern_file(kPatterns + "generations/brians-brain-p3-oscillator.rle");
  std::map<std::uint32_t, int> by_state;
  for (const PatternCell& c : p.cells) ++by_state[c.state];
  CHECK(by_state == std::map<std::uint32_t, int>{{1, 4}, {2, 4}});
  CHECK(cell_set(p).count({1, 1, 2}) == 1);  // "A2B": B at x = 1, 2 of row 1
  CHECK(cell_set(p).count({3, 2, 1}) == 1);  // ".2BA": A at x = 3 of row 2
}

TEST_CASE("patterns: ice-nine's rule names a 20x20 torus and #CXRLE places it") {
  const Pattern p = read_pattern_file(kPatterns + "lifelike/ice-nine.rle");
  CHECK(p.rule == "B25678/S5678");
  CHECK(p.bounded_kind == 'T');
  REQUIRE(p.bounded_size.has_value());
  CHECK(*p.bounded_size == std::array<std::int64_t, 2>{20, 20});
  CHECK(cell_set(p) == CellSet{{-2, -9, 1}, {-1, -9, 1}, {0, -8, 1}});
}

TEST_CASE("patterns: gosper on a 64x64 torus loses 4 cells, the centred one none") {
  const Pattern plain = read_pattern_file(kPatterns + "life/gosper-glider-gun.rle");
  const Pattern centred = read_pattern_file(kPatterns + "life/gosper-glider-gun-centered.rle");
  CHECK(cell_set(centred) == shifted(cell_set(plain), -18, -5));

  std::uint64_t dropped = 99;
  std::vector<std::uint32_t> states = place_pattern(plain, grid_2d(64, 64), &dropped);
  CHECK(dropped == 4);
  CHECK(std::count(states.begin(), states.end(), 1u) == 32);
  states = place_pattern(centred, grid_2d(64, 64), &dropped);
  CHECK(dropped == 0);
  CHECK(std::count(states.begin(), states.end(), 1u) == 36);
}

TEST_CASE("patterns: placement puts Golly's (0, 0) at grid (W/2, H/2), row-major") {
  const Pattern p = rle("#CXRLE Pos=-1,-2\nx = 1, y = 1\nC!\n");  // one state-3 cell at (-1,-2)
  for (const auto& size : {std::pair{5, 5}, {4, 6}, {7, 5}}) {
    const int width = size.first, height = size.second;  // clang 14 cannot capture bindings
    CAPTURE(width);
    CAPTURE(height);
    const GridSpec grid = grid_2d(width, height);
    std::uint64_t dropped = 99;
    const std::vector<std::uint32_t> states = place_pattern(p, grid, &dropped);
    REQUIRE(states.size() == std::size_t(width * height));
    CHECK(dropped == 0);
    CHECK(states[grid.cell_id(width / 2 - 1, height / 2 - 2)] == 3);
    CHECK(std::count(states.begin(), states.end(), 0u) == width * height - 1);
  }
  std::uint64_t dropped = 0;
  place_pattern(p, grid_2d(2, 2), &dropped);  // (-1,-2) is above the top row -1
  CHECK(dropped == 1);
  CHECK_NOTHROW(place_pattern(p, grid_2d(1, 1)));  // dropped may be null

  GridSpec cube = grid_2d(4, 4);
  cube.dims = 3;
  CHECK_THROWS_WITH_AS(place_pattern(p, cube), "a pattern can only be placed on a 2D grid", Error);
}

TEST_CASE("patterns: placement agrees with bgolly on small bounded planes") {
  if (bgolly_path().empty()) {
    MESSAGE("bgolly not found: skipped");
    return;
  }
  for (const SampleFile& sample : kSampleFiles) {
    // Golly gives Larger than Life rules a default bounded grid and centres the pattern in it.
    if (std::string(sample.rule).starts_with("R")) continue;
    const std::string path = kPatterns + sample.path;
    const Pattern p = read_pattern_file(path);
    for (const auto& size :
         {std::pair{1, 1}, {2, 3}, {3, 2}, {4, 4}, {5, 7}, {8, 8}, {13, 6}, {20, 20}, {33, 17}, {64, 64}}) {
      const int width = size.first, height = size.second;  // clang 14 cannot capture bindings
      CAPTURE(sample.path);
      CAPTURE(width);
      CAPTURE(height);
      CHECK(static_cast<long long>(kept_on(p, width, height)) == golly_kept(path, width, height, sample.multistate));
    }
  }
}

TEST_CASE("patterns: bounded-grid suffixes") {
  Pattern p = rle("x = 1, y = 1, rule = B3/S23:T512\no!");
  CHECK(p.rule == "B3/S23");
  CHECK(p.bounded_kind == 'T');
  CHECK(*p.bounded_size == std::array<std::int64_t, 2>{512, 512});

  p = rle("x = 1, y = 1, rule = B3/S23:p30,20\no!");
  CHECK(p.bounded_kind == 'P');
  CHECK(*p.bounded_size == std::array<std::int64_t, 2>{30, 20});

  p = rle("x = 1, y = 1, rule = B3/S23:T7,\no!");  // Golly reads a dangling comma as square
  CHECK(*p.bounded_size == std::array<std::int64_t, 2>{7, 7});

  for (const char* unbounded : {"B3/S23", "B3/S23:", "B3/S23:T", "B3/S23:T0,0"}) {
    CAPTURE(unbounded);
    p = rle(std::string("x = 1, y = 1, rule = ") + unbounded + "\no!");
    CHECK(p.rule == "B3/S23");
    CHECK(p.bounded_kind == 0);
    CHECK_FALSE(p.bounded_size.has_value());
  }

  const auto error = [](const std::string& suffix) {
    return rle_error("#C\nx = 1, y = 1, rule = B3/S23" + suffix + "\no!");
  };
  CHECK(error(":K30*,20") ==
        "t.rle:2: unsupported bounded grid ':K30*,20' (only :T torus and "
        ":P plane grids are supported)");
  CHECK(error(":C30,20") ==
        "t.rle:2: unsupported bounded grid ':C30,20' (only :T torus and "
        ":P plane grids are supported)");
  CHECK(error(":S30") ==
        "t.rle:2: unsupported bounded grid ':S30' (only :T torus and :P plane "
        "grids are supported)");
  CHECK(error(":T30+5,20") == "t.rle:2: unsupported bounded grid ':T30+5,20' (shifted edges are not supported)");
  CHECK(error(":T30,20-2") == "t.rle:2: unsupported bounded grid ':T30,20-2' (shifted edges are not supported)");
  CHECK(error(":T0,20") == "t.rle:2: unsupported bounded grid ':T0,20' (infinite width or height)");
  CHECK(error(":Q3") == "t.rle:2: bad bounded grid suffix ':Q3'");
  CHECK(error(":T3x3") == "t.rle:2: bad bounded grid suffix ':T3x3'");
  CHECK(error(":T3000000000,3") == "t.rle:2: bad bounded grid suffix ':T3000000000,3'");
}

TEST_CASE("patterns: RLE reader is as lenient as Golly where nothing is ambiguous") {
  SUBCASE("cells beyond the declared width and height are kept") {
    CHECK(rle("x = 2, y = 1, rule = B3/S23\n5o$o!\n").cells.size() == 6);
  }
  SUBCASE("a missing '!' ends the pattern at the end of the file") {
    CHECK(cell_set(rle("x = 2, y = 2\n2o$bo")) == CellSet{{0, 0, 1}, {1, 0, 1}, {1, 1, 1}});
  }
  SUBCASE("text after '!' is ignored") {
    CHECK(rle("x = 1, y = 1\no! trailing words $$ zzz\nmore 3").cells.size() == 1);
  }
  SUBCASE("blanks and line breaks between runs; counts may go on across lines") {
    CHECK(cell_set(rle("x=3,y=2,rule=B3/S23\r\n o b\r\n$ 1\r\n2o!")) == cell_set(rle("x = 3, y = 2\nob$12o!")));
    CHECK(rle("x = 12, y = 1\n1\n2o!").cells.size() == 12);
  }
  SUBCASE("no rule; comment lines anywhere; '.' for dead; 'N$' for blank rows") {
    const Pattern p = rle("#N name\n#O author\n\nx = 0, y = 0\n#C in the body\n.A3$2.B!");
    CHECK(p.rule.empty());
    CHECK(cell_set(p) == CellSet{{1, 0, 1}, {2, 3, 2}});
  }
  SUBCASE("multi-character states up to 255") {
    CHECK(cell_set(rle("x = 5, y = 1\nXpAyO2pX!")) ==
          CellSet{{0, 0, 24}, {1, 0, 25}, {2, 0, 255}, {3, 0, 48}, {4, 0, 48}});
  }
  SUBCASE("#r names the rule when the header does not") {
    CHECK(rle("#r B36/S23\nx = 1, y = 1\no!").rule == "B36/S23");
    CHECK(rle("#r B36/S23\nx = 1, y = 1, rule = B3/S23\no!").rule == "B3/S23");
  }
  SUBCASE("#CXRLE Pos sets the top-left; Golly honours it only at the top of the file") {
    CHECK(cell_set(rle("#CXRLE Pos=-7,3 Gen=12\nx = 1, y = 1\no!")) == CellSet{{-7, 3, 1}});
    CHECK(cell_set(rle("#CXRLE Gen=5\n#CXRLE Pos=4,-4\nx = 1, y = 1\no!")) == CellSet{{4, -4, 1}});
    CHECK(cell_set(rle("#C first\n#CXRLE Pos=-7,3\nx = 1, y = 1\no!")) == CellSet{{0, 0, 1}});
  }
  SUBCASE("a bounded rule without Pos centres a pattern that fits, as Golly's readrle does") {
    CHECK(cell_set(rle("x = 3, y = 2, rule = B3/S23:T20,20\n2o$2bo!")) == CellSet{{-1, -1, 1}, {0, -1, 1}, {1, 0, 1}});
  }
  SUBCASE("one that does not fit goes to the grid's top-left, clipped to the grid's size") {
    CHECK(cell_set(rle("x = 3, y = 2, rule = B3/S23:T2,2\n2o$2bo!")) == CellSet{{-1, -1, 1}, {0, -1, 1}});
    CHECK(cell_set(rle("#CXRLE Pos=-5,-5\nx = 3, y = 3, rule = B3/S23:P2,2\n3o$3o$3o!")) ==
          CellSet{{-5, -5, 1}, {-4, -5, 1}, {-5, -4, 1}, {-4, -4, 1}});
  }
}

TEST_CASE("patterns: RLE reader reports malformed input with file and line") {
  const std::string header = "x = 3, y = 3, rule = B3/S23\n";
  CHECK(rle_error("") == "t.rle:0: missing header: expected 'x = W, y = H, rule = R'");
  CHECK(rle_error("#C only comments\n") == "t.rle:0: missing header: expected 'x = W, y = H, rule = R'");
  CHECK(rle_error("#C comment\n2o$o!\n") == "t.rle:2: missing header: expected 'x = W, y = H, rule = R'");
  CHECK(rle_error("#C\nx = a, y = 1\no!") == "t.rle:2: bad header 'x = a, y = 1': expected 'x = W, y = H, rule = R'");
  CHECK(rle_error("#C\nx = -3, y = 1\no!") == "t.rle:2: bad header 'x = -3, y = 1': expected 'x = W, y = H, rule = R'");
  CHECK(rle_error("#C\nx = 3, y = 1, rule =\no!") ==
        "t.rle:2: bad header 'x = 3, y = 1, rule =': expected 'x = W, y = H, rule = R'");
  CHECK(rle_error("#C\nx = 3 y = 1\no!") == "t.rle:2: bad header 'x = 3 y = 1': expected 'x = W, y = H, rule = R'");
  CHECK(rle_error(header + "2o$3z!") == "t.rle:2: unexpected character 'z' in the pattern");
  CHECK(rle_error(header + "o$\no\x01!") == "t.rle:3: unexpected character byte 0x01 in the pattern");
  CHECK(rle_error(header + "2o$\n3") == "t.rle:3: count 3 is not followed by a cell or '$'");
  CHECK(rle_error(header + "2o$3!") == "t.rle:2: count 3 is not followed by a cell or '$'");
  CHECK(rle_error(header + "2o$3 o!") == "t.rle:2: count 3 is not followed by a cell or '$'");
  CHECK(rle_error(header + "0o!") == "t.rle:2: count 0 before a cell or '$'");
  CHECK(rle_error(header + "o$\n$yP!") == "t.rle:3: state 256 ('yP') is above 255");
  CHECK(rle_error(header + "qq!") == "t.rle:2: state prefix 'q' is not followed by a letter A..X");
  CHECK(rle_error(header + "o\nq") == "t.rle:3: state prefix 'q' is not followed by a letter A..X");
  CHECK(rle_error("#CXRLE Pos=3\nx = 1, y = 1\no!") == "t.rle:1: bad #CXRLE position '3': expected Pos=x,y");
  CHECK(rle_error(header + "9999999999o!") == "t.rle:2: count is too large");
}

TEST_CASE("patterns: Life 1.05 blocks, rules and Life 1.06 cells") {
  SUBCASE("#P x y places a block; a bare #P goes on below the previous one") {
    const Pattern p = life("#Life 1.05\n#D two blocks\n#P -3 4\n*.*\n\n.*\n#P\n**\n#P 10 -1\n*\n");
    CHECK(p.rule.empty());
    CHECK(cell_set(p) == CellSet{{-3, 4, 1}, {-1, 4, 1}, {-2, 5, 1}, {-3, 6, 1}, {-2, 6, 1}, {10, -1, 1}});
  }
  SUBCASE("#N is Conway's Life; #R s/b becomes B/S") {
    CHECK(life("#Life 1.05\n#N\n#P 0 0\n*\n").rule == "B3/S23");
    CHECK(life("#Life 1.05\n#R 23/36\n#P 0 0\n*\n").rule == "B36/S23");
    CHECK(life("#Life 1.05\n#R /2\n*\n").rule == "B2/S");
    const Pattern bounded = life("#Life 1.05\n#R 23/3:T10,12\n*\n");
    CHECK(bounded.rule == "B3/S23");
    CHECK(bounded.bounded_kind == 'T');
    CHECK(*bounded.bounded_size == std::array<std::int64_t, 2>{10, 12});
    CHECK(life("#Life 1.05\n#R 345/2/4\n*\n").rule == "345/2/4");
  }
  SUBCASE("Life 1.06 lists cells; repeats count once") {
    const Pattern p = life("#Life 1.06\r\n0 -1\r\n-2 3\r\n  7   8  \r\n0 -1\r\n");
    CHECK(p.cells.size() == 3);
    CHECK(cell_set(p) == CellSet{{0, -1, 1}, {-2, 3, 1}, {7, 8, 1}});
  }
  SUBCASE("errors") {
    CHECK(life_error("#Life 1.05\n#P 1\n*\n") == "t.lif:2: bad #P line: expected '#P x y'");
    CHECK(life_error("#Life 1.05\n#P\n*o*\n") == "t.lif:3: unexpected character 'o' in a #P block row");
    CHECK(life_error("#Life 1.06\n1 2\n1 x\n") == "t.lif:3: bad cell line '1 x': expected 'x y'");
    CHECK(life_error("#Life 1.06\n1 2 3\n") == "t.lif:2: bad cell line '1 2 3': expected 'x y'");
    CHECK(life_error("#Life 1.05\nhello\n") == "t.lif:2: unexpected line 'hello'");
    CHECK(life_error("#Life 1.05\n#R\n") == "t.lif:2: #R without a rule");
    CHECK(life_error("#Life 1.05\n#R 23/3:K4,4\n") ==
          "t.lif:2: unsupported bounded grid ':K4,4' (only :T torus and :P plane grids are "
          "supported)");
  }
}

TEST_CASE("patterns: read_pattern_file chooses the reader by content") {
  const std::string lif = temp_file("life.rle");  // a Life 1.06 file named .rle
  write_file(lif, "\n\n#Life 1.06\n5 5\n");
  CHECK(cell_set(read_pattern_file(lif)) == CellSet{{5, 5, 1}});
  std::filesystem::remove(lif);

  const std::string bad = temp_file("bad.lif");  // RLE named .lif; the error names the file
  write_file(bad, "#C\nx = 1, y = 1\nz!\n");
  CHECK_THROWS_WITH_AS(read_pattern_file(bad), (bad + ":3: unexpected character 'z' in the pattern").c_str(),
                       ParseError);
  std::filesystem::remove(bad);

  CHECK_THROWS_WITH_AS(read_pattern_file("/nonexistent/x.rle"),
                       "cannot open /nonexistent/x.rle: No such file or directory", Error);
}

TEST_CASE("patterns: write_rle writes Golly's RLE") {
  SUBCASE("two states: Pos of the live cells, 'b'/'o', trailing dead cells left out") {
    const GridSpec grid = grid_2d(6, 5);
    std::vector<std::uint32_t> states(30, 0);
    states[grid.cell_id(2, 1)] = 1;
    states[grid.cell_id(3, 2)] = 1;
    states[grid.cell_id(1, 3)] = 1;
    states[grid.cell_id(2, 3)] = 1;
    states[grid.cell_id(3, 3)] = 1;
    CHECK(written_rle(states, grid, "B3/S23", 2) == "#CXRLE Pos=-2,-1\nx = 3, y = 3, rule = B3/S23:T6,5\nbo$2bo$3o!\n");
  }
  SUBCASE("many states: '.', letters, prefixed letters, blank rows merged; a plane is :P") {
    const GridSpec grid = grid_2d(7, 6, BoundaryKind::fixed);
    std::vector<std::uint32_t> states(42, 0);
    states[grid.cell_id(1, 0)] = 2;
    states[grid.cell_id(2, 0)] = 2;
    states[grid.cell_id(4, 0)] = 25;
    states[grid.cell_id(6, 4)] = 255;
    CHECK(written_rle(states, grid, "/2/3:T9,9", 256) ==
          "#CXRLE Pos=-2,-3\nx = 6, y = 5, rule = /2/3:P7,6\n2B.pA4$5.yO!\n");
  }
  SUBCASE("an empty grid; no rule") {
    CHECK(written_rle(std::vector<std::uint32_t>(12, 0), grid_2d(4, 3), "B3/S23", 2) ==
          "x = 0, y = 0, rule = B3/S23:T4,3\n!\n");
    CHECK(written_rle({0, 1}, grid_2d(2, 1), "", 2) == "#CXRLE Pos=0,0\nx = 1, y = 1\no!\n");
  }
  SUBCASE("lines of at most 70 characters, runs never split") {
    const GridSpec grid = grid_2d(400, 3);
    std::vector<std::uint32_t> states(1200, 0);
    for (std::size_t i = 0; i < states.size(); i += 3) states[i] = 1;
    const std::string text = written_rle(states, grid, "B3/S23", 2);
    std::istringstream lines(text);
    std::string line;
    int body_lines = 0;
    while (std::getline(lines, line)) {
      CHECK(line.size() <= 70);
      if (!line.starts_with('#') && !line.starts_with('x')) ++body_lines;
    }
    CHECK(body_lines > 10);
    CHECK(rle(text).cells.size() == 400);
  }
  SUBCASE("what RLE cannot hold") {
    const GridSpec grid = grid_2d(2, 1);
    CHECK_THROWS_WITH_AS(written_rle({0, 2}, grid, "B3/S23", 2), "state 2 does not fit a rule with 2 states", Error);
    CHECK_THROWS_WITH_AS(written_rle({0, 1}, grid, "x", 300), "RLE holds at most 256 states, not 300", Error);
    CHECK_THROWS_WITH_AS(written_rle({0, 1, 1}, grid, "B3/S23", 2), "RLE writer: 3 states for a 2x1 grid", Error);
  }
}

TEST_CASE("patterns: write_rle then read_rle gives the same cells at the same places") {
  std::mt19937 random(20240611);
  for (const auto& size : {std::pair{37, 23}, {1, 1}, {2, 2}, {23, 37}, {64, 64}, {101, 3}, {1, 50}}) {
    const int width = size.first, height = size.second;  // clang 14 cannot capture bindings
    for (const std::uint32_t num_states : {2u, 3u, 30u, 256u}) {
      for (const BoundaryKind boundary : {BoundaryKind::periodic, BoundaryKind::fixed}) {
        CAPTURE(width);
        CAPTURE(height);
        CAPTURE(num_states);
        const GridSpec grid = grid_2d(width, height, boundary);
        const std::vector<std::uint32_t> states = random_states(grid.cell_count(), num_states, random);
        const Pattern p = rle(written_rle(states, grid, "R", num_states));
        CHECK(p.rule == "R");
        CHECK(p.bounded_kind == (boundary == BoundaryKind::periodic ? 'T' : 'P'));
        CHECK(*p.bounded_size == std::array<std::int64_t, 2>{width, height});
        std::uint64_t dropped = 99;
        CHECK(place_pattern(p, grid, &dropped) == states);
        CHECK(dropped == 0);
      }
    }
  }
}

TEST_CASE("patterns: bgolly reads what write_rle writes, at the same place") {
  if (bgolly_path().empty()) {
    MESSAGE("bgolly not found: skipped");
    return;
  }
  std::mt19937 random(7);
  const std::string file = temp_file("written.rle");
  for (const auto& size : {std::pair{37, 23}, {23, 37}, {8, 5}, {1, 1}}) {
    const int width = size.first, height = size.second;  // clang 14 cannot capture bindings
    for (const std::uint32_t num_states : {2u, 30u}) {
      CAPTURE(width);
      CAPTURE(height);
      CAPTURE(num_states);
      const bool multistate = num_states > 2;
      const GridSpec grid = grid_2d(width, height);
      const std::vector<std::uint32_t> states = random_states(grid.cell_count(), num_states, random);
      const std::string rule = multistate ? "345/2/30" : "B3/S23";
      write_file(file, written_rle(states, grid, rule, num_states));
      const Pattern p = read_pattern_file(file);

      const std::string algorithm = multistate ? "-a Generations" : "-a QuickLife";
      CHECK(
          bgolly_population(algorithm + " -m 0 '" + file + "'") ==
          static_cast<long long>(std::count_if(states.begin(), states.end(), [](std::uint32_t s) { return s != 0; })));
      // Cropping planes smaller than the grid tell where Golly put the cells.
      for (const auto& crop : {std::pair{width / 2, height / 2}, {width - 1, height}, {width, height - 3}}) {
        const int crop_width = crop.first, crop_height = crop.second;  // clang 14 cannot capture bindings
        if (crop_width < 1 || crop_height < 1) continue;
        CAPTURE(crop_width);
        CAPTURE(crop_height);
        CHECK(static_cast<long long>(kept_on(p, crop_width, crop_height)) ==
              golly_kept(file, crop_width, crop_height, multistate));
      }
    }
  }
  std::filesystem::remove(file);
}
