// Census statistics and checkpoints of a Simulation's run.
#include <algorithm>

#include "cellgraph/error.hpp"
#include "cellgraph/run/writers.hpp"

namespace cellgraph {

const std::vector<std::uint32_t>& shared_states(const Simulation& sim, StepCache& cache) {
  return cache.get<std::vector<std::uint32_t>>("states", [&] { return sim.states(); });
}

const std::vector<StatsWriter::Value>& shared_census_row(const Simulation& sim, StepCache& cache) {
  return cache.get<std::vector<StatsWriter::Value>>("census row", [&] {
    const std::vector<std::uint64_t> counts = sim.census();
    std::vector<StatsWriter::Value> values(counts.begin(), counts.end());
    for (double x : sim.observables()) values.emplace_back(x);
    return values;
  });
}

std::vector<std::string> census_columns(const Simulation& sim, const std::vector<std::string>& state_names) {
  std::vector<std::string> names;
  for (std::uint32_t s = 0; s < std::max(1u, sim.num_states()); ++s)
    names.push_back(s < state_names.size() ? state_names[s] : "state_" + std::to_string(s));
  for (const std::string& name : sim.observable_names()) names.push_back(name);
  return names;
}

// A row: the population per state, then the model's observables (both collective).
CensusStatsWriter::CensusStatsWriter(std::string path, const Simulation& sim, std::uint64_t every,
                                     const std::vector<std::string>& state_names, const RunRanks& ranks)
    : StatisticsWriter(
          std::move(path), census_columns(sim, state_names), every,
          [&sim](StepCache& cache) { return shared_census_row(sim, cache); }, ranks) {}

CheckpointWriter::CheckpointWriter(std::string path, const Simulation& sim, Checkpoint identity, std::uint64_t every,
                                   const RunRanks& ranks)
    : CheckpointWriter(
          std::move(path), [&sim] { return sim.export_state(); }, std::move(identity), every, ranks) {}

CheckpointWriter::CheckpointWriter(std::string path, Variables variables, Checkpoint identity, std::uint64_t every,
                                   const RunRanks& ranks)
    : path_(std::move(path)), variables_(std::move(variables)), identity_(std::move(identity)), every_(every),
      ranks_(ranks) {}

void CheckpointWriter::write(std::uint64_t step, StepCache&) {
  Checkpoint c = identity_;
  c.step = step;
  c.variables = variables_();  // collective
  if (ranks_.writes_files()) write_checkpoint(path_, c);
  saved_at_ = step;
}

void CheckpointWriter::finish_stopped(std::uint64_t step, StepCache& cache, StoppedOutputs& outputs) {
  if (saved_at_ != step) write(step, cache);
  outputs.written.push_back({RunOutput::checkpoint, path_});
}

void CheckpointWriter::report(std::vector<WrittenOutput>& outputs) const {
  outputs.push_back({RunOutput::checkpoint, path_, {path_}});
}

}  // namespace cellgraph
