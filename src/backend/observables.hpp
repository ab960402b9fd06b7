// Models may measure integer quantities over all cells (model.hpp: num_observables, observe,
// observable_names, observable_values). This trait tells the backends whether one does.
#pragma once
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace cellgraph {

template <class Model, class = void>
struct HasObservables : std::false_type {};
template <class Model>
struct HasObservables<Model, std::void_t<decltype(Model::num_observables)>> : std::true_type {};

template <class Model>
std::vector<std::string> observable_names_of(const Model& model) {
  if constexpr (HasObservables<Model>::value) return model.observable_names();
  else return {};
}

}  // namespace cellgraph
