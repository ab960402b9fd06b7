// Models may measure integer quantities over all cells (model.hpp: num_observables, observe,
// observable_names, observable_values). This trait tells the backends whether one does.
#pragma once
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "cellgraph/error.hpp"

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

template <class Model>
constexpr int observable_count_of() {
  if constexpr (HasObservables<Model>::value) return Model::num_observables;
  else return 0;
}

template <class Model>
std::vector<double> observable_values_of(const Model& model, const std::vector<std::int64_t>& sums,
                                         std::uint64_t vertices) {
  if (sums.size() != std::size_t(observable_count_of<Model>()))
    throw Error("observable sums of the wrong length: " + std::to_string(sums.size()));
  if constexpr (HasObservables<Model>::value) return model.observable_values(sums.data(), vertices);
  else return {};
}

}  // namespace cellgraph
