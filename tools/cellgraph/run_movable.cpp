// cellgraph run --model vicsek (or mca): particles placed in a box by the model, stepped with neighbor
// lists rebuilt as they move (include/cellgraph/movable/movable_simulation.hpp); statistics
// of the model's observables, VTK point data and a quick-look PNG. Under mpirun -np N each rank
// runs one region of the box (partition/movable/partitioned_movable.hpp); the observers are
// collective and rank 0 writes every output.
#include <charconv>
#include <cmath>
#include <iostream>
#include <memory>
#include <optional>
#include <set>

#include "cellgraph/error.hpp"
#include "cellgraph/output/atomic_file.hpp"
#include "cellgraph/output/file_plan.hpp"
#include "cellgraph/output/pictures.hpp"
#include "cellgraph/output/progress.hpp"
#include "cellgraph/run/driver.hpp"
#include "cellgraph/run/movable_writers.hpp"
#include "partition/mpi.hpp"
#include "partition/run_ranks.hpp"
#include "tools/cellgraph/movable.hpp"
#include "tools/cellgraph/summary.hpp"

namespace cellgraph::cli {
namespace {

// What a movable run reads; any other option given is refused rather than ignored.
const std::set<std::string> kMovableRunOptions = {
    "config",     "model",        "param",        "backend",        "threads",  "seed",        "steps",
    "stats",      "stats-every",  "vtk",          "vtk-every",      "png",      "png-size",    "progress",
    "particles",  "box",          "dims",         "skin",           "boundary", "sort-window", "degree-quantum",
    "hub-degree", "giant-degree", "summary-json", "vtk-compression"};

double parse_length(const std::string& text, const std::string& whole) {
  double value = 0;
  const char* end = text.data() + text.size();
  auto [stop, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || stop != end || !(value > 0) || !std::isfinite(value))
    throw Error("bad box " + quoted_text(whole) + ": lengths are positive numbers, L, WxH or WxHxD");
  return value;
}

// --box L (a square, or a cube with --dims 3), WxH or WxHxD; --boundary periodic or closed.
Box parse_box(const po::variables_map& vm) {
  if (!vm.count("box")) throw Error("a movable model needs --box L (or WxH, WxHxD)");
  const std::string text = vm["box"].as<std::string>();
  std::vector<double> lengths;
  for (std::size_t first = 0;;) {
    const std::size_t x = text.find('x', first);
    lengths.push_back(parse_length(text.substr(first, x == std::string::npos ? std::string::npos : x - first), text));
    if (x == std::string::npos) break;
    first = x + 1;
  }
  const int dims = vm["dims"].as<int>();
  if (dims != 2 && dims != 3) throw Error("--dims must be 2 or 3, not " + std::to_string(dims));
  Box box;
  if (lengths.size() == 1) {
    box.dims = dims;
    for (int a = 0; a < dims; ++a) box.length[a] = lengths[0];
  } else {
    if (lengths.size() > 3) throw Error("bad box " + quoted_text(text) + ": at most 3 lengths");
    box.dims = int(lengths.size());
    if (!vm["dims"].defaulted() && dims != box.dims)
      throw Error("--box " + text + " has " + std::to_string(box.dims) + " dimensions, --dims says " +
                  std::to_string(dims));
    for (int a = 0; a < box.dims; ++a) box.length[a] = lengths[a];
  }
  const std::string boundary = vm["boundary"].as<std::string>();
  if (boundary == "periodic") box.periodic = true;
  else if (boundary == "closed") box.periodic = false;
  else throw Error("--boundary of a movable model must be periodic or closed, not " + quoted_text(boundary));
  return box;
}

std::string box_text(const Box& box) {
  std::string text = std::to_string(box.dims) + "D " + (box.periodic ? "periodic" : "closed") + " box ";
  for (int a = 0; a < box.dims; ++a) {
    std::ostringstream length;
    length << box.length[a];
    text += (a ? "x" : "") + length.str();
  }
  return text;
}

}  // namespace

po::options_description movable_options() {
  po::options_description d("Movable models (vicsek, mca): particles in a box instead of a source");
  d.add_options()("particles", unsigned_value<std::uint32_t>(0),
                  "particles, placed by the model (vicsek: at random, keyed by --seed; mca: a plate)")(
      "box", po::value<std::string>(),
      "the box: L (a square, or a cube with --dims 3), WxH or WxHxD; --boundary periodic (positions wrap) or "
      "closed (walls)")("dims", po::value<int>()->default_value(2), "dimensions of a box given as one length: 2 or 3")(
      "skin", po::value<double>(),
      "Verlet skin: lists hold the particles within r + skin and are rebuilt once one has moved by skin / 2 "
      "(0: rebuilt every step; results are the same either way); default: r / 4");
  return d;
}

void refuse_movable_options(const po::variables_map& vm, const std::string& model) {
  for (const char* name : {"particles", "box", "dims", "skin"})
    if (vm.count(name) && !vm[name].defaulted())
      throw Error("--" + std::string(name) + " is for movable models (vicsek, mca), not " + model);
}

namespace {

// What a movable run takes from its flags, checked in this order before anything is made.
struct MovableSetup {
  models::Params params;
  Box box;
  std::uint32_t particles = 0;
  double radius = 0;
  MovableOptions movable;
  SimulationOptions options;
  std::uint64_t steps = 0;
};

MovableSetup movable_setup(const po::variables_map& vm, const models::MovableModelInfo& model) {
  for (const auto& [name, value] : vm)
    if (!value.defaulted() && !kMovableRunOptions.count(name))
      throw Error("--" + name + " does not apply to movable models (" + model.name + ")");
  MovableSetup run;
  run.params = model_params(vm);
  run.box = parse_box(vm);
  if (std::find(model.dims.begin(), model.dims.end(), run.box.dims) == model.dims.end())
    throw Error("model " + model.name + " does not run in " + std::to_string(run.box.dims) + " dimensions");
  run.particles = get_unsigned<std::uint32_t>(vm, "particles");
  if (run.particles == 0) throw Error("a movable model needs --particles N (N >= 1)");
  run.radius = model.radius(run.params);
  run.movable.skin = vm.count("skin") ? vm["skin"].as<double>() : run.radius / 4;
  run.movable.compile = compile_options(vm);
  run.options = simulation_options(vm);
  if (mpi::size() > 1) {  // one region of the box per rank
    run.movable.part = std::uint32_t(mpi::rank());
    run.movable.parts = std::uint32_t(mpi::size());
    if (vm["backend"].defaulted()) run.options.backend = BackendKind::cpu;  // the partitioned movable backend
    if (!on_host(run.options.backend))
      throw Error("partitioned movable runs (mpirun -np " + std::to_string(mpi::size()) +
                  ") run on the CPU backend only: give --backend cpu");
    run.options = rank_options(run.options);
  }
  run.steps = get_unsigned<std::uint64_t>(vm, "steps");
  if (run.steps > kMaxSteps)
    throw Error("--steps " + std::to_string(run.steps) + " is more than a run can take (" + std::to_string(kMaxSteps) +
                ")");
  return run;
}

// The outputs' flags and files, checked before the simulation is made.
void check_movable_outputs(const po::variables_map& vm) {
  if (get_unsigned<std::uint64_t>(vm, "stats-every") == 0) throw Error("--stats-every must be at least 1");
  vtk_encoding(vm);  // refused here, before any work
  const int png_size = vm["png-size"].as<int>();
  if (!kPictureSize.holds(png_size)) throw Error("--png-size must be from " + kPictureSize.text());
  FilePlan plan;
  if (vm.count("config")) plan.reads(vm["config"].as<std::string>(), "--config");
  if (vm.count("stats")) plan.writes(vm["stats"].as<std::string>(), "--stats");
  if (vm.count("png")) plan.writes(vm["png"].as<std::string>(), "--png");
  if (vm.count("summary-json")) plan.writes(vm["summary-json"].as<std::string>(), "--summary-json");
  if (vm.count("vtk")) {
    plan.writes(vm["vtk"].as<std::string>() + ".pvd", "--vtk");
    plan.writes_series(vm["vtk"].as<std::string>(), ".vtu", "--vtk");
  }
  plan.check();
  if (vm.count("png") && mpi::rank() == 0) AtomicFile::check_writable(vm["png"].as<std::string>());
}

// The outputs the flags ask for, as writers; added in the order a stopped run names them.
void add_movable_writers(RunDriver& driver, const po::variables_map& vm, const models::MovableModelInfo& model,
                         MovableSimulation& sim) {
  const RunRanks& ranks = mpi::run_ranks();
  const int dims = sim.box().dims;
  std::vector<ParticleArray> arrays;  // beyond the positions; the first also colours the picture
  if (model.point_arrays)
    for (const models::PointArray& a : model.point_arrays(dims))
      arrays.push_back({a.name, a.first_variable, a.components});
  if (vm.count("stats"))
    driver.add(std::make_unique<ObservablesStatsWriter>(vm["stats"].as<std::string>(), sim,
                                                        get_unsigned<std::uint64_t>(vm, "stats-every"), ranks));
  if (vm.count("vtk"))
    driver.add(std::make_unique<VtkPointsWriter>(vm["vtk"].as<std::string>(), sim,
                                                 get_unsigned<std::uint64_t>(vm, "vtk-every"), arrays, ranks,
                                                 vtk_encoding(vm)));
  if (vm.count("png")) {
    const std::optional<int> heading =
        !arrays.empty() && arrays[0].components == dims ? std::optional<int>(arrays[0].first_variable) : std::nullopt;
    driver.add(std::make_unique<ParticlePngWriter>(vm["png"].as<std::string>(), sim, vm["png-size"].as<int>(), heading,
                                                   ranks));
  }
}

void print_movable_summary(MovableSimulation& sim, const models::MovableModelInfo& model, const MovableSetup& run,
                           const RunResult& result, const std::string& summary_json) {
  const double seconds = result.seconds;
  const RebuildStats rebuilds = sim.rebuild_stats();  // before observables(), which may rebuild once more
  const std::vector<double> values = sim.observables();
  if (mpi::rank() != 0) return;
  std::cout << "ran " << run.steps << " steps of " << model.name << " on " << run.particles << " particles in a "
            << box_text(run.box) << " (r " << run.radius << ", skin " << run.movable.skin << ") on "
            << sim.backend_name() << " in " << seconds << " s";
  if (seconds > 0) std::cout << ": " << double(run.steps) / seconds << " steps/s";
  std::cout << "; " << rebuilds.rebuilds << " neighbor-list rebuilds (" << rebuilds.seconds << " s)";
  const std::vector<std::string> names = sim.observable_names();
  for (std::size_t i = 0; i < names.size() && i < values.size(); ++i) std::cout << "; " << names[i] << " " << values[i];
  std::cout << "\n";
  RunSummary s;
  s.source = std::to_string(run.particles) + " particles in a " + box_text(run.box);
  s.cells = run.particles;
  s.model = model.name;
  for (const auto& [name, value] : run.params) s.parameters.emplace_back(name, value);
  s.backend = sim.backend_name();
  s.first_step = result.first_step;
  s.last_step = result.step;
  s.seconds = seconds;
  s.rate_per_cell = false;
  s.outputs = result.outputs;
  print_summary_details(std::cout, s);  // the observables are on the line above
  for (std::size_t i = 0; i < names.size() && i < values.size(); ++i) s.observables.emplace_back(names[i], values[i]);
  if (!summary_json.empty()) {
    write_summary_json(summary_json, s);
    std::cout << "  summary in " << summary_json << "\n";
  }
}

}  // namespace

int run_movable(const po::variables_map& vm, const models::MovableModelInfo& model) {
  const MovableSetup run = movable_setup(vm, model);
  check_movable_outputs(vm);
  // Everything the parameters decide is checked here, before any output is started.
  std::unique_ptr<MovableSimulation> sim = model.make(run.params, run.box, run.particles, run.movable, run.options);
  sim->import_state(model.initial_state(run.params, run.box, run.particles, run.options.seed), 0);

  RunDriver driver(*sim, mpi::run_ranks());
  add_movable_writers(driver, vm, model, *sim);
  Progress progress(progress_mode(vm), run.steps, 1, "steps/s");
  driver.show_progress(progress);
  const RunResult result = driver.run(run.steps);
  if (result.stopped()) {  // what the run has: statistics to this step, the snapshots taken
    if (mpi::rank() == 0) std::cerr << stop_message(result, run.steps, "; wrote ");
    return 128 + result.stop_signal;
  }
  print_movable_summary(*sim, model, run, result, vm.count("summary-json") ? vm["summary-json"].as<std::string>() : "");
  return 0;
}

}  // namespace cellgraph::cli
