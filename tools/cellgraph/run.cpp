// cellgraph run: source -> compiled layout -> backend steps -> observers and outputs.
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <set>

#include "cellgraph/digest.hpp"
#include "cellgraph/error.hpp"
#include "cellgraph/interrupt.hpp"
#include "cellgraph/output/atomic_file.hpp"
#include "cellgraph/output/checkpoint.hpp"
#include "cellgraph/output/file_plan.hpp"
#include "cellgraph/output/progress.hpp"
#include "cellgraph/output/state_file.hpp"
#include "cellgraph/run/driver.hpp"
#include "cellgraph/run/writers.hpp"
#include "models/golly.hpp"
#include "models/rule_use.hpp"
#include "partition/mpi.hpp"
#include "partition/run_ranks.hpp"
#include "tools/cellgraph/cli.hpp"
#include "tools/cellgraph/ensemble.hpp"
#include "tools/cellgraph/movable.hpp"
#include "tools/cellgraph/pictures.hpp"
#include "tools/cellgraph/summary.hpp"

namespace cellgraph::cli {
namespace {

po::options_description run_options() {
  po::options_description d("cellgraph run");
  d.add_options()("help,h", "show this help")("config", po::value<std::string>(),
                                              "INI file of these options (key = value); flags override it");
  d.add(source_options()).add(model_options()).add(backend_options()).add(layout_options());
  po::options_description init("Initial state (one of)");
  init.add_options()("fill", po::value<double>(),
                     "random: each cell live (state 1) with this probability, keyed by --seed")(
      "fill-count", unsigned_value<std::uint64_t>(0),
      "random: exactly this many cells in state 1 (say, initially infected)")(
      "cells", po::value<std::string>(),
      "these user ids in state 1, the rest 0: 0,17,42; a graph file that names its vertices (ids of an edge "
      "list, names, GraphML node ids) takes those names: alice,bob")(
      "states", po::value<std::string>(),
      "per-vertex state file: one integer per line, in user ids; 'label state' lines for a graph file that names "
      "its vertices (what --states-out writes)");
  po::options_description out("Steps and outputs");
  out.add_options()(
      "steps", unsigned_value<std::uint64_t>(100),
      "steps to run (at most 2^32 - 1). Ctrl-C or SIGTERM stops the run after its step, writing the statistics so "
      "far and the checkpoint (exit status 130 or 143)")(
      "stats", po::value<std::string>(),
      "CSV of the population per state (step,state_0,state_1,... or the model's state names: S,I,R) "
      "and the model's observables (ising: magnetization,energy per site)")(
      "stats-every", unsigned_value<std::uint64_t>(1), "statistics every K steps (and the last)")(
      "rle", po::value<std::string>(), "Golly RLE of the final state (2D grids), with its bounded grid")(
      "states-out", po::value<std::string>(),
      "final state per vertex in user ids, one per line (for a graph file that names its vertices: "
      "'label state' lines, which --states reads back; labels with blanks in double quotes)")(
      "vtk", po::value<std::string>(),
      "ParaView time series BASE: BASE_<step>.vti (grids) or .vtu (meshes, graphs with coordinates) "
      "and the index BASE.pvd")("vtk-every", unsigned_value<std::uint64_t>(0),
                                "VTK snapshot every K steps (0: first and last only)")(
      "vtk-compression", po::value<std::string>()->default_value("zlib"),
      "VTK arrays zlib-compressed (as ParaView writes them) or none (base64 of the raw values, for readers "
      "without zlib)")(
      "progress", po::bool_switch(),
      "a progress line every second even when stderr is not a terminal (otherwise: redrawn each second on a "
      "terminal, a line every 10 s elsewhere)")(
      "summary-json", po::value<std::string>(),
      "also write the end-of-run summary as JSON: version, source, model, parameters, steps, time, rate, final "
      "census by state name, observables, and every file written with its size")(
      "checkpoint", po::value<std::string>(),
      "checkpoint file, rewritten (atomically) every --checkpoint-every steps and at the end")(
      "checkpoint-every", unsigned_value<std::uint64_t>(0), "steps between checkpoints (0: only at the end)")(
      "restart", po::value<std::string>(),
      "continue from a checkpoint; the source, model, parameters and seed are the checkpoint's (options given "
      "too must agree with them); --steps is the total, counted from the first run's start");
  d.add(init)
      .add(out)
      .add(ensemble_options())
      .add(picture_options())
      .add(run_partition_options())
      .add(movable_options());
  return d;
}

struct Outputs {
  std::string stats, rle, states, vtk, checkpoint, summary_json;
  VtkEncoding vtk_encoding = VtkEncoding::zlib;
  PictureOptions pictures;
};

// Every file the run reads and writes, checked before any work: no output may replace an input
// or another output. A checkpoint may replace the one the run restarts from.
void check_files(const po::variables_map& vm, const Outputs& o) {
  FilePlan plan;
  for (const char* option : {"config", "graph", "mesh", "pattern", "states", "restart", "partition"})
    if (vm.count(option)) plan.reads(vm[option].as<std::string>(), std::string("--") + option);
  for (const auto& [option, path] : {std::pair{"--stats", o.stats},
                                     {"--rle", o.rle},
                                     {"--states-out", o.states},
                                     {"--checkpoint", o.checkpoint},
                                     {"--summary-json", o.summary_json},
                                     {"--png", o.pictures.png},
                                     {"--gif", o.pictures.gif}})
    plan.writes(path, option);
  if (!o.vtk.empty()) {
    plan.writes(o.vtk + ".pvd", "--vtk");
    plan.writes_series(o.vtk, ".vti", "--vtk");
    plan.writes_series(o.vtk, ".vtu", "--vtk");
  }
  plan.writes_series(o.pictures.frames, ".png", "--frames");
  if (vm.count("summary")) plan.writes(vm["summary"].as<std::string>(), "--summary");
  plan.may_replace("--checkpoint", "--restart");
  plan.check();
}

// Contradictions and unwritable paths are found before any work is done, named by their flags
// (the writers check again, in the library's words).
void check_outputs(const po::variables_map& vm, const Outputs& o, const Source& source) {
  const bool grid2d = source.grid && source.grid->dims == 2;
  if (!o.rle.empty() && !grid2d) throw Error("--rle needs a 2D grid source");
  if (!o.rle.empty()) {
    // Golly's bounded grids are tori (:T) and planes of dead cells (:P); nothing else.
    const Boundary& b = source.grid->boundary;
    if (b.kind == BoundaryKind::reflective || (b.kind == BoundaryKind::fixed && b.value != 0))
      throw Error("--rle: Golly has no grid with this boundary (only periodic and fixed:0)");
  }
  for (const std::string& path : {o.rle, o.states, o.checkpoint, o.summary_json})
    if (!path.empty()) AtomicFile::check_writable(path);
  check_picture_flags(vm, o.pictures, source);
}

// Variable 0 of every vertex at the start; a state file's states are checked against the
// model's `num_states` (0: any).
std::vector<std::uint32_t> initial_states(const po::variables_map& vm, const Source& source, std::uint64_t seed,
                                          std::uint32_t num_states) {
  const bool fill_count = !vm["fill-count"].defaulted();
  const int given = int(vm.count("fill")) + int(vm.count("states")) + int(source.pattern.has_value()) +
                    int(fill_count) + int(vm.count("cells"));
  if (given > 1) throw Error("choose one initial state: --fill, --fill-count, --cells, --states or --pattern");
  const std::uint32_t n = source.graph.num_vertices();
  if (source.pattern) {
    std::uint64_t dropped = 0;
    auto states = place_pattern(*source.pattern, *source.grid, &dropped);
    if (dropped) std::cerr << "cellgraph run: " << dropped << " pattern cells fall outside the grid and are dropped\n";
    return states;
  }
  if (vm.count("states")) return read_state_file(vm["states"].as<std::string>(), n, num_states, source.vertex_labels);
  if (vm.count("fill")) return random_fill(n, vm["fill"].as<double>(), seed);
  if (fill_count) return random_fill_count(n, get_unsigned<std::uint64_t>(vm, "fill-count"), seed);
  if (vm.count("cells")) return listed_cells(n, vm["cells"].as<std::string>(), source.vertex_labels);
  return std::vector<std::uint32_t>(n, 0);
}

// --model; left out, golly when the rule names a Golly rule file rather than a Life-like rule
// (`--rule WireWorld`, or a pattern of Langton's loops). A rule that is neither is refused
// saying where its file was looked for.
std::string model_name(const po::variables_map& vm, const models::Params& params) {
  const std::string named = vm["model"].as<std::string>();
  if (!vm["model"].defaulted() || !params.count("rule")) return named;
  if (models::names_golly_rule_file(params)) return "golly";
  models::check_rule(params.at("rule"), models::RuleUse::lifelike_or_golly,
                     params.count("dir") ? params.at("dir") : "");
  return named;
}

// The parameters golly runs with: a pattern's rule file may sit beside the pattern, so its
// folder joins the folders golly looks in (other models take no such parameter).
models::Params with_pattern_folder(models::Params params, const po::variables_map& vm) {
  if (!vm.count("pattern") || !params.count("rule") || params.count("file")) return params;
  params["dir"] =
      rule_dirs_beside_pattern(params.count("dir") ? params.at("dir") : "", vm["pattern"].as<std::string>());
  return params;
}

// `members`: an ensemble's, whose checkpoint holds that many copies of each vertex.
void check_restart(const Checkpoint& c, const std::string& path, const std::string& model, const std::string& params,
                   const Source& source, SimulationOptions& options, bool seed_defaulted, std::uint32_t members) {
  auto refuse = [&](const std::string& what, const std::string& theirs, const std::string& ours) {
    const char* is = what == "parameters" ? " are " : " is ";
    throw Error("--restart " + path + ": the checkpoint's " + what + is + quoted_text(theirs) + ", this run's" + is +
                quoted_text(ours));
  };
  if (c.model != model) refuse("model", c.model, model);
  if (c.parameters != params) refuse("parameters", c.parameters, params);
  const std::uint64_t copies = std::uint64_t(source.graph.num_vertices()) * members;
  if (c.source != source.description || c.vertices != copies) {
    const auto vertices = [&](std::uint64_t n) {
      return std::to_string(n / members) + " vertices" +
             (members > 1 ? " x " + std::to_string(members) + " members" : "");
    };
    refuse("source", c.source + ", " + vertices(c.vertices), source.description + ", " + vertices(copies));
  }
  if (seed_defaulted) options.seed = c.seed;  // random models continue their own streams
  else if (c.seed != options.seed) refuse("seed", std::to_string(c.seed), std::to_string(options.seed));
}

// Under mpirun every rank reads the inputs itself; ranks that read different files would end in
// an MPI error far from its cause. They compare what they read first.
void agree_on_source(const Source& source) {
  if (mpi::size() == 1) return;
  const Graph& g = source.graph;
  mpi::agree("the source", source.description + " (" + std::to_string(g.num_vertices()) + " vertices, " +
                               std::to_string(g.num_entries()) + " neighbor entries, CRC-32 " +
                               hex32(crc32_of(g.neighbors, crc32_of(g.offsets))) + ")");
}

void agree_on_initial_state(const std::string& what, const std::vector<std::vector<std::uint8_t>>& variables) {
  if (mpi::size() == 1) return;
  std::uint32_t crc = 0;
  for (const auto& v : variables) crc = crc32_of(v, crc);
  mpi::agree(what, "CRC-32 " + hex32(crc));
}

// The options that choose the source and the model (not the initial state, steps, outputs or
// backend), as the checkpoint records them: tokens each ended by '\0', files by absolute path so
// that a restart may run from another folder.
std::string recorded_run_options(const po::variables_map& vm) {
  std::vector<std::string> names{"seed", "replicas", "sweep"};
  for (const po::options_description& group : {source_options(), model_options()})
    for (const auto& option : group.options()) names.push_back(option->long_name());
  std::string recorded;
  std::set<std::string> params;  // a parameter's first value counts (model_params)
  for (const std::string& name : names) {
    if (!vm.count(name) || vm[name].defaulted()) continue;
    for (std::string value : option_texts(vm[name].value(), name)) {
      if (name == "param" && !params.insert(value.substr(0, value.find('='))).second) continue;
      if (name == "graph" || name == "mesh" || name == "pattern") value = std::filesystem::absolute(value).string();
      recorded += "--" + name + '\0' + value + '\0';
    }
  }
  return recorded;
}

// Fills in what a restart leaves out from the options its checkpoint recorded: the command line
// and a config file come first, and what they give differently is refused with the reason
// (check_restart). --param composes: a name's first value counts.
void add_recorded_options(po::variables_map& vm, const po::options_description& desc, const Checkpoint& c,
                          const std::string& path) {
  std::vector<std::string> tokens;
  for (std::size_t at = 0, end; (end = c.run_options.find('\0', at)) != std::string::npos; at = end + 1)
    tokens.push_back(c.run_options.substr(at, end - at));
  try {
    po::store(po::command_line_parser(tokens).options(desc).style(kSpelledOutStyle).run(), vm);
  } catch (const po::error& e) {
    throw Error("--restart " + path + ": the options it records: " + e.what());
  }
}

// Checks the checkpoint a run continues from. The original command plus --restart may still
// name its initial state: the checkpoint's replaces it.
void check_restart_point(const po::variables_map& vm, const Checkpoint& c, const Source& source,
                         const std::string& model, const std::string& identity_params, SimulationOptions& options,
                         std::uint64_t steps, std::uint32_t members = 1) {
  const std::string path = vm["restart"].as<std::string>();
  std::string replaced;
  for (const char* option : {"fill", "fill-count", "cells", "states"})
    if (vm.count(option) && !vm[option].defaulted())
      replaced += (replaced.empty() ? "--" : ", --") + std::string(option);
  if (!replaced.empty() && mpi::rank() == 0)
    std::cerr << "cellgraph run: the checkpoint's state replaces " << replaced << "\n";
  check_restart(c, path, model, identity_params, source, options, vm["seed"].defaulted(), members);
  if (c.step > steps)
    throw Error("--restart " + path + " is at step " + std::to_string(c.step) + ", past --steps " +
                std::to_string(steps) +
                " (the step to reach, counted from the first run's start): nothing to run; "
                "give --steps above " +
                std::to_string(c.step));
}

// --backend auto on ranks: the GPU only where every rank has one, since parts of one run must
// trade their halos alike (every rank calls this at the same point).
SimulationOptions agreed_backend(const po::variables_map& vm, SimulationOptions options) {
  if (vm["backend"].as<std::string>() == "auto" && !mpi::all(options.backend == BackendKind::cuda))
    options.backend = BackendKind::cpu;
  return options;
}

// The simulation at its first step: a fresh initial state, or the restart's.
std::unique_ptr<Simulation> start_simulation(const po::variables_map& vm, const Source& source,
                                             const models::ModelInfo& model, const models::Params& params,
                                             const SimulationOptions& options,
                                             const std::optional<Checkpoint>& restart) {
  const bool partitioned = mpi::size() > 1 || vm.count("partition");
  std::unique_ptr<Simulation> sim =
      partitioned
          ? make_partitioned_simulation(vm, source, model, params, agreed_backend(vm, options))
          : model.make(params, std::make_shared<const Layout>(compile(source.graph, compile_options(vm))), options);
  if (restart) {
    check_checkpoint_fits(*restart, vm["restart"].as<std::string>(), sim->variable_widths(), sim->num_states(),
                          model.name);
    agree_on_initial_state("the checkpoint's state (--restart)", restart->variables);
    sim->import_state(restart->variables, restart->step);
    return sim;
  }
  const std::vector<std::uint32_t> initial = initial_states(vm, source, options.seed, sim->num_states());
  if (mpi::size() > 1) {
    std::vector<std::uint8_t> bytes(initial.size() * sizeof(std::uint32_t));
    std::memcpy(bytes.data(), initial.data(), bytes.size());
    agree_on_initial_state("the initial state", {bytes});
  }
  if (model.initial_variables) sim->import_state(model.initial_variables(params, initial, options.seed), 0);
  else sim->set_states(initial);
  return sim;
}

Outputs outputs_from(const po::variables_map& vm) {
  Outputs o;
  for (auto [option, path] : {std::pair{"stats", &o.stats},
                              {"rle", &o.rle},
                              {"states-out", &o.states},
                              {"vtk", &o.vtk},
                              {"checkpoint", &o.checkpoint},
                              {"summary-json", &o.summary_json}})
    if (vm.count(option)) *path = vm[option].as<std::string>();
  o.pictures = picture_options_from(vm);
  o.vtk_encoding = vtk_encoding(vm);
  if (get_unsigned<std::uint64_t>(vm, "stats-every") == 0)
    throw OptionError("stats-every", "--stats-every must be at least 1");
  if (get_unsigned<std::uint64_t>(vm, "checkpoint-every") && o.checkpoint.empty())
    throw OptionError("checkpoint-every", "--checkpoint-every needs --checkpoint FILE");
  return o;
}

std::uint64_t steps_of(const po::variables_map& vm) {
  const std::uint64_t steps = get_unsigned<std::uint64_t>(vm, "steps");
  if (steps > kMaxSteps)
    throw OptionError("steps", "--steps " + std::to_string(steps) + " is more than a run can take (" +
                                   std::to_string(kMaxSteps) + ": random numbers are keyed by a 32-bit step)");
  return steps;
}

// The end of the run on stdout (and in --summary-json): what ran, how fast, the census by state
// name, the observables, the files written. Collective: every rank gathers, rank 0 writes.
void print_summary(const Simulation& sim, const models::ModelInfo& model, const models::Params& params,
                   const Source& source, const RunResult& result, const std::string& summary_json, bool started_empty) {
  RunSummary s;
  s.source = source.description;
  s.cells = source.graph.num_vertices();
  s.model = model.name;
  s.rule = model.rule_text ? model.rule_text(params) : "";
  models::Params effective = params;  // the values the model ran with, defaults included
  for (const models::ParamInfo& p : model.params)
    if (!p.default_value.empty()) effective.emplace(p.name, p.default_value);
  for (const auto& [name, value] : effective) s.parameters.emplace_back(name, value);
  s.backend = sim.backend_name();
  s.first_step = result.first_step;
  s.last_step = result.step;
  s.seconds = result.seconds;
  const std::vector<std::uint64_t> census = sim.census();
  for (std::size_t state = 0; state < census.size(); ++state)
    s.census.emplace_back(
        state < model.state_names.size() ? model.state_names[state] : "state " + std::to_string(state), census[state]);
  const std::vector<std::string> names = sim.observable_names();
  const std::vector<double> values = sim.observables();
  for (std::size_t i = 0; i < names.size() && i < values.size(); ++i) s.observables.emplace_back(names[i], values[i]);
  s.outputs = result.outputs;
  if (mpi::rank() != 0) return;
  const std::uint64_t ran = s.last_step - s.first_step;
  std::cout << "ran " << ran << " steps" << (s.first_step ? " (from step " + std::to_string(s.first_step) + ")" : "")
            << " of " << model.name << (s.rule.empty() ? "" : " " + s.rule) << " on " << s.source << " (" << s.cells
            << " cells) on " << s.backend << " in " << s.seconds << " s";
  if (s.seconds > 0) std::cout << ": " << s.rate() << " cell updates/s";
  std::cout << "\n";
  print_summary_details(std::cout, s);
  if (!summary_json.empty()) {
    write_summary_json(summary_json, s);
    std::cout << "  summary in " << summary_json << "\n";
  }
  // Nothing happened, and nothing could have: most often a forgotten initial state.
  if (started_empty && !s.census.empty() && s.census[0].second == s.cells && s.last_step > s.first_step)
    std::cerr << "cellgraph run: warning: every cell was in state 0 at the start and still is: nothing happened "
                 "(give an initial state: --fill, --fill-count, --cells, --states or --pattern)\n";
}

// The model a run takes, with its parameters and simulation options.
struct RunSetup {
  models::Params params;
  const models::ModelInfo* model = nullptr;
  SimulationOptions options;
  std::string identity_params;  // what a restart must match
};

RunSetup run_setup(const po::variables_map& vm, const Source& source) {
  RunSetup run;
  run.params = model_params(vm);
  if (!run.params.count("rule") && source.pattern && !source.pattern->rule.empty())
    run.params["rule"] = source.pattern->rule;
  const models::Params golly_params = with_pattern_folder(run.params, vm);
  run.model = &models::find_model(model_name(vm, golly_params));
  if (run.model->name == "golly") run.params = golly_params;

  run.options = simulation_options(vm);
  run.options.update = update_rule(vm, *run.model);
  if (source.grid) run.options.boundary_value = source.grid->boundary.value;
  // A restart must also update the same way (sync runs keep the plain text of older checkpoints).
  if (vm.count("checkpoint") || vm.count("restart"))  // a swept rule leaves none to name here
    run.identity_params =
        models::parameters_text(*run.model, run.params) +
        (run.options.update.mode == UpdateMode::synchronous ? "" : ";update=" + update_rule_text(run.options.update));
  return run;
}

// The outputs the flags ask for, as writers; added in the order a stopped run names them.
void add_writers(RunDriver& driver, const po::variables_map& vm, const Outputs& o, const Source& source,
                 const RunSetup& run, const Simulation& sim) {
  const RunRanks& ranks = mpi::run_ranks();
  const models::ModelInfo& model = *run.model;
  if (!o.checkpoint.empty()) {
    Checkpoint identity;
    identity.seed = run.options.seed;
    identity.model = model.name;
    identity.parameters = run.identity_params;
    identity.source = source.description;
    identity.run_options = recorded_run_options(vm);
    identity.vertices = source.graph.num_vertices();
    driver.add(std::make_unique<CheckpointWriter>(o.checkpoint, sim, identity,
                                                  get_unsigned<std::uint64_t>(vm, "checkpoint-every"), ranks));
  }
  if (!o.stats.empty())
    driver.add(std::make_unique<CensusStatsWriter>(o.stats, sim, get_unsigned<std::uint64_t>(vm, "stats-every"),
                                                   model.state_names, ranks));
  if (!o.vtk.empty()) {
    if (!has_vtk_geometry(source))
      throw Error("--vtk needs a grid, a mesh with coordinates, or a graph with coordinates");
    driver.add(std::make_unique<VtkSeriesWriter>(o.vtk, source, sim, get_unsigned<std::uint64_t>(vm, "vtk-every"),
                                                 model.variable_names, ranks, o.vtk_encoding));
  }
  if (o.pictures.any())
    driver.add(std::make_unique<PicturesWriter>(pictures_for_model(vm, o.pictures, model, source), source, sim, ranks));
  if (!o.rle.empty())
    driver.add(std::make_unique<RleWriter>(o.rle, *source.grid, model.rule_text ? model.rule_text(run.params) : "", sim,
                                           ranks));
  if (!o.states.empty())
    driver.add(std::make_unique<StateFileWriter>(o.states, sim, ranks,
                                                 source.vertex_labels.empty() ? nullptr : &source.vertex_labels));
}

// Every flag an ensemble cannot honor yet, refused before any work.
void check_ensemble_flags(const po::variables_map& vm) {
  if (vm.count("summary-json"))
    throw OptionError("summary-json", "--summary-json is not available for ensembles (--replicas, --sweep)");
}

// R realizations of each sweep point on one compiled layout (ensemble.hpp): each member starts
// as the plain run with its own seed would, --stats and --summary cover every member, and the
// per-realization outputs write --member's.
// What an ensemble's checkpoint records beside the model's parameters: the replicas and every
// sweep point, which a restart must match.
std::string ensemble_identity(const EnsemblePlan& plan) {
  std::string text = ";replicas=" + std::to_string(plan.replicas);
  for (std::size_t k = 0; k < plan.columns.names.size(); ++k) {
    text += ";sweep:" + plan.columns.names[k] + "=";
    for (std::size_t p = 0; p < plan.columns.values.size(); ++p) text += (p ? "," : "") + plan.columns.values[p][k];
  }
  return text;
}

int run_ensemble(const po::variables_map& vm, const Outputs& outputs, std::uint64_t steps, const Source& source,
                 const RunSetup& run, const std::optional<Checkpoint>& restart) {
  check_ensemble_flags(vm);
  const RunRanks& ranks = mpi::run_ranks();
  if (ranks.writes_files()) {
    if (!outputs.stats.empty()) AtomicFile::check_writable(outputs.stats);
    if (vm.count("summary")) AtomicFile::check_writable(vm["summary"].as<std::string>());
  }
  const EnsemblePlan plan = ensemble_plan(vm, run.params);
  const models::ModelInfo& model = *run.model;
  if (!model.make_ensemble) throw Error("model " + model.name + " does not run as an ensemble");
  const bool partitioned = mpi::size() > 1 || vm.count("partition");
  SimulationOptions options = partitioned ? agreed_backend(vm, run.options) : run.options;
  const std::string identity = run.identity_params + ensemble_identity(plan);
  const std::uint32_t members = std::uint32_t(plan.points.size()) * plan.replicas;
  if (restart) check_restart_point(vm, *restart, source, model.name, identity, options, steps, members);
  std::unique_ptr<Ensemble> ensemble =
      partitioned
          ? make_partitioned_ensemble(vm, source, model, plan.points, plan.replicas, options)
          : model.make_ensemble(plan.points, plan.replicas,
                                std::make_shared<const Layout>(compile(source.graph, compile_options(vm))), options);

  if (restart) {  // every member's state from the checkpoint, interleaved vertex by vertex
    const std::vector<std::uint32_t> widths = ensemble->variable_widths();
    check_checkpoint_fits(*restart, vm["restart"].as<std::string>(), widths, ensemble->num_states(), model.name);
    for (std::uint32_t m = 0; m < members; ++m)
      ensemble->import_state(m, member_checkpoint_variables(restart->variables, m, members, widths));
    ensemble->resume_at(restart->step);
  } else {
    // A start that draws nothing (a pattern, a state file, listed cells) is the same for all.
    const bool drawn = vm.count("fill") || !vm["fill-count"].defaulted();
    std::vector<std::uint32_t> shared;
    if (!drawn) shared = initial_states(vm, source, options.seed, ensemble->num_states());
    for (std::uint32_t m = 0; m < members; ++m) {
      const std::uint64_t seed = ensemble->seed(m);
      const std::vector<std::uint32_t> initial =
          drawn ? initial_states(vm, source, seed, ensemble->num_states()) : shared;
      if (model.initial_variables)
        ensemble->import_state(m, model.initial_variables(plan.points[m / plan.replicas], initial, seed));
      else ensemble->set_states(m, initial);
    }
  }

  EnsembleMember shown(*ensemble, plan.member);
  RunDriver driver(*ensemble, ranks);
  if (!outputs.checkpoint.empty()) {
    Checkpoint recorded;
    recorded.seed = options.seed;
    recorded.model = model.name;
    recorded.parameters = identity;
    recorded.source = source.description;
    recorded.run_options = recorded_run_options(vm);
    recorded.vertices = source.graph.num_vertices() * members;  // within 2^32: the ensemble checked it
    driver.add(std::make_unique<CheckpointWriter>(
        outputs.checkpoint, [&] { return ensemble_checkpoint_variables(*ensemble); }, recorded,
        get_unsigned<std::uint64_t>(vm, "checkpoint-every"), ranks));
  }
  if (!outputs.stats.empty() || !plan.summary.empty())
    driver.add(std::make_unique<EnsembleStatsWriter>(outputs.stats, plan.summary, *ensemble, plan.columns,
                                                     get_unsigned<std::uint64_t>(vm, "stats-every"), model.state_names,
                                                     ranks));
  Outputs per_member = outputs;
  per_member.stats.clear();
  per_member.checkpoint.clear();
  RunSetup shown_run = run;  // the shown member's parameters (an RLE header names its rule)
  shown_run.params = plan.points[plan.member / plan.replicas];
  add_writers(driver, vm, per_member, source, shown_run, shown);
  if (ranks.writes_files()) note_space_time(std::cerr, outputs.pictures, source, ensemble->step(), steps);
  Progress progress(progress_mode(vm), steps, std::uint64_t(source.graph.num_vertices()) * ensemble->members());
  driver.show_progress(progress);
  const RunResult result = driver.run(steps);
  if (result.stopped()) {
    if (ranks.writes_files()) std::cerr << stop_message(result, steps, ", ");
    return 128 + result.stop_signal;
  }
  if (!ranks.writes_files()) return 0;
  const double ran = double(result.step - result.first_step);
  const double updates = double(source.graph.num_vertices()) * ensemble->members() * ran;
  std::cout << "ran " << result.step - result.first_step << " steps"
            << (result.first_step ? " (from step " + std::to_string(result.first_step) + ")" : "") << " of "
            << model.name << " on " << source.description << " (" << source.graph.num_vertices() << " cells) for "
            << ensemble->members() << " members (" << ensemble->points()
            << (ensemble->points() == 1 ? " point" : " sweep points") << " x " << ensemble->replicas()
            << (ensemble->replicas() == 1 ? " replica) on " : " replicas) on ") << ensemble->backend_name() << " ("
            << member_layout(*ensemble) << ") in " << result.seconds << " s";
  if (result.seconds > 0) std::cout << ": " << updates / result.seconds << " replica-cell updates/s";
  if (const std::uint32_t finished = ensemble->finished_members())
    std::cout << "; " << finished << " members finished early and were no longer stepped";
  std::cout << "\n";
  for (const WrittenOutput& w : result.outputs) std::cout << "  wrote " << w.path << "\n";
  return 0;
}

int run_source(const po::variables_map& vm, const std::optional<Checkpoint>& restart) {
  const Outputs outputs = outputs_from(vm);
  const std::uint64_t steps = steps_of(vm);
  check_files(vm, outputs);

  // The named model's grid defaults shape the source (cloud); a pattern's rule may then pick
  // the model that runs (golly, when --model is left out).
  Source source = load_source(source_spec(vm, &models::find_model(vm["model"].as<std::string>())));
  agree_on_source(source);
  check_outputs(vm, outputs, source);
  RunSetup run = run_setup(vm, source);
  if (asks_for_ensemble(vm)) return run_ensemble(vm, outputs, steps, source, run, restart);
  if (restart) check_restart_point(vm, *restart, source, run.model->name, run.identity_params, run.options, steps);
  if (restart && restart->step == steps && mpi::rank() == 0)
    std::cerr << "cellgraph run: the checkpoint is at step " << steps << " already: no steps to run, only outputs\n";
  std::unique_ptr<Simulation> sim = start_simulation(vm, source, *run.model, run.params, run.options, restart);
  const bool started_empty = !restart && sim->census()[0] == source.graph.num_vertices();  // collective

  RunDriver driver(*sim, mpi::run_ranks());
  add_writers(driver, vm, outputs, source, run, *sim);
  if (mpi::rank() == 0) note_space_time(std::cerr, outputs.pictures, source, sim->step(), steps);
  Progress progress(progress_mode(vm), steps, source.graph.num_vertices());
  driver.show_progress(progress);
  const RunResult result = driver.run(steps);
  if (result.stopped()) {
    if (mpi::rank() == 0) std::cerr << stop_message(result, steps, ", ");
    return 128 + result.stop_signal;
  }
  print_summary(*sim, *run.model, run.params, source, result, outputs.summary_json, started_empty);
  return 0;
}

}  // namespace

Progress::Mode progress_mode(const po::variables_map& vm) {
  if (mpi::rank() != 0) return Progress::Mode::off;
  return vm["progress"].as<bool>() ? Progress::Mode::lines : Progress::Mode::automatic;
}

std::string stop_message(const RunResult& result, std::uint64_t steps, const std::string& between_written) {
  const std::string step = std::to_string(result.step);
  std::string wrote, not_written;
  for (const RunOutputFile& f : result.stopped_outputs.written) {
    std::string what = f.path;
    if (f.kind == RunOutput::checkpoint) what += " (continue with --restart " + f.path + ")";
    if (f.kind == RunOutput::statistics) what += " (statistics to step " + step + ")";
    if (f.kind == RunOutput::vtk_series) what += " (the snapshots taken)";
    if (f.kind == RunOutput::animation) what += " (the frames taken)";
    wrote += (wrote.empty() ? "" : between_written) + what;
  }
  for (const RunOutputFile& f : result.stopped_outputs.not_written) {
    const bool png = f.kind == RunOutput::picture || f.kind == RunOutput::particle_picture;
    const char* flag = png ? "--png" : f.kind == RunOutput::rle ? "--rle" : "--states-out";
    not_written += (not_written.empty() ? "" : ", ") + std::string(flag);
  }
  return "cellgraph run: stopped by " + std::string(signal_name(result.stop_signal)) + " after step " + step + " of " +
         std::to_string(steps) + (wrote.empty() ? "" : "; wrote " + wrote) +
         (not_written.empty() ? "" : "; not written (final state): " + not_written) + "\n";
}

namespace {

// The checkpoint --restart names, with the options it records added to `vm` where the command
// line and config file leave them out.
std::optional<Checkpoint> restart_checkpoint(po::variables_map& vm, const po::options_description& desc) {
  if (!vm.count("restart")) return std::nullopt;
  const std::string path = vm["restart"].as<std::string>();
  Checkpoint c = read_checkpoint(path);
  const bool source_given =
      vm.count("grid") || vm.count("pattern") || vm.count("graph") || vm.count("mesh") || vm.count("generate");
  if (c.run_options.empty() && !source_given)
    throw Error("--restart " + path +
                " does not record its source (an older cellgraph wrote it): give the source options of the run "
                "that wrote it");
  add_recorded_options(vm, desc, c, path);
  return c;
}

}  // namespace

int run_command(const Args& args) {
  po::variables_map vm;
  const po::options_description desc = run_options();
  if (!parse_options(args, desc, "usage: cellgraph run SOURCE [options]", vm)) return 0;
  // An option's value that a config file gave and the run refuses is reported at its line.
  return naming_config_origin(vm, [&] {
    const std::optional<Checkpoint> restart = restart_checkpoint(vm, desc);
    // Movable models take particles in a box instead of a source (tools/cellgraph/run_movable.cpp).
    if (const models::MovableModelInfo* movable = models::find_movable_model(vm["model"].as<std::string>())) {
      if (asks_for_ensemble(vm))
        throw Error("model " + movable->name +
                    " moves its cells: ensembles (--replicas, --sweep, --summary) run "
                    "the models of graphs and grids");
      return run_movable(vm, *movable);
    }
    refuse_movable_options(vm, vm["model"].as<std::string>());
    return run_source(vm, restart);
  });
}

}  // namespace cellgraph::cli
