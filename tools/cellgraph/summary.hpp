// The end of a run, told to a person (labelled lines on stdout) and to a script
// (--summary-json FILE): what ran, how fast, the final census by state name, the observables,
// and every file written with its size.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include "cellgraph/run/writer.hpp"

namespace cellgraph::cli {

struct RunSummary {
  std::string source;  // the source's description, or a movable run's box
  std::uint64_t cells = 0;
  std::string model, rule, backend;
  std::vector<std::pair<std::string, std::string>> parameters;
  std::uint64_t first_step = 0, last_step = 0;
  double seconds = 0;
  std::vector<std::pair<std::string, std::uint64_t>> census;  // by state name, at the last step
  std::vector<std::pair<std::string, double>> observables;
  std::vector<WrittenOutput> outputs;
  bool rate_per_cell = true;  // the rate counts cell updates; false: steps (movable runs)
  double rate() const;
  const char* rate_unit() const { return rate_per_cell ? "cell updates/s" : "steps/s"; }
};

// "dead 2900, live 172"; "6.5 KiB"; "out/life.pvd and 11 snapshots (2.3 MiB)".
std::string census_text(const RunSummary& s);
std::string size_text(std::uint64_t bytes);
std::string output_text(const WrittenOutput& output);

// The lines after a run's first line: census, observables, files written.
void print_summary_details(std::ostream& out, const RunSummary& s);
// The summary as one JSON object, written atomically.
void write_summary_json(const std::string& path, const RunSummary& s);

}  // namespace cellgraph::cli
