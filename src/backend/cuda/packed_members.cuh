// Multi-spin coding of a CUDA ensemble (packed_member_kernels.cuh): the members of a two-state
// outer totalistic rule (Life-like rules with p = 1) stepped 64 to a word. A step then
// reads a neighbor's index once and its word once for 64 members, and counts for all of them in
// a few word operations, where member-minor bytes take a load and a count per member.
//
// The ensemble keeps its bytes (one a member, cell-major) for everything else: they are packed
// before the first step after they change and unpacked when they are next read.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "cellgraph/layout.hpp"
#include "cellgraph/simulation.hpp"
#include "src/backend/cuda/device_layout.cuh"
#include "src/backend/two_state_rule.hpp"

namespace cellgraph::cuda {

class PackedMembers {
 public:
  // At most this many counts at which a cell is live next (Life: 2): each costs every word a
  // comparison of its count.
  static constexpr std::size_t kMaxLiveCounts = 64;
  // Hub counts are added in this many bits: hubs of 2^24 neighbors or more are not packed.
  static constexpr int kHubCountBits = 24;

  // rules[p]: the rule of sweep point p, each of `replicas` members.
  PackedMembers(const Layout& L, std::uint32_t members, std::uint32_t replicas, const std::vector<TwoStateRule>& rules);
  ~PackedMembers();
  PackedMembers(const PackedMembers&) = delete;
  PackedMembers& operator=(const PackedMembers&) = delete;

  // Bytes of device memory the planes of `members` on L take.
  static std::uint64_t device_bytes(const Layout& L, std::uint32_t members);

  // The rule of every point where each is one the planes can step (and the layout's counts fit),
  // else nothing.
  template <class Model>
  static std::optional<std::vector<TwoStateRule>> rules_of(const std::vector<Model>& models, const Layout& L) {
    std::uint32_t largest = widest_ordinary_list(L);
    if (largest > 255) return std::nullopt;
    for (std::uint32_t v = 0; v < L.num_hub_vertices(); ++v) largest = std::max(largest, L.degree[v]);
    if (largest >> kHubCountBits) return std::nullopt;
    std::vector<TwoStateRule> rules;
    std::vector<bool> live(std::size_t(largest) + 1);
    for (const Model& model : models) {
      std::optional<TwoStateRule> rule = two_state_rule(model, largest);
      if (!rule) return std::nullopt;
      for (std::uint32_t c = 0; c <= largest; ++c) live[c] = live[c] || rule->born[c] || rule->survives[c];
      rules.push_back(std::move(*rule));
    }
    if (std::size_t(std::count(live.begin(), live.end(), true)) > kMaxLiveCounts) return std::nullopt;
    return rules;
  }

  // From member-minor states (element cell * members + m) on the device, and back, on `stream`.
  void pack(const std::uint8_t* states, cudaStream_t stream);
  void unpack(std::uint8_t* states, cudaStream_t stream) const;

  // One synchronous step of every member, on `stream`.
  void step(const LayoutView& L, cudaStream_t stream);

 private:
  struct Planes;
  std::unique_ptr<Planes> d_;
};

// The rules of an ensemble's points where packing applies (synchronous steps, not a part of a
// partitioned ensemble, and a rule that rules_of accepts at every point), else nothing.
template <class Model>
std::optional<std::vector<TwoStateRule>> packed_rules(const std::vector<Model>& models, const Layout& L,
                                                      const SimulationOptions& options) {
  if (options.update.mode != UpdateMode::synchronous || options.halo) return std::nullopt;
  return PackedMembers::rules_of(models, L);
}

}  // namespace cellgraph::cuda
