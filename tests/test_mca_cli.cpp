// The MCA example from the command line: the notched plate pulled apart until it cracks, with
// its statistics and VTK time series; bad parameters refused before anything is written.
#include <doctest/doctest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "cli_run.hpp"
#include "scratch.hpp"

using cellgraph::test::run_cli;

namespace {

// The CSV's rows as columns by name.
std::vector<std::vector<double>> csv_rows(const std::string& csv) {
  std::vector<std::vector<double>> rows;
  std::istringstream lines(csv);
  std::string line;
  std::getline(lines, line);  // header
  while (std::getline(lines, line)) {
    std::vector<double> row;
    std::istringstream cells(line);
    std::string cell;
    while (std::getline(cells, cell, ',')) row.push_back(std::stod(cell));
    rows.push_back(row);
  }
  return rows;
}

}  // namespace

TEST_CASE("cli: the MCA plate is pulled apart until it cracks, with statistics and a VTK series") {
  ScratchDir dir;
  const auto r = run_cli(
      "run --backend cpu --model mca --particles 2000 --box 90x50 --boundary closed --steps 3000 "
      "--stats " +
      dir / "s.csv --stats-every 500 --vtk " + dir / "plate --vtk-every 1500 --png " +
      dir / "plate.png --png-size 300");
  REQUIRE_MESSAGE(r.status == 0, r.out);
  // The summary starts a line (a slow machine may print progress lines on stderr first).
  const std::size_t ran =
      r.out.find("ran 3000 steps of mca on 2000 particles in a 2D closed box 90x50 (r 1.05, skin 0.2625) on cpu");
  CHECK((ran == 0 || (ran != std::string::npos && r.out[ran - 1] == '\n')));
  const std::string csv = read_file(dir / "s.csv");
  CHECK(csv.rfind("step,kinetic,potential,energy,px,py,bonds\n0,", 0) == 0);
  const auto rows = csv_rows(csv);
  REQUIRE(rows.size() == 7);            // steps 0, 500, ..., 3000
  CHECK(rows[0][2] < 1e-12);            // the plate starts at rest length
  CHECK(rows[3][2] > 10 * rows[0][1]);  // stretched: elastic energy stored, ten times the grips' kinetic
  CHECK(rows[6][6] < rows[0][6] - 30);  // cracked: bonds broke (a row's worth and more)
  for (const char* name : {"plate_000000.vtu", "plate_001500.vtu", "plate_003000.vtu", "plate.pvd", "plate.png"})
    CHECK_MESSAGE(std::filesystem::exists(dir / name), name);
  const std::string last = read_file(dir / "plate_003000.vtu");
  CHECK(last.find("<Piece NumberOfPoints=\"2000\"") != std::string::npos);
  CHECK(last.find("Name=\"velocity\" NumberOfComponents=\"3\"") != std::string::npos);
  CHECK(last.find("Name=\"flags\"") != std::string::npos);
}

TEST_CASE("cli: MCA runs refuse parameters and plates they cannot honour, and write nothing") {
  ScratchDir dir;
  const std::string out = " --stats " + dir / "s.csv --vtk " + dir / "v";
  struct Case {
    std::string args, message;
  } cases[] = {
      {"--particles 500 --box 60x40 --param form=1.5", "form = 1.5 must be at most 1 + break"},
      {"--particles 500 --box 60x40 --param dt=1", "dt = 1 is too long"},
      {"--particles 5000 --box 60x40", "give a larger --box"},
      {"--particles 500 --box 60x40 --param layers=3", "layers is for 3D plates"},
      {"--particles 500 --box 60x40 --param spring=2", "has no parameter 'spring'"},
  };
  for (const Case& c : cases) {
    const auto r = run_cli("run --backend cpu --model mca " + c.args + out);
    CHECK_MESSAGE(r.status == 1, c.args);
    CHECK_MESSAGE(r.out.find(c.message) != std::string::npos, (c.args + " -> " + r.out));
  }
  CHECK(dir.empty());
}
