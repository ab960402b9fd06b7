// CSV statistics of a run (stats_csv.hpp), whatever it counts: a row at the first step, every
// `every` steps, at the last, and where a stopped run stopped. The census writer of a
// Simulation's run (writers.hpp) and the observables writer of a movable one
// (movable_writers.hpp) differ only in their columns and how a row is gathered.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cellgraph/output/stats_csv.hpp"
#include "cellgraph/run/ranks.hpp"
#include "cellgraph/run/writer.hpp"

namespace cellgraph {

class StatisticsWriter : public RunWriter {
 public:
  // A row's values after `step`, in the columns' order, from the step's shared values where other
  // writers want them too; collective in a partitioned run.
  using Row = std::function<std::vector<StatsWriter::Value>(StepCache&)>;

  // Throws Error for `every` 0.
  StatisticsWriter(std::string path, const std::vector<std::string>& columns, std::uint64_t every, Row row,
                   const RunRanks& ranks = single_process());
  Trigger trigger() const override { return {every_, true, true}; }
  void write(std::uint64_t step, StepCache& cache) override;
  void finish(std::uint64_t step, StepCache& cache) override;
  void finish_stopped(std::uint64_t step, StepCache& cache, StoppedOutputs& outputs) override;
  void report(std::vector<WrittenOutput>& outputs) const override;

 private:
  std::string path_;
  std::uint64_t every_;
  Row row_;
  std::optional<StatsWriter> file_;             // on the rank that writes files
  std::uint64_t last_row_ = ~std::uint64_t(0);  // the step of the last row (none yet)
};

}  // namespace cellgraph
