// Ensembles against plain runs: every member equals, bit for bit, the CPU reference run of its
// sweep point's model with its member seed.
#pragma once
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "cellgraph/ensemble.hpp"
#include "model_runs.hpp"

namespace cellgraph::test {

// The start of member (point, replica), as a plain run with its seed starts: a random fill keyed
// by that seed (models with further variables derive them from it).
inline void start(const models::ModelInfo& model, const models::Params& params, std::uint32_t cells, std::uint64_t seed,
                  double density,
                  const std::function<void(const std::vector<std::vector<std::uint8_t>>&)>& import_variables,
                  const std::function<void(const std::vector<std::uint32_t>&)>& set_states) {
  const auto fill = random_fill(cells, density, seed);
  if (model.initial_variables) import_variables(model.initial_variables(params, fill, seed));
  else set_states(fill);
}

// An ensemble of the sweep `points` x `replicas` on `backend` against each member's plain run on
// the CPU reference, after 1, 2 and 9 steps (or `chunks`): every variable of every cell, the
// census and the observables, with the boundary cell in `boundary_value`. Returns how many
// members the ensemble found finished.
inline std::uint32_t check_members(const std::string& name, const std::vector<models::Params>& points, const Graph& g,
                                   const std::string& update, CompileOptions c = {}, std::uint32_t replicas = 3,
                                   std::initializer_list<std::uint64_t> chunks = {1, 1, 7}, double fill = 0.3,
                                   BackendKind backend = BackendKind::cpu, std::uint32_t boundary_value = 0) {
  const models::ModelInfo& model = models::find_model(name);
  auto layout = std::make_shared<const Layout>(compile(g, c));
  SimulationOptions options = with_update(update, 77);
  options.boundary_value = boundary_value;  // a fixed boundary's state
  SimulationOptions on_backend = options;
  on_backend.backend = backend;
  auto ensemble = model.make_ensemble(points, replicas, layout, on_backend);
  REQUIRE(ensemble->members() == points.size() * replicas);
  std::vector<std::unique_ptr<Simulation>> plain;
  for (std::uint32_t m = 0; m < ensemble->members(); ++m) {
    const std::uint32_t point = m / replicas, replica = m % replicas;
    SimulationOptions own = options;
    own.seed = member_seed(options.seed, point, replica);
    CHECK(ensemble->seed(m) == own.seed);
    plain.push_back(model.make(points[point], layout, own));
    Simulation& sim = *plain.back();
    start(
        model, points[point], g.num_vertices(), own.seed, fill,
        [&](const auto& variables) {
          ensemble->import_state(m, variables);
          sim.import_state(variables, 0);
        },
        [&](const auto& states) {
          ensemble->set_states(m, states);
          sim.set_states(states);
        });
  }
  for (std::uint64_t steps : chunks) {
    ensemble->advance(steps);
    for (auto& sim : plain) sim->advance(steps);
    for (std::uint32_t m = 0; m < ensemble->members(); ++m) {
      INFO(name, " ", update, ", member ", m, " at step ", ensemble->step());
      CHECK(ensemble->export_state(m) == plain[m]->export_state());
      CHECK(ensemble->states(m) == plain[m]->states());
      CHECK(ensemble->census(m) == plain[m]->census());
      CHECK(ensemble->observables(m) == plain[m]->observables());
    }
  }
  return ensemble->finished_members();
}

}  // namespace cellgraph::test
