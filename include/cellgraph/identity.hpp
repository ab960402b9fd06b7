// Bit-identity checks between runs (CPU vs GPU, 1 vs N parts, restarted vs not).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cellgraph {

// FNV-1a over the values, in order: equal states give equal hashes on every backend.
std::uint64_t state_hash(const std::vector<std::uint32_t>& states);

struct Mismatch {
  std::uint64_t vertex;          // user id of the first differing vertex
  std::uint32_t a, b;            // its two states
  std::string describe() const;  // "vertex 17: 1 != 0"
};

// The first vertex where two state vectors differ (or a size mismatch at the shorter length).
std::optional<Mismatch> first_difference(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b);

}  // namespace cellgraph
