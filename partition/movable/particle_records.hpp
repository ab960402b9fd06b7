// Particles as they travel between the parts of a partitioned movable run: permanent ids and
// every state variable as raw bytes (one array per variable, `sizes[i]` bytes per particle).
// Migration and the halo copy every variable this way, whatever the model keeps in them
// (positions, headings, bonds): nothing here knows a model.
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>

#include "cellgraph/graph.hpp"

namespace cellgraph {

struct ParticleRecords {
  std::vector<std::size_t> sizes;  // bytes per particle of each variable
  std::vector<VertexId> ids;
  std::vector<std::vector<std::uint8_t>> variables;

  ParticleRecords() = default;
  explicit ParticleRecords(std::vector<std::size_t> variable_sizes)
      : sizes(std::move(variable_sizes)), variables(sizes.size()) {}

  std::size_t count() const { return ids.size(); }
  // Appends particle k of `from` (the same variables).
  void append(const ParticleRecords& from, std::size_t k);
  // One message holding the particles `which` (indices here), in that order.
  std::vector<std::uint8_t> pack(const std::vector<std::uint32_t>& which) const;
  std::vector<std::uint8_t> pack_all() const;
  // Appends the particles of a message from pack(); throws Error if it does not fit.
  void append_packed(const std::vector<std::uint8_t>& message);
  // Reorders the particles by ascending id.
  void sort_by_id();

  template <class T>
  T value(int variable, std::size_t k) const {
    T x;
    std::memcpy(&x, variables[std::size_t(variable)].data() + k * sizeof(T), sizeof(T));
    return x;
  }
};

}  // namespace cellgraph
