// The command-line front end: subcommands over the library, Boost.Program_options for flags
// and INI config files (flags override the file).
#pragma once
#include <boost/program_options.hpp>
#include <charconv>
#include <iomanip>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cellgraph/error.hpp"
#include "cellgraph/layout.hpp"
#include "cellgraph/output/vtk.hpp"
#include "cellgraph/partition.hpp"
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
int compare_command(const Args& args);
int partition_command(const Args& args);
int perfmodel_command(const Args& args);  // tools/cellgraph/perfmodel/: measure, fit, validate, predict, annotate

// Unsigned option values. Boost reads "-3" into an unsigned type as 2^64 - 3; this refuses it.
template <class T>
struct Unsigned {
  T value;
};
template <class T>
void validate(boost::any& out, const std::vector<std::string>& values, Unsigned<T>*, int) {
  po::validators::check_first_occurrence(out);
  const std::string& text = po::validators::get_single_string(values);
  T value{};
  const char* end = text.data() + text.size();
  auto [stop, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || stop != end) throw po::invalid_option_value(text);
  out = Unsigned<T>{value};
}
template <class T>
po::typed_value<Unsigned<T>>* unsigned_value(T default_value) {
  return po::value<Unsigned<T>>()->default_value(Unsigned<T>{default_value}, std::to_string(default_value));
}
template <class T>
T get_unsigned(const po::variables_map& vm, const char* name) {
  return vm[name].as<Unsigned<T>>().value;
}

// A figure for a table: three significant digits ("7.12e+10", "0.957").
inline std::string three_digits(double x) {
  std::ostringstream o;
  o << std::setprecision(3) << x;
  return o.str();
}

// Option groups shared by the subcommands, and what they turn into.
po::options_description source_options();
// A grid's --neighborhood and --boundary, when the user gives none, are `model`'s if it names
// them (cloud: the cloud neighborhood, open), else the options' defaults.
SourceSpec source_spec(const po::variables_map& vm, const models::ModelInfo* model = nullptr);
po::options_description layout_options();
CompileOptions compile_options(const po::variables_map& vm);
po::options_description model_options();
models::Params model_params(const po::variables_map& vm);
UpdateRule update_rule(const po::variables_map& vm, const models::ModelInfo& model);
po::options_description backend_options();
SimulationOptions simulation_options(const po::variables_map& vm);

// Partitioned runs (tools/cellgraph/partition.cpp): the options of `run`, and this rank's part of the
// run behind a PartitionedSimulation (one part per MPI rank).
po::options_description run_partition_options();
po::options_description partition_method_options();  // --method, --objective, ... (part of the above)
PartitionOptions partition_options_from(const po::variables_map& vm, const Source& source);
// One part per rank: rank 0 partitions, every rank receives the answer (collective).
std::vector<std::uint32_t> partition_for_ranks(const Graph& g, const PartitionOptions& options);
// Part `me` of `parts` of `g`, compiled with the whole graph's hub thresholds.
Layout compile_part(const Graph& g, const std::vector<std::uint32_t>& partition, std::uint32_t parts, std::uint32_t me,
                    const CompileOptions& options);
// This rank's part of `g`, compiled with the whole graph's hub thresholds.
std::shared_ptr<const Layout> compile_rank_part(const Graph& g, const std::vector<std::uint32_t>& partition,
                                                const CompileOptions& options);
// The options of this rank's part: its GPU or its share of the host's cores, MPI halo.
SimulationOptions rank_options(SimulationOptions options);
// This rank's part of `g` under `partition` (one part per rank), compiled as `layout`, running
// `model` behind a PartitionedSimulation. Colored updates take `whole_coloring` (greedy_coloring
// of `g` with the options' seed) when given, else color `g` here.
std::unique_ptr<Simulation> make_part_simulation(const Graph& g, const std::vector<std::uint32_t>& partition,
                                                 std::shared_ptr<const Layout> layout, const models::ModelInfo& model,
                                                 const models::Params& params, SimulationOptions options,
                                                 const std::vector<std::uint32_t>* whole_coloring = nullptr);
std::unique_ptr<Simulation> make_partitioned_simulation(const po::variables_map& vm, const Source& source,
                                                        const models::ModelInfo& model, const models::Params& params,
                                                        SimulationOptions options);
// This rank's part of an ensemble of `model` at `points` (ensemble.hpp) behind a
// PartitionedEnsemble: the source partitioned as for one realization, each member's colored
// updates in its own seed's coloring of the whole graph. `source` must outlive it.
std::unique_ptr<Ensemble> make_partitioned_ensemble(const po::variables_map& vm, const Source& source,
                                                    const models::ModelInfo& model,
                                                    const std::vector<models::Params>& points, std::uint32_t replicas,
                                                    SimulationOptions options);

// Parses `args` (and the --config file, if `desc` has that option and it is given); arguments
// without a name are values of the option `positional` (none when null). Prints help and returns
// false for --help. Throws Error for bad options, with the nearest names for an unknown one;
// config errors name "file:line".
bool parse_options(const Args& args, const po::options_description& desc, const std::string& usage,
                   po::variables_map& vm, const char* positional = nullptr);

// Options are spelled out: no prefix of a name stands for it (Boost's guessing), as in a config
// file, where keys are whole names too.
inline constexpr int kSpelledOutStyle = po::command_line_style::default_style & ~po::command_line_style::allow_guessing;

// --vtk-compression as an encoding; throws OptionError for a name that is none.
VtkEncoding vtk_encoding(const po::variables_map& vm);

// An option's value as the command line would give it, one text per occurrence (--param may
// have several); a double as the shortest text that reads back to it. Throws Error for a type
// no option here has.
std::vector<std::string> option_texts(const boost::any& value, const std::string& name);

// Where an option's value came from a config file: none for the command line and defaults.
// `option` is its name ("boundary"); for --param, "param NAME".
struct ConfigOrigin {
  std::string file;
  std::size_t line;
};
std::optional<ConfigOrigin> config_origin(const po::variables_map& vm, const std::string& option);

// Runs `body`, which turns options into settings; an OptionError about an option whose value
// came from the config file becomes a ParseError at that file's line. Flags keep their message.
template <class Body>
auto naming_config_origin(const po::variables_map& vm, Body body) -> decltype(body()) {
  try {
    return body();
  } catch (const OptionError& e) {
    if (const auto origin = config_origin(vm, e.option())) throw ParseError(origin->file, origin->line, e.what());
    throw;
  }
}

}  // namespace cellgraph::cli
