#include "partition/partitioned_simulation.hpp"

#include <cstring>

#include "cellgraph/error.hpp"
#include "partition/mpi.hpp"

namespace cellgraph {

PartitionedSimulation::PartitionedSimulation(std::unique_ptr<Simulation> part,
                                             const std::vector<std::uint32_t>& partition, std::uint32_t parts)
    : part_(std::move(part)), parts_(parts), vertices_(partition.size()) {
  const std::uint32_t me = std::uint32_t(mpi::rank());
  std::vector<std::uint64_t> begin(parts + 1, 0);
  for (std::uint32_t p : partition) ++begin[p + 1];
  for (std::uint32_t p = 0; p < parts; ++p) begin[p + 1] += begin[p];
  by_part_.resize(partition.size());
  for (VertexId v = 0; v < partition.size(); ++v) {
    by_part_[begin[partition[v]]++] = v;
    if (partition[v] == me) owned_.push_back(v);
  }
  if (owned_.size() != part_->layout().num_vertices) throw Error("the part's layout does not match the partition");
}

std::string PartitionedSimulation::backend_name() const {
  return part_->backend_name() + " x " + std::to_string(parts_) + " ranks";
}

std::vector<std::uint64_t> PartitionedSimulation::census() const {
  std::vector<std::uint64_t> counts = part_->census();
  mpi::sum(counts);
  return counts;
}

std::vector<std::int64_t> PartitionedSimulation::observable_sums() const {
  std::vector<std::int64_t> sums = part_->observable_sums();
  mpi::sum(sums);
  return sums;
}

std::vector<double> PartitionedSimulation::observables() const {
  return part_->observable_values(observable_sums(), vertices_);
}

std::vector<std::uint8_t> PartitionedSimulation::in_user_order(const std::vector<std::uint8_t>& gathered,
                                                               std::size_t bytes) const {
  if (gathered.empty()) return {};
  if (gathered.size() != vertices_ * bytes) throw Error("gathered state of the wrong size");
  std::vector<std::uint8_t> all(gathered.size());
  for (std::size_t k = 0; k < by_part_.size(); ++k)
    std::memcpy(all.data() + std::size_t(by_part_[k]) * bytes, gathered.data() + k * bytes, bytes);
  return all;
}

std::vector<std::uint8_t> PartitionedSimulation::mine(const std::vector<std::uint8_t>& all, std::size_t bytes) const {
  std::vector<std::uint8_t> out(owned_.size() * bytes);
  for (std::size_t k = 0; k < owned_.size(); ++k)
    std::memcpy(out.data() + k * bytes, all.data() + std::size_t(owned_[k]) * bytes, bytes);
  return out;
}

std::vector<std::uint32_t> PartitionedSimulation::states() const {
  const std::vector<std::uint32_t> local = part_->states();
  std::vector<std::uint8_t> bytes(local.size() * 4);
  if (!bytes.empty()) std::memcpy(bytes.data(), local.data(), bytes.size());
  const std::vector<std::uint8_t> all = in_user_order(mpi::gather(bytes), 4);
  std::vector<std::uint32_t> states(all.size() / 4);
  if (!all.empty()) std::memcpy(states.data(), all.data(), all.size());
  return states;
}

void PartitionedSimulation::set_states(const std::vector<std::uint32_t>& user_order) {
  if (user_order.size() != vertices_)
    throw Error("initial state has " + std::to_string(user_order.size()) + " values for " + std::to_string(vertices_) +
                " vertices");
  std::vector<std::uint32_t> local(owned_.size());
  for (std::size_t k = 0; k < owned_.size(); ++k) local[k] = user_order[owned_[k]];
  part_->set_states(local);
}

std::vector<std::vector<std::uint8_t>> PartitionedSimulation::export_state() const {
  std::vector<std::vector<std::uint8_t>> variables = part_->export_state();
  for (auto& v : variables) {
    const std::size_t bytes = owned_.empty() ? 0 : v.size() / owned_.size();
    v = in_user_order(mpi::gather(v), bytes);
  }
  return variables;
}

void PartitionedSimulation::import_state(const std::vector<std::vector<std::uint8_t>>& variables, std::uint64_t step) {
  std::vector<std::vector<std::uint8_t>> local;
  for (const auto& v : variables) {
    if (vertices_ == 0 || v.size() % vertices_) throw Error("a checkpoint variable of the wrong size");
    local.push_back(mine(v, v.size() / vertices_));
  }
  part_->import_state(local, step);
}

}  // namespace cellgraph
