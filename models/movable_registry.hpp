// Movable models (include/cellgraph/movable/movable_simulation.hpp) are registered by name like
// the others (registry.hpp), from a static initializer in their model file:
//
//   const bool registered = register_movable_model(vicsek_model_info());
//
// `cellgraph run --model NAME` runs a movable model when one has that name, on --particles
// particles in a --box.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cellgraph/movable/movable_simulation.hpp"
#include "models/params.hpp"

namespace cellgraph::models {

// Variables written as one VTK point array (a vector when components > 1): the first array
// also colours pictures, by direction.
struct PointArray {
  std::string name;
  int first_variable = 0;
  int components = 1;
};

struct MovableModelInfo {
  std::string name, summary;
  std::vector<ParamInfo> params;
  std::vector<int> dims;  // the box dimensions it runs in
  std::function<std::unique_ptr<MovableSimulation>(const Params&, const Box&, std::uint32_t particles,
                                                   const MovableOptions&, const SimulationOptions&)>
      make;
  // Every variable of `particles` particles at the start, in particle id order (what
  // MovableSimulation::import_state takes), from the seed.
  std::function<std::vector<std::vector<std::uint8_t>>(const Params&, const Box&, std::uint32_t particles,
                                                       std::uint64_t seed)>
      initial_state;
  std::function<double(const Params&)> radius;                    // the interaction radius
  std::function<std::vector<PointArray>(int dims)> point_arrays;  // beyond the positions
};

// As register_model: never throws; a bad entry (empty name or functions, a name taken twice)
// is kept as an error that registered_movable_models() throws. The model is also registered
// with the others (registry.hpp), so that `cellgraph models` lists it and commands that run
// models on grids, graphs or meshes refuse it by name.
bool register_movable_model(MovableModelInfo info);
const std::vector<MovableModelInfo>& registered_movable_models();
// The movable model of that name, or nullptr.
const MovableModelInfo* find_movable_model(const std::string& name);

}  // namespace cellgraph::models
