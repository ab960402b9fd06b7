// One part of a partitioned ensemble behind the Ensemble interface, as PartitionedSimulation is
// for one realization: steps run on the part (its backend trades every member's halo), and the
// observers see the whole graph, member by member: censuses and observable sums added over the
// ranks, states and variables gathered on rank 0 in user order. Observers are collective.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "cellgraph/ensemble.hpp"
#include "partition/part_vertices.hpp"

namespace cellgraph {

class PartitionedEnsemble final : public Ensemble {
 public:
  // `part` runs this rank's part of `partition` (the part of every vertex; parts == ranks).
  PartitionedEnsemble(std::unique_ptr<Ensemble> part, const std::vector<std::uint32_t>& partition, std::uint32_t parts);

  std::string backend_name() const override;
  const Layout& layout() const override { return part_->layout(); }
  std::uint32_t points() const override { return part_->points(); }
  std::uint32_t replicas() const override { return part_->replicas(); }
  std::uint64_t seed(std::uint32_t member) const override { return part_->seed(member); }
  std::uint32_t num_states() const override { return part_->num_states(); }
  std::uint32_t members_per_word() const override { return part_->members_per_word(); }
  void advance(std::uint64_t steps) override { part_->advance(steps); }
  void resume_at(std::uint64_t step) override { part_->resume_at(step); }
  std::uint64_t step() const override { return part_->step(); }
  std::uint32_t finished_members() const override { return part_->finished_members(); }

  std::vector<std::uint64_t> census(std::uint32_t member) const override;
  std::vector<std::uint32_t> states(std::uint32_t member) const override;
  void set_states(std::uint32_t member, const std::vector<std::uint32_t>& user_order) override;
  std::vector<std::string> observable_names() const override { return part_->observable_names(); }
  std::vector<double> observables(std::uint32_t member) const override;
  std::vector<std::int64_t> observable_sums(std::uint32_t member) const override;
  std::vector<std::vector<std::uint64_t>> all_censuses() const override;
  std::vector<std::vector<std::int64_t>> all_observable_sums() const override;
  std::vector<std::vector<double>> all_observables() const override;
  std::vector<double> observable_values(std::uint32_t member, const std::vector<std::int64_t>& sums,
                                        std::uint64_t vertices) const override {
    return part_->observable_values(member, sums, vertices);
  }
  std::vector<std::vector<std::uint8_t>> export_state(std::uint32_t member) const override;
  std::vector<std::uint32_t> variable_widths() const override { return part_->variable_widths(); }
  void import_state(std::uint32_t member, const std::vector<std::vector<std::uint8_t>>& variables) override;

 private:
  std::unique_ptr<Ensemble> part_;
  std::uint32_t parts_;
  PartVertices vertices_;
};

}  // namespace cellgraph
