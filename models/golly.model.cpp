// The golly model's registration: Golly rule files run by the tree walk of models/golly.hpp.
#include "models/golly.hpp"

#include "models/model_api.hpp"

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
  set_builders(info, [](const Params& params, const Layout& layout, const SimulationOptions&) {
    auto tree = std::make_shared<const RuleTree>(load_golly_rule_tree(params));
    return BuiltModel<GollyRule>{golly_rule_model(*tree, layout), tree};  // the model points into tree->nodes
  });
  info.rule_text = [](const Params& params) {
    return params.count("rule") && !params.at("rule").empty() ? params.at("rule")
                                                              : read_golly_rule_file(golly_rule_path(params)).name;
  };
  return info;
}

const bool registered = register_model(golly_model_info());

}  // namespace
}  // namespace cellgraph::models
