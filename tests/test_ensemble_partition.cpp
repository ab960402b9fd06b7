// Partitioned ensembles inside one process: each part an ensemble of its own on a thread of its
// own, trading halos through shared memory as ranks do through MPI. Every member of the parts
// together equals the same member of the whole ensemble, in every update mode, and members
// finished on every part stop being stepped on all of them.
#include <doctest/doctest.h>

#include "cellgraph/source/generators.hpp"
#include "partitioned_ensembles.hpp"

using namespace cellgraph;
using namespace cellgraph::test;

TEST_CASE("partitioned ensembles: every member on N parts equals the whole ensemble's") {
  const Graph grid = build_grid_graph(square_grid(23, 17, moore_stencil(2, 1), {BoundaryKind::fixed, 0}));
  const Graph hubs = rmat_graph(9, 8, 3);
  for (std::uint32_t parts : {2u, 3u})
    for (const Graph* g : {&grid, &hubs}) {
      const auto partition = partition_graph(*g, parts, {});
      for (const char* update : {"sync", "alpha:0.6", "colored"}) {
        check_ensemble_parts("sir", {{{"beta", "0.3"}, {"tau", "3"}}, {{"beta", "0.6"}, {"tau", "2"}}}, *g, partition,
                             parts, update);
        check_ensemble_parts("ising", {{{"T", "2.0"}}, {{"T", "3.0"}}}, *g, partition, parts, update, 2);
      }
      check_ensemble_parts("lifelike", {{{"rule", "B3/S23"}}}, *g, partition, parts, "sync");
      check_ensemble_parts("forestfire", {{{"p", "0.05"}, {"f", "0.01"}}}, *g, partition, parts, "alpha:0.5");
    }
}

TEST_CASE("partitioned ensembles: the parts retire a member once it is finished on every part") {
  const Graph grid = build_grid_graph(square_grid(30, 20));
  const auto partition = partition_graph(grid, 3, {});
  for (const char* update : {"sync", "alpha:0.6", "colored"}) {
    // Outbreaks from a few cells that die out at different steps on different parts.
    CHECK(check_ensemble_parts("sir", {{{"beta", "0.1"}, {"tau", "2"}}, {{"beta", "0.4"}, {"tau", "2"}}}, grid,
                               partition, 3, update, 6, BackendKind::cpu, {5, 12, 30}, 0.01) > 0);
    CHECK(check_ensemble_parts("lifelike", {{{"rule", "B3/S23"}}}, grid, partition, 3, update, 8, BackendKind::cpu,
                               {9, 40}, 0.02) > 0);
  }
}
