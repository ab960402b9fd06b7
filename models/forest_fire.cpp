#include "models/forest_fire.hpp"

#include "models/registry.hpp"

namespace cellgraph::models {
namespace {

const std::vector<ParamInfo> kForestFireParams = {
    {"p", "0.01", "probability that an empty cell grows a tree in a step"},
    {"f", "0.00001", "probability that lightning sets a tree on fire in a step"},
};

}  // namespace

ModelInfo forest_fire_model_info() {
  ModelInfo info;
  info.name = "forestfire";
  info.summary = "Drossel-Schwabl forest fire: empty, tree, burning";
  info.params = kForestFireParams;
  info.state_names = {"empty", "tree", "burning"};
  info.make = [](const Params& params, std::shared_ptr<const Layout> layout, const SimulationOptions& options) {
    const ParamReader read("forestfire", params, kForestFireParams);
    ForestFire model;
    model.growth = read.number("p", 0, 1);
    model.lightning = read.number("f", 0, 1);
    return make_simulation_for(model, std::move(layout), options);
  };
  return info;
}

}  // namespace cellgraph::models
