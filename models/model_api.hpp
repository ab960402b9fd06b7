// The one header a model file, models/NAME.model.cpp, includes (docs/MODELS.md,
// docs/TUTORIAL_MODEL.md): the model concept (cellgraph/model.hpp), math that rounds alike on
// CPU and GPU, parameters, the registry, and model_info<Model>(), which turns a model struct's
// static description into the registry's ModelInfo. A model file is then
//
//   struct MyModel {
//     using Vars = ...; using Acc = ...;                 // the rule (cellgraph/model.hpp)
//     ... init / gather / combine / apply, num_states ...
//
//     static constexpr const char* name = "mymodel";     // what `cellgraph models` lists
//     static constexpr const char* summary = "...";
//     static std::vector<ParamInfo> params();            // names, defaults, help
//     static MyModel from_params(const ParamReader&);    // the model from --param values
//     static std::vector<std::string> state_names();     // optional: names of states 0, 1, ...
//     static UpdateRule default_update();                // optional: when --update is not given
//     static std::string grid_neighborhood();            // optional: a grid's stencil when
//     static std::string grid_boundary();                //   --neighborhood/--boundary are not given
//   };
//   const bool registered = register_model(model_info<MyModel>());   // at namespace scope
//
// Model files are compiled by nvcc when the CUDA backend is built (src/CMakeLists.txt), so
// they keep to C++17, and make_simulation_for() in them instantiates both backends.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cellgraph/exact_math.hpp"
#include "cellgraph/model.hpp"
#include "models/params.hpp"
#include "models/registry.hpp"
#include "src/backend/make_simulation.hpp"

namespace cellgraph::models {

namespace detail {
template <class Model, class = void>
struct HasStateNames : std::false_type {};
template <class Model>
struct HasStateNames<Model, std::void_t<decltype(Model::state_names())>> : std::true_type {};

template <class Model, class = void>
struct HasDefaultUpdate : std::false_type {};
template <class Model>
struct HasDefaultUpdate<Model, std::void_t<decltype(Model::default_update())>> : std::true_type {};

template <class Model, class = void>
struct HasGridNeighborhood : std::false_type {};
template <class Model>
struct HasGridNeighborhood<Model, std::void_t<decltype(Model::grid_neighborhood())>> : std::true_type {};

template <class Model, class = void>
struct HasGridBoundary : std::false_type {};
template <class Model>
struct HasGridBoundary<Model, std::void_t<decltype(Model::grid_boundary())>> : std::true_type {};
}  // namespace detail

// A model built from its parameters, with what it points into (a Golly rule's tree), if anything.
template <class Model>
struct BuiltModel {
  Model model;
  std::shared_ptr<const void> held;
};

// Sets an entry's make and make_ensemble from one function that builds the model:
// build(params, layout, options) -> BuiltModel<Model>. Each sweep point's model is built
// from that point's parameters, so they reach the rule without a recompile.
template <class Build>
void set_builders(ModelInfo& info, Build build) {
  info.make = [build](const Params& params, std::shared_ptr<const Layout> layout, const SimulationOptions& options) {
    auto built = build(params, *layout, options);
    auto sim = make_simulation_for(built.model, std::move(layout), options);
    if (built.held) sim->hold(built.held);
    return sim;
  };
  info.make_ensemble = [build](const std::vector<Params>& points, std::uint32_t replicas,
                               std::shared_ptr<const Layout> layout, const SimulationOptions& options) {
    using Model = decltype(build(points.at(0), *layout, options).model);
    std::vector<Model> models;
    std::vector<std::shared_ptr<const void>> held;
    for (const Params& params : points) {
      auto built = build(params, *layout, options);
      models.push_back(built.model);
      if (built.held) held.push_back(built.held);
    }
    auto ensemble = make_ensemble_for(std::move(models), replicas, std::move(layout), options);
    for (auto& h : held) ensemble->hold(h);
    return ensemble;
  };
}

// The registry entry of a model struct described as above: its parameters are checked by
// ParamReader against params() (unknown names and out-of-range values are errors), and the
// simulation runs on the backend the options name.
template <class Model>
ModelInfo model_info() {
  static_assert(std::is_same_v<decltype(Model::from_params(std::declval<const ParamReader&>())), Model>,
                "a model struct needs `static Model from_params(const ParamReader&)`");
  ModelInfo info;
  info.name = Model::name;
  info.summary = Model::summary;
  info.params = Model::params();
  if constexpr (detail::HasStateNames<Model>::value) info.state_names = Model::state_names();
  if constexpr (detail::HasDefaultUpdate<Model>::value) info.default_update = Model::default_update();
  if constexpr (detail::HasGridNeighborhood<Model>::value) info.grid_neighborhood = Model::grid_neighborhood();
  if constexpr (detail::HasGridBoundary<Model>::value) info.grid_boundary = Model::grid_boundary();
  info.sweep_traits = sweep_model_traits<Model>();
  set_builders(info,
               [name = info.name, known = info.params](const Params& params, const Layout&, const SimulationOptions&) {
                 const ParamReader read(name, params, known);
                 return BuiltModel<Model>{Model::from_params(read), nullptr};
               });
  return info;
}

}  // namespace cellgraph::models
