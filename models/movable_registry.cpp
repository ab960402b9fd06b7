#include "models/movable_registry.hpp"

#include <algorithm>

#include "cellgraph/error.hpp"
#include "models/registry.hpp"

namespace cellgraph::models {
namespace {

// Built on first use, like the registry of ordinary models (registry.cpp).
struct MovableRegistry {
  std::vector<MovableModelInfo> models;
  std::string error;  // the first failed registration
};

MovableRegistry& registry() {
  static MovableRegistry r;
  return r;
}

void insert(std::vector<MovableModelInfo>& models, MovableModelInfo info) {
  if (info.name.empty()) throw Error("a movable model was registered without a name");
  if (!info.make || !info.initial_state || !info.radius || info.dims.empty())
    throw Error("movable model " + info.name + " was registered without make, initial_state, radius or dims");
  auto at = std::lower_bound(models.begin(), models.end(), info.name,
                             [](const MovableModelInfo& m, const std::string& name) { return m.name < name; });
  if (at != models.end() && at->name == info.name)
    throw Error("two movable models are registered as " + quoted_text(info.name) + ": model names must be unique");
  models.insert(at, std::move(info));
}

}  // namespace

bool register_movable_model(MovableModelInfo info) {
  // Listed with the others (cellgraph models), and a clear refusal from commands that would
  // run it on a grid, graph or mesh.
  ModelInfo listed;
  listed.name = info.name;
  listed.summary = info.summary + " [movable: cellgraph run --model " + info.name + " --particles N --box L]";
  listed.params = info.params;
  listed.make = [name = info.name](const Params&, std::shared_ptr<const Layout>,
                                   const SimulationOptions&) -> std::unique_ptr<Simulation> {
    throw Error("model " + name + " is movable: it runs on particles in a box (cellgraph run --model " + name +
                " --particles N --box L), not on a grid, graph or mesh");
  };
  register_model(std::move(listed));
  MovableRegistry& r = registry();
  try {
    insert(r.models, std::move(info));
  } catch (const Error& e) {
    if (r.error.empty()) r.error = e.what();
  }
  return true;
}

const std::vector<MovableModelInfo>& registered_movable_models() {
  const MovableRegistry& r = registry();
  if (!r.error.empty()) throw Error(r.error);
  registered_models();  // throws if the name was taken by another model
  return r.models;
}

const MovableModelInfo* find_movable_model(const std::string& name) {
  for (const MovableModelInfo& m : registered_movable_models())
    if (m.name == name) return &m;
  return nullptr;
}

}  // namespace cellgraph::models
