// Layouts of graphs without coordinates (Graphviz sfdp), and the run command's pictures of them.
#include <doctest/doctest.h>

#include <cmath>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cellgraph/error.hpp"
#include "cellgraph/output/graph_layout.hpp"
#include "cellgraph/output/palette.hpp"
#include "cellgraph/output/pictures.hpp"
#include "cellgraph/output/png.hpp"
#include "cellgraph/output/quicklook.hpp"
#include "cellgraph/source/graph_file.hpp"
#include "cellgraph/source/source.hpp"
#include "cli_run.hpp"
#include "scratch.hpp"

using namespace cellgraph;
using cellgraph::test::run_cli;

namespace {

// A side x side grid graph as an edge list: vertex y * side + x, 4 neighbours.
std::string grid_edge_list(int side) {
  std::string text = "# grid graph\n";
  for (int y = 0; y < side; ++y)
    for (int x = 0; x < side; ++x) {
      const int v = y * side + x;
      if (x + 1 < side) text += std::to_string(v) + " " + std::to_string(v + 1) + "\n";
      if (y + 1 < side) text += std::to_string(v) + " " + std::to_string(v + side) + "\n";
    }
  return text;
}

double distance(const std::vector<double>& xy, VertexId a, VertexId b) {
  return std::hypot(xy[2 * a] - xy[2 * b], xy[2 * a + 1] - xy[2 * b + 1]);
}

void check_finite_and_distinct(const std::vector<double>& xy, VertexId n) {
  REQUIRE(xy.size() == 2 * std::size_t(n));
  std::set<std::pair<double, double>> points;
  for (VertexId v = 0; v < n; ++v) {
    CHECK(std::isfinite(xy[2 * v]));
    CHECK(std::isfinite(xy[2 * v + 1]));
    points.insert({xy[2 * v], xy[2 * v + 1]});
  }
  CHECK(points.size() == n);
}

// The vertices at the layout's positions, as the quick look takes them.
Graph points_at(const std::vector<double>& xy) {
  Graph points;
  points.offsets.assign(xy.size() / 2 + 1, 0);
  points.coord_dim = 2;
  points.coords = xy;
  return points;
}

// The picture a run should write: the raster of `points` in the states of a --states-out file.
std::vector<std::uint8_t> expected_rgb(const Graph& points, const std::string& states_file, int size) {
  const StatePalette palette(2);
  const IndexedImage image =
      CellRaster::for_points(points, size).render(read_state_file(states_file, points.num_vertices()), palette);
  std::vector<std::uint8_t> rgb;
  for (std::uint8_t index : image.pixels) {
    const Rgb c = palette.colours()[index];
    rgb.insert(rgb.end(), {c.r, c.g, c.b});
  }
  return rgb;
}

}  // namespace

TEST_CASE("graph layout: a grid graph gets finite, distinct positions, the same on every call") {
  ScratchDir dir;
  const Graph grid = read_graph_file(dir.write("grid.txt", grid_edge_list(10)));
  REQUIRE(grid.num_vertices() == 100);
  REQUIRE(grid.coord_dim == 0);
  const std::vector<double> xy = layout_graph(grid);
  check_finite_and_distinct(xy, 100);
  CHECK(layout_graph(grid) == xy);
  LayoutOptions seed_2;
  seed_2.seed = 2;
  CHECK(layout_graph(grid, seed_2) != xy);
  // The layout follows the graph: opposite corners are farther apart than any edge is long.
  double longest_edge = 0;
  for (VertexId v = 0; v < 100; ++v)
    for (EdgeOffset e = grid.offsets[v]; e < grid.offsets[v + 1]; ++e)
      longest_edge = std::max(longest_edge, distance(xy, v, grid.neighbors[e]));
  CHECK(distance(xy, 0, 99) > 3 * longest_edge);
  CHECK(distance(xy, 9, 90) > 3 * longest_edge);
}

TEST_CASE("graph layout: isolated vertices get places of their own, under the rest") {
  const Graph triangle_and_three = graph_from_edges(6, {{0, 1}, {1, 2}, {2, 0}});
  const std::vector<double> xy = layout_graph(triangle_and_three);
  check_finite_and_distinct(xy, 6);
  for (VertexId isolated : {3, 4, 5})
    for (VertexId linked : {0, 1, 2}) CHECK(xy[2 * isolated + 1] < xy[2 * linked + 1]);
  check_finite_and_distinct(layout_graph(graph_from_edges(5, {})), 5);  // no edge at all
  CHECK(layout_graph(Graph{}).empty());
}

TEST_CASE("graph layout: a graph over the limits is refused, naming them") {
  const Graph path = graph_from_edges(3, {{0, 1}, {1, 2}});
  LayoutOptions small;
  small.max_vertices = 2;
  CHECK_FALSE(layout_fits(path, small));
  CHECK_THROWS_WITH_AS(layout_graph(path, small),
                       doctest::Contains("up to 2 vertices and 200000 edges, and this one has 3 vertices and 2 edges"),
                       Error);
  small = {};
  small.max_edges = 1;
  CHECK_THROWS_AS(layout_graph(path, small), Error);
  LayoutOptions seed_0;
  seed_0.seed = 0;  // sfdp's seed from the clock
  CHECK_THROWS_AS(layout_graph(path, seed_0), Error);
  Graph large;
  large.offsets.assign(LayoutOptions{}.max_vertices + 2, 0);  // one vertex over the default limit
  CHECK_FALSE(layout_fits(large));
}

TEST_CASE("graph layout: graphs without coordinates are pictured by a layout, those with by their own") {
  SourceSpec er;
  er.generator = "er:300:3";
  CHECK(pictured_by_layout(load_source(er)));
  CHECK(can_picture(load_source(er)));
  SourceSpec rgg;
  rgg.generator = "rgg:300";
  CHECK_FALSE(pictured_by_layout(load_source(rgg)));
  SourceSpec grid;
  grid.grid = "8x8";
  CHECK_FALSE(pictured_by_layout(load_source(grid)));
  er.generator = "er:30000:3";
  PictureOptions png;
  png.png = "x.png";
  CHECK_THROWS_WITH_AS(check_pictures(png, load_source(er)),
                       doctest::Contains("up to 20000 vertices and 200000 edges, and this one has 30000 vertices"),
                       Error);
}

TEST_CASE("graph layout: run --png pictures a generated graph at sfdp's positions, the same each run") {
  ScratchDir dir;
  const std::string run = "run --backend cpu --generate er:2000:4 --fill 0.5 --steps 3 --png-size 300 --states-out ";
  auto r = run_cli(run + dir / "s.txt --png " + dir / "a.png");
  REQUIRE_MESSAGE(r.status == 0, r.out);
  CHECK(r.out.find("laying out 2000 vertices and") != std::string::npos);
  const RgbImage png = read_png(dir / "a.png");
  CHECK(std::max(png.width, png.height) == 300);
  SourceSpec spec;
  spec.generator = "er:2000:4";
  const Graph points = points_at(layout_graph(load_source(spec).graph));
  CHECK(png.rgb == expected_rgb(points, dir / "s.txt", 300));  // not blank: dead, live and background
  std::set<std::uint32_t> colours;
  for (std::size_t i = 0; i < png.rgb.size(); i += 3)
    colours.insert(std::uint32_t(png.rgb[i]) << 16 | std::uint32_t(png.rgb[i + 1]) << 8 | png.rgb[i + 2]);
  CHECK(colours == std::set<std::uint32_t>{0x000000, 0xFFFFFF, 0x283858});
  r = run_cli(run + dir / "s2.txt --png " + dir / "b.png");
  REQUIRE_MESSAGE(r.status == 0, r.out);
  CHECK(read_png(dir / "b.png").rgb == png.rgb);
}

TEST_CASE("graph layout: run pictures an edge list file, and graphs with coordinates by their own") {
  ScratchDir dir;
  const std::string grid = dir.write("grid.txt", grid_edge_list(10));
  auto r = run_cli("run --backend cpu --graph " + grid + " --rule B2/S --fill 0.4 --steps 2 --png " + dir / "g.png" +
                   " --png-size 200 --states-out " + dir / "g.txt");
  REQUIRE_MESSAGE(r.status == 0, r.out);
  CHECK(read_png(dir / "g.png").rgb ==
        expected_rgb(points_at(layout_graph(read_graph_file(grid))), dir / "g.txt", 200));

  r = run_cli("run --backend cpu --generate rgg:500 --fill 0.5 --steps 1 --png " + dir / "r.png" +
              " --png-size 200 --states-out " + dir / "r.txt");
  REQUIRE_MESSAGE(r.status == 0, r.out);
  CHECK(r.out.find("laying out") == std::string::npos);
  SourceSpec rgg;
  rgg.generator = "rgg:500";
  CHECK(read_png(dir / "r.png").rgb == expected_rgb(load_source(rgg).graph, dir / "r.txt", 200));
}

TEST_CASE("graph layout: run refuses a picture of a graph over the limits, saying what to do") {
  ScratchDir dir;
  const auto r = run_cli("run --backend cpu --generate er:30000:2 --fill 0.5 --steps 1 --png " + dir / "x.png");
  CHECK(r.status == 1);
  CHECK(r.out.find("--png: graphs without coordinates are laid out for pictures (Graphviz sfdp) up to 20000 vertices "
                   "and 200000 edges, and this one has 30000 vertices") != std::string::npos);
  CHECK(r.out.find("--states-out") != std::string::npos);
  CHECK(dir.empty());
}
