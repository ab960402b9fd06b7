// cellgraph run: source -> compiled layout -> backend steps -> observers and outputs.
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>

#include "cellgraph/digest.hpp"
#include "cellgraph/error.hpp"
#include "cellgraph/interrupt.hpp"
#include "cellgraph/output/atomic_file.hpp"
#include "cellgraph/output/checkpoint.hpp"
#include "cellgraph/output/file_plan.hpp"
#include "cellgraph/output/progress.hpp"
#include "cellgraph/output/state_file.hpp"
#include "cellgraph/output/stats_csv.hpp"
#include "cellgraph/output/vtk.hpp"
#include "models/golly.hpp"
#include "models/rule_use.hpp"
#include "partition/mpi.hpp"
#include "tools/cellgraph/cli.hpp"
#include "tools/cellgraph/movable.hpp"
#include "tools/cellgraph/pacer.hpp"
#include "tools/cellgraph/pictures.hpp"

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
      "cells", po::value<std::string>(), "these user ids in state 1, the rest 0: 0,17,42")(
      "states", po::value<std::string>(), "per-vertex state file: one integer per line, in user ids");
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
      "states-out", po::value<std::string>(), "final state per vertex in user ids, one per line")(
      "vtk", po::value<std::string>(),
      "ParaView time series BASE: BASE_<step>.vti (grids) or .vtu (meshes, graphs with coordinates) "
      "and the index BASE.pvd")("vtk-every", unsigned_value<std::uint64_t>(0),
                                "VTK snapshot every K steps (0: first and last only)")(
      "progress", po::bool_switch(), "show a progress line even when stderr is not a terminal")(
      "checkpoint", po::value<std::string>(),
      "checkpoint file, rewritten (atomically) every --checkpoint-every steps and at the end")(
      "checkpoint-every", unsigned_value<std::uint64_t>(0), "steps between checkpoints (0: only at the end)")(
      "restart", po::value<std::string>(),
      "continue from a checkpoint written by a run with the same source, model and parameters; "
      "--steps is the total, counted from the first run's start");
  d.add(init).add(out).add(picture_options()).add(run_partition_options()).add(movable_options());
  return d;
}

struct Outputs {
  std::string stats, rle, states, vtk, checkpoint;
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
                                     {"--png", o.pictures.png},
                                     {"--gif", o.pictures.gif}})
    plan.writes(path, option);
  if (!o.vtk.empty()) {
    plan.writes(o.vtk + ".pvd", "--vtk");
    plan.writes_series(o.vtk, ".vti", "--vtk");
    plan.writes_series(o.vtk, ".vtu", "--vtk");
  }
  plan.writes_series(o.pictures.frames, ".png", "--frames");
  plan.may_replace("--checkpoint", "--restart");
  plan.check();
}

// Contradictions and unwritable paths are found before any work is done.
void check_outputs(const Outputs& o, const Source& source) {
  const bool grid2d = source.grid && source.grid->dims == 2;
  if (!o.rle.empty() && !grid2d) throw Error("--rle needs a 2D grid source");
  if (!o.rle.empty()) {
    // Golly's bounded grids are tori (:T) and planes of dead cells (:P); nothing else.
    const Boundary& b = source.grid->boundary;
    if (b.kind == BoundaryKind::reflective || (b.kind == BoundaryKind::fixed && b.value != 0))
      throw Error("--rle: Golly has no grid with this boundary (only periodic and fixed:0)");
  }
  for (const std::string& path : {o.rle, o.states, o.checkpoint})
    if (!path.empty()) AtomicFile::check_writable(path);
  check_pictures(o.pictures, source);
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
  if (vm.count("states")) return read_state_file(vm["states"].as<std::string>(), n, num_states);
  if (vm.count("fill")) return random_fill(n, vm["fill"].as<double>(), seed);
  if (fill_count) return random_fill_count(n, get_unsigned<std::uint64_t>(vm, "fill-count"), seed);
  if (vm.count("cells")) return listed_cells(n, vm["cells"].as<std::string>());
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
  const std::string folder = std::filesystem::path(vm["pattern"].as<std::string>()).parent_path().string();
  params["dir"] = (params.count("dir") ? params.at("dir") + ":" : "") + (folder.empty() ? "." : folder);
  return params;
}

// The model's parameters as one canonical line: what a restart must match. Where rule files are
// looked for (golly's dir) is not part of it.
std::string parameters_text(const models::ModelInfo& model, models::Params params) {
  if (model.rule_text) params["rule"] = model.rule_text(params);
  if (model.name == "golly") params.erase("dir");
  std::string text;
  for (const auto& [key, value] : params) text += (text.empty() ? "" : ";") + key + "=" + value;
  return text;
}

void check_restart(const Checkpoint& c, const std::string& path, const std::string& model, const std::string& params,
                   const Source& source, SimulationOptions& options, bool seed_defaulted) {
  auto refuse = [&](const std::string& what, const std::string& theirs, const std::string& ours) {
    throw Error("--restart " + path + ": the checkpoint's " + what + " is " + quoted_text(theirs) + ", this run's is " +
                quoted_text(ours));
  };
  if (c.model != model) refuse("model", c.model, model);
  if (c.parameters != params) refuse("parameters", c.parameters, params);
  if (c.source != source.description || c.vertices != source.graph.num_vertices())
    refuse("source", c.source + ", " + std::to_string(c.vertices) + " vertices",
           source.description + ", " + std::to_string(source.graph.num_vertices()) + " vertices");
  if (seed_defaulted) options.seed = c.seed;  // random models continue their own streams
  else if (c.seed != options.seed) refuse("seed", std::to_string(c.seed), std::to_string(options.seed));
}

// The VTK geometry that fits the source: image data for grids, the elements for a mesh's dual
// graph, points (and edges) for anything else with coordinates.
VtkSeries vtk_series(const std::string& base, const Source& source) {
  if (source.grid) return VtkSeries::for_grid(base, *source.grid);
  if (source.mesh && !source.mesh_elements.empty() && source.mesh->has_coordinates)
    return VtkSeries::for_mesh_elements(base, *source.mesh, source.mesh_elements);
  if (source.graph.coord_dim) return VtkSeries::for_graph(base, source.graph);
  throw Error("--vtk needs a grid, a mesh with coordinates, or a graph with coordinates");
}

// A snapshot's variables beyond variable 0, by the model's names (cloud: hum, act); none for
// models of one variable. Collective in a partitioned run (rank 0 gets the values).
std::vector<VtkNamedArray> vtk_further_variables(const Simulation& sim, const models::ModelInfo& model) {
  if (model.variable_names.size() < 2) return {};
  std::vector<std::vector<std::uint8_t>> variables = sim.export_state();
  if (variables.size() != model.variable_names.size())
    throw Error("model " + model.name + " names " + std::to_string(model.variable_names.size()) +
                " variables but has " + std::to_string(variables.size()));
  std::vector<VtkNamedArray> more;
  for (std::size_t i = 1; i < variables.size(); ++i) more.push_back({model.variable_names[i], std::move(variables[i])});
  return more;
}

// One statistics row: the population per state, then the model's observables.
std::vector<StatsWriter::Value> stats_values(const Simulation& sim) {
  const std::vector<std::uint64_t> counts = sim.census();
  std::vector<StatsWriter::Value> values(counts.begin(), counts.end());
  for (double x : sim.observables()) values.emplace_back(x);
  return values;
}

std::vector<std::string> stats_columns(const Simulation& sim, const models::ModelInfo& model) {
  std::vector<std::string> names;
  for (std::uint32_t s = 0; s < std::max(1u, sim.num_states()); ++s)
    names.push_back(s < model.state_names.size() ? model.state_names[s] : "state_" + std::to_string(s));
  for (const std::string& name : sim.observable_names()) names.push_back(name);
  return names;
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

// Reads and checks the checkpoint a run continues from.
Checkpoint restart_point(const po::variables_map& vm, const Source& source, const std::string& model,
                         const std::string& identity_params, SimulationOptions& options, std::uint64_t steps) {
  if (vm.count("fill") || !vm["fill-count"].defaulted() || vm.count("cells") || vm.count("states") || source.pattern)
    throw Error(
        "--restart continues a run: it takes no initial state (--fill, --fill-count, --cells, --states, --pattern)");
  const std::string path = vm["restart"].as<std::string>();
  Checkpoint c = read_checkpoint(path);
  check_restart(c, path, model, identity_params, source, options, vm["seed"].defaulted());
  if (c.step > steps)
    throw Error("--restart " + path + " is at step " + std::to_string(c.step) + ", past --steps " +
                std::to_string(steps) +
                " (the step to reach, counted from the first run's start): nothing to run; "
                "give --steps above " +
                std::to_string(c.step));
  return c;
}

// The simulation at its first step: a fresh initial state, or the restart's.
std::unique_ptr<Simulation> start_simulation(const po::variables_map& vm, const Source& source,
                                             const models::ModelInfo& model, const models::Params& params,
                                             const SimulationOptions& options,
                                             const std::optional<Checkpoint>& restart) {
  const bool partitioned = mpi::size() > 1 || vm.count("partition");
  std::unique_ptr<Simulation> sim =
      partitioned
          ? make_partitioned_simulation(vm, source, model, params, options)
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

// What a run writes as it goes and at its end. Every method is collective in a partitioned run:
// every rank calls it, rank 0 writes.
class RunOutputs {
 public:
  RunOutputs(const Outputs& outputs, const po::variables_map& vm, const Source& source, const models::ModelInfo& model,
             const models::Params& params, const SimulationOptions& options, const std::string& identity_params,
             Simulation& sim, std::uint64_t steps)
      : o_(outputs), source_(source), model_(model), params_(params), options_(options),
        identity_params_(identity_params), sim_(sim), steps_(steps), root_(mpi::rank() == 0),
        stats_every_(get_unsigned<std::uint64_t>(vm, "stats-every")),
        vtk_every_(get_unsigned<std::uint64_t>(vm, "vtk-every")),
        checkpoint_every_(get_unsigned<std::uint64_t>(vm, "checkpoint-every")) {
    if (!o_.stats.empty()) {
      if (root_) stats_ = std::make_unique<StatsWriter>(o_.stats, stats_columns(sim_, model_));
      stats_row();
    }
    if (!o_.vtk.empty()) {
      if (root_) vtk_ = vtk_series(o_.vtk, source_);
      write_vtk(sim_.states());
    }
    if (o_.pictures.any()) {
      pictures_.emplace(o_.pictures, source_, sim_.num_states(), sim_.step(), steps_);
      if (pictures_->wants(sim_.step())) {
        const std::vector<std::uint32_t> states = sim_.states();
        if (root_) pictures_->snapshot(sim_.step(), states);
      }
    }
  }

  // The next step at which something is written, at most `step + longest`.
  std::uint64_t next_stop(std::uint64_t longest) const {
    const std::uint64_t step = sim_.step();
    auto next_multiple = [&](std::uint64_t k) { return (step / k + 1) * k; };
    std::uint64_t stop = std::min(steps_, step + longest);
    if (!o_.stats.empty()) stop = std::min(stop, next_multiple(stats_every_));  // on every rank
    if (checkpoint_every_) stop = std::min(stop, next_multiple(checkpoint_every_));
    if (!o_.vtk.empty() && vtk_every_) stop = std::min(stop, next_multiple(vtk_every_));
    if (pictures_ && pictures_->every()) stop = std::min(stop, next_multiple(pictures_->every()));
    return stop;
  }

  // After the simulation advanced: whatever falls due at its step.
  void after_advance() {
    const std::uint64_t step = sim_.step();
    if (!o_.stats.empty() && (step % stats_every_ == 0 || step == steps_)) stats_row();
    if (checkpoint_every_ && step % checkpoint_every_ == 0 && step < steps_) save_checkpoint();
    const bool vtk_due = !o_.vtk.empty() && ((vtk_every_ && step % vtk_every_ == 0) || step == steps_);
    const bool picture_due = pictures_ && pictures_->wants(step);
    if (vtk_due || picture_due) {
      const std::vector<std::uint32_t> states = sim_.states();
      if (vtk_due) write_vtk(states);
      if (picture_due && root_) pictures_->snapshot(step, states);
    }
  }

  // The end of a run that reached its last step: every output.
  void finish() {
    if (!o_.checkpoint.empty()) save_checkpoint();
    if (stats_) stats_->finish();
    if (vtk_) vtk_->finish();
    if (pictures_ || !o_.rle.empty() || !o_.states.empty()) {
      const std::vector<std::uint32_t> final_states = sim_.states();
      if (root_ && pictures_) pictures_->finish(final_states);
      if (root_ && !o_.rle.empty()) {
        AtomicFile file(o_.rle);
        write_rle(file.stream(), final_states, *source_.grid, model_.rule_text ? model_.rule_text(params_) : "",
                  sim_.num_states());
        file.commit();
      }
      if (root_ && !o_.states.empty()) write_state_file(o_.states, final_states);
    }
  }

  // The end of a run stopped early: what it has so far (statistics to this step, the
  // checkpoint, the snapshots and frames taken), not the outputs of a final state. Returns
  // what was written and what was not, for the message.
  std::string finish_stopped() {
    const std::uint64_t step = sim_.step();
    std::string wrote, skipped;
    auto add = [](std::string& list, const std::string& item) { list += (list.empty() ? "" : ", ") + item; };
    if (!o_.stats.empty() && step % stats_every_ != 0) stats_row();
    if (!o_.checkpoint.empty()) {
      save_checkpoint();
      add(wrote, o_.checkpoint + " (continue with --restart " + o_.checkpoint + ")");
    }
    if (stats_) stats_->finish(), add(wrote, o_.stats + " (statistics to step " + std::to_string(step) + ")");
    if (vtk_) vtk_->finish(), add(wrote, o_.vtk + ".pvd (the snapshots taken)");
    if (pictures_ && root_) {
      pictures_->finish_series();
      if (!o_.pictures.gif.empty()) add(wrote, o_.pictures.gif + " (the frames taken)");
    }
    for (const auto& [option, path] :
         {std::pair{"--png", o_.pictures.png}, {"--rle", o_.rle}, {"--states-out", o_.states}})
      if (!path.empty()) add(skipped, option);
    return (wrote.empty() ? "" : "; wrote " + wrote) +
           (skipped.empty() ? "" : "; not written (final state): " + skipped);
  }

 private:
  void stats_row() {
    const auto values = stats_values(sim_);
    if (stats_) stats_->row(sim_.step(), values);
  }
  void write_vtk(const std::vector<std::uint32_t>& states) {
    const std::vector<VtkNamedArray> more = vtk_further_variables(sim_, model_);
    if (vtk_) vtk_->write(sim_.step(), states, more);
  }
  void save_checkpoint() {
    Checkpoint c{sim_.step(),         options_.seed,
                 model_.name,         identity_params_,
                 source_.description, source_.graph.num_vertices(),
                 sim_.export_state(), {}};
    if (root_) write_checkpoint(o_.checkpoint, c);
  }

  const Outputs& o_;
  const Source& source_;
  const models::ModelInfo& model_;
  const models::Params& params_;
  const SimulationOptions& options_;
  const std::string& identity_params_;
  Simulation& sim_;
  std::uint64_t steps_;
  bool root_;
  std::uint64_t stats_every_, vtk_every_, checkpoint_every_;
  std::unique_ptr<StatsWriter> stats_;
  std::optional<VtkSeries> vtk_;
  std::optional<Pictures> pictures_;
};

Outputs outputs_from(const po::variables_map& vm) {
  Outputs o;
  for (auto [option, path] : {std::pair{"stats", &o.stats},
                              {"rle", &o.rle},
                              {"states-out", &o.states},
                              {"vtk", &o.vtk},
                              {"checkpoint", &o.checkpoint}})
    if (vm.count(option)) *path = vm[option].as<std::string>();
  o.pictures = picture_options_from(vm);
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

void print_summary(const Simulation& sim, const models::ModelInfo& model, const models::Params& params,
                   const Source& source, std::uint64_t first_step, double seconds) {
  const std::uint64_t cells = source.graph.num_vertices(), ran = sim.step() - first_step;
  const auto census = sim.census();
  if (mpi::rank() != 0) return;
  std::cout << "ran " << ran << " steps" << (first_step ? " (from step " + std::to_string(first_step) + ")" : "")
            << " of " << model.name << (model.rule_text ? " " + model.rule_text(params) : std::string()) << " on "
            << source.description << " (" << cells << " cells) on " << sim.backend_name() << " in " << seconds << " s";
  if (seconds > 0) std::cout << ": " << double(ran) * double(cells) / seconds << " cell updates/s";
  std::cout << "; population";
  for (std::size_t s = 1; s < census.size(); ++s) std::cout << (s > 1 ? "," : " ") << census[s];
  std::cout << "\n";
}

int run_source(const po::variables_map& vm) {
  const Outputs outputs = outputs_from(vm);
  const std::uint64_t steps = steps_of(vm);
  check_files(vm, outputs);

  // The named model's grid defaults shape the source (cloud); a pattern's rule may then pick
  // the model that runs (golly, when --model is left out).
  Source source = load_source(source_spec(vm, &models::find_model(vm["model"].as<std::string>())));
  agree_on_source(source);
  check_outputs(outputs, source);
  models::Params params = model_params(vm);
  if (!params.count("rule") && source.pattern && !source.pattern->rule.empty()) params["rule"] = source.pattern->rule;
  const models::Params golly_params = with_pattern_folder(params, vm);
  const models::ModelInfo& model = models::find_model(model_name(vm, golly_params));
  if (model.name == "golly") params = golly_params;

  SimulationOptions options = simulation_options(vm);
  options.update = update_rule(vm, model);
  if (source.grid) options.boundary_value = source.grid->boundary.value;
  // A restart must also update the same way (sync runs keep the plain text of older checkpoints).
  const std::string identity_params =
      parameters_text(model, params) +
      (options.update.mode == UpdateMode::synchronous ? "" : ";update=" + update_rule_text(options.update));
  std::optional<Checkpoint> restart;
  if (vm.count("restart")) restart = restart_point(vm, source, model.name, identity_params, options, steps);
  if (restart && restart->step == steps && mpi::rank() == 0)
    std::cerr << "cellgraph run: the checkpoint is at step " << steps << " already: no steps to run, only outputs\n";
  std::unique_ptr<Simulation> sim = start_simulation(vm, source, model, params, options, restart);

  const std::uint64_t first_step = sim->step();  // after a restart, the checkpoint's step
  RunOutputs run_outputs(outputs, vm, source, model, params, options, identity_params, *sim, steps);
  Progress progress(mpi::rank() == 0 && vm["progress"].as<bool>(), steps, source.graph.num_vertices());
  RunPacer pacer;
  int stopped_by = 0;
  const auto start = std::chrono::steady_clock::now();
  {
    StopListener listening;  // the first SIGINT or SIGTERM ends the run after its chunk
    while (sim->step() < steps && !stopped_by) {
      const auto chunk_start = std::chrono::steady_clock::now();
      sim->advance(run_outputs.next_stop(pacer.chunk()) - sim->step());
      const double chunk_seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - chunk_start).count();
      run_outputs.after_advance();
      progress.update(sim->step());
      stopped_by = pacer.stop_after(chunk_seconds);
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  progress.finish();
  if (stopped_by && sim->step() < steps) {
    const std::string outputs_text = run_outputs.finish_stopped();
    if (mpi::rank() == 0)
      std::cerr << ("cellgraph run: stopped by " + std::string(signal_name(stopped_by)) + " after step " +
                    std::to_string(sim->step()) + " of " + std::to_string(steps) + outputs_text + "\n");
    return 128 + stopped_by;
  }
  run_outputs.finish();
  print_summary(*sim, model, params, source, first_step, seconds);
  return 0;
}

}  // namespace

int run_command(const Args& args) {
  po::variables_map vm;
  if (!parse_options(args, run_options(), "usage: cellgraph run SOURCE [options]", vm)) return 0;
  // An option's value that a config file gave and the run refuses is reported at its line.
  return naming_config_origin(vm, [&] {
    // Movable models take particles in a box instead of a source (tools/cellgraph/run_movable.cpp).
    if (const models::MovableModelInfo* movable = models::find_movable_model(vm["model"].as<std::string>()))
      return run_movable(vm, *movable);
    refuse_movable_options(vm, vm["model"].as<std::string>());
    return run_source(vm);
  });
}

}  // namespace cellgraph::cli
