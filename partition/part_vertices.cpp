#include "partition/part_vertices.hpp"

#include <cstring>
#include <string>

#include "cellgraph/error.hpp"
#include "partition/mpi.hpp"

namespace cellgraph {

PartVertices::PartVertices(const std::vector<std::uint32_t>& partition, std::uint32_t parts) {
  const std::uint32_t me = std::uint32_t(mpi::rank());
  std::vector<std::uint64_t> begin(parts + 1, 0);
  for (std::uint32_t p : partition) ++begin[p + 1];
  for (std::uint32_t p = 0; p < parts; ++p) begin[p + 1] += begin[p];
  by_part_.resize(partition.size());
  for (VertexId v = 0; v < partition.size(); ++v) {
    by_part_[begin[partition[v]]++] = v;
    if (partition[v] == me) owned_.push_back(v);
  }
}

std::vector<std::uint8_t> PartVertices::in_user_order(const std::vector<std::uint8_t>& gathered,
                                                      std::size_t bytes) const {
  if (gathered.empty()) return {};
  if (gathered.size() != vertices() * bytes) throw Error("gathered state of the wrong size");
  std::vector<std::uint8_t> all(gathered.size());
  for (std::size_t k = 0; k < by_part_.size(); ++k)
    std::memcpy(all.data() + std::size_t(by_part_[k]) * bytes, gathered.data() + k * bytes, bytes);
  return all;
}

std::vector<std::uint8_t> PartVertices::mine(const std::vector<std::uint8_t>& all, std::size_t bytes) const {
  std::vector<std::uint8_t> out(owned_.size() * bytes);
  for (std::size_t k = 0; k < owned_.size(); ++k)
    std::memcpy(out.data() + k * bytes, all.data() + std::size_t(owned_[k]) * bytes, bytes);
  return out;
}

std::vector<std::uint8_t> PartVertices::gather(const std::vector<std::uint8_t>& local, std::size_t bytes) const {
  return in_user_order(mpi::gather(local), bytes);
}

std::vector<std::uint32_t> PartVertices::gather_states(const std::vector<std::uint32_t>& local) const {
  std::vector<std::uint8_t> bytes(local.size() * 4);
  if (!bytes.empty()) std::memcpy(bytes.data(), local.data(), bytes.size());
  const std::vector<std::uint8_t> all = gather(bytes, 4);
  std::vector<std::uint32_t> states(all.size() / 4);
  if (!all.empty()) std::memcpy(states.data(), all.data(), all.size());
  return states;
}

std::vector<std::uint32_t> PartVertices::my_states(const std::vector<std::uint32_t>& user_order) const {
  if (user_order.size() != vertices())
    throw Error("initial state has " + std::to_string(user_order.size()) + " values for " + std::to_string(vertices()) +
                " vertices");
  std::vector<std::uint32_t> local(owned_.size());
  for (std::size_t k = 0; k < owned_.size(); ++k) local[k] = user_order[owned_[k]];
  return local;
}

std::vector<std::vector<std::uint8_t>> PartVertices::my_variables(
    const std::vector<std::vector<std::uint8_t>>& variables) const {
  std::vector<std::vector<std::uint8_t>> local;
  for (const auto& v : variables) {
    if (vertices() == 0 || v.size() % vertices()) throw Error("a checkpoint variable of the wrong size");
    local.push_back(mine(v, v.size() / vertices()));
  }
  return local;
}

}  // namespace cellgraph
