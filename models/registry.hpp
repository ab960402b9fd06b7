// Models are registered by name; the CLI builds them from their parameters.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cellgraph/simulation.hpp"
#include "models/params.hpp"
#include "src/backend/make_simulation.hpp"

namespace cellgraph::models {

struct ModelInfo {
  std::string name, summary;
  std::vector<ParamInfo> params;
  std::vector<std::string> state_names;  // of variable 0, for statistics columns; empty: state_0, ...
  UpdateRule default_update;             // when the user names none (Ising: colored)
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
ModelInfo sir_model_info();
ModelInfo sis_model_info();
ModelInfo forest_fire_model_info();
ModelInfo ising_model_info();
ModelInfo rule_number_model_info();
ModelInfo golly_model_info();

}  // namespace cellgraph::models
