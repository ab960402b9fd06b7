#include "partition/partitioned_simulation.hpp"

#include <cstring>

#include "cellgraph/error.hpp"
#include "partition/mpi.hpp"

namespace cellgraph {

PartitionedSimulation::PartitionedSimulation(std::unique_ptr<Simulation> part,
                                             const std::vector<std::uint32_t>& partition, std::uint32_t parts)
    : part_(std::move(part)), parts_(parts), vertices_(partition, parts) {
  if (vertices_.owned().size() != part_->layout().num_vertices)
    throw Error("the part's layout does not match the partition");
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
  return part_->observable_values(observable_sums(), vertices_.vertices());
}

std::vector<std::uint32_t> PartitionedSimulation::states() const { return vertices_.gather_states(part_->states()); }

void PartitionedSimulation::set_states(const std::vector<std::uint32_t>& user_order) {
  part_->set_states(vertices_.my_states(user_order));
}

std::vector<std::vector<std::uint8_t>> PartitionedSimulation::export_state() const {
  std::vector<std::vector<std::uint8_t>> variables = part_->export_state();
  const std::size_t owned = vertices_.owned().size();
  for (auto& v : variables) v = vertices_.gather(v, owned == 0 ? 0 : v.size() / owned);
  return variables;
}

void PartitionedSimulation::import_state(const std::vector<std::vector<std::uint8_t>>& variables, std::uint64_t step) {
  part_->import_state(vertices_.my_variables(variables), step);
}

}  // namespace cellgraph
