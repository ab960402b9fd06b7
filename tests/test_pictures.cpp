// Pictures: the state palette, palette PNGs, quick looks of meshes and graphs, grid pictures,
// animated GIFs, the run command's --frames/--gif/--png, and tools/plot_stats.py.
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cellgraph/error.hpp"
#include "cellgraph/output/animation.hpp"
#include "cellgraph/output/palette.hpp"
#include "cellgraph/output/png.hpp"
#include "cellgraph/output/quicklook.hpp"
#include "cellgraph/source/graph_file.hpp"
#include "cellgraph/source/mesh.hpp"

using namespace cellgraph;

#include "cli_run.hpp"
#include "data_path.hpp"
#include "sample_meshes.hpp"
#include "scratch.hpp"

using cellgraph::test::two_triangles;

namespace {

// The documented colours, spelled out rather than computed.
constexpr Rgb kBlack{0, 0, 0}, kWhite{255, 255, 255}, kMagenta{255, 0, 255};
constexpr Rgb kBackground{40, 56, 88}, kOrange{255, 160, 0}, kDarkRed{96, 0, 0};
constexpr std::uint32_t kNone = CellRaster::kNoCell;

Rgb pixel(const RgbImage& image, std::int64_t x, std::int64_t y) {
  const std::uint8_t* p = &image.rgb[std::size_t((y * image.width + x) * 3)];
  return {p[0], p[1], p[2]};
}

// What an indexed image looks like once its palette is applied.
RgbImage coloured(const IndexedImage& image, const std::vector<Rgb>& colours) {
  RgbImage rgb{image.width, image.height, {}};
  for (std::uint8_t index : image.pixels)
    rgb.rgb.insert(rgb.rgb.end(), {colours[index].r, colours[index].g, colours[index].b});
  return rgb;
}

// The distinct colours of an image, as 0xRRGGBB.
std::set<std::uint32_t> colours_in(const RgbImage& image) {
  std::set<std::uint32_t> colours;
  for (std::size_t i = 0; i < image.rgb.size(); i += 3)
    colours.insert(std::uint32_t(image.rgb[i]) << 16 | std::uint32_t(image.rgb[i + 1]) << 8 | image.rgb[i + 2]);
  return colours;
}
const std::set<std::uint32_t> kDeadLiveBackground{0x000000, 0xFFFFFF, 0x283858};

bool same_pixels(const RgbImage& a, const RgbImage& b) {
  return a.width == b.width && a.height == b.height && a.rgb == b.rgb;
}

using cellgraph::test::run_cli;
using cellgraph::test::run_command;
using Result = cellgraph::test::CommandResult;

bool on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');)
    if (!dir.empty() && ::access((dir + "/" + program).c_str(), X_OK) == 0) return true;
  return false;
}

Graph points(int dim, const std::vector<double>& coords) {
  Graph g;
  g.offsets.assign(coords.size() / dim + 1, 0);
  g.coord_dim = dim;
  g.coords = coords;
  return g;
}

}  // namespace

// ---- palette ------------------------------------------------------------------------------

TEST_CASE("pictures: the state palette gives states their PNG colours, invalid states and the background") {
  const StatePalette two(2);
  CHECK(two.colours().size() == 256);
  CHECK(two.index(0) == 0);
  CHECK(two.index(1) == 1);
  CHECK(two.index(2) == StatePalette::kInvalid);
  CHECK(two.colours()[0] == kBlack);
  CHECK(two.colours()[1] == kWhite);
  CHECK(two.colours()[StatePalette::kInvalid] == kMagenta);
  CHECK(two.colours()[StatePalette::kBackground] == kBackground);
  const StatePalette five(5);
  CHECK(five.index(4) == 4);
  CHECK(five.colours()[2] == kOrange);
  CHECK(five.colours()[3] == Rgb{176, 80, 0});
  CHECK(five.colours()[4] == kDarkRed);
  CHECK_THROWS_AS(StatePalette(1), Error);
}

TEST_CASE("pictures: rules with more states than palette entries share entries among dying states") {
  const StatePalette many(256);
  CHECK(many.index(0) == 0);
  CHECK(many.index(1) == 1);
  CHECK(many.index(2) == 2);
  CHECK(many.index(255) == 253);
  for (std::uint32_t s = 1; s < 256; ++s) {
    REQUIRE(many.index(s) < StatePalette::kInvalid);
    REQUIRE(many.index(s) >= many.index(s - 1));
  }
  CHECK(many.colours()[2] == kOrange);
  CHECK(many.colours()[253] == kDarkRed);      // state 255, the last dying state, is the first on it
  CHECK(StatePalette(254).index(253) == 253);  // still one entry per state
}

// ---- palette PNGs -------------------------------------------------------------------------

TEST_CASE("pictures: a palette PNG decodes to its colours") {
  ScratchDir dir;
  const StatePalette palette(2);
  const IndexedImage image{3, 2, {0, 1, StatePalette::kInvalid, StatePalette::kBackground, 1, 0}};
  write_indexed_png(dir / "p.png", image, palette.colours());
  const RgbImage decoded = read_png(dir / "p.png");
  REQUIRE(decoded.width == 3);
  REQUIRE(decoded.height == 2);
  CHECK(pixel(decoded, 0, 0) == kBlack);
  CHECK(pixel(decoded, 1, 0) == kWhite);
  CHECK(pixel(decoded, 2, 0) == kMagenta);
  CHECK(pixel(decoded, 0, 1) == kBackground);
  CHECK(pixel(decoded, 1, 1) == kWhite);
  CHECK(pixel(decoded, 2, 1) == kBlack);
  CHECK_THROWS_WITH_AS(write_indexed_png(dir / "q.png", IndexedImage{1, 1, {5}}, {kBlack, kWhite}),
                       doctest::Contains("outside the palette"), Error);
  CHECK_THROWS_AS(write_indexed_png(dir / "q.png", IndexedImage{2, 2, {0}}, {kBlack}), Error);
  CHECK_THROWS_AS(write_indexed_png(dir / "missing/q.png", image, palette.colours()), Error);
  CHECK(dir.files() == std::set<std::string>{"p.png"});
}

// ---- quick looks --------------------------------------------------------------------------

TEST_CASE("pictures: mesh elements fill their triangles, y up, with a background margin") {
  const Mesh mesh = two_triangles();
  // 16 pixels: a margin of 2, the unit square on pixels 2..13. Triangle 0 is the lower right
  // half (below the diagonal y = x), triangle 1 the upper left; pixel centres on the
  // diagonal (x + y = 15) go to triangle 0, drawn first.
  const CellRaster raster = CellRaster::for_mesh_elements(mesh, {0, 1}, 16);
  REQUIRE(raster.width() == 16);
  REQUIRE(raster.height() == 16);
  CHECK(raster.num_cells() == 2);
  for (int y = 0; y < 16; ++y)
    for (int x = 0; x < 16; ++x) {
      const bool inside = x >= 2 && x <= 13 && y >= 2 && y <= 13;
      const std::uint32_t want = !inside ? kNone : x + y >= 15 ? 0 : 1;
      INFO("pixel (", x, ", ", y, ")");
      REQUIRE(raster.cell_at(x, y) == want);
    }
  const IndexedImage image = raster.render({1, 0}, StatePalette(2));
  CHECK(image.pixels[13 * 16 + 13] == 1);                       // lower right: triangle 0, live
  CHECK(image.pixels[2 * 16 + 2] == 0);                         // upper left: triangle 1, dead
  CHECK(image.pixels[0] == StatePalette::kBackground);          // margin
  CHECK_THROWS_AS(raster.render({1}, StatePalette(2)), Error);  // one state short
}

TEST_CASE("pictures: elements without area are a dot, the element of largest z is in front") {
  SUBCASE("a line element is the pixel under its centre") {
    const CellRaster raster = CellRaster::for_mesh_elements(two_triangles(), {2}, 16);
    REQUIRE(raster.width() == 16);
    REQUIRE(raster.height() == 5);  // no height: the margins alone
    for (int y = 0; y < 5; ++y)
      for (int x = 0; x < 16; ++x) CHECK(raster.cell_at(x, y) == (x == 8 && y == 2 ? 0 : kNone));
  }
  SUBCASE("stacked triangles") {
    Mesh mesh;
    mesh.nodes = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1, 1};  // the same triangle at z 0 and 1
    mesh.element_type = {5, 5};
    mesh.element_dim = {2, 2};
    mesh.element_offsets = {0, 3, 6};
    mesh.element_nodes = {0, 1, 2, 3, 4, 5};
    // Whichever is drawn first, the upper one (element 1) shows.
    CHECK(CellRaster::for_mesh_elements(mesh, {0, 1}, 16).cell_at(4, 10) == 1);
    CHECK(CellRaster::for_mesh_elements(mesh, {1, 0}, 16).cell_at(4, 10) == 0);
  }
  SUBCASE("refused") {
    Mesh no_coordinates = two_triangles();
    no_coordinates.has_coordinates = false;
    CHECK_THROWS_AS(CellRaster::for_mesh_elements(no_coordinates, {0}, 16), Error);
    CHECK_THROWS_AS(CellRaster::for_mesh_elements(two_triangles(), {3}, 16), Error);
    CHECK_THROWS_AS(CellRaster::for_mesh_elements(two_triangles(), {0}, 8), Error);
    Mesh bad_node = two_triangles();
    bad_node.element_nodes[1] = 9;
    CHECK_THROWS_AS(CellRaster::for_mesh_elements(bad_node, {0}, 16), Error);
  }
}

TEST_CASE("pictures: graph vertices are discs, the nearer centre wins, then the larger z") {
  // Four corners of a unit square, 64 pixels: radius 16 (half of sqrt(64 * 64 / 4)), margin
  // 17, 30 pixels per unit. Vertex (x, y) sits at pixel (17 + 30x, 17 + 30(1 - y)).
  const CellRaster raster = CellRaster::for_points(points(2, {0, 0, 1, 0, 0, 1, 1, 1}), 64);
  REQUIRE(raster.width() == 64);
  REQUIRE(raster.height() == 64);
  CHECK(raster.cell_at(17, 47) == 0);
  CHECK(raster.cell_at(47, 47) == 1);
  CHECK(raster.cell_at(17, 17) == 2);
  CHECK(raster.cell_at(47, 17) == 3);
  CHECK(raster.cell_at(31, 47) == 0);  // within both discs, nearer vertex 0
  CHECK(raster.cell_at(32, 47) == 1);
  CHECK(raster.cell_at(0, 0) == kNone);    // 23 pixels from the nearest vertex
  CHECK(raster.cell_at(32, 32) == kNone);  // the centre: 21 pixels from all four
  // Same x and y, different z: the larger z shows, whichever vertex comes first.
  CHECK(CellRaster::for_points(points(3, {0, 0, 1, 0, 0, 5, 1, 1, 0}), 64).cell_at(17, 47) == 1);
  CHECK(CellRaster::for_points(points(3, {0, 0, 5, 0, 0, 1, 1, 1, 0}), 64).cell_at(17, 47) == 0);
  CHECK_THROWS_AS(CellRaster::for_points(Graph{}, 64), Error);
  CHECK_THROWS_AS(CellRaster::for_points(points(2, {0, 0, std::nan(""), 1}), 64), Error);
}

// ---- grid pictures ------------------------------------------------------------------------

TEST_CASE("pictures: grid pictures scale up to fit, or show each block's first live cell") {
  const StatePalette palette(4);                              // index = state
  const std::vector<std::uint32_t> states{0, 1, 2, 1, 0, 3};  // 3 x 2
  SUBCASE("scale 2 fits") {
    const IndexedImage image = grid_picture(states, 3, 2, palette, 2, 100);
    REQUIRE(image.width == 6);
    REQUIRE(image.height == 4);
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 6; ++x) CHECK(image.pixels[std::size_t(y * 6 + x)] == states[std::size_t(y / 2 * 3 + x / 2)]);
  }
  SUBCASE("scale 10 is cut to the largest that fits") {
    const IndexedImage image = grid_picture(states, 3, 2, palette, 10, 20);
    CHECK(image.width == 18);
    CHECK(image.height == 12);
    CHECK(image.pixels[std::size_t(11 * 18 + 17)] == 3);
  }
  SUBCASE("shrunk by a whole factor") {
    // 5 x 3 into 2 pixels: blocks of 3 x 3. Block 0's first non-zero cell in raster order is
    // the 2 in row 1 (before the 1 in row 2); block 1's is the 3.
    const std::vector<std::uint32_t> big{0, 0, 0, 0, 0,  //
                                         0, 0, 2, 0, 0,  //
                                         1, 0, 0, 0, 3};
    const IndexedImage image = grid_picture(big, 5, 3, palette, 1, 2);
    CHECK(image.width == 2);
    CHECK(image.height == 1);
    CHECK(image.pixels == std::vector<std::uint8_t>{2, 3});
    CHECK(grid_picture(std::vector<std::uint32_t>(15, 0), 5, 3, palette, 1, 2).pixels ==
          std::vector<std::uint8_t>{0, 0});
  }
  CHECK(grid_picture({7}, 1, 1, palette, 1, 10).pixels == std::vector<std::uint8_t>{StatePalette::kInvalid});
  CHECK_THROWS_AS(grid_picture(states, 4, 2, palette, 1, 10), Error);
}

// ---- GIF ----------------------------------------------------------------------------------

TEST_CASE("pictures: an animated GIF decodes to its frames, delays and looping") {
  ScratchDir dir;
  const StatePalette palette(3);
  const IndexedImage first{3, 2, {0, 1, 2, 1, 0, StatePalette::kBackground}};
  const IndexedImage second{3, 2, {1, 1, 1, 0, 0, 0}};
  {
    GifWriter gif(dir / "a.gif", 3, 2, palette.colours(), 70);
    gif.add_frame(first);
    gif.add_frame(second);
    CHECK(dir.files().size() == 1);  // the temporary only
    CHECK_FALSE(std::filesystem::exists(dir / "a.gif"));
    gif.finish();
  }
  CHECK(dir.files() == std::set<std::string>{"a.gif"});
  const GifAnimation animation = read_gif(dir / "a.gif");
  CHECK(animation.width == 3);
  CHECK(animation.height == 2);
  CHECK(animation.loops);
  CHECK(animation.delays_cs == std::vector<int>{7, 7});
  REQUIRE(animation.frames.size() == 2);
  CHECK(same_pixels(animation.frames[0], coloured(first, palette.colours())));
  CHECK(same_pixels(animation.frames[1], coloured(second, palette.colours())));
  CHECK(pixel(animation.frames[0], 2, 0) == kOrange);
  CHECK(pixel(animation.frames[0], 2, 1) == kBackground);
}

TEST_CASE("pictures: GIF errors leave nothing behind") {
  ScratchDir dir;
  const StatePalette palette(2);
  SUBCASE("a frame of another size") {
    GifWriter gif(dir / "a.gif", 3, 2, palette.colours(), 100);
    CHECK_THROWS_WITH_AS(gif.add_frame(IndexedImage{2, 2, {0, 0, 0, 0}}), doctest::Contains("2x2 pixels in a 3x2"),
                         Error);
  }
  SUBCASE("an index outside the palette") {
    GifWriter gif(dir / "a.gif", 1, 1, {kBlack, kWhite}, 100);
    CHECK_THROWS_AS(gif.add_frame(IndexedImage{1, 1, {2}}), Error);
  }
  SUBCASE("no frame") {
    GifWriter gif(dir / "a.gif", 3, 2, palette.colours(), 100);
    CHECK_THROWS_WITH_AS(gif.finish(), doctest::Contains("at least one frame"), Error);
  }
  SUBCASE("bad sizes and paths") {
    CHECK_THROWS_AS(GifWriter(dir / "a.gif", 0, 2, palette.colours(), 100), Error);
    CHECK_THROWS_AS(GifWriter(dir / "a.gif", 70000, 2, palette.colours(), 100), Error);
    CHECK_THROWS_AS(GifWriter(dir / "missing/a.gif", 3, 2, palette.colours(), 100), Error);
  }
  CHECK(dir.empty());
  CHECK_THROWS_AS(read_gif(dir / "none.gif"), Error);
  CHECK_THROWS_AS(read_gif(dir.write("not.gif", "GIF89a but no more")), Error);
}

// ---- the run command ----------------------------------------------------------------------

TEST_CASE("pictures: a grid run writes frames, a GIF and a PNG that agree with its states") {
  ScratchDir dir;
  Result r = run_cli("run --backend cpu --grid 40x30 --fill 0.4 --seed 3 --steps 12 --frames " + dir / "f" +
                     " --frames-every 5 --gif " + dir / "a.gif --png " + dir / "final.png --png-scale 2 --states-out " +
                     dir / "s.txt");
  REQUIRE_MESSAGE(r.status == 0, r.out);
  CHECK(dir.files() == std::set<std::string>{"f_000000.png", "f_000005.png", "f_000010.png", "f_000012.png", "a.gif",
                                             "final.png", "s.txt"});
  CHECK(read_file(dir / "f_000012.png") == read_file(dir / "final.png"));
  const RgbImage final_png = read_png(dir / "final.png");
  REQUIRE(final_png.width == 80);
  REQUIRE(final_png.height == 60);
  const std::vector<std::uint32_t> states = read_state_file(dir / "s.txt", 40 * 30);
  for (int y = 0; y < 60; ++y)
    for (int x = 0; x < 80; ++x)
      REQUIRE(pixel(final_png, x, y) == (states[std::size_t(y / 2 * 40 + x / 2)] ? kWhite : kBlack));
  const GifAnimation gif = read_gif(dir / "a.gif");
  REQUIRE(gif.frames.size() == 4);  // steps 0, 5, 10, 12
  CHECK(gif.delays_cs == std::vector<int>{10, 10, 10, 10});
  CHECK(same_pixels(gif.frames[0], read_png(dir / "f_000000.png")));
  CHECK(same_pixels(gif.frames[2], read_png(dir / "f_000010.png")));
  CHECK(same_pixels(gif.frames[3], final_png));
  CHECK_FALSE(same_pixels(gif.frames[0], gif.frames[3]));
}

TEST_CASE("pictures: GIF frames default to a hundredth of the run and shrink big grids") {
  ScratchDir dir;
  Result r = run_cli("run --backend cpu --grid 16x16 --fill 0.4 --steps 250 --gif " + dir / "a.gif");
  REQUIRE_MESSAGE(r.status == 0, r.out);
  CHECK(read_gif(dir / "a.gif").frames.size() == 85);  // every 3 steps: 0, 3, ..., 249, and 250
  r = run_cli("run --backend cpu --grid 300x100 --fill 0.1 --steps 2 --png-size 100 --gif " + dir / "b.gif");
  REQUIRE_MESSAGE(r.status == 0, r.out);
  const GifAnimation shrunk = read_gif(dir / "b.gif");
  CHECK(shrunk.width == 100);  // 3 x 3 cells per pixel
  CHECK(shrunk.height == 34);
  CHECK(shrunk.frames.size() == 3);
}

TEST_CASE("pictures: a mesh run pictures its elements, graphs with coordinates their vertices") {
  ScratchDir dir;
  const std::string mesh_file = data_path("meshes/t1_2d_tri_v41.msh");
  Result r =
      run_cli("run --backend cpu --mesh " + mesh_file + " --rule B2/S23 --fill 0.3 --steps 4 --png " + dir / "q.png" +
              " --png-size 300 --gif " + dir / "q.gif --frames-every 2 --states-out " + dir / "s.txt");
  REQUIRE_MESSAGE(r.status == 0, r.out);
  const Mesh mesh = read_mesh_file(mesh_file);
  const MeshGraph graph = mesh_to_graph(mesh);
  const StatePalette palette(2);
  const IndexedImage expected = CellRaster::for_mesh_elements(mesh, graph.elements, 300)
                                    .render(read_state_file(dir / "s.txt", graph.graph.num_vertices()), palette);
  const RgbImage png = read_png(dir / "q.png");
  CHECK(std::max(png.width, png.height) == 300);
  CHECK(same_pixels(png, coloured(expected, palette.colours())));
  const GifAnimation gif = read_gif(dir / "q.gif");
  REQUIRE(gif.frames.size() == 3);
  CHECK(same_pixels(gif.frames[2], png));
  CHECK(colours_in(png) == kDeadLiveBackground);

  for (const std::string& source :
       {std::string("--generate rgg:500"), "--mesh " + data_path("meshes/t5_3d_tet_v41.msh") + " --mesh-graph nodal"}) {
    r = run_cli("run --backend cpu " + source + " --fill 0.5 --steps 1 --png " + dir / "p.png --png-size 200");
    REQUIRE_MESSAGE(r.status == 0, r.out);
    const RgbImage points = read_png(dir / "p.png");
    CHECK(std::max(points.width, points.height) == 200);
    CHECK(colours_in(points) == kDeadLiveBackground);
  }
}

TEST_CASE("pictures: bad picture options fail cleanly and write nothing") {
  ScratchDir dir;
  struct Case {
    std::string args, message;
  } cases[] = {
      {"--generate er:30000:2 --gif " + dir / "a.gif", "--gif: graphs without coordinates are laid out for pictures"},
      {"--generate er:30000:2 --frames " + dir / "f", "--frames: graphs without coordinates are laid out for pictures"},
      {"--grid 8x8 --frames-every 3", "--frames-every needs --frames BASE or --gif FILE"},
      {"--grid 8x8 --gif " + dir / "a.gif --png-size 8", "--png-size must be from 16 to 4096"},
      {"--grid 8x8 --gif " + dir / "a.gif --gif-delay 5", "--gif-delay must be from 10 to 655350 ms"},
      {"--grid 8x8 --png " + dir / "a.png --png-scale 0", "--png-scale must be from 1 to 64"},
      {"--grid 8x8 --gif /nonexistent/dir/a.gif", "cannot write /nonexistent/dir/a.gif"},
      {"--grid 8x8 --frames /nonexistent/dir/f", "cannot write /nonexistent/dir/f_000000.png"},
  };
  for (const Case& c : cases) {
    Result r = run_cli("run --backend cpu --steps 2 --stats " + dir / "s.csv " + c.args);
    INFO(c.args, " -> ", r.out);
    CHECK(r.status == 1);
    CHECK(r.out.find(c.message) != std::string::npos);
    CHECK(dir.empty());
  }
}

// ---- tools/plot_stats.py ------------------------------------------------------------------

namespace {

const std::string kPlotTool = data_path("../tools/plot_stats.py");

std::string stats_csv() {
  std::string csv = "step,state_0,state_1,magnetization\n";
  for (int step = 0; step <= 20; ++step)
    csv += std::to_string(step) + "," + std::to_string(100 - step) + "," + std::to_string(step) + "," +
           std::to_string(0.05 * step) + "\n";
  return csv;
}

}  // namespace

TEST_CASE("pictures: plot_stats.py draws a statistics CSV with gnuplot" *
          doctest::skip(!on_path("python3") || !on_path("gnuplot"))) {
  ScratchDir dir;
  const std::string csv = dir.write("stats.csv", stats_csv());
  Result r = run_command("CELLGRAPH_PLOTTER=gnuplot python3 " + kPlotTool + " " + csv + " --size 640x400");
  REQUIRE_MESSAGE(r.status == 0, r.out);
  CHECK(dir.files() == std::set<std::string>{"stats.csv", "stats.stats.png"});  // clear of a run's NAME.png
  const RgbImage plot = read_png(dir / "stats.stats.png");
  CHECK(plot.width == 640);
  CHECK(plot.height == 400);
  // Axes and labels are gray; only the curves are coloured.
  std::size_t coloured_pixels = 0;
  for (std::size_t i = 0; i < plot.rgb.size(); i += 3)
    coloured_pixels += plot.rgb[i] != plot.rgb[i + 1] || plot.rgb[i + 1] != plot.rgb[i + 2];
  CHECK(coloured_pixels > 100);
  r = run_command("CELLGRAPH_PLOTTER=gnuplot python3 " + kPlotTool + " " + csv + " -o " + dir / "one.png" +
                  " --columns magnetization --log");
  CHECK_MESSAGE(r.status == 0, r.out);
  CHECK(read_png(dir / "one.png").width == 1000);

  // It replaces a picture it wrote, never one it did not.
  r = run_command("CELLGRAPH_PLOTTER=gnuplot python3 " + kPlotTool + " " + csv);
  CHECK_MESSAGE(r.status == 0, r.out);
  const std::string theirs = dir.write("theirs.png", "a run's picture");
  r = run_command("CELLGRAPH_PLOTTER=gnuplot python3 " + kPlotTool + " " + csv + " -o " + theirs);
  CHECK(r.status == 1);
  CHECK(r.out.find(theirs + " exists and was not written by plot_stats.py") != std::string::npos);
  CHECK(read_file(theirs) == "a run's picture");
}

TEST_CASE("pictures: plot_stats.py draws an ensemble summary as a band per sweep point with gnuplot" *
          doctest::skip(!on_path("python3") || !on_path("gnuplot"))) {
  ScratchDir dir;
  std::string csv = "T,replicas,step,M_mean,M_sd,M_se,M_low95,M_high95\n";
  for (const char* T : {"2", "3"})
    for (int step = 0; step <= 20; ++step)
      csv += std::string(T) + ",4," + std::to_string(step) + "," + std::to_string(0.1 * step) + ",0.2,0.1," +
             std::to_string(0.1 * step - 0.3) + "," + std::to_string(0.1 * step + 0.3) + "\n";
  const std::string path = dir.write("summary.csv", csv);
  Result r = run_command("CELLGRAPH_PLOTTER=gnuplot python3 " + kPlotTool + " " + path + " --size 640x400");
  REQUIRE_MESSAGE(r.status == 0, r.out);
  const RgbImage plot = read_png(dir / "summary.stats.png");
  std::size_t coloured_pixels = 0;  // the bands fill far more than two curves would
  for (std::size_t i = 0; i < plot.rgb.size(); i += 3)
    coloured_pixels += plot.rgb[i] != plot.rgb[i + 1] || plot.rgb[i + 1] != plot.rgb[i + 2];
  CHECK(coloured_pixels > 5000);
  r = run_command("CELLGRAPH_PLOTTER=gnuplot python3 " + kPlotTool + " " + path + " -o " + dir / "x.png" +
                  " --columns X");
  CHECK(r.status == 1);
  CHECK(r.out.find("no column 'X' (the summary has M)") != std::string::npos);
}

TEST_CASE("pictures: plot_stats.py gives the populations one panel and each observable its own" *
          doctest::skip(!on_path("python3"))) {
  // Ising's columns: populations (whole numbers) together; magnetization and energy apart.
  const std::string tools = data_path("../tools");
  const Result r = run_command("python3 -c \"import sys; sys.path.insert(0, '" + tools +
                               "'); import plot_stats; h = ['step', 'state_0', 'state_1', 'magnetization', 'energy']; "
                               "rows = [[0, 90, 10, 0.1, -1.5], [1, 85, 15, 0.2, -1.6]]; "
                               "print(plot_stats.panels(h, rows, h[1:]))\"");
  REQUIRE_MESSAGE(r.status == 0, r.out);
  CHECK(r.out == "[('cells', ['state_0', 'state_1']), ('magnetization', ['magnetization']), ('energy', ['energy'])]\n");
}

TEST_CASE("pictures: plot_stats.py refuses bad input with a message, leaving no picture" *
          doctest::skip(!on_path("python3"))) {
  ScratchDir dir;
  const std::string good = dir.write("good.csv", stats_csv());
  const std::string bad = dir.write("bad.csv", "step,state_0\n0,5\n1,five\n");
  struct Case {
    std::string args, message;
  } cases[] = {
      {dir / "none.csv", "cannot read " + dir / "none.csv"},
      {bad, bad + ":3: a value is not a number"},
      {dir.write("header.csv", "time,a\n0,1\n"), "header.csv:1: expected a header starting with 'step'"},
      {good + " --columns state_1,nope", "no column 'nope'"},
      {"CELLGRAPH_PLOTTER=bogus", "CELLGRAPH_PLOTTER must be matplotlib or gnuplot"},
  };
  for (const Case& c : cases) {
    const bool env = c.args.rfind("CELLGRAPH_PLOTTER", 0) == 0;
    Result r = run_command(env ? c.args + " python3 " + kPlotTool + " " + good + " -o " + dir / "x.png"
                               : "python3 " + kPlotTool + " " + c.args + " -o " + dir / "x.png");
    INFO(c.args, " -> ", r.out);
    CHECK(r.status == 1);
    CHECK(r.out.find(c.message) != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(dir / "x.png"));
  }
}
