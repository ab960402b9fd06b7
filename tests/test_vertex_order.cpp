#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <numeric>
#include <random>
#include <vector>

#include "cellgraph/error.hpp"
#include "cellgraph/hilbert.hpp"
#include "cellgraph/layout.hpp"
#include "cellgraph/source/generators.hpp"
#include "cellgraph/vertex_order.hpp"
#include "model_runs.hpp"

using namespace cellgraph;

namespace {

// Every cell of a 2^bits-sided square or cube, in curve order: each step moves to a face
// neighbor, and the positions are 0 .. cells - 1.
void check_curve(int dims, int bits) {
  const std::uint32_t side = 1u << bits;
  const std::uint64_t cells = std::uint64_t(1) << (dims * bits);
  std::vector<std::array<std::uint32_t, 3>> at(cells, {~0u, ~0u, ~0u});
  for (std::uint64_t c = 0; c < cells; ++c) {
    std::uint32_t axes[3] = {std::uint32_t(c % side), std::uint32_t(c / side % side), std::uint32_t(c / side / side)};
    const std::uint64_t h = hilbert_index(axes, dims, bits);
    REQUIRE(h < cells);
    REQUIRE(at[h][0] == ~0u);  // no position twice
    at[h] = {axes[0], axes[1], dims == 3 ? axes[2] : 0};
  }
  CHECK(at[0] == std::array<std::uint32_t, 3>{0, 0, 0});
  for (std::uint64_t h = 1; h < cells; ++h) {
    std::uint32_t moved = 0;
    for (int d = 0; d < 3; ++d) moved += at[h][d] > at[h - 1][d] ? at[h][d] - at[h - 1][d] : at[h - 1][d] - at[h][d];
    if (moved != 1) FAIL("positions ", h - 1, " and ", h, " are not neighbors");
  }
}

// g with its ids shuffled (coordinates moved along): a mesh file that numbers poorly.
Graph shuffled(const Graph& g, std::uint32_t seed) {
  const std::uint32_t n = g.num_vertices();
  std::vector<VertexId> to(n);
  std::iota(to.begin(), to.end(), 0u);
  std::shuffle(to.begin(), to.end(), std::mt19937(seed));
  std::vector<std::pair<VertexId, VertexId>> edges;
  for (VertexId u = 0; u < n; ++u)
    for (std::uint64_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k)
      if (g.neighbors[k] > u) edges.emplace_back(to[u], to[g.neighbors[k]]);
  Graph s = graph_from_edges(n, edges);
  s.coord_dim = g.coord_dim;
  s.coords.resize(g.coords.size());
  for (VertexId u = 0; u < n; ++u)
    for (int d = 0; d < g.coord_dim; ++d)
      s.coords[std::size_t(to[u]) * g.coord_dim + d] = g.coords[std::size_t(u) * g.coord_dim + d];
  return s;
}

}  // namespace

TEST_CASE("hilbert: the curve visits every cell once, each step to a neighbor") {
  check_curve(2, 1);
  check_curve(2, 5);
  check_curve(3, 1);
  check_curve(3, 4);
  const std::uint32_t far[2] = {0x7fffffffu, 0};
  CHECK(hilbert_index(far, 2, 31) == (std::uint64_t(1) << 62) - 1);  // the 2D curve ends at (max, 0)
  CHECK_THROWS_AS(hilbert_index(far, 4, 8), Error);
  CHECK_THROWS_AS(hilbert_index(far, 3, 22), Error);  // 66 bits
}

TEST_CASE("vertex order: a badly numbered mesh compiles to a local layout, and runs alike") {
  const Graph g = shuffled(random_geometric_graph(1 << 15, 6.0, 5), 11);
  const Layout input = compile(g);
  const std::uint64_t scattered = median_gather_span(input);
  CHECK(scattered > g.num_vertices() / 2);
  std::vector<std::uint32_t> start(g.num_vertices(), 0);
  for (VertexId v = 0; v < g.num_vertices(); v += 97) start[v] = 1;  // infected
  const models::Params sir = {{"beta", "0.3"}, {"tau", "3"}};
  auto reference = test::make_model("sir", sir, g);
  reference->set_states(start);
  reference->advance(25);
  CHECK(reference->census()[1] > 0);

  for (VertexOrder order : {VertexOrder::hilbert, VertexOrder::rcm}) {
    CAPTURE(int(order));
    CompileOptions along;
    along.order = order;
    const Layout local = compile(g, along);
    MESSAGE("median gather span: input order ", scattered, ", order ", int(order), ": ", median_gather_span(local));
    CHECK(median_gather_span(local) < 2 * along.sort_window);  // about the degree-sort window
    for (VertexId v = 0; v < local.num_vertices; ++v) {        // the same lists, in the same order
      const VertexId user = local.local_to_user[v];
      std::vector<VertexId> listed;
      for_each_neighbor(local, v,
                        [&](std::uint32_t cell, std::uint32_t) { listed.push_back(local.local_to_user[cell]); });
      REQUIRE(std::equal(listed.begin(), listed.end(), g.neighbors.begin() + g.offsets[user],
                         g.neighbors.begin() + g.offsets[user + 1]));
    }
    // Random models draw by user id: the numbering changes no result.
    auto run = test::make_model("sir", sir, g, {}, along);
    run->set_states(start);
    run->advance(25);
    CHECK(run->states() == reference->states());
  }

  Graph flat = g;  // the same points as a flat mesh in 3D: the same curve
  flat.coord_dim = 3;
  flat.coords.clear();
  for (VertexId v = 0; v < g.num_vertices(); ++v)
    flat.coords.insert(flat.coords.end(), {g.coords[2 * v], g.coords[2 * v + 1], 0.5});
  CHECK(hilbert_keys(flat) == hilbert_keys(g));

  Graph bare = g;  // no coordinates: nothing to lay a curve through, but RCM needs none
  bare.coord_dim = 0;
  bare.coords.clear();
  CompileOptions curve, rcm;
  curve.order = VertexOrder::hilbert;
  rcm.order = VertexOrder::rcm;
  CHECK_THROWS_WITH_AS(compile(bare, curve), doctest::Contains("coordinates"), Error);
  CHECK(median_gather_span(compile(bare, rcm)) < 2 * rcm.sort_window);
}

TEST_CASE("vertex order: reverse Cuthill-McKee walks a shuffled path end to end, every component placed") {
  const Graph path = shuffled(test::path_graph(500), 3);
  std::vector<std::uint64_t> place = vertex_places(path, VertexOrder::rcm);
  REQUIRE(place.size() == 500);
  for (VertexId u = 0; u < 500; ++u)
    for (std::uint64_t k = path.offsets[u]; k < path.offsets[u + 1]; ++k) {
      const std::uint64_t a = place[u], b = place[path.neighbors[k]];
      if ((a > b ? a - b : b - a) != 1) FAIL("an edge of the path joins places ", a, " and ", b);
    }
  // Two components and a lone vertex: every vertex gets one place of 0 .. n - 1.
  const Graph parts = graph_from_edges(7, {{0, 1}, {1, 2}, {4, 5}, {5, 6}, {6, 4}});
  place = vertex_places(parts, VertexOrder::rcm);
  std::sort(place.begin(), place.end());
  for (std::uint64_t i = 0; i < place.size(); ++i) CHECK(place[i] == i);
  CHECK(vertex_places(parts, VertexOrder::input).empty());
}
