// The fast CPU backend (--backend cpu) against the reference: every model, every update mode,
// every kind of slice (stencils, 2-byte deltas, explicit ids, hubs and giant hubs), every
// vector instruction set this CPU runs, one and two threads, partitioned parts and restarts:
// every variable of every cell, the census and the observables equal, bit for bit.
#include <doctest/doctest.h>

#include "cellgraph/partition.hpp"
#include "cellgraph/source/generators.hpp"
#include "cellgraph/source/graph_file.hpp"
#include "cellgraph/source/source.hpp"
#include "data_path.hpp"
#include "model_runs.hpp"
#include "models/lifelike.hpp"
#include "partitioned_runs.hpp"
#include "src/backend/cpu/slice_sweep.hpp"
#include "src/backend/cpu/vector_isa.hpp"

using namespace cellgraph;
using namespace cellgraph::test;

namespace {

struct Case {
  const char* model;
  models::Params params;
  bool grids_only = false;  // rules that tell neighbors apart by position
};

// Life-like rules with p = 1 take the tabulated rule (outer totalistic); the others apply().
std::vector<Case> every_model() {
  return {
      {"lifelike", {{"rule", "B3/S23"}}},
      {"lifelike", {{"rule", "/2/3"}}},  // Generations: three states through the table
      {"lifelike", {{"rule", "B36/S23"}, {"p", "0.8"}}},
      {"sir", {{"beta", "0.2"}, {"tau", "4"}}},
      {"sis", {{"beta", "0.1"}, {"gamma", "0.2"}}},
      {"forestfire", {{"p", "0.02"}, {"f", "0.0005"}}},
      {"ising", {{"T", "2.2"}}},
      {"ising", {{"T", "1.8"}, {"dynamics", "glauber"}, {"h", "0.05"}, {"J", "0.7"}}},
      {"greenberghastings", {{"threshold", "2"}, {"refractory", "3"}, {"p", "0.01"}}},
      {"rulenumber", {{"kind", "outer"}, {"rule", "0x1a9c5"}}},
      {"golly", {{"rule", "BriansBrain"}, {"dir", data_path("rules")}}, true},
  };
}

SimulationOptions on(BackendKind backend, const std::string& update, int threads) {
  SimulationOptions o = with_update(update, 17, threads);
  o.backend = backend;
  return o;
}

// The fast backend and the reference, from one random start, step alike.
void check_against_reference(const Case& c, const Graph& g, const std::string& update, int threads,
                             const CompileOptions& compile_options = {}) {
  INFO(std::string(c.model), " ", update, ", ", threads, " threads");
  auto reference = make_model(c.model, c.params, g, on(BackendKind::reference, update, 1), compile_options);
  auto fast = make_model(c.model, c.params, g, on(BackendKind::cpu, update, threads), compile_options);
  CHECK(reference->backend_name() == "reference");
  CHECK(fast->backend_name() == "cpu");
  const auto start = random_fill(g.num_vertices(), 0.3, 5);
  reference->set_states(start);
  fast->set_states(start);
  check_same_steps(*reference, *fast);
}

CompileOptions with_deltas() {
  CompileOptions c = small_hubs();
  c.index_encoding = IndexEncoding::deltas;
  return c;
}

// Runs `body` once for each vector instruction set this CPU runs, the widest last.
template <class Body>
void on_every_isa(Body&& body) {
  const cpu::VectorIsa widest = cpu::vector_isa();
  for (cpu::VectorIsa isa : {cpu::VectorIsa::portable, cpu::VectorIsa::avx2, cpu::VectorIsa::avx512}) {
    if (isa > widest) break;
    INFO("vectors: ", cpu::vector_isa_name(isa));
    cpu::limit_vector_isa(isa);
    body();
  }
  cpu::limit_vector_isa(cpu::VectorIsa::avx512);
}

}  // namespace

TEST_CASE("cpu backend: every model and update mode equals the reference on grids, meshes and hubs") {
  // A fixed boundary: the interior's slices are stencils, the edges' explicit.
  const Graph grid = build_grid_graph(square_grid(75, 41, moore_stencil(2, 1), {BoundaryKind::fixed, 1}));
  const Graph hubs = rmat_graph(12, 16, 9);  // with small_hubs(): hubs and giant hubs
  const Graph mesh = random_geometric_graph(5000, 9, 4);
  for (const Case& c : every_model())
    for (const char* update : {"sync", "alpha:0.6", "colored"}) {
      check_against_reference(c, grid, update, 2);
      if (c.grids_only) continue;
      check_against_reference(c, hubs, update, 2, small_hubs());
      check_against_reference(c, mesh, update, 1, with_deltas());  // 2-byte delta slices
    }
}

TEST_CASE("cpu backend: every vector instruction set equals the reference") {
  const Graph grid = build_grid_graph(square_grid(96, 70));
  const Graph hubs = rmat_graph(12, 16, 3);
  on_every_isa([&] {
    for (const Case& c : {every_model()[0], every_model()[2], every_model()[6]})
      for (const char* update : {"sync", "alpha:0.5"}) {
        check_against_reference(c, grid, update, 2);
        check_against_reference(c, hubs, update, 2, small_hubs());
        check_against_reference(c, hubs, update, 1, with_deltas());
      }
  });
}

TEST_CASE("cpu backend: runs of stencil slices (grid rows of many slices) equal the reference") {
  // Rows of 5 slices: the inner 3 of each row are one stencil's run, counted as one loop. 300
  // slices: threads' chunks (256 slices) end inside a run.
  auto grid = [](std::array<std::int64_t, 3> size, int dims, std::vector<Offset> stencil) {
    GridSpec g;
    g.dims = dims;
    g.size = size;
    g.stencil = std::move(stencil);
    return build_grid_graph(g);
  };
  const Graph moore = grid({160, 60, 1}, 2, moore_stencil(2, 1)),
              von_neumann = grid({160, 60, 1}, 2, von_neumann_stencil(2, 1)),
              moore3 = grid({160, 4, 5}, 3, moore_stencil(3, 1)),
              von_neumann3 = grid({160, 4, 5}, 3, von_neumann_stencil(3, 1));
  on_every_isa([&] {
    for (const Case& c : {every_model()[0], every_model()[1]})  // two-state masks, and the table
      for (const Graph* g : {&moore, &von_neumann, &moore3, &von_neumann3}) check_against_reference(c, *g, "sync", 2);
  });
  // Runs cut by a part's interior, and an asynchronous step, which takes no runs.
  const auto partition = partition_graph(moore, 2, {});
  check_partitioned_identity("lifelike", {{"rule", "B3/S23"}}, moore, partition, 2,
                             on(BackendKind::reference, "sync", 1), on(BackendKind::cpu, "sync", 2), {});
  check_against_reference(every_model()[0], moore, "alpha:0.6", 2);
}

TEST_CASE("cpu backend: the cloud model and a METIS mesh equal the reference") {
  GridSpec cloud;
  cloud.dims = 3;
  cloud.size = {19, 14, 9};
  cloud.stencil = cloud_stencil();
  cloud.boundary = {BoundaryKind::fixed, 0};
  for (const char* update : {"sync", "colored"})
    check_against_reference({"cloud", {{"p_ext", "0.2"}}}, build_grid_graph(cloud), update, 2);
  const Graph elt = read_graph_file(data_path("graphs/metis/github-KarypisLab-METIS/4elt.graph"));
  check_against_reference({"lifelike", {{"rule", "B2/S34"}}}, elt, "sync", 2);
  check_against_reference({"sir", {{"beta", "0.3"}, {"tau", "3"}}}, elt, "alpha:0.8", 2);
}

TEST_CASE("cpu backend: partitioned parts equal the whole reference run") {
  const Graph grid = build_grid_graph(square_grid(80, 60));
  const Graph hubs = rmat_graph(12, 16, 5);
  for (std::uint32_t parts : {2u, 3u})
    for (const Graph* g : {&grid, &hubs})
      for (const char* update : {"sync", "colored"})
        for (const Case& c : {every_model()[0], every_model()[6]}) {
          INFO(parts, " parts, ", std::string(c.model), " ", update);
          const auto partition = partition_graph(*g, parts, {});
          check_partitioned_identity(c.model, c.params, *g, partition, parts, on(BackendKind::reference, update, 1),
                                     on(BackendKind::cpu, update, 2), small_hubs());
        }
}

TEST_CASE("cpu backend: a restart from the reference's state continues as the reference does") {
  const Graph grid = build_grid_graph(square_grid(64, 64));
  for (const Case& c : {every_model()[0], every_model()[3]}) {
    auto reference = make_model(c.model, c.params, grid, on(BackendKind::reference, "sync", 1));
    reference->set_states(random_fill(grid.num_vertices(), 0.4, 2));
    reference->advance(9);
    auto fast = make_model(c.model, c.params, grid, on(BackendKind::cpu, "sync", 2));
    fast->import_state(reference->export_state(), reference->step());
    check_same_steps(*reference, *fast);
  }
}

TEST_CASE("cpu backend: Life's rule is tabulated, to two masks, and its fold counted in bytes, but not a random rule") {
  const Layout L = compile(build_grid_graph(square_grid(64, 64)));
  const cpu::RuleTable life = cpu::tabulate_rule(models::parse_lifelike_rule("B3/S23"), L);
  REQUIRE(life.counts == 9);  // 0 to 8 live neighbors
  CHECK(life.counts_signals);
  CHECK(life.next[0 * 9 + 3] == 1);  // born with 3
  CHECK(life.next[1 * 9 + 4] == 0);  // dies of crowding
  CHECK(life.two_state);
  CHECK(life.born == 1u << 3);
  CHECK(life.survives == ((1u << 2) | (1u << 3)));
  CHECK_FALSE(cpu::tabulate_rule(models::parse_lifelike_rule("/2/3"), L).two_state);  // dying states
  models::LifeLike sometimes = models::parse_lifelike_rule("B3/S23");
  sometimes.probability = 0.5;
  CHECK(cpu::tabulate_rule(sometimes, L).data() == nullptr);
}
