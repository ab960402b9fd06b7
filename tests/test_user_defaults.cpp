// Defaults users meet: options spelled out, with a suggestion for a misspelled one; a model's
// own grid stencil; a grid sized to the pattern it runs.
#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <vector>

#include "cli_run.hpp"
#include "data_path.hpp"
#include "scratch.hpp"

namespace {

using cellgraph::test::run_cli;
using Result = cellgraph::test::CommandResult;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The first line of the output, with the scratch folder's path taken out.
std::string first_line(const Result& r, const ScratchDir& dir) {
  std::string line = r.out.substr(0, r.out.find('\n'));
  const std::string folder = dir.path().string() + "/";
  for (std::size_t at; (at = line.find(folder)) != std::string::npos;) line.erase(at, folder.size());
  return line;
}

std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  for (std::string field; std::getline(in, field, ',');) out.push_back(field);
  return out;
}

// The value of `column` in the last row of a statistics CSV.
std::string last_value(const std::string& csv, const std::string& column) {
  const std::vector<std::string> header = fields(csv.substr(0, csv.find('\n')));
  const std::string body = csv.substr(0, csv.find_last_not_of('\n') + 1);
  const std::vector<std::string> row = fields(body.substr(body.rfind('\n') + 1));
  for (std::size_t i = 0; i < header.size() && i < row.size(); ++i)
    if (header[i] == column) return row[i];
  return "no column " + column;
}

// A model's lines in `cellgraph models`: its name's line and the indented ones after it.
std::string model_entry(const std::string& output, const std::string& name) {
  const std::string listing = "\n" + output;
  std::size_t begin = listing.find("\n" + name + "\n"), end = begin + 1;
  if (begin == std::string::npos) return "";
  do end = listing.find('\n', end) + 1;
  while (end < listing.size() && listing[end] == ' ');
  return listing.substr(begin + 1, end - begin - 1);
}

}  // namespace

TEST_CASE("options: a prefix of an option is refused, with the option it looks like") {
  Result r = run_cli("run --backend cpu --grid 8x8 --step 10");
  CHECK(r.status == 1);
  CHECK_MESSAGE(contains(r.out, "cellgraph run: error: unrecognised option '--step'; did you mean --steps?"), r.out);
  r = run_cli("run --backend cpu --grid 8x8 --step=10");
  CHECK(r.status == 1);
  CHECK_MESSAGE(contains(r.out, "unrecognised option '--step=10'; did you mean --steps?"), r.out);
  r = run_cli("run --backend cpu --grid 8x8 --stpes 10");  // two letters swapped
  CHECK_MESSAGE(contains(r.out, "did you mean --steps?"), r.out);
  r = run_cli("run --backend cpu --grid 8x8 --neighbor vonneumann");  // a prefix further off
  CHECK_MESSAGE(contains(r.out, "did you mean --neighborhood?"), r.out);
  r = run_cli("compile --grid 8x8 --repot");
  CHECK_MESSAGE(contains(r.out, "cellgraph compile: error: unrecognised option '--repot'; did you mean --report?"),
                r.out);
  r = run_cli("perfmodel predict --model-fil m.csv --grid 64x64");  // the subcommands of perfmodel too
  CHECK(r.status == 1);
  CHECK_MESSAGE(contains(r.out, "unrecognised option '--model-fil'; did you mean --model-file?"), r.out);
}

TEST_CASE("options: an option far from every other gets no suggestion") {
  for (const char* option : {"--frobnicate", "--speed 3", "--xy"}) {
    const Result r = run_cli(std::string("run --backend cpu --grid 8x8 ") + option);
    INFO(option, " -> ", r.out);
    CHECK(r.status == 1);
    CHECK(contains(r.out, "unrecognised option"));
    CHECK(!contains(r.out, "did you mean"));
  }
}

TEST_CASE("options: an unknown key in a config file gets the suggestion at its line") {
  ScratchDir dir;
  Result r = run_cli("run --backend cpu --config " + dir.write("s.ini", "grid = 8x8\nstep = 10\n"));
  CHECK(r.status == 1);
  CHECK(first_line(r, dir) == "cellgraph run: error: s.ini:2: unknown key 'step'; did you mean 'steps' (--steps)?");
  r = run_cli("run --backend cpu --config " + dir.write("f.ini", "grid = 8x8\nfrobnicate = 1\n"));
  CHECK(first_line(r, dir) ==
        "cellgraph run: error: f.ini:2: unknown key 'frobnicate' (keys are the command's options without dashes; see "
        "--help)");
}

TEST_CASE("models: ising names its grid stencil, run takes it unless --neighborhood is given") {
  Result r = run_cli("models");
  REQUIRE(r.status == 0);
  CHECK_MESSAGE(contains(model_entry(r.out, "ising"), "\n  grid (default): neighborhood vonneumann\n"), r.out);
  CHECK(contains(model_entry(r.out, "cloud"), "\n  grid (default): neighborhood cloud, boundary open\n"));
  CHECK(!contains(model_entry(r.out, "lifelike"), "grid (default)"));

  // All spins up at a low temperature stay up: the energy per site is -J times half the degree.
  ScratchDir dir;
  const std::string run = "run --backend cpu --model ising --param T=0.01 --grid 16x16 --fill 1 --steps 2 ";
  r = run_cli(run + "--stats " + dir / "v.csv");
  REQUIRE_MESSAGE(r.status == 0, r.out);
  CHECK_MESSAGE(contains(r.out, "on grid 16x16 vonneumann periodic (256 cells)"), r.out);
  CHECK(last_value(read_file(dir / "v.csv"), "energy") == "-2");
  r = run_cli(run + "--neighborhood moore --stats " + dir / "m.csv");
  REQUIRE_MESSAGE(r.status == 0, r.out);
  CHECK_MESSAGE(contains(r.out, "on grid 16x16 moore periodic (256 cells)"), r.out);
  CHECK(last_value(read_file(dir / "m.csv"), "energy") == "-4");
  // Other models keep Moore's.
  r = run_cli("run --backend cpu --grid 16x16 --steps 1");
  CHECK_MESSAGE(contains(r.out, "on grid 16x16 moore periodic"), r.out);
}

TEST_CASE("patterns: without --grid the grid is the pattern's box with a margin, the pattern in the middle") {
  const std::string gun = data_path("patterns/life/gosper-glider-gun.rle");  // 36x9
  ScratchDir dir;
  Result sized = run_cli("run --backend cpu --pattern " + gun + " --steps 4 --stats " + dir / "sized.csv");
  REQUIRE_MESSAGE(sized.status == 0, sized.out);
  CHECK_MESSAGE(contains(sized.out, "on grid 72x48 moore periodic (3456 cells)"), sized.out);  // 36+2*18, 9+2*16
  CHECK(!contains(sized.out, "dropped"));
  // The same cells as on a grid given by hand.
  const Result given =
      run_cli("run --backend cpu --pattern " + gun + " --grid 72x48 --steps 4 --stats " + dir / "given.csv");
  REQUIRE(given.status == 0);
  CHECK(read_file(dir / "sized.csv") == read_file(dir / "given.csv"));

  sized = run_cli("run --backend cpu --pattern " + data_path("patterns/life/r-pentomino.rle") + " --steps 4");
  REQUIRE_MESSAGE(sized.status == 0, sized.out);
  CHECK_MESSAGE(contains(sized.out, "on grid 40x40 moore periodic (1600 cells)"), sized.out);

  // Placed in the middle: a pattern written far off its origin comes back centred.
  const std::string far = dir.write("far.rle", "#CXRLE Pos=5000,-7000\nx = 3, y = 1, rule = B3/S23\n3o!\n");
  sized = run_cli("run --backend cpu --pattern " + far + " --steps 2 --rle " + dir / "out.rle");
  REQUIRE_MESSAGE(sized.status == 0, sized.out);
  CHECK_MESSAGE(contains(sized.out, "on grid 40x40 moore periodic"), sized.out);
  CHECK(contains(read_file(dir / "out.rle"), "#CXRLE Pos=-1,0\n"));

  // A rule's bounded grid keeps its own size.
  const std::string torus = dir.write("t.rle", "x = 3, y = 1, rule = B3/S23:T20,12\n3o!\n");
  sized = run_cli("run --backend cpu --pattern " + torus + " --steps 2");
  REQUIRE_MESSAGE(sized.status == 0, sized.out);
  CHECK_MESSAGE(contains(sized.out, "on grid 20x12 moore periodic"), sized.out);
}
