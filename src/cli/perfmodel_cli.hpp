// cellgraph perfmodel: the subcommands (perfmodel.cpp: fit, validate, predict and the
// dispatch; perfmodel_measure.cpp: measure).
#pragma once
#include "src/cli/cli.hpp"

namespace cellgraph::cli {

int perfmodel_measure(const Args& args);
int perfmodel_fit(const Args& args);
int perfmodel_validate(const Args& args);
int perfmodel_predict(const Args& args);
int perfmodel_annotate(const Args& args);

// Whether a model (name[:key=value...], as CSVs and fits name it) gathers over a one-bit
// signal (ModelInfo::gathers_signal): the gather path of its GPU steps depends on it.
bool gathers_signal(const std::string& model_key);

// Parses a subcommand's options, its positional arguments (if `positional` names an option)
// included. Prints help and returns false for --help; throws Error for bad options.
bool parse_perfmodel_options(const Args& args, const po::options_description& desc, const char* positional,
                             const std::string& usage, po::variables_map& vm);

// "2^26" or a plain whole number (a cell count).
std::uint64_t parse_count(const std::string& text, const std::string& option);

}  // namespace cellgraph::cli
