// Moving state between the layout's order and user ids, for every backend's observers.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "cellgraph/error.hpp"
#include "cellgraph/layout.hpp"

namespace cellgraph {

// "User order" is the order of L.user_to_local: ascending user id over the updated vertices
// (for a part of a partitioned run, its own vertices only).

// One variable's raw bytes in user order from its array in layout order, and back.
template <class T>
std::vector<std::uint8_t> to_user_bytes(const Layout& L, const T* local) {
  std::vector<std::uint8_t> out(std::size_t(L.num_vertices) * sizeof(T));
  for (std::uint32_t i = 0; i < L.num_vertices; ++i)
    std::memcpy(out.data() + std::size_t(i) * sizeof(T), local + L.user_to_local[i], sizeof(T));
  return out;
}

template <class T>
void from_user_bytes(const Layout& L, const std::vector<std::uint8_t>& bytes, T* local) {
  if (bytes.size() != std::size_t(L.num_vertices) * sizeof(T))
    throw Error("state of " + std::to_string(bytes.size()) + " bytes for " + std::to_string(L.num_vertices) +
                " vertices of " + std::to_string(sizeof(T)) + " bytes each");
  for (std::uint32_t i = 0; i < L.num_vertices; ++i)
    std::memcpy(local + L.user_to_local[i], bytes.data() + std::size_t(i) * sizeof(T), sizeof(T));
}

// Variable 0 in user order as integers, and the checked inverse (states below num_states).
template <class T>
std::vector<std::uint32_t> to_user_states(const Layout& L, const T* local) {
  std::vector<std::uint32_t> out(L.num_vertices);
  for (std::uint32_t i = 0; i < L.num_vertices; ++i) out[i] = std::uint32_t(local[L.user_to_local[i]]);
  return out;
}

template <class T>
void from_user_states(const Layout& L, const std::vector<std::uint32_t>& user_order, std::uint32_t num_states,
                      T* local) {
  if (user_order.size() != L.num_vertices)
    throw Error("initial state has " + std::to_string(user_order.size()) + " values for " +
                std::to_string(L.num_vertices) + " vertices");
  for (std::uint32_t i = 0; i < L.num_vertices; ++i) {
    const std::uint32_t v = L.user_to_local[i], value = user_order[i];
    if (num_states && value >= num_states)
      throw Error("initial state " + std::to_string(value) + " of vertex " + std::to_string(L.local_to_user[v]) +
                  " is not a state of this model (0.." + std::to_string(num_states - 1) + ")");
    local[v] = T(value);
  }
}

inline void check_variable_count(std::size_t given, int model_has) {
  if (given != std::size_t(model_has))
    throw Error("state has " + std::to_string(given) + " variables; the model has " + std::to_string(model_has));
}

inline void check_boundary_state(std::uint32_t boundary_value, std::uint32_t num_states) {
  if (num_states && boundary_value >= num_states)
    throw Error("boundary state " + std::to_string(boundary_value) + " is not a state of this model (0.." +
                std::to_string(num_states - 1) + ")");
}

// Calls f(std::integral_constant<int, I>{}) for every variable index I of Vars (C++17: the
// CUDA backend includes this too).
template <class F, int... I>
void for_each_index(F&& f, std::integer_sequence<int, I...>) {
  (f(std::integral_constant<int, I>{}), ...);
}
template <class Vars, class F>
void for_each_variable(F&& f) {
  for_each_index(f, std::make_integer_sequence<int, Vars::count>{});
}

// Bytes per vertex of each variable of Vars (Simulation::variable_widths).
template <class Vars>
std::vector<std::uint32_t> widths_of() {
  std::vector<std::uint32_t> widths;
  for_each_variable<Vars>([&](auto i) { widths.push_back(sizeof(typename Vars::template type<decltype(i)::value>)); });
  return widths;
}

}  // namespace cellgraph
