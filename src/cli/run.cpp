// cellgraph run: source -> compiled layout -> backend steps -> observers and outputs.
#include <chrono>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>

#include "cellgraph/error.hpp"
#include "cellgraph/output/atomic_file.hpp"
#include "cellgraph/output/checkpoint.hpp"
#include "cellgraph/output/progress.hpp"
#include "cellgraph/output/state_file.hpp"
#include "cellgraph/output/stats_csv.hpp"
#include "cellgraph/output/vtk.hpp"
#include "models/golly.hpp"
#include "partition/mpi.hpp"
#include "src/cli/cli.hpp"
#include "src/cli/movable.hpp"
#include "src/cli/pictures.hpp"

namespace cellgraph::cli {
namespace {

po::options_description run_options() {
  po::options_description d("cellgraph run");
  d.add_options()("help,h", "show this help")(
      "config", po::value<std::string>(), "INI file of these options (key = value); flags override it");
  d.add(source_options()).add(model_options()).add(backend_options()).add(layout_options());
  po::options_description init("Initial state (one of)");
  init.add_options()
      ("fill", po::value<double>(), "random: each cell live (state 1) with this probability, keyed by --seed")
      ("fill-count", unsigned_value<std::uint64_t>(0), "random: exactly this many cells in state 1 (say, initially infected)")
      ("cells", po::value<std::string>(), "these user ids in state 1, the rest 0: 0,17,42")
      ("states", po::value<std::string>(), "per-vertex state file: one integer per line, in user ids");
  po::options_description out("Steps and outputs");
  out.add_options()
      ("steps", unsigned_value<std::uint64_t>(100), "steps to run")
      ("stats", po::value<std::string>(),
       "CSV of the population per state (step,state_0,state_1,... or the model's state names: S,I,R) "
       "and the model's observables (ising: magnetization,energy per site)")
      ("stats-every", unsigned_value<std::uint64_t>(1), "statistics every K steps (and the last)")
      ("rle", po::value<std::string>(), "Golly RLE of the final state (2D grids), with its bounded grid")
      ("states-out", po::value<std::string>(), "final state per vertex in user ids, one per line")
      ("vtk", po::value<std::string>(),
       "ParaView time series BASE: BASE_<step>.vti (grids) or .vtu (meshes, graphs with coordinates) "
       "and the index BASE.pvd")
      ("vtk-every", unsigned_value<std::uint64_t>(0), "VTK snapshot every K steps (0: first and last only)")
      ("progress", po::bool_switch(), "show a progress line even when stderr is not a terminal")
      ("checkpoint", po::value<std::string>(), "checkpoint file, rewritten (atomically) every --checkpoint-every steps and at the end")
      ("checkpoint-every", unsigned_value<std::uint64_t>(0), "steps between checkpoints (0: only at the end)")
      ("restart", po::value<std::string>(),
       "continue from a checkpoint written by a run with the same source, model and parameters; "
       "--steps is the total, counted from the first run's start");
  d.add(init).add(out).add(picture_options()).add(run_partition_options()).add(movable_options());
  return d;
}

struct Outputs {
  std::string stats, rle, states, vtk;
  PictureOptions pictures;
};

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
  for (const std::string& path : {o.rle, o.states})
    if (!path.empty()) AtomicFile probe(path);  // opens (and removes) the temporary, or throws
  check_pictures(o.pictures, source);
}

std::vector<std::uint32_t> initial_states(const po::variables_map& vm, const Source& source,
                                          std::uint64_t seed) {
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
  if (vm.count("states")) return read_state_file(vm["states"].as<std::string>(), n);
  if (vm.count("fill")) return random_fill(n, vm["fill"].as<double>(), seed);
  if (fill_count) return random_fill_count(n, get_unsigned<std::uint64_t>(vm, "fill-count"), seed);
  if (vm.count("cells")) return listed_cells(n, vm["cells"].as<std::string>());
  return std::vector<std::uint32_t>(n, 0);
}

// --model; left out, golly when the rule names a Golly rule file rather than a Life-like rule
// (`--rule WireWorld`, or a pattern of Langton's loops).
std::string model_name(const po::variables_map& vm, const models::Params& params) {
  const std::string named = vm["model"].as<std::string>();
  return vm["model"].defaulted() && models::names_golly_rule_file(params) ? "golly" : named;
}

// The model's parameters as one canonical line: what a restart must match.
std::string parameters_text(const models::ModelInfo& model, models::Params params) {
  if (model.rule_text) params["rule"] = model.rule_text(params);
  std::string text;
  for (const auto& [key, value] : params) text += (text.empty() ? "" : ";") + key + "=" + value;
  return text;
}

void check_restart(const Checkpoint& c, const std::string& path, const std::string& model, const std::string& params,
                   const Source& source, SimulationOptions& options, bool seed_defaulted) {
  auto refuse = [&](const std::string& what, const std::string& theirs, const std::string& ours) {
    throw Error("--restart " + path + ": the checkpoint's " + what + " is '" + theirs + "', this run's is '" + ours + "'");
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
    throw Error("model " + model.name + " names " + std::to_string(model.variable_names.size()) + " variables but has " +
                std::to_string(variables.size()));
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

}  // namespace

int run_command(const Args& args) {
  po::variables_map vm;
  if (!parse_options(args, run_options(), "usage: cellgraph run SOURCE [options]", vm)) return 0;
  // Movable models take particles in a box instead of a source (src/cli/run_movable.cpp).
  if (const models::MovableModelInfo* movable = models::find_movable_model(vm["model"].as<std::string>()))
    return run_movable(vm, *movable);
  refuse_movable_options(vm, vm["model"].as<std::string>());

  Outputs outputs;
  if (vm.count("stats")) outputs.stats = vm["stats"].as<std::string>();
  if (vm.count("rle")) outputs.rle = vm["rle"].as<std::string>();
  if (vm.count("states-out")) outputs.states = vm["states-out"].as<std::string>();
  if (vm.count("vtk")) outputs.vtk = vm["vtk"].as<std::string>();
  const std::uint64_t vtk_every = get_unsigned<std::uint64_t>(vm, "vtk-every");
  outputs.pictures = picture_options_from(vm);
  const std::uint64_t steps = get_unsigned<std::uint64_t>(vm, "steps");
  const std::uint64_t every = get_unsigned<std::uint64_t>(vm, "stats-every");
  if (every == 0) throw Error("--stats-every must be at least 1");

  // The named model's grid defaults shape the source (cloud); a pattern's rule may then pick
  // the model that runs (golly, when --model is left out).
  Source source = load_source(source_spec(vm, &models::find_model(vm["model"].as<std::string>())));
  check_outputs(outputs, source);
  models::Params params = model_params(vm);
  if (!params.count("rule") && source.pattern && !source.pattern->rule.empty())
    params["rule"] = source.pattern->rule;
  const models::ModelInfo& model = models::find_model(model_name(vm, params));

  SimulationOptions options = simulation_options(vm);
  options.update = update_rule(vm, model);
  if (source.grid) options.boundary_value = source.grid->boundary.value;
  // Under mpirun with several ranks, each rank runs one part (src/cli/partition.cpp).
  const bool partitioned = mpi::size() > 1 || vm.count("partition");
  const bool root = mpi::rank() == 0;  // the rank that writes the outputs
  const std::uint32_t cells = source.graph.num_vertices();
  // A restart must also update the same way (sync runs keep the plain text of older checkpoints).
  const std::string identity_params =
      parameters_text(model, params) +
      (options.update.mode == UpdateMode::synchronous ? "" : ";update=" + update_rule_text(options.update));
  std::optional<Checkpoint> restart;
  if (vm.count("restart")) {
    if (vm.count("fill") || !vm["fill-count"].defaulted() || vm.count("cells") || vm.count("states") || source.pattern)
      throw Error("--restart continues a run: it takes no initial state (--fill, --fill-count, --cells, --states, --pattern)");
    restart = read_checkpoint(vm["restart"].as<std::string>());
    check_restart(*restart, vm["restart"].as<std::string>(), model.name, identity_params, source, options,
                  vm["seed"].defaulted());
  }
  std::unique_ptr<Simulation> sim =
      partitioned ? make_partitioned_simulation(vm, source, model, params, options)
                  : model.make(params, std::make_shared<const Layout>(compile(source.graph, compile_options(vm))), options);
  if (restart) {
    sim->import_state(restart->variables, restart->step);
  } else {
    const std::vector<std::uint32_t> initial = initial_states(vm, source, options.seed);
    if (model.initial_variables) sim->import_state(model.initial_variables(params, initial, options.seed), 0);
    else sim->set_states(initial);
  }
  const std::string checkpoint_path = vm.count("checkpoint") ? vm["checkpoint"].as<std::string>() : "";
  const std::uint64_t checkpoint_every = get_unsigned<std::uint64_t>(vm, "checkpoint-every");
  if (checkpoint_every && checkpoint_path.empty()) throw Error("--checkpoint-every needs --checkpoint FILE");
  if (!checkpoint_path.empty()) AtomicFile probe(checkpoint_path);
  // Observers are collective in a partitioned run: every rank calls them, rank 0 writes.
  auto save_checkpoint = [&] {
    Checkpoint c{sim->step(), options.seed, model.name, identity_params, source.description, cells, sim->export_state()};
    if (root) write_checkpoint(checkpoint_path, c);
  };

  const bool want_stats = !outputs.stats.empty(), want_vtk = !outputs.vtk.empty();
  std::unique_ptr<StatsWriter> stats;
  auto stats_row = [&] {
    const auto values = stats_values(*sim);
    if (stats) stats->row(sim->step(), values);
  };
  if (want_stats) {
    if (root) stats = std::make_unique<StatsWriter>(outputs.stats, stats_columns(*sim, model));
    stats_row();
  }
  std::optional<VtkSeries> vtk;
  auto write_vtk = [&](const std::vector<std::uint32_t>& states) {
    const std::vector<VtkNamedArray> more = vtk_further_variables(*sim, model);
    if (vtk) vtk->write(sim->step(), states, more);
  };
  if (want_vtk) {
    if (root) vtk = vtk_series(outputs.vtk, source);
    write_vtk(sim->states());
  }
  const std::uint64_t first_step = sim->step();  // after a restart, the checkpoint's step
  std::optional<Pictures> pictures;
  if (outputs.pictures.any()) {
    pictures.emplace(outputs.pictures, source, sim->num_states(), first_step, steps);
    if (pictures->wants(first_step)) {
      const std::vector<std::uint32_t> states = sim->states();
      if (root) pictures->snapshot(first_step, states);
    }
  }
  Progress progress(root && vm["progress"].as<bool>(), steps, cells);
  const auto start = std::chrono::steady_clock::now();
  // Stop at every statistics row and checkpoint; otherwise run long chunks (the GPU backend
  // replays captured graphs of many steps).
  auto next_multiple = [&](std::uint64_t k) { return (sim->step() / k + 1) * k; };
  while (sim->step() < steps) {
    std::uint64_t stop = std::min(steps, next_multiple(want_stats ? every : 256));
    if (checkpoint_every) stop = std::min(stop, next_multiple(checkpoint_every));
    if (want_vtk && vtk_every) stop = std::min(stop, next_multiple(vtk_every));
    if (pictures && pictures->every()) stop = std::min(stop, next_multiple(pictures->every()));
    sim->advance(stop - sim->step());
    if (want_stats && (sim->step() % every == 0 || sim->step() == steps)) stats_row();
    if (checkpoint_every && sim->step() % checkpoint_every == 0 && sim->step() < steps) save_checkpoint();
    const bool vtk_due = want_vtk && ((vtk_every && sim->step() % vtk_every == 0) || sim->step() == steps);
    const bool picture_due = pictures && pictures->wants(sim->step());
    if (vtk_due || picture_due) {
      const std::vector<std::uint32_t> states = sim->states();
      if (vtk_due) write_vtk(states);
      if (picture_due && root) pictures->snapshot(sim->step(), states);
    }
    progress.update(sim->step());
  }
  if (!checkpoint_path.empty()) save_checkpoint();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  progress.finish();

  if (stats) stats->finish();
  if (vtk) vtk->finish();
  const auto census = sim->census();
  if (pictures || !outputs.rle.empty() || !outputs.states.empty()) {
    const std::vector<std::uint32_t> final_states = sim->states();
    if (root && pictures) pictures->finish(final_states);
    if (root && !outputs.rle.empty()) {
      AtomicFile file(outputs.rle);
      write_rle(file.stream(), final_states, *source.grid, model.rule_text ? model.rule_text(params) : "",
                sim->num_states());
      file.commit();
    }
    if (root && !outputs.states.empty()) write_state_file(outputs.states, final_states);
  }
  if (!root) return 0;

  const std::uint64_t ran = sim->step() - first_step;
  std::cout << "ran " << ran << " steps" << (first_step ? " (from step " + std::to_string(first_step) + ")" : "")
            << " of " << model.name
            << (model.rule_text ? " " + model.rule_text(params) : std::string()) << " on "
            << source.description << " (" << cells << " cells) on "
            << sim->backend_name() << " in " << seconds << " s";
  if (seconds > 0) std::cout << ": " << double(ran) * cells / seconds << " cell updates/s";
  std::cout << "; population";
  for (std::size_t s = 1; s < census.size(); ++s) std::cout << (s > 1 ? "," : " ") << census[s];
  std::cout << "\n";
  return 0;
}

}  // namespace cellgraph::cli
