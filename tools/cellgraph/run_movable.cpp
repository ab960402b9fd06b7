// cellgraph run --model vicsek (or mca): particles placed in a box by the model, stepped with neighbor
// lists rebuilt as they move (include/cellgraph/movable/movable_simulation.hpp); statistics
// of the model's observables, VTK point data and a quick-look PNG. Under mpirun -np N each rank
// runs one region of the box (partition/movable/partitioned_movable.hpp); the observers are
// collective and rank 0 writes every output.
#include <charconv>
#include <chrono>
#include <iostream>
#include <memory>
#include <optional>
#include <set>

#include "cellgraph/error.hpp"
#include "cellgraph/interrupt.hpp"
#include "cellgraph/output/atomic_file.hpp"
#include "cellgraph/output/file_plan.hpp"
#include "cellgraph/output/particle_picture.hpp"
#include "cellgraph/output/progress.hpp"
#include "cellgraph/output/stats_csv.hpp"
#include "cellgraph/output/vtk.hpp"
#include "partition/mpi.hpp"
#include "tools/cellgraph/movable.hpp"
#include "tools/cellgraph/pacer.hpp"

namespace cellgraph::cli {
namespace {

// What a movable run reads; any other option given is refused rather than ignored.
const std::set<std::string> kMovableRunOptions = {
    "config",      "model", "param",     "backend",     "threads",        "seed",       "steps",       "stats",
    "stats-every", "vtk",   "vtk-every", "png",         "png-size",       "progress",   "particles",   "box",
    "dims",        "skin",  "boundary",  "sort-window", "degree-quantum", "hub-degree", "giant-degree"};

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

// Variables first .. first+components-1 of every particle, particle by particle.
std::vector<double> interleaved(const MovableSimulation& sim, int first, int components) {
  std::vector<double> out(std::size_t(sim.num_particles()) * components);
  for (int c = 0; c < components; ++c) {
    const std::vector<double> v = sim.variable(first + c);
    for (std::size_t p = 0; p < v.size(); ++p) out[p * components + c] = v[p];
  }
  return out;
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

int run_movable(const po::variables_map& vm, const models::MovableModelInfo& model) {
  for (const auto& [name, value] : vm)
    if (!value.defaulted() && !kMovableRunOptions.count(name))
      throw Error("--" + name + " does not apply to movable models (" + model.name + ")");
  const models::Params params = model_params(vm);
  const Box box = parse_box(vm);
  if (std::find(model.dims.begin(), model.dims.end(), box.dims) == model.dims.end())
    throw Error("model " + model.name + " does not run in " + std::to_string(box.dims) + " dimensions");
  const std::uint32_t particles = get_unsigned<std::uint32_t>(vm, "particles");
  if (particles == 0) throw Error("a movable model needs --particles N (N >= 1)");
  const double radius = model.radius(params);
  MovableOptions movable;
  movable.skin = vm.count("skin") ? vm["skin"].as<double>() : radius / 4;
  movable.compile = compile_options(vm);
  SimulationOptions options = simulation_options(vm);
  if (mpi::size() > 1) {  // one region of the box per rank
    movable.part = std::uint32_t(mpi::rank());
    movable.parts = std::uint32_t(mpi::size());
    if (vm["backend"].defaulted()) options.backend = BackendKind::cpu;  // the partitioned movable backend
    if (options.backend != BackendKind::cpu)
      throw Error("partitioned movable runs (mpirun -np " + std::to_string(mpi::size()) +
                  ") run on the CPU backend only: give --backend cpu");
    options = rank_options(options);
  }
  const bool root = mpi::rank() == 0;  // the rank that writes the outputs
  const std::uint64_t steps = get_unsigned<std::uint64_t>(vm, "steps");
  if (steps > kMaxSteps)
    throw Error("--steps " + std::to_string(steps) + " is more than a run can take (" + std::to_string(kMaxSteps) +
                ")");
  const std::uint64_t every = get_unsigned<std::uint64_t>(vm, "stats-every");
  if (every == 0) throw Error("--stats-every must be at least 1");
  const std::uint64_t vtk_every = get_unsigned<std::uint64_t>(vm, "vtk-every");
  const std::string stats_path = vm.count("stats") ? vm["stats"].as<std::string>() : "";
  const std::string png_path = vm.count("png") ? vm["png"].as<std::string>() : "";
  const int png_size = vm["png-size"].as<int>();
  if (png_size < 16 || png_size > 4096) throw Error("--png-size must be from 16 to 4096");
  FilePlan plan;
  if (vm.count("config")) plan.reads(vm["config"].as<std::string>(), "--config");
  plan.writes(stats_path, "--stats");
  plan.writes(png_path, "--png");
  if (vm.count("vtk")) {
    plan.writes(vm["vtk"].as<std::string>() + ".pvd", "--vtk");
    plan.writes_series(vm["vtk"].as<std::string>(), ".vtu", "--vtk");
  }
  plan.check();
  if (!png_path.empty() && root) AtomicFile::check_writable(png_path);

  // Everything the parameters decide is checked here, before any output is started.
  std::unique_ptr<MovableSimulation> sim = model.make(params, box, particles, movable, options);
  sim->import_state(model.initial_state(params, box, particles, options.seed), 0);
  const std::vector<models::PointArray> arrays =
      model.point_arrays ? model.point_arrays(box.dims) : std::vector<models::PointArray>{};
  // Observers are collective in a partitioned run: every rank gathers, rank 0 writes.
  const bool want_vtk = vm.count("vtk") > 0;
  std::optional<VtkPointSeries> vtk;
  auto write_vtk = [&] {
    std::vector<VtkPointSeries::Array> data;
    for (const models::PointArray& a : arrays)
      data.push_back({a.name, a.components, interleaved(*sim, a.first_variable, a.components)});
    const std::vector<double> positions = sim->positions();
    if (vtk) vtk->write(sim->step(), positions, data);
  };
  if (want_vtk) {
    if (root) vtk.emplace(vm["vtk"].as<std::string>(), box.dims);
    write_vtk();
  }
  const bool want_stats = !stats_path.empty();
  std::unique_ptr<StatsWriter> stats;
  auto stats_row = [&] {
    const std::vector<double> values = sim->observables();
    if (stats) stats->row(sim->step(), std::vector<StatsWriter::Value>(values.begin(), values.end()));
  };
  if (want_stats) {
    if (root) stats = std::make_unique<StatsWriter>(stats_path, sim->observable_names());
    stats_row();
  }

  Progress progress(root && vm["progress"].as<bool>(), steps, particles);
  const auto start = std::chrono::steady_clock::now();
  auto next_multiple = [&](std::uint64_t k) { return (sim->step() / k + 1) * k; };
  RunPacer pacer;
  int stopped_by = 0;
  {
    StopListener listening;  // the first SIGINT or SIGTERM ends the run after its chunk
    while (sim->step() < steps && !stopped_by) {
      std::uint64_t stop = std::min(steps, sim->step() + pacer.chunk());
      if (want_stats) stop = std::min(stop, next_multiple(every));
      if (want_vtk && vtk_every) stop = std::min(stop, next_multiple(vtk_every));
      const auto chunk_start = std::chrono::steady_clock::now();
      sim->advance(stop - sim->step());
      const double chunk_seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - chunk_start).count();
      if (want_stats && (sim->step() % every == 0 || sim->step() == steps)) stats_row();
      if (want_vtk && ((vtk_every && sim->step() % vtk_every == 0) || sim->step() == steps)) write_vtk();
      progress.update(sim->step());
      stopped_by = pacer.stop_after(chunk_seconds);
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  progress.finish();
  if (stopped_by && sim->step() < steps) {  // what the run has: statistics to this step, the snapshots taken
    if (want_stats && sim->step() % every != 0) stats_row();
    if (stats) stats->finish();
    if (vtk) vtk->finish();
    if (root)
      std::cerr << ("cellgraph run: stopped by " + std::string(signal_name(stopped_by)) + " after step " +
                    std::to_string(sim->step()) + " of " + std::to_string(steps) +
                    (want_stats ? "; wrote " + stats_path + " (statistics to step " + std::to_string(sim->step()) + ")"
                                : "") +
                    (want_vtk ? "; wrote " + vm["vtk"].as<std::string>() + ".pvd (the snapshots taken)" : "") +
                    (png_path.empty() ? "" : "; not written (final state): --png") + "\n");
    return 128 + stopped_by;
  }
  if (stats) stats->finish();
  if (vtk) vtk->finish();
  if (!png_path.empty()) {
    const std::vector<double> directions = !arrays.empty() && arrays[0].components == box.dims
                                               ? interleaved(*sim, arrays[0].first_variable, box.dims)
                                               : std::vector<double>{};
    const std::vector<double> positions = sim->positions();
    if (root) write_particle_png(png_path, positions, box.dims, directions, png_size);
  }
  const RebuildStats rebuilds = sim->rebuild_stats();  // before observables(), which may rebuild once more
  const std::vector<double> values = sim->observables();
  if (!root) return 0;

  std::cout << "ran " << steps << " steps of " << model.name << " on " << particles << " particles in a "
            << box_text(box) << " (r " << radius << ", skin " << movable.skin << ") on " << sim->backend_name()
            << " in " << seconds << " s";
  if (seconds > 0) std::cout << ": " << double(steps) / seconds << " steps/s";
  std::cout << "; " << rebuilds.rebuilds << " neighbor-list rebuilds (" << rebuilds.seconds << " s)";
  const std::vector<std::string> names = sim->observable_names();
  for (std::size_t i = 0; i < names.size() && i < values.size(); ++i) std::cout << "; " << names[i] << " " << values[i];
  std::cout << "\n";
  return 0;
}

}  // namespace cellgraph::cli
