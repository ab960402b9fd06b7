// What the backends' ensembles share: the checks of an ensemble's shape, and one member's values
// read out of and written into a host state whose cells hold every member side by side
// (member m's copy of cell c is element c * members + m).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "cellgraph/error.hpp"
#include "cellgraph/state.hpp"

namespace cellgraph {

// Throws unless `models` (one per sweep point) x `replicas` members fit on `cells` cells, each
// point with the first's number of states.
template <class Model>
void check_ensemble_shape(const std::vector<Model>& models, std::uint32_t replicas, std::uint64_t cells) {
  if (models.empty() || replicas == 0) throw Error("an ensemble needs at least one point and one replica");
  const std::uint64_t members = std::uint64_t(models.size()) * replicas;
  if (members > 0xFFFFFFFFull)
    throw Error("an ensemble of " + std::to_string(models.size()) + " points x " + std::to_string(replicas) +
                " replicas has more than 2^32 members");
  // Censuses, pictures and state files take one number of states for every member.
  for (std::size_t p = 1; p < models.size(); ++p)
    if (models[p].num_states() != models[0].num_states())
      throw Error("the sweep's points have different numbers of states (" + std::to_string(models[0].num_states()) +
                  " at the first, " + std::to_string(models[p].num_states()) + " at point " + std::to_string(p) +
                  "): sweep parameters that keep the states");
  if (cells * members > 0xFFFFFFFFull)
    throw Error("an ensemble of " + std::to_string(members) + " members on " + std::to_string(cells) +
                " cells has more than 2^32 cell copies");
}

// Member m's copy of variable I of every cell, in layout order, and back.
template <int I, class Vars>
std::vector<typename Vars::template type<I>> member_plane(const HostState<Vars>& state, std::uint32_t members,
                                                          std::uint32_t m) {
  const auto* all = state.template array<I>().data() + m;
  std::vector<typename Vars::template type<I>> local(state.length() / members);
  for (std::size_t c = 0; c < local.size(); ++c) local[c] = all[c * members];
  return local;
}
template <int I, class Vars>
void set_member_plane(HostState<Vars>& state, std::uint32_t members, std::uint32_t m,
                      const std::vector<typename Vars::template type<I>>& local) {
  auto* all = state.template array<I>().data() + m;
  for (std::size_t c = 0; c < local.size(); ++c) all[c * members] = local[c];
}

}  // namespace cellgraph
