// cellgraph perfmodel: the subcommands' dispatch and what they share (option parsing, counts,
// which models gather a one-bit signal). The model itself is the library's, src/perfmodel/
// (docs/PERFORMANCE_MODEL.md).
#include <charconv>
#include <iostream>

#include "cellgraph/error.hpp"
#include "cellgraph/output/file_plan.hpp"
#include "cellgraph/perfmodel.hpp"
#include "tools/cellgraph/perfmodel/commands.hpp"

namespace cellgraph::cli {
namespace {

constexpr const char* kUsage =
    "usage: cellgraph perfmodel COMMAND [options]   (cellgraph perfmodel COMMAND --help for its options)\n"
    "\n"
    "commands:\n"
    "  measure   time a sweep of sizes, models and sources (under mpirun -np N: on N parts) into a CSV\n"
    "  fit       fit per-cell cost, launch overhead, exchange latency and bandwidth to timings CSVs\n"
    "  validate  fit on some rows, predict the rows held out, pass or fail against a tolerance\n"
    "  predict   a run's time per step and in all, per GPU count, and the best count\n"
    "  annotate  add the launches, depth and gather columns to timings measured without them (rebuilds each source)\n";

}  // namespace

bool parse_perfmodel_options(const Args& args, const po::options_description& desc, const char* positional,
                             const std::string& usage, po::variables_map& vm) {
  if (!parse_options(args, desc, usage, vm, positional)) return false;
  // No output may replace an input (the timings fitted) or another output.
  FilePlan plan;
  for (const char* option : {"timings", "holdout-file"})
    if (vm.count(option))
      for (const std::string& path : vm[option].as<std::vector<std::string>>())
        plan.reads(path, std::string("--") + option);
  if (vm.count("model-file")) plan.reads(vm["model-file"].as<std::string>(), "--model-file");
  for (const char* option : {"out", "predictions"})
    if (vm.count(option)) plan.writes(vm[option].as<std::string>(), std::string("--") + option);
  plan.check();
  return true;
}

std::uint64_t parse_count(const std::string& text, const std::string& option) {
  const bool power = text.rfind("2^", 0) == 0;
  const std::string digits = power ? text.substr(2) : text;
  std::uint64_t v = 0;
  auto [stop, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (digits.empty() || ec != std::errc() || stop != digits.data() + digits.size() || (power && v > 63))
    throw Error(option + " wants a whole number or 2^K, not " + quoted_text(text));
  return power ? std::uint64_t(1) << v : v;
}

SweepModelTraits sweep_traits(const std::string& model_key) {
  return models::find_model(perfmodel::parse_model_spec(model_key).name).sweep_traits;
}

int perfmodel_command(const Args& args) {
  if (args.empty()) {
    std::cerr << kUsage;
    return 2;
  }
  const std::string& command = args[0];
  if (command == "--help" || command == "-h" || command == "help") {
    std::cout << kUsage;
    return 0;
  }
  const Args rest(args.begin() + 1, args.end());
  if (command == "measure") return perfmodel_measure(rest);
  if (command == "fit") return perfmodel_fit(rest);
  if (command == "validate") return perfmodel_validate(rest);
  if (command == "predict") return perfmodel_predict(rest);
  if (command == "annotate") return perfmodel_annotate(rest);
  std::cerr << "cellgraph perfmodel: unknown command '" << command << "'\n\n" << kUsage;
  return 2;
}

}  // namespace cellgraph::cli
