// Registers rule numbers (models/rule_number.hpp; parameters read in models/rule_number.cpp).
#include "models/rule_number.hpp"

#include "models/model_api.hpp"

namespace cellgraph::models {
namespace {

// Written by hand rather than by model_info<RuleNumber>(): reading the rule needs the layout.
ModelInfo rule_number_model_info() {
  ModelInfo info;
  info.name = "rulenumber";
  info.pictured_from_above = true;
  info.summary =
      "binary rules by number (Wolfram codes): elementary 1D, 2D Moore and von Neumann tables, "
      "totalistic and outer-totalistic codes";
  info.params = rule_number_params();
  set_builders(info, [](const Params& params, const Layout& layout, const SimulationOptions&) {
    return BuiltModel<RuleNumber>{read_rule_number(params, layout), nullptr};
  });
  return info;
}

const bool registered = register_model(rule_number_model_info());

}  // namespace
}  // namespace cellgraph::models
