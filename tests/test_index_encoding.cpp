// Compressed neighbor lists (stencil and delta slices) against explicit 4-byte ids: the same
// lists, and the same states after N steps, on grids, meshes, random graphs and partitions.
#include <doctest/doctest.h>

#include <random>

#include "cellgraph/layout.hpp"
#include "cellgraph/partition.hpp"
#include "cellgraph/source/generators.hpp"
#include "cellgraph/source/graph_file.hpp"
#include "cellgraph/source/mesh.hpp"
#include "data_path.hpp"
#include "model_runs.hpp"
#include "partitioned_runs.hpp"

using namespace cellgraph;
using namespace cellgraph::test;

namespace {

CompileOptions encoded(CompileOptions o = {}) {
  o.index_encoding = IndexEncoding::automatic;
  return o;
}
CompileOptions with_deltas(CompileOptions o = {}) {
  o.index_encoding = IndexEncoding::deltas;
  return o;
}
CompileOptions explicit_ids(CompileOptions o = {}) {
  o.index_encoding = IndexEncoding::explicit_ids;
  return o;
}

// decode(encode(lists)) == lists: every vertex's list, entry by entry and padding included,
// equals the explicit layout's (the same vertex order).
void check_same_lists(const Layout& a, const Layout& b) {
  REQUIRE(a.local_to_user == b.local_to_user);
  REQUIRE(a.slice_width == b.slice_width);
  REQUIRE(a.degree == b.degree);
  const SliceLists la = a.lists(), lb = b.lists();
  for (std::uint32_t s = a.num_hub_slices; s < a.num_slices(); ++s)
    for (std::uint32_t v = s * kSliceWidth; v < std::min(a.num_vertices, (s + 1) * kSliceWidth); ++v)
      for (std::uint32_t k = 0; k < a.slice_width[s]; ++k) REQUIRE(la.entry(v, k) == lb.entry(v, k));
  for (std::uint32_t v = 0; v < a.num_vertices; ++v) {
    std::vector<std::uint32_t> x, y;
    for_each_neighbor(a, v, [&](std::uint32_t cell, std::uint32_t) { x.push_back(cell); });
    for_each_neighbor(b, v, [&](std::uint32_t cell, std::uint32_t) { y.push_back(cell); });
    REQUIRE(x == y);
  }
}

// One model from one start on each encoding (CPU backend): equal states after 1, 5 and 17 steps.
void check_same_run(const std::string& model, const models::Params& params, const Graph& g,
                    const std::string& update = "sync", CompileOptions o = {}) {
  auto a = make_model(model, params, g, with_update(update, 9, 1), encoded(o));
  auto b = make_model(model, params, g, with_update(update, 9, 1), explicit_ids(o));
  auto c = make_model(model, params, g, with_update(update, 9, 1), with_deltas(o));
  check_same_lists(a->layout(), b->layout());
  check_same_lists(c->layout(), b->layout());
  const auto start = random_fill(g.num_vertices(), 0.35, 5);
  for (Simulation* s : {a.get(), b.get(), c.get()}) s->set_states(start);
  for (std::uint64_t steps : {1, 4, 12}) {
    for (Simulation* s : {a.get(), b.get(), c.get()}) s->advance(steps);
    INFO(model, " at step ", a->step());
    REQUIRE(a->export_state() == b->export_state());
    REQUIRE(c->export_state() == b->export_state());
  }
}

std::uint32_t slices_of(const Layout& L, SliceEncoding e) { return report(L).slices_by_encoding[std::size_t(e)]; }

}  // namespace

TEST_CASE("index encoding: grids of 1, 2 and 3 dimensions, every stencil and boundary") {
  struct Shape {
    int dims;
    std::array<std::int64_t, 3> size;
    std::vector<Offset> stencil;
    const char* name;
  };
  const std::vector<Shape> shapes = {
      {1, {300, 1, 1}, moore_stencil(1, 1), "1D r=1"},
      {1, {200, 1, 1}, moore_stencil(1, 3), "1D r=3"},
      {2, {70, 45, 1}, moore_stencil(2, 1), "2D Moore"},
      {2, {100, 40, 1}, von_neumann_stencil(2, 1), "2D von Neumann"},
      {2, {96, 33, 1}, moore_stencil(2, 2), "2D Moore r=2"},
      {2, {66, 34, 1}, hexagonal_stencil(), "2D hex"},
      {2, {100, 32, 1}, parse_stencil("custom:1,0;0,2;-3,-1", 2), "2D custom"},
      {3, {40, 12, 9}, moore_stencil(3, 1), "3D Moore"},
      {3, {36, 10, 8}, von_neumann_stencil(3, 1), "3D von Neumann"},
      {3, {96, 8, 7}, cloud_stencil(), "3D cloud"},
  };
  for (const Shape& shape : shapes)
    for (BoundaryKind kind : {BoundaryKind::periodic, BoundaryKind::fixed, BoundaryKind::reflective}) {
      GridSpec spec;
      spec.dims = shape.dims;
      spec.size = shape.size;
      spec.stencil = shape.stencil;
      spec.boundary.kind = kind;
      spec.boundary.value = kind == BoundaryKind::fixed ? 1 : 0;
      INFO(std::string(shape.name), " boundary ", int(kind));
      const Graph g = build_grid_graph(spec);
      check_same_run("lifelike", {{"rule", "B3/S23"}}, g);
      // The interior of every grid with a slice clear of the row ends needs no indices at all.
      const Layout L = compile(g);
      if (shape.size[0] >= 96) {
        CHECK(slices_of(L, SliceEncoding::stencil) > 0);
        CHECK(L.index_bytes() < compile(g, explicit_ids()).index_bytes());
      }
      CHECK(slices_of(L, SliceEncoding::explicit_ids) + slices_of(L, SliceEncoding::delta16) +
                slices_of(L, SliceEncoding::stencil) ==
            L.num_slices());
      CHECK(L.index_bytes() <= compile(g, explicit_ids()).index_bytes());
      CHECK(compile(g, with_deltas()).index_bytes() < compile(g, explicit_ids()).index_bytes());
    }
}

TEST_CASE("index encoding: slot-reading rules and random models step alike") {
  GridSpec ring;
  ring.dims = 1;
  ring.size = {333, 1, 1};
  ring.stencil = moore_stencil(1, 1);
  check_same_run("rulenumber", {{"rule", "30"}}, build_grid_graph(ring));
  GridSpec plane = square_grid(96, 40);
  plane.boundary.kind = BoundaryKind::fixed;
  check_same_run("rulenumber", {{"kind", "moore"}, {"rule", "1234567"}}, build_grid_graph(plane));
  const Graph torus = build_grid_graph(square_grid(64, 48, von_neumann_stencil(2, 1)));
  for (const char* update : {"sync", "colored", "alpha:0.5"}) check_same_run("ising", {{"T", "2.3"}}, torus, update);
  check_same_run("greenberghastings", {}, build_grid_graph(square_grid(80, 30)));
}

TEST_CASE("index encoding: meshes and graphs under each vertex order") {
  const Graph elt = read_graph_file(data_path("graphs/metis/github-KarypisLab-METIS/4elt.graph"));
  const Graph tet = mesh_to_graph(read_mesh_file(data_path("meshes/t5_3d_tet_v41.msh"))).graph;
  const Graph rgg = random_geometric_graph(20000, 8.0, 3);
  for (VertexOrder order : {VertexOrder::input, VertexOrder::hilbert, VertexOrder::rcm}) {
    CompileOptions o;
    o.order = order;
    INFO("order ", int(order));
    if (order != VertexOrder::hilbert) check_same_run("sir", {{"beta", "0.4"}, {"tau", "3"}}, elt, "sync", o);
    check_same_run("sir", {{"beta", "0.4"}, {"tau", "3"}}, tet, "sync", o);
    check_same_run("lifelike", {{"rule", "B2/S23"}}, rgg, "sync", o);
    // Local orders keep most of a mesh's slices within 16-bit deltas.
    const LayoutReport r = report(compile(rgg, with_deltas(o)));
    if (order != VertexOrder::input) CHECK(r.slices_by_encoding[1] * 10 > r.slices * 9);
  }
  // Hubs keep row-major ids; the ordinary slices of a skewed graph are encoded as they fit.
  check_same_run("sir", {{"beta", "0.2"}, {"tau", "2"}}, rmat_graph(12, 8, 5), "sync", small_hubs());
}

TEST_CASE("index encoding: decode(encode(lists)) == lists for random graphs") {
  std::mt19937_64 random(11);
  for (int trial = 0; trial < 30; ++trial) {
    const std::uint32_t n = 1 + std::uint32_t(random() % 3000);
    // Edges of random length: some slices within the 16-bit range, some beyond, some mixed.
    const std::uint32_t reach = trial % 3 == 0 ? n : std::uint32_t(1 + random() % 40000);
    std::vector<std::pair<VertexId, VertexId>> edges;
    const std::uint32_t m = std::uint32_t(random() % (6 * n + 1));
    for (std::uint32_t e = 0; e < m; ++e) {
      const VertexId a = VertexId(random() % n), b = VertexId((a + random() % reach) % n);
      edges.emplace_back(a, b);
    }
    const Graph g = graph_from_edges(n, edges);
    CompileOptions o;
    o.sort_window = 1u << (random() % 13);
    INFO("trial ", trial, ": ", n, " vertices, ", m, " edges");
    check_same_lists(compile(g, encoded(o)), compile(g, explicit_ids(o)));
    check_same_lists(compile(g, with_deltas(o)), compile(g, explicit_ids(o)));
  }
  // Deltas at the edges of their range: +-32766 fit (-32767 and -32768 name the boundary and
  // null cells), 32768 does not.
  for (std::uint32_t reach : {32766u, 32768u}) {
    const std::uint32_t n = 70000;
    std::vector<std::pair<VertexId, VertexId>> edges;
    for (VertexId v = 0; v + reach < n; ++v) edges.emplace_back(v, v + reach);
    const Graph g = graph_from_edges(n, edges);
    CompileOptions in_order;  // no degree sort: local ids are the user's, the deltas exact
    in_order.sort_window = 1;
    const Layout L = compile(g, with_deltas(in_order));
    check_same_lists(L, compile(g, explicit_ids(in_order)));
    // The ends of the path are stencils (one neighbor, the same offset); where both offsets
    // meet, deltas hold 32766 and nothing holds 32768 but ids.
    if (reach == 32766u) CHECK(slices_of(L, SliceEncoding::explicit_ids) == 0);
    if (reach == 32768u)
      CHECK((slices_of(L, SliceEncoding::delta16) == 0 && slices_of(L, SliceEncoding::explicit_ids) > 0));
  }
}

TEST_CASE("index encoding: partitioned parts on 1 to 4 ranks equal the whole run") {
  const Graph grid = build_grid_graph(square_grid(96, 64));
  const Graph elt = read_graph_file(data_path("graphs/metis/github-KarypisLab-METIS/4elt.graph"));
  for (std::uint32_t parts = 1; parts <= 4; ++parts)
    for (const Graph* g : {&grid, &elt}) {
      INFO(parts, " parts");
      const auto partition = partition_graph(*g, parts, {});
      const SimulationOptions options = with_update("sync", 3, 1);
      check_partitioned_identity("lifelike", {{"rule", "B3/S23"}}, *g, partition, parts, options, options, encoded());
      check_partitioned_identity("lifelike", {{"rule", "B3/S23"}}, *g, partition, parts, options, options,
                                 with_deltas());
      // A part's lists as encoded equal its explicit ones.
      const Layout part = compile_rows(*g, part_rows(*g, partition, parts, 0), compile_options_for(*g, {}));
      check_same_lists(part,
                       compile_rows(*g, part_rows(*g, partition, parts, 0), explicit_ids(compile_options_for(*g, {}))));
    }
}
