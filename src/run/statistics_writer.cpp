#include "cellgraph/run/statistics_writer.hpp"

#include "cellgraph/error.hpp"

namespace cellgraph {

StatisticsWriter::StatisticsWriter(std::string path, const std::vector<std::string>& columns, std::uint64_t every,
                                   Row row, const RunRanks& ranks)
    : path_(std::move(path)), every_(every), row_(std::move(row)) {
  if (every_ == 0) throw Error("statistics every 0 steps: the interval must be at least 1");
  if (ranks.writes_files()) file_.emplace(path_, columns);
}

void StatisticsWriter::write(std::uint64_t step, StepCache& cache) {
  const std::vector<StatsWriter::Value> values = row_(cache);  // on every rank: collective
  if (file_) file_->row(step, values);
  last_row_ = step;
}

void StatisticsWriter::finish(std::uint64_t, StepCache&) {
  if (file_) file_->finish();
}

void StatisticsWriter::finish_stopped(std::uint64_t step, StepCache& cache, StoppedOutputs& outputs) {
  if (last_row_ != step) write(step, cache);
  finish(step, cache);
  outputs.written.push_back({RunOutput::statistics, path_});
}

void StatisticsWriter::report(std::vector<WrittenOutput>& outputs) const {
  outputs.push_back({RunOutput::statistics, path_, {path_}});
}

}  // namespace cellgraph
