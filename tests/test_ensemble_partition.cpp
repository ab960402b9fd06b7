// Partitioned ensembles inside one process: each part an ensemble of its own on a thread of its
// own, trading halos through shared memory as ranks do through MPI. Every member of the parts
// together equals the same member of the whole ensemble, in every update mode.
#include <doctest/doctest.h>

#include "cellgraph/ensemble.hpp"
#include "cellgraph/source/generators.hpp"
#include "partitioned_runs.hpp"

using namespace cellgraph;
using namespace cellgraph::test;

namespace {

// The parts of an ensemble of `name` at `points` x `replicas` under `partition`, as `mpirun`
// sets them up, against the whole ensemble after 1, 3 and 10 steps: every member's states and
// observable sums.
void check_parts(const std::string& name, const std::vector<models::Params>& points, const Graph& g,
                 const std::vector<std::uint32_t>& partition, std::uint32_t parts, const std::string& update,
                 std::uint32_t replicas = 3) {
  INFO(name, " under ", update, " on ", parts, " parts");
  const models::ModelInfo& model = models::find_model(name);
  const CompileOptions whole_compile = compile_options_for(g, small_hubs());
  const SimulationOptions options = with_update(update, 91, 1);
  auto whole =
      model.make_ensemble(points, replicas, std::make_shared<const Layout>(compile(g, whole_compile)), options);
  const auto mailbox = std::make_shared<Mailbox>();
  std::vector<std::unique_ptr<Ensemble>> part;
  for (std::uint32_t p = 0; p < parts; ++p) {
    auto layout = std::make_shared<const Layout>(compile_rows(g, part_rows(g, partition, parts, p), whole_compile));
    SimulationOptions mine = options;
    mine.halo = std::make_shared<MailboxTransport>(mailbox, p);
    mine.member_coloring = [&g, layout](std::uint64_t seed) {
      const std::vector<std::uint32_t> colors = greedy_coloring(g, seed);
      std::vector<std::uint32_t> local(layout->num_vertices);
      for (std::uint32_t v = 0; v < layout->num_vertices; ++v) local[v] = colors[layout->local_to_user[v]];
      return std::pair{local, *std::max_element(colors.begin(), colors.end()) + 1};
    };
    part.push_back(model.make_ensemble(points, replicas, layout, mine));
  }
  const auto on_every_part = [&](const std::function<void(std::uint32_t, Ensemble&)>& work) {
    on_threads(parts, [&](std::uint32_t p) { work(p, *part[p]); });
  };
  const std::uint32_t members = whole->members();
  for (std::uint32_t m = 0; m < members; ++m) {
    const auto start = random_fill(g.num_vertices(), 0.3, whole->seed(m));
    whole->set_states(m, start);
    on_every_part([&](std::uint32_t p, Ensemble& e) {
      std::vector<std::uint32_t> mine;
      for (VertexId v = 0; v < g.num_vertices(); ++v)
        if (partition[v] == p) mine.push_back(start[v]);
      e.set_states(m, mine);
    });
  }
  for (std::uint64_t steps : {1, 2, 7}) {
    whole->advance(steps);
    on_every_part([&](std::uint32_t, Ensemble& e) { e.advance(steps); });
    for (std::uint32_t m = 0; m < members; ++m) {
      INFO("member ", m, " at step ", whole->step());
      const std::vector<std::uint32_t> expected = whole->states(m);
      std::vector<std::vector<std::uint32_t>> of_part(parts);
      std::vector<std::int64_t> sums;
      on_every_part([&](std::uint32_t p, Ensemble& e) { of_part[p] = e.states(m); });
      for (std::uint32_t p = 0; p < parts; ++p) {
        const auto part_sums = part[p]->observable_sums(m);  // the halo is current: no exchange
        sums.resize(part_sums.size(), 0);
        for (std::size_t k = 0; k < part_sums.size(); ++k) sums[k] += part_sums[k];
      }
      std::vector<std::size_t> next(parts, 0);
      std::vector<std::uint32_t> joined(g.num_vertices());
      for (VertexId v = 0; v < g.num_vertices(); ++v) joined[v] = of_part[partition[v]][next[partition[v]]++];
      REQUIRE(joined == expected);
      CHECK(sums == whole->observable_sums(m));
    }
  }
}

}  // namespace

TEST_CASE("partitioned ensembles: every member on N parts equals the whole ensemble's") {
  const Graph grid = build_grid_graph(square_grid(23, 17, moore_stencil(2, 1), {BoundaryKind::fixed, 0}));
  const Graph hubs = rmat_graph(9, 8, 3);
  for (std::uint32_t parts : {2u, 3u})
    for (const Graph* g : {&grid, &hubs}) {
      const auto partition = partition_graph(*g, parts, {});
      for (const char* update : {"sync", "alpha:0.6", "colored"}) {
        check_parts("sir", {{{"beta", "0.3"}, {"tau", "3"}}, {{"beta", "0.6"}, {"tau", "2"}}}, *g, partition, parts,
                    update);
        check_parts("ising", {{{"T", "2.0"}}, {{"T", "3.0"}}}, *g, partition, parts, update, 2);
      }
      check_parts("lifelike", {{{"rule", "B3/S23"}}}, *g, partition, parts, "sync");
      check_parts("forestfire", {{{"p", "0.05"}, {"f", "0.01"}}}, *g, partition, parts, "alpha:0.5");
    }
}
