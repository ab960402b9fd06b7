// What the CPU and CUDA movable backends share: the checks a movable model must pass, when a
// Verlet list must be rebuilt, and how a cell's list entries are addressed in a layout.
// C++17 (the CUDA backend includes it).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include "cellgraph/error.hpp"
#include "cellgraph/layout.hpp"
#include "cellgraph/model.hpp"
#include "cellgraph/movable/box.hpp"
#include "cellgraph/movable/neighbor_search.hpp"

namespace cellgraph::movable {

// A movable model's positions: variables 0 .. dims-1, all of type Coordinate.
template <class Model>
constexpr bool has_position_variables() {
  using Vars = typename Model::Vars;
  using T = typename Model::Coordinate;
  if constexpr (Vars::count < Model::dims) {
    return false;
  } else {
    bool ok = std::is_same_v<typename Vars::template type<0>, T> && std::is_same_v<typename Vars::template type<1>, T>;
    if constexpr (Model::dims == 3) ok = ok && std::is_same_v<typename Vars::template type<2>, T>;
    return ok;
  }
}

template <class Model>
constexpr void check_movable_model() {
  static_assert(Model::dims == 2 || Model::dims == 3, "a movable model has dims 2 or 3");
  static_assert(std::is_same_v<typename Model::Coordinate, float> || std::is_same_v<typename Model::Coordinate, double>,
                "a movable model's Coordinate is float or double");
  static_assert(has_position_variables<Model>(), "a movable model's variables 0 .. dims-1 are its Coordinate");
}

// The checks above, and that the model's box has the model's dimensions (every backend's
// constructor).
template <class Model>
void check_movable_model(const Model& model) {
  check_movable_model<Model>();
  if (model.box.dims != Model::dims)
    throw Error("the box has " + std::to_string(model.box.dims) + " dimensions, the model " +
                std::to_string(Model::dims));
}

// A state variable handed to import_state: one value of `value_size` bytes per particle.
inline void check_variable_bytes(std::size_t variable, std::size_t bytes, std::uint32_t particles,
                                 std::size_t value_size) {
  if (bytes != std::size_t(particles) * value_size)
    throw Error("variable " + std::to_string(variable) + " has " + std::to_string(bytes) + " bytes for " +
                std::to_string(particles) + " particles of " + std::to_string(value_size) + " bytes each");
}

// The neighbor search's cutoff and the displacement that calls for a rebuild. A Verlet list
// holds the cells within radius + skin; while no cell has moved by skin / 2 since, every pair
// now within the radius is on it. The threshold stays below skin / 2 by a few ulps of the box,
// what rounding in T may add to distances.
struct RebuildRule {
  double cutoff = 0;     // radius + skin
  double threshold = 0;  // rebuild once a cell has moved by more than this (skin > 0)
  bool every_step = true;
};

template <class T>
RebuildRule rebuild_rule(const Box& box, std::uint32_t particles, double radius, double skin) {
  check_box(box, radius);
  if (!(skin >= 0) || !std::isfinite(skin))
    throw Error("the Verlet skin must be 0 or more, not " + std::to_string(skin));
  if (particles == 0) throw Error("a movable run needs at least one particle");
  if (std::uint64_t(particles) > kMaxVertices)
    throw Error("too many particles: at most " + std::to_string(kMaxVertices));
  RebuildRule rule;
  rule.cutoff = radius + skin;
  rule.every_step = skin == 0;
  if (skin > 0) {
    double longest = 0;
    for (int a = 0; a < box.dims; ++a) longest = std::max(longest, box.length[a]);
    const double guard = 8.0 * double(std::numeric_limits<T>::epsilon()) * (longest + rule.cutoff);
    rule.threshold = 0.5 * skin - guard;
    if (rule.threshold <= 0)
      throw Error("the Verlet skin " + std::to_string(skin) + " is too small for the precision of the coordinates in " +
                  "this box: give 0 (rebuild every step) or more than " + std::to_string(2 * guard));
  }
  return rule;
}

// When a movable backend rebuilds its lists and cuts them to the radius, the same for all
// three backends: before a step (or a read of the lists) a due rebuild runs, then, with a skin,
// the lists are cut once per step; after a step a rebuild is due every step without a skin,
// else once a cell has moved beyond the rule's threshold.
class VerletSchedule {
 public:
  explicit VerletSchedule(bool every_step) : every_step_(every_step) {}

  template <class Rebuild, class Filter>
  void prepare(Rebuild&& rebuild, Filter&& filter) {
    if (rebuild_due_) {
      rebuild();
      rebuild_due_ = false;
      filtered_ = false;
    }
    if (!every_step_ && !filtered_) filter();
    filtered_ = true;
  }
  // After a step; `moved_too_far` is asked only with a skin. Returns whether a rebuild is due.
  template <class MovedTooFar>
  bool stepped(MovedTooFar&& moved_too_far) {
    filtered_ = false;
    rebuild_due_ = every_step_ || moved_too_far();
    return rebuild_due_;
  }
  // New positions from outside (import_state): the lists are rebuilt before they are next used.
  void positions_replaced() {
    rebuild_due_ = true;
    filtered_ = false;
  }

 private:
  bool every_step_;
  bool rebuild_due_ = true, filtered_ = false;
};

// Where entry k of local vertex v's list sits: row-major for hubs, column-major otherwise.
struct ListAddress {
  std::uint64_t first;
  std::uint32_t stride;
};

CG_HD inline ListAddress list_address(const std::uint64_t* slice_begin, const std::uint64_t* hub_row_begin,
                                      std::uint32_t num_hub_vertices, std::uint32_t v) {
  if (v < num_hub_vertices) return {hub_row_begin[v], 1};
  return {slice_begin[v / kSliceWidth] + v % kSliceWidth, kSliceWidth};
}

// One cell's Verlet filter: keeps, in order, the entries of its list (radius + skin) now
// within the radius, pads the rest of its entries with the null cell, and returns how many it
// kept. The same on both backends.
template <class T>
CG_HD inline std::uint32_t filter_list(const BoxIn<T>& box, const T* const* axis, T radius_squared,
                                       const std::uint32_t* candidates, std::uint32_t* kept, ListAddress at,
                                       std::uint32_t degree, std::uint32_t v, std::uint32_t null_cell) {
  std::uint32_t count = 0;
  for (std::uint32_t k = 0; k < degree; ++k) {
    const std::uint32_t cell = candidates[at.first + std::uint64_t(k) * at.stride];
    if (squared_distance(box, axis, v, cell) <= radius_squared)
      kept[at.first + std::uint64_t(count++) * at.stride] = cell;
  }
  for (std::uint32_t k = count; k < degree; ++k) kept[at.first + std::uint64_t(k) * at.stride] = null_cell;
  return count;
}

}  // namespace cellgraph::movable
