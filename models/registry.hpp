// Models are registered by name; the CLI builds them from their parameters. Each model file
// (models/*.model.cpp) registers its own models from a static initializer:
//
//   const bool registered = register_model(model_info<MyModel>());   // models/model_api.hpp
//
// so adding a model takes one new file and no edit here (docs/MODELS.md). The build links
// every model file into every program that links the cellgraph library (src/CMakeLists.txt),
// so no registration is lost to the linker.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cellgraph/ensemble.hpp"
#include "cellgraph/simulation.hpp"
#include "cellgraph/sweep_plan.hpp"
#include "models/params.hpp"

namespace cellgraph::models {

struct ModelInfo {
  std::string name, summary;
  std::vector<ParamInfo> params;
  std::vector<std::string> state_names;  // of variable 0, for statistics columns; empty: state_0, ...
  UpdateRule default_update;             // when the user names none (Ising: colored)
  std::function<std::unique_ptr<Simulation>(const Params&, std::shared_ptr<const Layout>, const SimulationOptions&)>
      make;
  // An ensemble (ensemble.hpp): one model per sweep point, built from that point's parameters,
  // each run by `replicas` members. set_builders() (model_api.hpp) sets it beside `make`.
  std::function<std::unique_ptr<Ensemble>(const std::vector<Params>& points, std::uint32_t replicas,
                                          std::shared_ptr<const Layout>, const SimulationOptions&)>
      make_ensemble;
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
  // Grid runs that name no --neighborhood or --boundary get these (cloud: "cloud", "open";
  // ising: "vonneumann"); empty: the command's own defaults. model_info<>() takes them from a
  // model struct's optional grid_neighborhood() and grid_boundary().
  std::string grid_neighborhood, grid_boundary;
  // State 0 is empty space and the other states are sparse (Life, clouds): a 3D grid's picture
  // looks from above at the cells not in state 0. Otherwise it shows a plane, since nearly
  // every column of a dense model (Ising, SIR) holds some cell not in state 0.
  bool pictured_from_above = false;
  // What the CUDA backend's sweep plan needs of the model (sweep_plan.hpp): whether it gathers
  // a one-bit signal, which may be packed 32 cells to a word, and its state's width. The
  // performance model prices a step by the plan. model_info<>() sets it; an entry written by
  // hand sets it from sweep_model_traits<> of its struct.
  SweepModelTraits sweep_traits;
};

// Adds a model to the registry; returns true so that a model file can call it from the
// initializer of a namespace-scope constant. Called before main() runs, so it never throws: a
// bad entry (a name taken twice, an empty name or `make`) is kept as an error, and
// registered_models() throws it.
bool register_model(ModelInfo info);

// Every registered model, ordered by name: the order `cellgraph models` lists them in,
// whatever order the linker ran the model files' initializers in. Throws Error when a
// registration failed (two model files chose the same name).
const std::vector<ModelInfo>& registered_models();
// Throws Error naming the known models when `name` is not one of them.
const ModelInfo& find_model(const std::string& name);

// The model's parameters as one canonical line, what a checkpoint records and a restart must
// match: the rule as the model writes it, and not where rule files are looked for (golly's dir).
std::string parameters_text(const ModelInfo& model, Params params);

// register_model's core, on any list: inserts `info` in name order; throws Error for an empty
// name, a missing `make`, or a name already in the list.
void insert_model(std::vector<ModelInfo>& models, ModelInfo info);

}  // namespace cellgraph::models
