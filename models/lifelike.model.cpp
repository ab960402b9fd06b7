// Registers Life-like rules (models/lifelike.hpp; the rule's parser is models/lifelike.cpp).
#include "models/lifelike.hpp"

#include "models/model_api.hpp"

namespace cellgraph::models {
namespace {

const std::vector<ParamInfo> kLifeLikeParams = {
    {"rule", "B3/S23",
     "B/S notation (B3/S23, S23/B3, 23/3), Generations (/2/3, B2/S/C3, 345/3/6), "
     "comma lists for counts above 9 (B3,10/S2,3), or a name: life, highlife, "
     "seeds, daynight, briansbrain"},
    {"p", "1", "probability that a transition the rule calls for happens (probabilistic rules)"},
};

LifeLike read_lifelike(const Params& params) {
  const ParamReader read("lifelike", params, kLifeLikeParams);
  LifeLike rule = parse_lifelike_rule(read.text("rule"));
  rule.probability = read.number("p", 0, 1);
  return rule;
}

// Written by hand rather than by model_info<LifeLike>(): the rule also has a Golly spelling.
ModelInfo lifelike_model_info() {
  ModelInfo info;
  info.name = "lifelike";
  info.pictured_from_above = true;
  info.summary = "Life-like (B/S) and Generations rules on any graph: counts live neighbors";
  info.params = kLifeLikeParams;
  info.sweep_traits = sweep_model_traits<LifeLike>();
  set_builders(info, [](const Params& params, const Layout&, const SimulationOptions&) {
    return BuiltModel<LifeLike>{read_lifelike(params), nullptr};
  });
  info.rule_text = [](const Params& params) { return rule_string(read_lifelike(params)); };
  return info;
}

const bool registered = register_model(lifelike_model_info());

}  // namespace
}  // namespace cellgraph::models
