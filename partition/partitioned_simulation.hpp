// One part of a partitioned run behind the Simulation interface. Steps run on the part (its
// backend trades the halo through the transport); observers see the whole graph: censuses
// and observable sums are added over all ranks, and states and exported variables gathered on
// rank 0 in user order (other ranks get empty vectors). Every rank must call the observers
// at the same points: they are collective.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "cellgraph/simulation.hpp"
#include "partition/part_vertices.hpp"

namespace cellgraph {

class PartitionedSimulation final : public Simulation {
 public:
  // `part` runs this rank's part of `partition` (the part of every vertex; parts == ranks).
  PartitionedSimulation(std::unique_ptr<Simulation> part, const std::vector<std::uint32_t>& partition,
                        std::uint32_t parts);

  std::string backend_name() const override;
  bool trades_halo_on_device() const override { return part_->trades_halo_on_device(); }
  const Layout& layout() const override { return part_->layout(); }
  std::uint32_t num_states() const override { return part_->num_states(); }
  void advance(std::uint64_t steps) override { part_->advance(steps); }
  std::uint64_t step() const override { return part_->step(); }

  std::vector<std::uint64_t> census() const override;
  std::vector<std::uint32_t> states() const override;
  void set_states(const std::vector<std::uint32_t>& user_order) override;
  std::vector<std::string> observable_names() const override { return part_->observable_names(); }
  std::vector<double> observables() const override;
  std::vector<std::int64_t> observable_sums() const override;
  std::vector<double> observable_values(const std::vector<std::int64_t>& sums, std::uint64_t vertices) const override {
    return part_->observable_values(sums, vertices);
  }
  std::vector<std::vector<std::uint8_t>> export_state() const override;
  std::vector<std::uint32_t> variable_widths() const override { return part_->variable_widths(); }
  void import_state(const std::vector<std::vector<std::uint8_t>>& variables, std::uint64_t step) override;

 private:
  std::unique_ptr<Simulation> part_;
  std::uint32_t parts_;
  PartVertices vertices_;
};

}  // namespace cellgraph
