// Partitioned ensembles inside one test process: each part an ensemble of its own on a thread of
// its own, trading halos through shared memory as ranks do through MPI.
#pragma once
#include <algorithm>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "cellgraph/ensemble.hpp"
#include "partitioned_runs.hpp"

namespace cellgraph::test {

// The parts of an ensemble of `name` at `points` x `replicas` under `partition`, as `mpirun`
// sets them up, each on `backend`, against the whole ensemble on the CPU after 1, 3 and 10
// steps (or `chunks`) from a fill of density `fill`: every member's states and observable sums,
// and the members found finished. Returns how many the parts found finished.
inline std::uint32_t check_ensemble_parts(const std::string& name, const std::vector<models::Params>& points,
                                          const Graph& g, const std::vector<std::uint32_t>& partition,
                                          std::uint32_t parts, const std::string& update, std::uint32_t replicas = 3,
                                          BackendKind backend = BackendKind::cpu,
                                          std::initializer_list<std::uint64_t> chunks = {1, 2, 7}, double fill = 0.3) {
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
    mine.backend = backend;
    mine.halo = std::make_shared<MailboxTransport>(mailbox, p, parts);
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
    const auto start = random_fill(g.num_vertices(), fill, whole->seed(m));
    whole->set_states(m, start);
    on_every_part([&](std::uint32_t p, Ensemble& e) {
      std::vector<std::uint32_t> mine;
      for (VertexId v = 0; v < g.num_vertices(); ++v)
        if (partition[v] == p) mine.push_back(start[v]);
      e.set_states(m, mine);
    });
  }
  for (std::uint64_t steps : chunks) {
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
  // Every part retires a member at once; in the steps the whole one checks (a whole CPU ensemble
  // stepping colored members one by one checks at each advance instead).
  for (std::uint32_t p = 1; p < parts; ++p) CHECK(part[p]->finished_members() == part[0]->finished_members());
  if (options.update.mode != UpdateMode::colored) CHECK(part[0]->finished_members() == whole->finished_members());
  return part[0]->finished_members();
}

}  // namespace cellgraph::test
