// What an ensemble's run writes (ensemble.hpp): every member's census and observables as one
// long CSV (the swept parameters, replica, its seed, step, the columns: a member is the plain run
// with that seed and those parameters), and per sweep point and step the mean, standard deviation, standard error and
// 95% interval (Student's t over the replicas) of each of those columns.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cellgraph/ensemble.hpp"
#include "cellgraph/output/atomic_file.hpp"
#include "cellgraph/run/ranks.hpp"
#include "cellgraph/run/writer.hpp"

namespace cellgraph {

// The parameters a sweep varies and each point's values of them, as the user wrote them.
struct SweepColumns {
  std::vector<std::string> names;
  std::vector<std::vector<std::string>> values;  // [point][name]
};

class EnsembleStatsWriter : public RunWriter {
 public:
  // Either path may be empty (that file is not written). Throws Error for `every` 0 or a
  // column name that needs CSV quoting. In a partitioned ensemble every rank gathers the rows
  // and the rank that writes files writes them.
  EnsembleStatsWriter(std::string stats_path, std::string summary_path, const Ensemble& ensemble, SweepColumns sweep,
                      std::uint64_t every, const std::vector<std::string>& state_names,
                      const RunRanks& ranks = single_process());
  ~EnsembleStatsWriter() override;
  Trigger trigger() const override { return {every_, true, true}; }
  void write(std::uint64_t step, StepCache& cache) override;
  void finish(std::uint64_t step, StepCache& cache) override;
  void finish_stopped(std::uint64_t step, StepCache& cache, StoppedOutputs& outputs) override;
  void report(std::vector<WrittenOutput>& outputs) const override;

 private:
  const Ensemble& ensemble_;
  SweepColumns sweep_;
  std::uint64_t every_;
  std::vector<std::string> columns_;  // census by state, then observables
  std::string stats_path_, summary_path_;
  std::unique_ptr<AtomicFile> stats_, summary_;
  std::uint64_t last_row_ = ~std::uint64_t(0);
};

// Every member's variables as one checkpoint holds them (checkpoint.hpp): its `vertices` count the
// graph's vertices x the members, and variable i holds vertex by vertex (user order) each
// member's value, member after member. Collective in a partitioned ensemble; empty on the ranks
// that do not write files.
std::vector<std::vector<std::uint8_t>> ensemble_checkpoint_variables(const Ensemble& ensemble);
// Member m's variables (what Ensemble::import_state takes) out of such a checkpoint's.
std::vector<std::vector<std::uint8_t>> member_checkpoint_variables(const std::vector<std::vector<std::uint8_t>>& all,
                                                                   std::uint32_t member, std::uint32_t members,
                                                                   const std::vector<std::uint32_t>& widths);

// The mean, standard deviation (n - 1), standard error and the 95% interval of the mean by
// Student's t with n - 1 degrees of freedom; NaN where n is too small.
struct SampleSummary {
  double mean, sd, se, low95, high95;
};
SampleSummary summarize(const std::vector<double>& xs);

}  // namespace cellgraph
