// The golly model's registration: Golly rule files run by the tree walk of models/golly.hpp.
#include "models/golly.hpp"

#include "models/registry.hpp"
#include "src/backend/make_simulation.hpp"

namespace cellgraph::models {
namespace {

ModelInfo golly_model_info() {
  ModelInfo info;
  info.name = "golly";
  info.pictured_from_above = true;
  info.summary =
      "Golly rule files (.rule with @TABLE or @TREE, up to 256 states) on grids: WireWorld, "
      "Langton's loops, Codd, turmites, ...";
  info.params = golly_params();
  info.make = [](const Params& params, std::shared_ptr<const Layout> layout, const SimulationOptions& options) {
    auto tree = std::make_shared<const RuleTree>(load_golly_rule_tree(params));
    const GollyRule model = golly_rule_model(*tree, *layout);
    auto sim = make_simulation_for(model, std::move(layout), options);
    sim->hold(tree);  // the model points into tree->nodes
    return sim;
  };
  info.rule_text = [](const Params& params) {
    return params.count("rule") && !params.at("rule").empty() ? params.at("rule")
                                                              : read_golly_rule_file(golly_rule_path(params)).name;
  };
  return info;
}

const bool registered = register_model(golly_model_info());

}  // namespace
}  // namespace cellgraph::models
