// The command-line front end: subcommands over the library, Boost.Program_options for flags
// and INI config files (flags override the file).
#pragma once
#include <boost/program_options.hpp>
#include <string>
#include <vector>

#include "cellgraph/layout.hpp"
#include "cellgraph/simulation.hpp"
#include "cellgraph/source/source.hpp"
#include "models/registry.hpp"

namespace cellgraph::cli {

namespace po = boost::program_options;
using Args = std::vector<std::string>;

int run_command(const Args& args);
int compile_command(const Args& args);
int bench_command(const Args& args);
int models_command(const Args& args);

// Option groups shared by the subcommands, and what they turn into.
po::options_description source_options();
SourceSpec source_spec(const po::variables_map& vm);
po::options_description layout_options();
CompileOptions compile_options(const po::variables_map& vm);
po::options_description model_options();
models::Params model_params(const po::variables_map& vm);
po::options_description backend_options();
SimulationOptions simulation_options(const po::variables_map& vm);

// Parses `args` (and the --config file, if `desc` has that option and it is given). Prints
// help and returns false for --help. Throws Error for bad options; config errors name
// "file:line".
bool parse_options(const Args& args, const po::options_description& desc, const std::string& usage,
                   po::variables_map& vm);

}  // namespace cellgraph::cli
