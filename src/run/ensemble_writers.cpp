#include "cellgraph/run/ensemble_writers.hpp"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>

#include "cellgraph/error.hpp"
#include "cellgraph/output/stats_csv.hpp"

namespace cellgraph {
namespace {

void check_names(const std::string& path, const std::vector<std::string>& names) {
  for (const std::string& name : names)
    if (name.find_first_of(",\"\r\n") != std::string::npos)
      throw Error(path + ": column name \"" + name + "\" needs CSV quoting");
}

std::string joined(const std::vector<std::string>& names) {
  std::string line;
  for (const std::string& name : names) line += (line.empty() ? "" : ",") + name;
  return line;
}

}  // namespace

SampleSummary summarize(const std::vector<double>& xs) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double n = double(xs.size());
  if (xs.empty()) return {nan, nan, nan, nan, nan};
  double sum = 0;
  for (double x : xs) sum += x;
  const double mean = sum / n;
  if (xs.size() < 2) return {mean, nan, nan, nan, nan};
  double squares = 0;
  for (double x : xs) squares += (x - mean) * (x - mean);
  const double sd = std::sqrt(squares / (n - 1));
  const double se = sd / std::sqrt(n);
  const double t = boost::math::quantile(boost::math::students_t(n - 1), 0.975);
  return {mean, sd, se, mean - t * se, mean + t * se};
}

EnsembleStatsWriter::EnsembleStatsWriter(std::string stats_path, std::string summary_path, const Ensemble& ensemble,
                                         SweepColumns sweep, std::uint64_t every,
                                         const std::vector<std::string>& state_names, const RunRanks& ranks)
    : ensemble_(ensemble), sweep_(std::move(sweep)), every_(every), stats_path_(std::move(stats_path)),
      summary_path_(std::move(summary_path)) {
  if (every_ == 0) throw Error("statistics every 0 steps: the interval must be at least 1");
  const std::uint32_t states = std::max<std::uint32_t>(1, ensemble.num_states());
  for (std::uint32_t s = 0; s < states; ++s)
    columns_.push_back(s < state_names.size() ? state_names[s] : "state_" + std::to_string(s));
  for (const std::string& name : ensemble.observable_names()) columns_.push_back(name);
  // A swept parameter named like a column of its own (greenberghastings' refractory state) is
  // written param_NAME.
  for (std::string& name : sweep_.names)
    if (std::find(columns_.begin(), columns_.end(), name) != columns_.end() || name == "replica" ||
        name == "replicas" || name == "seed" || name == "step")
      name = "param_" + name;
  std::vector<std::string> all = sweep_.names;
  all.insert(all.end(), columns_.begin(), columns_.end());
  for (const std::string& path : {stats_path_, summary_path_})
    if (!path.empty()) check_names(path, all);
  if (!ranks.writes_files()) return;  // the other ranks only gather
  if (!stats_path_.empty()) {
    stats_ = std::make_unique<AtomicFile>(stats_path_);
    std::vector<std::string> header = sweep_.names;
    header.insert(header.end(), {"replica", "seed", "step"});
    header.insert(header.end(), columns_.begin(), columns_.end());
    stats_->stream() << joined(header) << '\n';
  }
  if (!summary_path_.empty()) {
    summary_ = std::make_unique<AtomicFile>(summary_path_);
    std::vector<std::string> header = sweep_.names;
    header.insert(header.end(), {"replicas", "step"});
    for (const std::string& c : columns_)
      for (const char* statistic : {"_mean", "_sd", "_se", "_low95", "_high95"}) header.push_back(c + statistic);
    summary_->stream() << joined(header) << '\n';
  }
}

EnsembleStatsWriter::~EnsembleStatsWriter() = default;

void EnsembleStatsWriter::write(std::uint64_t step, StepCache&) {
  const std::uint32_t R = ensemble_.replicas();
  const std::vector<std::vector<std::uint64_t>> censuses = ensemble_.all_censuses();  // collective
  const std::vector<std::vector<double>> observables = ensemble_.all_observables();   // collective
  for (std::uint32_t point = 0; point < ensemble_.points(); ++point) {
    std::string prefix;
    for (const std::string& value : sweep_.values.at(point)) prefix += value + ",";
    std::vector<std::vector<double>> samples(columns_.size(), std::vector<double>(R));
    for (std::uint32_t r = 0; r < R; ++r) {
      const std::uint32_t m = point * R + r;
      std::vector<double> row;
      std::string line = prefix;
      append_csv_number(line, r);
      line += ',';
      append_csv_number(line, ensemble_.seed(m));
      line += ',';
      append_csv_number(line, step);
      for (std::uint64_t count : censuses[m]) {
        line += ',';
        append_csv_number(line, count);
        row.push_back(double(count));
      }
      for (double x : observables[m]) {
        line += ',';
        append_csv_number(line, x);
        row.push_back(x);
      }
      for (std::size_t c = 0; c < columns_.size() && c < row.size(); ++c) samples[c][r] = row[c];
      if (stats_) stats_->stream() << line << '\n';
    }
    if (summary_) {
      std::string line = prefix;
      append_csv_number(line, R);
      line += ',';
      append_csv_number(line, step);
      for (const std::vector<double>& xs : samples) {
        const SampleSummary s = summarize(xs);
        for (double x : {s.mean, s.sd, s.se, s.low95, s.high95}) {
          line += ',';
          if (std::isnan(x)) line += "nan";
          else append_csv_number(line, x);
        }
      }
      summary_->stream() << line << '\n';
    }
  }
  last_row_ = step;
}

void EnsembleStatsWriter::finish(std::uint64_t, StepCache&) {
  if (stats_) stats_->commit();
  if (summary_) summary_->commit();
}

void EnsembleStatsWriter::finish_stopped(std::uint64_t step, StepCache& cache, StoppedOutputs& outputs) {
  if (last_row_ != step) write(step, cache);
  finish(step, cache);
  for (const std::string& path : {stats_path_, summary_path_})
    if (!path.empty()) outputs.written.push_back({RunOutput::statistics, path});
}

void EnsembleStatsWriter::report(std::vector<WrittenOutput>& outputs) const {
  for (const std::string& path : {stats_path_, summary_path_})
    if (!path.empty()) outputs.push_back({RunOutput::statistics, path, {path}});
}

std::vector<std::vector<std::uint8_t>> ensemble_checkpoint_variables(const Ensemble& ensemble) {
  const std::vector<std::uint32_t> widths = ensemble.variable_widths();
  const std::size_t M = ensemble.members();
  std::vector<std::vector<std::uint8_t>> all(widths.size());
  for (std::uint32_t m = 0; m < M; ++m) {
    const std::vector<std::vector<std::uint8_t>> own = ensemble.export_state(m);  // collective
    for (std::size_t i = 0; i < widths.size() && i < own.size(); ++i) {
      const std::size_t w = widths[i], vertices = w ? own[i].size() / w : 0;
      all[i].resize(vertices * M * w);
      for (std::size_t v = 0; v < vertices; ++v)
        std::copy_n(own[i].begin() + v * w, w, all[i].begin() + (v * M + m) * w);
    }
  }
  return all;
}

std::vector<std::vector<std::uint8_t>> member_checkpoint_variables(const std::vector<std::vector<std::uint8_t>>& all,
                                                                   std::uint32_t member, std::uint32_t members,
                                                                   const std::vector<std::uint32_t>& widths) {
  std::vector<std::vector<std::uint8_t>> own(widths.size());
  for (std::size_t i = 0; i < widths.size() && i < all.size(); ++i) {
    const std::size_t w = widths[i], vertices = w && members ? all[i].size() / (w * members) : 0;
    own[i].resize(vertices * w);
    for (std::size_t v = 0; v < vertices; ++v)
      std::copy_n(all[i].begin() + (v * members + member) * w, w, own[i].begin() + v * w);
  }
  return own;
}

}  // namespace cellgraph
