#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "cellgraph/layout.hpp"
#include "cellgraph/source/generators.hpp"
#include "cellgraph/source/graph_file.hpp"
#include "cellgraph/source/grid.hpp"
#include "data_path.hpp"
#include "src/backend/cpu/sweep.hpp"

using namespace cellgraph;

namespace {

// Every compiled vertex's neighbor list, mapped back to user ids, equals its CSR row in the
// same order (slots included); padding holds the null cell only.
void check_layout_matches(const Graph& g, const Layout& L) {
  REQUIRE(L.num_vertices == g.num_vertices());
  REQUIRE(L.state_length() == g.num_vertices() + 2);
  CHECK(reinterpret_cast<std::uintptr_t>(L.neighbors.data()) % kParagraph == 0);
  std::vector<bool> seen(g.num_vertices(), false);
  for (VertexId local = 0; local < L.num_vertices; ++local) {
    const VertexId user = L.local_to_user[local];
    REQUIRE(L.user_to_local[user] == local);
    seen[user] = true;
    std::vector<VertexId> compiled;
    for_each_neighbor(L, local, [&](std::uint32_t cell, std::uint32_t) {
      compiled.push_back(cell == L.boundary_cell() ? kBoundaryVertex : L.local_to_user.at(cell));
    });
    std::vector<VertexId> row(g.neighbors.begin() + g.offsets[user], g.neighbors.begin() + g.offsets[user + 1]);
    REQUIRE(compiled == row);
  }
  CHECK(std::all_of(seen.begin(), seen.end(), [](bool b) { return b; }));
  // Column-major padding beyond each vertex's degree is the null cell.
  for (std::uint32_t s = L.num_hub_slices; s < L.num_slices(); ++s)
    for (std::uint32_t lane = 0; lane < kSliceWidth; ++lane) {
      const std::uint32_t v = s * kSliceWidth + lane;
      const std::uint32_t degree = v < L.num_vertices ? L.degree[v] : 0;
      for (std::uint32_t k = degree; k < L.slice_width[s]; ++k) REQUIRE(L.lists().entry(v, k) == L.null_cell());
    }
}

}  // namespace

TEST_CASE("layout: grids keep their order and slots") {
  GridSpec spec;
  spec.size = {37, 23, 1};
  spec.stencil = moore_stencil(2, 1);
  for (BoundaryKind kind : {BoundaryKind::periodic, BoundaryKind::fixed, BoundaryKind::reflective}) {
    spec.boundary.kind = kind;
    Graph g = build_grid_graph(spec);
    Layout L = compile(g);
    check_layout_matches(g, L);
    // All degrees equal: the permutation is the identity and no slice is padded.
    for (VertexId v = 0; v < L.num_vertices; ++v) REQUIRE(L.local_to_user[v] == v);
    CHECK(report(L).padding_overhead < 0.02);
    CHECK(L.num_hub_slices == 0);
  }
}

TEST_CASE("layout: irregular graphs are sorted by degree within windows") {
  Graph g = random_geometric_graph(5000, 6.0, 3);
  for (std::uint32_t window : {1u, 64u, 1000u, 100000u}) {
    CompileOptions o;
    o.sort_window = window;
    Layout L = compile(g, o);
    check_layout_matches(g, L);
    for (VertexId v = 1; v < L.num_vertices; ++v)
      if (v % window != 0) REQUIRE(L.degree[v - 1] >= L.degree[v]);
  }
  CompileOptions coarse;
  coarse.degree_quantum = 4;
  Layout quantised = compile(g, coarse);
  check_layout_matches(g, quantised);
  for (VertexId v = 1; v < quantised.num_vertices; ++v)
    if (v % coarse.sort_window != 0) REQUIRE((quantised.degree[v - 1] + 3) / 4 >= (quantised.degree[v] + 3) / 4);
  // Sorting within windows pays: less padding than none at all.
  CompileOptions unsorted;
  unsorted.sort_window = 1;
  CHECK(report(compile(g)).padding_overhead < report(compile(g, unsorted)).padding_overhead);
}

TEST_CASE("layout: hubs come first, whole slices, row-major") {
  Graph g = rmat_graph(12, 8, 5);
  CompileOptions o;
  o.hub_degree = 64;
  Layout L = compile(g, o);
  check_layout_matches(g, L);
  REQUIRE(L.num_hub_slices > 0);
  std::uint32_t hubs = 0;
  for (VertexId v = 0; v < g.num_vertices(); ++v) hubs += g.degree(v) >= 64;
  CHECK(L.num_hub_slices == (hubs + 31) / 32);
  for (VertexId v = 0; v < hubs; ++v) REQUIRE(L.degree[v] >= 64);
  CHECK(L.slice_begin[L.num_hub_slices] % kSliceWidth == 0);
  LayoutReport r = report(L);
  CHECK(r.hub_vertices == L.num_hub_slices * 32);
  CHECK(L.num_giant_hubs == 0);
  o.giant_degree = 200;
  Layout giants = compile(g, o);
  check_layout_matches(g, giants);
  REQUIRE(giants.num_giant_hubs > 0);
  for (VertexId v = 0; v < giants.num_vertices; ++v) REQUIRE((v < giants.num_giant_hubs) == (giants.degree[v] >= 200));
  CHECK(r.histogram_bucketed);
  std::uint64_t counted = 0;
  for (auto [degree, count] : r.degree_histogram) counted += count;
  CHECK(counted == g.num_vertices());
}

TEST_CASE("layout: empty rows and tiny graphs") {
  Graph g = graph_from_edges(5, {{0, 1}, {3, 1}});
  Layout L = compile(g);
  check_layout_matches(g, L);
  CHECK(L.num_slices() == 1);
  Graph lonely = graph_from_edges(1, {});
  check_layout_matches(lonely, compile(lonely));
}

TEST_CASE("layout: the gather span tells local layouts from scattered ones") {
  GridSpec grid;
  grid.size = {1024, 256, 1};
  grid.stencil = moore_stencil(2, 1);
  const Layout moore = compile(build_grid_graph(grid));
  CHECK(median_gather_span(moore) >= 2 * 1024);  // a slice reads the rows above and below
  CHECK(median_gather_span(moore) <= 2 * 1024 + 64);
  const std::uint32_t n = 1 << 17;
  const Layout mesh = compile(random_geometric_graph(n, 6.0, 3));
  const Layout random = compile(erdos_renyi_graph(n, 8.0, 3));
  const Layout hubs = compile(rmat_graph(17, 16, 3));
  MESSAGE("spans: mesh ", median_gather_span(mesh), ", random ", median_gather_span(random), ", R-MAT ",
          median_gather_span(hubs), " of ", n, " cells");
  CHECK(median_gather_span(mesh) < n / 16);
  CHECK(median_gather_span(random) > n * 3 / 4);
  CHECK(median_gather_span(hubs) > n / 2);
  CHECK(median_gather_span(compile(graph_from_edges(1, {}))) == 0);  // no neighbors to read
}

TEST_CASE("generators: an rgg links exactly the points within its radius, numbered along space") {
  const std::uint32_t n = 3000;
  const double mean = 6.0, r2 = mean / (M_PI * n);
  const Graph g = random_geometric_graph(n, mean, 7);
  REQUIRE(g.coord_dim == 2);
  auto linked = [&](VertexId u, VertexId v) {
    return std::binary_search(g.neighbors.begin() + g.offsets[u], g.neighbors.begin() + g.offsets[u + 1], v);
  };
  std::uint64_t pairs = 0;
  for (VertexId u = 0; u < n; ++u)
    for (VertexId v = u + 1; v < n; ++v) {
      const double dx = g.coords[2 * u] - g.coords[2 * v], dy = g.coords[2 * u + 1] - g.coords[2 * v + 1];
      const bool near = dx * dx + dy * dy < r2;
      pairs += near;
      if (near != linked(u, v) || near != linked(v, u)) FAIL("points ", u, " and ", v, " linked wrongly");
    }
  CHECK(2 * pairs == g.neighbors.size());
  CHECK(double(2 * pairs) / n == doctest::Approx(mean).epsilon(0.15));

  // Ids follow a Hilbert curve: half the edges join ids closer than a row of bins would
  // (about sqrt(pi n / mean) bins of two points each).
  const Graph big = random_geometric_graph(1 << 16, mean, 7);
  std::vector<std::uint32_t> gaps;
  for (VertexId u = 0; u < big.num_vertices(); ++u)
    for (std::uint64_t k = big.offsets[u]; k < big.offsets[u + 1]; ++k)
      if (big.neighbors[k] > u) gaps.push_back(big.neighbors[k] - u);
  std::nth_element(gaps.begin(), gaps.begin() + gaps.size() / 2, gaps.end());
  MESSAGE("median id gap of an edge: ", gaps[gaps.size() / 2]);
  CHECK(gaps[gaps.size() / 2] < 32);
}

TEST_CASE("layout: graphs under 2^20 vertices cut their degree tail into hubs, larger ones only heavy tails") {
  // copter2: 55,476 vertices of degree 3 to 44, mean 12.7: ordinary lists up to 24 (three
  // batches of 8), hubs from degree 25 (503 of them).
  const Graph copter2 = read_graph_file(data_path("graphs/metis/debian-libmetis-doc/copter2.graph"));
  CHECK(compile_options_for(copter2, {}).hub_degree == 25);
  const Layout L = compile(copter2);
  std::uint32_t tail = 0;
  for (VertexId v = 0; v < copter2.num_vertices(); ++v) tail += copter2.degree(v) >= 25;
  CHECK(tail == 503);
  CHECK(report(L).hub_vertices == (tail + 31) / 32 * 32);
  CHECK(L.num_giant_hubs == 0);
  // The floor: a mesh of mean degree 6 gets hubs only from 25; 24 neighbors each: lists up to 48.
  CHECK(compile_options_for(random_geometric_graph(20000, 6.0, 2), {}).hub_degree == 25);
  GridSpec moore2;
  moore2.size = {50, 40, 1};
  moore2.stencil = moore_stencil(2, 2);  // periodic
  CHECK(build_grid_graph(moore2).num_entries() == 24u * 50 * 40);
  CHECK(compile_options_for(build_grid_graph(moore2), {}).hub_degree == 49);
  // A threshold the user gives is kept.
  CompileOptions given;
  given.hub_degree = 40;
  CHECK(compile_options_for(copter2, given).hub_degree == 40);
  // From 2^20 vertices on, the bandwidth rule: max(256, 16 x mean), giants max(1024, 32 x mean).
  std::vector<std::pair<VertexId, VertexId>> ring;
  const VertexId n = kSweepTuning.latency_bound_vertices;
  for (VertexId v = 0; v < n; ++v) ring.emplace_back(v, (v + 1) % n);
  const CompileOptions large = compile_options_for(graph_from_edges(n, ring), {});
  CHECK(large.hub_degree == 256);
  CHECK(large.giant_degree == 1024);
}
