// Fuzz target config_ini: INI config files (read_config in tools/cellgraph/options.cpp, reached as the
// CLI reaches it: parse_options with --config FILE) on any bytes, written to a file. The options
// are those of `cellgraph run` that the shared option groups declare (source, model, backend,
// layout), plus stand-ins for run's own (initial state, outputs, pictures) so that the
// examples in data/examples parse. Errors of the file must name it. What a successful parse
// holds then goes through the CLI's conversions (source_spec, compile_options, ...) and the
// string parsers they feed (grid sizes, stencils, boundaries, update rules, models); those
// errors are about an option's value and need not name the file.
#include <cstdint>
#include <string>

#include "cellgraph/error.hpp"
#include "tests/fuzz/fuzz_support.hpp"
#include "tools/cellgraph/cli.hpp"

namespace {

namespace po = boost::program_options;
using namespace cellgraph;
using namespace cellgraph::cli;

po::options_description run_like_options() {
  po::options_description d("cellgraph run, as the fuzz target knows it");
  d.add_options()("help,h", "show this help")("config", po::value<std::string>(), "INI file of these options");
  d.add(source_options()).add(model_options()).add(backend_options()).add(layout_options());
  po::options_description rest("Initial state, outputs, pictures (stand-ins for run's)");
  rest.add_options()("fill", po::value<double>(), "")("fill-count", unsigned_value<std::uint64_t>(0), "")(
      "cells", po::value<std::string>(), "")("states", po::value<std::string>(), "")(
      "steps", unsigned_value<std::uint64_t>(100), "")("stats", po::value<std::string>(), "")(
      "stats-every", unsigned_value<std::uint64_t>(1), "")("rle", po::value<std::string>(), "")(
      "states-out", po::value<std::string>(), "")("vtk", po::value<std::string>(), "")(
      "vtk-every", unsigned_value<std::uint64_t>(0), "")("progress", po::bool_switch(), "")(
      "png", po::value<std::string>(), "")("png-scale", po::value<int>()->default_value(1), "")(
      "gif-delay", po::value<int>()->default_value(100), "");
  d.add(rest);
  return d;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const fuzz::InputFile file("input.ini");
  static const po::options_description desc = run_like_options();
  const std::string& path = file.write(data, size);
  po::variables_map vm;
  if (!fuzz::guarded("parse_options --config", path, [&] { parse_options({"--config", path}, desc, "usage", vm); }))
    return 0;
  // What run does with the options next (the values came from the file).
  const models::ModelInfo* model = nullptr;
  fuzz::guarded("find_model", "", [&] { model = &models::find_model(vm["model"].as<std::string>()); });
  SourceSpec spec;
  if (fuzz::guarded("source_spec", "", [&] { spec = source_spec(vm, model); })) {
    int dims = 0;
    if (!spec.grid.empty()) fuzz::guarded("parse_grid_size", "", [&] { parse_grid_size(spec.grid, &dims); });
    fuzz::guarded("parse_boundary", "", [&] { parse_boundary(spec.boundary); });
    for (int d : {dims ? dims : 2, 3}) fuzz::guarded("parse_stencil", "", [&] { parse_stencil(spec.neighborhood, d); });
  }
  fuzz::guarded("compile_options", "", [&] { compile_options(vm); });
  fuzz::guarded("simulation_options", "", [&] { simulation_options(vm); });
  fuzz::guarded("model_params", "", [&] { model_params(vm); });
  if (model) fuzz::guarded("update_rule", "", [&] { update_rule(vm, *model); });
  return 0;
}
