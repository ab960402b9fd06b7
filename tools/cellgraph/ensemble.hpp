// `run --replicas R --sweep NAME=...`: what an ensemble run takes from the command line
// (tools/cellgraph/ensemble.cpp); run.cpp runs it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

#include "cellgraph/run/ensemble_writers.hpp"
#include "models/params.hpp"
#include "models/registry.hpp"

namespace cellgraph::cli {

namespace po = boost::program_options;

po::options_description ensemble_options();
// Whether the command line asks for more than one realization.
bool asks_for_ensemble(const po::variables_map& vm);

struct EnsemblePlan {
  std::vector<models::Params> points;  // each sweep point's parameters: --param with its swept values
  SweepColumns columns;                // the swept parameters and each point's values
  std::uint32_t replicas = 1;
  std::uint32_t member = 0;  // whose final state and pictures the per-realization outputs write
  std::string summary;       // --summary FILE, or empty
};

// --sweep NAME=v1,v2,... (values) or NAME=a:b:n (n values from a to b), repeatable: the product,
// the last sweep varying fastest. Throws OptionError for a malformed sweep, a name swept twice
// or also given by --param, --replicas 0, or --member past the last member.
EnsemblePlan ensemble_plan(const po::variables_map& vm, const models::Params& params);

// "NAME=a:b:n" or "NAME=v1,v2,...": the name and its values as texts. Throws OptionError.
std::pair<std::string, std::vector<std::string>> parse_sweep(const std::string& text);

}  // namespace cellgraph::cli
