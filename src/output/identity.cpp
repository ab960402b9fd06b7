#include "cellgraph/identity.hpp"

#include <algorithm>

namespace cellgraph {

std::uint64_t state_hash(const std::vector<std::uint32_t>& states) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (std::uint32_t s : states)
    for (int byte = 0; byte < 4; ++byte) h = (h ^ ((s >> (8 * byte)) & 0xFF)) * 0x100000001b3ull;
  return h;
}

std::string Mismatch::describe() const {
  return "vertex " + std::to_string(vertex) + ": " + std::to_string(a) + " != " + std::to_string(b);
}

std::optional<Mismatch> first_difference(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b) {
  const std::size_t n = std::min(a.size(), b.size());
  for (std::size_t v = 0; v < n; ++v)
    if (a[v] != b[v]) return Mismatch{v, a[v], b[v]};
  if (a.size() != b.size()) return Mismatch{n, n < a.size() ? a[n] : 0, n < b.size() ? b[n] : 0};
  return std::nullopt;
}

}  // namespace cellgraph
