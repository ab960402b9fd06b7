#include <doctest/doctest.h>

#include <algorithm>

#include "cellgraph/error.hpp"
#include "cellgraph/source/grid.hpp"

using namespace cellgraph;

namespace {
GridSpec grid2d(std::int64_t w, std::int64_t h, std::vector<Offset> stencil, Boundary b = {}) {
  GridSpec g;
  g.dims = 2;
  g.size = {w, h, 1};
  g.stencil = std::move(stencil);
  g.boundary = b;
  return g;
}
VertexId slot(const Graph& g, VertexId v, std::size_t k) { return g.neighbors[g.offsets[v] + k]; }
}  // namespace

TEST_CASE("grid: stencil sizes") {
  CHECK(moore_stencil(1, 1).size() == 2);
  CHECK(moore_stencil(2, 1).size() == 8);
  CHECK(moore_stencil(2, 2).size() == 24);
  CHECK(moore_stencil(3, 1).size() == 26);
  CHECK(von_neumann_stencil(2, 1).size() == 4);
  CHECK(von_neumann_stencil(2, 2).size() == 12);
  CHECK(von_neumann_stencil(3, 1).size() == 6);
  CHECK(hexagonal_stencil().size() == 6);
  // Raster order: the first Moore offset is up-left, the last down-right.
  CHECK(moore_stencil(2, 1).front() == Offset{-1, -1, 0});
  CHECK(moore_stencil(2, 1).back() == Offset{1, 1, 0});
}

TEST_CASE("grid: parsing") {
  int dims = 0;
  CHECK(parse_grid_size("512x256", &dims) == std::array<std::int64_t, 3>{512, 256, 1});
  CHECK(dims == 2);
  CHECK(parse_grid_size("7", &dims)[0] == 7);
  CHECK(dims == 1);
  CHECK(parse_grid_size("4x5x6", &dims)[2] == 6);
  CHECK_THROWS_WITH_AS(parse_grid_size("0x5", nullptr),
                       "bad grid size '0x5' (want positive integers like 512x512 or 64x64x64)", Error);
  CHECK_THROWS_AS(parse_grid_size("5x", nullptr), Error);
  CHECK_THROWS_AS(parse_grid_size("1x2x3x4", nullptr), Error);
  CHECK(parse_stencil("moore:2", 2).size() == 24);
  CHECK(parse_stencil("vonneumann", 3).size() == 6);
  auto custom = parse_stencil("custom:0,0,1;0,0,-1;0,0,2", 3);
  REQUIRE(custom.size() == 3);
  CHECK(custom[2] == Offset{0, 0, 2});
  CHECK_THROWS_AS(parse_stencil("custom:0,0", 2), Error);
  CHECK_THROWS_AS(parse_stencil("custom:1,x", 2), Error);
  CHECK_THROWS_AS(parse_stencil("hex", 3), Error);
  CHECK_THROWS_AS(parse_stencil("moore:0", 2), Error);
  CHECK_THROWS_WITH_AS(parse_stencil("knight", 2),
                       "unknown neighborhood 'knight' (moore[:r], vonneumann[:r], hex, cloud, custom:x,y;...)", Error);
  CHECK(parse_boundary("fixed:3").value == 3);
  CHECK(parse_boundary("open").kind == BoundaryKind::fixed);
  CHECK_THROWS_AS(parse_boundary("klein"), Error);
}

TEST_CASE("grid: periodic wraps, fixed points at the boundary cell, reflective mirrors") {
  auto vn = von_neumann_stencil(2, 1);  // (0,-1), (-1,0), (1,0), (0,1)
  const VertexId corner = 0;            // (0, 0) on 5x4
  Graph p = build_grid_graph(grid2d(5, 4, vn));
  CHECK(p.slotted);
  CHECK(slot(p, corner, 0) == 15);  // (0, 3)
  CHECK(slot(p, corner, 1) == 4);   // (4, 0)
  CHECK(slot(p, corner, 2) == 1);
  CHECK(slot(p, corner, 3) == 5);
  Graph f = build_grid_graph(grid2d(5, 4, vn, {BoundaryKind::fixed, 1}));
  CHECK(slot(f, corner, 0) == kBoundaryVertex);
  CHECK(slot(f, corner, 1) == kBoundaryVertex);
  CHECK(slot(f, corner, 2) == 1);
  Graph r = build_grid_graph(grid2d(5, 4, vn, {BoundaryKind::reflective, 0}));
  CHECK(slot(r, corner, 0) == 0);  // y = -1 mirrors to y = 0
  CHECK(slot(r, corner, 1) == 0);
  // Range 2 reflects further in: x = -2 -> 1.
  Graph r2 = build_grid_graph(grid2d(5, 4, {{-2, 0, 0}}, {BoundaryKind::reflective, 0}));
  CHECK(slot(r2, 0, 0) == 1);
  CHECK(slot(r2, 1, 0) == 0);
}

TEST_CASE("grid: 3D and 1D ids, offsets along a missing axis refused") {
  GridSpec g;
  g.dims = 3;
  g.size = {4, 3, 2};
  g.stencil = {{0, 0, 1}};
  Graph graph = build_grid_graph(g);
  CHECK(graph.num_vertices() == 24);
  CHECK(slot(graph, g.cell_id(1, 2, 0), 0) == g.cell_id(1, 2, 1));
  CHECK(slot(graph, g.cell_id(1, 2, 1), 0) == g.cell_id(1, 2, 0));
  GridSpec line;
  line.dims = 1;
  line.size = {10, 1, 1};
  line.stencil = moore_stencil(1, 1);
  Graph l = build_grid_graph(line);
  CHECK(slot(l, 0, 0) == 9);
  line.stencil = {{0, 1, 0}};
  CHECK_THROWS_AS(build_grid_graph(line), Error);
}
