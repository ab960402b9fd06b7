// Models are registered by name; the CLI builds them from their parameters.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cellgraph/simulation.hpp"
#include "src/backend/make_simulation.hpp"

namespace cellgraph::models {

using Params = std::map<std::string, std::string>;

struct ParamInfo {
  std::string name, default_value, help;
};

struct ModelInfo {
  std::string name, summary;
  std::vector<ParamInfo> params;
  std::function<std::unique_ptr<Simulation>(const Params&, std::shared_ptr<const Layout>,
                                            const SimulationOptions&)>
      make;
  // The rule as Golly writes it, for RLE headers; empty function: the model has none.
  std::function<std::string(const Params&)> rule_text;
};

// Every model, in the order `cellgraph models` lists them.
const std::vector<ModelInfo>& registered_models();
// Throws Error naming the known models when `name` is not one of them.
const ModelInfo& find_model(const std::string& name);

// One function per model file, listed in registry.cpp.
ModelInfo lifelike_model_info();

}  // namespace cellgraph::models
