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

  // Models of several state variables (cloud): the names of all of them, variable 0 first;
  // VTK snapshots write variables 1.. (a byte per cell each) beside "state". Empty: one.
  std::vector<std::string> variable_names;
  // Every variable of the initial state in user order (what Simulation::import_state takes),
  // from variable 0's initial states (--fill, --states, ...) and the seed; empty function:
  // set_states(variable 0) and zeros elsewhere.
  std::function<std::vector<std::vector<std::uint8_t>>(const Params&, const std::vector<std::uint32_t>& variable0,
                                                       std::uint64_t seed)>
      initial_variables;
  // Grid runs that name no --neighborhood or --boundary get these (cloud: "cloud", "open");
  // empty: the command's own defaults.
  std::string grid_neighborhood, grid_boundary;
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
ModelInfo cloud_model_info();

}  // namespace cellgraph::models
