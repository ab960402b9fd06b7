// Movable runs from the command line, and their outputs: VTK point series and quick looks.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "cellgraph/error.hpp"
#include "cellgraph/output/particle_picture.hpp"
#include "cellgraph/output/png.hpp"
#include "cellgraph/output/vtk.hpp"
#include "cli_run.hpp"
#include "scratch.hpp"

using namespace cellgraph;
using cellgraph::test::run_cli;

TEST_CASE("movable: VTK point series hold each snapshot's points, ids and vectors") {
  ScratchDir dir;
  VtkPointSeries series(dir / "p", 2, VtkEncoding::ascii);
  series.write(0, {0.5, 1.0, 2.0, 3.5}, {{"heading", 2, {1.0, 0.0, 0.0, -1.0}}, {"speed", 1, {0.25, 0.5}}});
  series.write(10, {0.75, 1.0, 2.0, 3.0}, {{"heading", 2, {1.0, 0.0, 0.0, -1.0}}, {"speed", 1, {0.25, 0.5}}});
  series.finish();
  const std::string first = read_file(dir / "p_000000.vtu");
  CHECK(first.find("<Piece NumberOfPoints=\"2\" NumberOfCells=\"2\">") != std::string::npos);
  CHECK(first.find("Name=\"id\" format=\"ascii\">\n          0 1\n") != std::string::npos);
  CHECK(
      first.find("Name=\"heading\" NumberOfComponents=\"3\" format=\"ascii\">\n          1 0 0\n          0 -1 0\n") !=
      std::string::npos);
  CHECK(first.find(
            "Name=\"Points\" NumberOfComponents=\"3\" format=\"ascii\">\n          0.5 1 0\n          2 3.5 0\n") !=
        std::string::npos);
  CHECK(read_file(dir / "p_000010.vtu").find("0.75 1 0\n") != std::string::npos);
  const std::string pvd = read_file(dir / "p.pvd");
  CHECK(pvd.find("timestep=\"0\" part=\"0\" file=\"p_000000.vtu\"") != std::string::npos);
  CHECK(pvd.find("timestep=\"10\" part=\"0\" file=\"p_000010.vtu\"") != std::string::npos);
  CHECK_THROWS_WITH_AS(series.write(5, {0, 0, 1, 1}), doctest::Contains("steps must increase"), Error);
  CHECK_THROWS_WITH_AS(series.write(20, {0, 0, 1}), doctest::Contains("not points of 2"), Error);
  CHECK_THROWS_WITH_AS(series.write(20, {0, 0, 1, 1}, {{"id", 1, {1, 2}}}), doctest::Contains("'id'"), Error);
  CHECK_THROWS_WITH_AS(series.write(20, {0, 0, 1, 1}, {{"v", 2, {1, 2}}}), doctest::Contains("2 values for 2 points"),
                       Error);
  CHECK(!std::filesystem::exists(dir / "p_000020.vtu"));
}

TEST_CASE("movable: the quick look colours particles by heading") {
  // Two particles far apart, heading +x and -x: opposite sides of the colour wheel. Discs of
  // 32 pixels, 33 pixels of margin: their centres at (33, 367) and (367, 33).
  const ParticlePicture p = particle_picture({1.0, 1.0, 9.0, 9.0}, 2, {1.0, 0.0, -1.0, 0.0}, 400);
  REQUIRE(p.image.width == 400);
  REQUIRE(p.image.height == 400);
  auto index_at = [](const ParticlePicture& q, std::int64_t x, std::int64_t y) {
    return q.image.pixels[std::size_t(y * q.image.width + x)];
  };
  const std::uint8_t lower_left = index_at(p, 33, 367), upper_right = index_at(p, 367, 33),
                     middle = index_at(p, 200, 200);
  CHECK(middle == 255);                        // background
  CHECK(lower_left == kDirectionColours / 2);  // angle 0: halfway round from -pi
  CHECK(upper_right == 0);                     // angle pi: the wheel's start again
  CHECK(p.colours[middle] == kBackgroundColour);
  CHECK(!(p.colours[lower_left] == p.colours[upper_right]));
  const ParticlePicture plain = particle_picture({1.0, 1.0, 9.0, 9.0}, 2, {}, 400);
  CHECK(plain.colours[index_at(plain, 33, 367)] == Rgb{255, 255, 255});
  CHECK_THROWS_AS(particle_picture({1.0, 1.0, 9.0}, 2, {}, 400), Error);
}

TEST_CASE("cli: a Vicsek run writes its order parameter, VTK points and a picture") {
  ScratchDir dir;
  const auto r = run_cli(
      "run --backend cpu --model vicsek --particles 400 --box 10 --param eta=0.2 --steps 60 --seed 3 "
      "--stats " +
      dir / "s.csv --stats-every 20 --vtk " + dir / "v --vtk-every 30 --png " + dir / "v.png --png-size 200");
  REQUIRE_MESSAGE(r.status == 0, r.out);
  CHECK(r.out.find("ran 60 steps of vicsek on 400 particles in a 2D periodic box 10x10 (r 1, skin 0.25) on cpu") == 0);
  const std::string csv = read_file(dir / "s.csv");
  CHECK(csv.rfind("step,order\n0,", 0) == 0);
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 5);  // header, steps 0, 20, 40, 60
  const std::string last = csv.substr(csv.rfind("60,") + 3);
  CHECK(std::stod(last) > std::stod(csv.substr(csv.find("\n0,") + 3)));  // aligning at low noise
  CHECK(r.out.find("; order " + std::to_string(std::stod(last)).substr(0, 4)) != std::string::npos);
  for (const char* name : {"v_000000.vtu", "v_000030.vtu", "v_000060.vtu", "v.pvd", "v.png"})
    CHECK_MESSAGE(std::filesystem::exists(dir / name), name);
  CHECK(read_file(dir / "v_000060.vtu").find("<Piece NumberOfPoints=\"400\" NumberOfCells=\"400\">") !=
        std::string::npos);
  CHECK(read_file(dir / "v_000060.vtu").find("Name=\"heading\" NumberOfComponents=\"3\"") != std::string::npos);
  const RgbImage png = read_png(dir / "v.png");
  CHECK(png.width == 200);
  CHECK(png.height > 200);  // the heading's colour bar under the box
  const auto pixel = [&](std::int64_t x, std::int64_t y) {
    const std::size_t at = std::size_t(y * png.width + x) * 3;
    return std::vector<std::uint8_t>(png.rgb.begin() + std::ptrdiff_t(at), png.rgb.begin() + std::ptrdiff_t(at + 3));
  };
  std::set<std::vector<std::uint8_t>> strip_colours;
  for (std::int64_t y = 200; y < png.height; ++y)
    for (std::int64_t x = 0; x < png.width; ++x) strip_colours.insert(pixel(x, y));
  CHECK(strip_colours.size() >= std::size_t(kDirectionColours));  // every hue of the wheel, text and background

  // The same run in 3D in a closed box, from a config file.
  std::ofstream(dir / "run.ini") << "model = vicsek\nparticles = 300\nbox = 5x6x7\nboundary = closed\nsteps = 10\n"
                                    "param = v0=0.05\nskin = 0\n";
  const auto three = run_cli("run --backend cpu --config " + dir / "run.ini");
  REQUIRE_MESSAGE(three.status == 0, three.out);
  CHECK(three.out.find("on 300 particles in a 3D closed box 5x6x7 (r 1, skin 0) on cpu") != std::string::npos);
  CHECK(three.out.find("; 10 neighbor-list rebuilds") != std::string::npos);  // skin 0: every step
}

TEST_CASE("cli: movable runs refuse bad options and write nothing") {
  ScratchDir dir;
  const std::string out = " --stats " + dir / "s.csv --vtk " + dir / "v --png " + dir / "p.png";
  struct Case {
    std::string args, message;
  } cases[] = {
      {"--box 16", "needs --particles N"},
      {"--particles 10", "needs --box L"},
      {"--particles 10 --box 0", "bad box '0'"},
      {"--particles 10 --box 4x4x4x4", "at most 3 lengths"},
      {"--particles 10 --box 16 --param eta=9", "eta must be a number from 0"},
      {"--particles 10 --box 16 --param speed=1", "has no parameter 'speed'"},
      {"--particles 10 --box 16 --fill 0.5", "--fill does not apply to movable models (vicsek)"},
      {"--particles 10 --box 16 --grid 8x8", "--grid does not apply"},
      {"--particles 10 --box 16 --boundary reflective", "periodic or closed, not 'reflective'"},
      {"--particles 10 --box 4x4x4 --dims 2", "has 3 dimensions, --dims says 2"},
      {"--particles 10 --box 4 --param v0=5", "must be below the box's shortest side"},
      {"--particles 10 --box 4 --skin -1", "skin must be 0 or more"},
      {"--particles 10 --box 4 --png-size 3", "--png-size must be from 16 to 4096"},
      {"--particles 10 --box 4 --update colored", "--update does not apply"},
  };
  for (const Case& c : cases) {
    const auto r = run_cli("run --backend cpu --model vicsek " + c.args + out);
    CHECK_MESSAGE(r.status == 1, c.args);
    CHECK_MESSAGE(r.out.find(c.message) != std::string::npos, (c.args + " -> " + r.out));
  }
  const auto grid = run_cli("run --backend cpu --grid 8x8 --particles 3" + out);
  CHECK(grid.status == 1);
  CHECK(grid.out.find("--particles is for movable models (vicsek, mca), not lifelike") != std::string::npos);
  const auto graph = run_cli("run --backend cpu --model vicsek --generate rgg:100 --steps 1");
  CHECK(graph.status == 1);
  CHECK(graph.out.find("--generate does not apply") != std::string::npos);
  CHECK(dir.empty());
}

TEST_CASE("cli: bench --suite movable-quick times Vicsek and MCA runs and checks the cell list against all pairs") {
  const auto r = run_cli("bench --suite movable-quick --backend cpu --repeats 1");
  REQUIRE_MESSAGE(r.status == 0, r.out);
  CHECK(r.out.find("| 20000 | 0 | ") != std::string::npos);
  CHECK(r.out.find("| 20000 | 0.3 | ") != std::string::npos);
  CHECK(r.out.find("MCA plate") != std::string::npos);  // its table: both skins
  CHECK(r.out.find("| 20000 | 0.25 | ") != std::string::npos);
  CHECK(r.out.find("| 2000 | ") != std::string::npos);
  CHECK(r.out.find("x | equal |") != std::string::npos);
}
