#include "partition/partitioned_ensemble.hpp"

#include <algorithm>

#include "cellgraph/error.hpp"
#include "partition/mpi.hpp"

namespace cellgraph {

PartitionedEnsemble::PartitionedEnsemble(std::unique_ptr<Ensemble> part, const std::vector<std::uint32_t>& partition,
                                         std::uint32_t parts)
    : part_(std::move(part)), parts_(parts), vertices_(partition, parts) {
  if (vertices_.owned().size() != part_->layout().num_vertices)
    throw Error("the part's layout does not match the partition");
}

std::string PartitionedEnsemble::backend_name() const {
  return part_->backend_name() + " x " + std::to_string(parts_) + " ranks";
}

std::vector<std::uint64_t> PartitionedEnsemble::census(std::uint32_t member) const {
  std::vector<std::uint64_t> counts = part_->census(member);
  mpi::sum(counts);
  return counts;
}

std::vector<std::int64_t> PartitionedEnsemble::observable_sums(std::uint32_t member) const {
  std::vector<std::int64_t> sums = part_->observable_sums(member);
  mpi::sum(sums);
  return sums;
}

namespace {

// Adds each member's values over the ranks in one collective (every member has as many).
template <class T>
std::vector<std::vector<T>> summed_over_ranks(std::vector<std::vector<T>> all) {
  const std::size_t width = all.empty() ? 0 : all[0].size();
  std::vector<T> flat;
  flat.reserve(all.size() * width);
  for (const std::vector<T>& one : all) flat.insert(flat.end(), one.begin(), one.end());
  mpi::sum(flat);
  for (std::size_t m = 0; m < all.size(); ++m) std::copy_n(flat.begin() + m * width, width, all[m].begin());
  return all;
}

}  // namespace

std::vector<std::vector<std::uint64_t>> PartitionedEnsemble::all_censuses() const {
  return summed_over_ranks(part_->all_censuses());
}

std::vector<std::vector<std::int64_t>> PartitionedEnsemble::all_observable_sums() const {
  return summed_over_ranks(part_->all_observable_sums());
}

std::vector<std::vector<double>> PartitionedEnsemble::all_observables() const {
  const std::vector<std::vector<std::int64_t>> sums = all_observable_sums();
  std::vector<std::vector<double>> all;
  for (std::uint32_t m = 0; m < members(); ++m)
    all.push_back(part_->observable_values(m, sums[m], vertices_.vertices()));
  return all;
}

std::vector<double> PartitionedEnsemble::observables(std::uint32_t member) const {
  return part_->observable_values(member, observable_sums(member), vertices_.vertices());
}

std::vector<std::uint32_t> PartitionedEnsemble::states(std::uint32_t member) const {
  return vertices_.gather_states(part_->states(member));
}

void PartitionedEnsemble::set_states(std::uint32_t member, const std::vector<std::uint32_t>& user_order) {
  part_->set_states(member, vertices_.my_states(user_order));
}

std::vector<std::vector<std::uint8_t>> PartitionedEnsemble::export_state(std::uint32_t member) const {
  std::vector<std::vector<std::uint8_t>> variables = part_->export_state(member);
  const std::size_t owned = vertices_.owned().size();
  for (auto& v : variables) v = vertices_.gather(v, owned == 0 ? 0 : v.size() / owned);
  return variables;
}

void PartitionedEnsemble::import_state(std::uint32_t member, const std::vector<std::vector<std::uint8_t>>& variables) {
  part_->import_state(member, vertices_.my_variables(variables));
}

}  // namespace cellgraph
