#include "models/registry.hpp"

#include "cellgraph/error.hpp"

namespace cellgraph::models {

const std::vector<ModelInfo>& registered_models() {
  static const std::vector<ModelInfo> models = {lifelike_model_info(), sir_model_info(), sis_model_info(),
                                                forest_fire_model_info(), ising_model_info(),
                                                rule_number_model_info(), golly_model_info()};
  return models;
}

const ModelInfo& find_model(const std::string& name) {
  std::string known;
  for (const ModelInfo& m : registered_models()) {
    if (m.name == name) return m;
    known += (known.empty() ? "" : ", ") + m.name;
  }
  throw Error("unknown model '" + name + "' (known: " + known + ")");
}

}  // namespace cellgraph::models
