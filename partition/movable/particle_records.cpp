#include "partition/movable/particle_records.hpp"

#include <algorithm>
#include <numeric>

#include "cellgraph/error.hpp"

namespace cellgraph {

void ParticleRecords::append(const ParticleRecords& from, std::size_t k) {
  ids.push_back(from.ids[k]);
  for (std::size_t v = 0; v < sizes.size(); ++v) {
    const std::uint8_t* first = from.variables[v].data() + k * sizes[v];
    variables[v].insert(variables[v].end(), first, first + sizes[v]);
  }
}

// Layout of a message: the count (8 bytes), the ids, then each variable's bytes.
std::vector<std::uint8_t> ParticleRecords::pack(const std::vector<std::uint32_t>& which) const {
  std::size_t per_particle = sizeof(VertexId);
  for (std::size_t s : sizes) per_particle += s;
  std::vector<std::uint8_t> out(8 + which.size() * per_particle);
  const std::uint64_t n = which.size();
  std::memcpy(out.data(), &n, 8);
  std::uint8_t* at = out.data() + 8;
  for (std::uint32_t k : which) std::memcpy(at, &ids[k], sizeof(VertexId)), at += sizeof(VertexId);
  for (std::size_t v = 0; v < sizes.size(); ++v)
    for (std::uint32_t k : which) std::memcpy(at, variables[v].data() + k * sizes[v], sizes[v]), at += sizes[v];
  return out;
}

std::vector<std::uint8_t> ParticleRecords::pack_all() const {
  std::vector<std::uint32_t> all(count());
  std::iota(all.begin(), all.end(), 0u);
  return pack(all);
}

void ParticleRecords::append_packed(const std::vector<std::uint8_t>& message) {
  if (message.empty()) return;
  std::uint64_t n = 0;
  if (message.size() < 8) throw Error("a particle message of " + std::to_string(message.size()) + " bytes");
  std::memcpy(&n, message.data(), 8);
  std::size_t per_particle = sizeof(VertexId);
  for (std::size_t s : sizes) per_particle += s;
  if (message.size() != 8 + n * per_particle)
    throw Error("a particle message of " + std::to_string(message.size()) + " bytes for " + std::to_string(n) +
                " particles of " + std::to_string(per_particle) + " bytes");
  const std::uint8_t* at = message.data() + 8;
  const std::size_t first = ids.size();
  ids.resize(first + n);
  if (n) std::memcpy(ids.data() + first, at, n * sizeof(VertexId));  // ids.data() may be null when empty
  at += n * sizeof(VertexId);
  for (std::size_t v = 0; v < sizes.size(); ++v) {
    variables[v].insert(variables[v].end(), at, at + n * sizes[v]);
    at += n * sizes[v];
  }
}

void ParticleRecords::sort_by_id() {
  std::vector<std::uint32_t> order(count());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return ids[a] < ids[b]; });
  ParticleRecords sorted(sizes);
  sorted.ids.reserve(count());
  for (std::size_t v = 0; v < sizes.size(); ++v) sorted.variables[v].reserve(variables[v].size());
  for (std::uint32_t k : order) sorted.append(*this, k);
  *this = std::move(sorted);
}

}  // namespace cellgraph
