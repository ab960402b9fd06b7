// cellgraph perfmodel predict: "how long will my run take, and how many GPUs should I use?"
// From a fit file, for a source, a model and a step count: the time per step and in all on
// one GPU and on K (or each count up to --max-gpus, and the fastest). The split is the one a
// run would make: slabs of a grid (estimated from its shape, no grid is built), METIS parts of
// any other graph (partitioned here, as rank 0 of the run would).
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <optional>

#include "cellgraph/coloring.hpp"
#include "cellgraph/error.hpp"
#include "cellgraph/perfmodel.hpp"
#include "tools/cellgraph/perfmodel/commands.hpp"

namespace cellgraph::cli {
namespace {

namespace pm = perfmodel;

po::options_description predict_options() {
  po::options_description d("cellgraph perfmodel predict");
  d.add_options()("help,h", "show this help")("model-file", po::value<std::string>(),
                                              "the fit (written by `perfmodel fit --out`); required")(
      "steps", unsigned_value<std::uint64_t>(1000), "steps of the run")(
      "gpus", po::value<std::string>()->default_value("auto"),
      "GPUs (ranks, for a CPU fit) to predict for, or auto: every count up to --max-gpus, and the fastest")(
      "max-gpus", unsigned_value<std::uint32_t>(8), "the most GPUs --gpus auto considers")(
      "view", po::value<std::string>(), "cycles, bytes or two-term; default: the view the fit prefers")(
      "seed", unsigned_value<std::uint64_t>(1), "the run's seed (colored updates: the coloring)");
  d.add(source_options()).add(model_options()).add(layout_options()).add(partition_method_options());
  return d;
}

// A grid's shape without its graph, when the source is a plain grid (not a pattern).
std::optional<GridSpec> plain_grid(const SourceSpec& s) {
  if (s.grid.empty() || !s.pattern_file.empty()) return std::nullopt;
  GridSpec g;
  g.size = parse_grid_size(s.grid, &g.dims);
  g.stencil = parse_stencil(s.neighborhood, g.dims);
  g.boundary = parse_boundary(s.boundary);
  check_grid(g);
  return g;
}

// The GPU counts to predict for: 1, and K or (auto) every count up to --max-gpus; on a CPU fit
// at most one rank per core of the fitted host.
std::vector<std::uint32_t> gpu_counts(const po::variables_map& vm, const pm::FittedModel& f) {
  const std::string gpus = vm["gpus"].as<std::string>();
  std::vector<std::uint32_t> counts{1};
  if (gpus == "auto") {
    const std::uint32_t most = get_unsigned<std::uint32_t>(vm, "max-gpus");
    if (most == 0) throw Error("--max-gpus must be at least 1");
    for (std::uint32_t k = 2; k <= most; ++k) counts.push_back(k);
  } else {
    const std::uint64_t k = parse_count(gpus, "--gpus");
    if (k == 0 || k > 65536) throw Error("--gpus must be from 1 to 65536, or auto");
    if (k > 1) counts.push_back(std::uint32_t(k));
  }
  const std::uint32_t cores = f.machine.sm_count ? f.machine.sm_count : f.machine.threads;
  if (f.machine.backend != "cuda" && counts.back() > cores) {
    if (gpus != "auto")
      throw Error("a CPU fit predicts at most one rank per core of its host (" + std::to_string(cores) + ")");
    while (counts.back() > cores) counts.pop_back();
  }
  return counts;
}

// What is predicted: the model and update as the fit names them, what the fit knows of its
// state, and the machine; the source's columns are filled in by describe_source.
pm::Measurement base_row(const pm::FittedModel& f, const models::ModelInfo& info, const models::Params& params,
                         const std::string& update) {
  pm::ModelSpec spec;
  spec.name = info.name;
  spec.params.assign(params.begin(), params.end());
  pm::Measurement base;
  base.model = f.resolve_model(spec.key(), update);
  base.update = update;
  const pm::GroupFit* known = f.shared_group(base.model, base.update);
  for (const pm::GroupFit& g : f.groups)
    if (!known && g.model == base.model && g.update == base.update) known = &g;
  base.state_bytes = known->state_bytes;
  base.variables = known->variables;
  base.backend = f.machine.backend;
  base.device = f.machine.device;
  base.cache_bytes = f.machine.cache_bytes;
  return base;
}

// The source a prediction is for: a plain grid from its shape alone (`grid`), anything else
// loaded (once, when first needed) and compiled.
struct Target {
  SourceSpec requested;
  std::optional<GridSpec> grid;
  std::optional<Source> loaded;
  bool colored = false;  // a colored update: its classes counted on the layout
  std::string description, colors_note;
  double stored = 0;  // the lists' bytes per cell, as 4-byte indices (stored_indices)

  const Graph& graph() {
    if (!loaded) loaded = load_source(requested);
    return loaded->graph;
  }
};

// A grid's launches, depth and gathers: of a slab of the grid, whole along the fastest axis, of
// about 2^20 cells and at least 8 cells along the others (a plane alone would read itself across
// the cut); a grid's coloring and reads hardly depend on its size.
void describe_grid(Target& t, pm::Measurement& base, const CompileOptions& compile_opts, std::uint64_t seed,
                   std::uint32_t multiprocessors) {
  const GridSpec& grid = *t.grid;
  const bool colored = t.colored;
  base.cells = grid.cell_count();
  base.kind = "grid";
  t.description = "grid " + t.requested.grid + " " + t.requested.neighborhood + " " + t.requested.boundary;
  GridSpec sample = grid;
  for (int a = sample.dims - 1; a > 0 && sample.cell_count() > (1u << 20); --a) {
    const std::int64_t over = std::max<std::int64_t>(1, std::int64_t(sample.cell_count() >> 20));
    sample.size[a] = std::max(std::min<std::int64_t>(8, sample.size[a]), sample.size[a] / over);
  }
  const Layout sampled = compile(build_grid_graph(sample), compile_opts);
  // The lists' bytes per cell as the slab stores them (stencil slices inside, deltas or ids at
  // the ends of rows); a fixed or reflective edge weighs a little more in the slab than in the grid.
  t.stored = double(pm::stored_indices(sampled)) / double(sampled.num_vertices);
  std::optional<ColorClasses> classes;
  if (colored) {
    classes = color_classes(sampled, greedy_coloring(sampled, seed));
    if (sample.cell_count() < grid.cell_count()) t.colors_note = " (the classes counted on a slab of the grid)";
  }
  // The packing rule on the whole grid: its cells, the sample's span (the same rows).
  const bool scattered = gathers_scattered(grid.cell_count(), median_gather_span(sampled));
  const SweepPlan plan = pm::step_plan(sampled, sweep_traits(base.model), colored, SignalPacking::automatic, scattered);
  pm::record_shape(base,
                   pm::step_shape(sampled, classes ? &*classes : nullptr, pm::gather_path(plan, multiprocessors)));
}

// Any other source: loaded and compiled, for its bytes per cell (padding included), the step's
// depth and gathers.
void describe_graph(Target& t, pm::Measurement& base, const CompileOptions& compile_opts, std::uint64_t seed,
                    std::uint32_t multiprocessors) {
  const Graph& g = t.graph();
  const bool colored = t.colored;
  base.cells = g.num_vertices();
  base.kind = pm::layout_kind(g, compile_opts);
  const Layout layout = compile(g, compile_opts);
  t.stored = double(pm::stored_indices(layout)) / double(base.cells);
  t.description = t.loaded->description;
  if (colored) {
    const ColorClasses classes = color_classes(layout, greedy_coloring(layout, seed));
    pm::record_shape(
        base, pm::step_shape(layout, &classes, pm::gather_path(pm::step_plan(layout, {}, true), multiprocessors)));
  } else {
    pm::record_shape(
        base, pm::step_shape(layout, nullptr,
                             pm::gather_path(pm::step_plan(layout, sweep_traits(base.model), false), multiprocessors)));
  }
}

// A split of a graph into k METIS parts, as a run splits it: its largest part, halo and peers,
// boundary and sends, and the busiest part's work (each part compiled, as a run compiles it).
pm::PartShape graph_split(Target& t, const pm::Measurement& base, std::uint32_t k,
                          const PartitionOptions& partition_opts, const CompileOptions& compile_opts,
                          std::uint32_t multiprocessors) {
  const Graph& g = t.graph();
  const std::vector<std::uint32_t> partition = partition_graph(g, k, partition_opts);
  const PartitionReport r = partition_report(g, partition, k);
  pm::PartShape shape{*std::max_element(r.vertices.begin(), r.vertices.end()),
                      *std::max_element(r.halo.begin(), r.halo.end()),
                      *std::max_element(r.peers.begin(), r.peers.end())};
  shape.boundary_share = r.boundary_share();
  shape.send_cells_max = r.sends_max();
  if (t.colored) {  // the busiest part's bytes: its entries stored as the whole graph stores them
    const double stored_per_entry = g.num_entries() ? t.stored * double(base.cells) / double(g.num_entries()) : 0;
    for (std::uint32_t p = 0; p < k; ++p)
      shape.bytes_max = std::max(
          shape.bytes_max,
          pm::step_bytes(double(r.vertices[p]), stored_per_entry * double(r.entries[p]), base.state_bytes, true));
  } else {  // its bytes, depth and gathers (measure's)
    std::vector<Layout> layouts;
    for (std::uint32_t p = 0; p < k; ++p) layouts.push_back(compile_part(g, partition, k, p, compile_opts));
    shape.bytes_max = pm::busiest_part_bytes(layouts, base.state_bytes);
    shape.parts = pm::part_works(layouts, sweep_traits(base.model), multiprocessors);
    shape.step = pm::busiest_part_shape(shape.parts, shape.cells_max);
  }
  return shape;
}

// The split into K parts for every count: slabs of a grid from its shape (block partitions),
// else the graph partitioned.
std::vector<pm::Split> splits_for(Target& t, const pm::Measurement& base, const std::vector<std::uint32_t>& counts,
                                  const po::variables_map& vm, const CompileOptions& compile_opts,
                                  std::uint32_t multiprocessors) {
  Source probe;  // partition_options_from only asks whether the source is a grid
  if (t.grid || (t.loaded && t.loaded->grid)) probe.grid.emplace();
  const PartitionOptions partition_opts = partition_options_from(vm, probe);
  std::vector<pm::Split> splits;
  for (std::uint32_t k : counts) {
    if (k > base.cells) throw Error(std::to_string(k) + " GPUs for " + std::to_string(base.cells) + " cells");
    pm::Split split{k, {base.cells, 0, 0}};
    if (k > 1) {
      std::optional<pm::PartShape> shape;
      if (t.grid && partition_opts.method == PartitionMethod::block) shape = pm::grid_slab_estimate(*t.grid, k);
      if (!shape) shape = graph_split(t, base, k, partition_opts, compile_opts, multiprocessors);
      split.shape = *shape;
    }
    splits.push_back(split);
  }
  return splits;
}

// The table of predictions, per GPU count, and the answer: the fastest count (auto) or K.
// Returns the answer's index.
std::size_t print_predictions(const pm::FittedModel& f, const pm::Measurement& base, const Target& t,
                              const std::vector<pm::Split>& splits, const std::vector<pm::Prediction>& p, pm::View view,
                              const po::variables_map& vm) {
  const bool gpu = f.machine.backend == "cuda";
  const std::string unit = gpu ? "GPU" : "rank";
  const std::uint64_t steps = get_unsigned<std::uint64_t>(vm, "steps");
  const bool automatic = vm["gpus"].as<std::string>() == "auto";
  std::cout << "perfmodel predict: " << base.model << " (" << base.update << ") on " << t.description << ": "
            << base.cells << " cells, " << three_digits(base.bytes_per_cell) << " B/cell, layout kind " << base.kind
            << "\n"
            << "fit " << vm["model-file"].as<std::string>() << ": " << f.machine.backend << " on " << f.machine.device
            << ", " << pm::view_name(view) << " view, constants of " << p[0].basis
            << (f.exchange ? ", the machine's exchange" : "") << "\n";
  std::cout << "step: " << base.launches << (base.launches > 1 ? " launches" : " launch") << ", depth "
            << three_digits(base.depth) << " (the longest chain of neighbor entries a thread walks)"
            << (t.colored ? "; colored: " + std::to_string(base.exchanges) +
                                " classes, an exchange after each on several " + unit + "s"
                          : "")
            << (base.packs_signals() ? "; one-bit signals packed first (a pass of their own)" : "") << t.colors_note
            << "\n";
  if (gpu) std::cout << "(several GPUs: one per rank, as `mpirun -np K cellgraph run` places them)\n";
  else
    std::cout << "(ranks share the host's " << (f.machine.sm_count ? f.machine.sm_count : f.machine.threads)
              << " cores as runs do, cores / ranks threads each; a thread at the fitted cost of one)\n";
  std::cout << std::setw(6) << (gpu ? "gpus" : "ranks") << std::setw(13) << "cells/part" << std::setw(11) << "halo/part"
            << std::setw(7) << "peers" << std::setw(14) << "compute ms" << std::setw(13) << "exchange ms"
            << std::setw(12) << "ms/step" << std::setw(12) << "total s" << std::setw(10) << "speed-up"
            << "\n";
  for (std::size_t i = 0; i < p.size(); ++i)
    std::cout << std::setw(6) << splits[i].ranks << std::setw(13) << splits[i].shape.cells_max << std::setw(11)
              << splits[i].shape.halo_max << std::setw(7) << splits[i].shape.peers_max << std::setw(14)
              << three_digits(p[i].compute * 1e3) << std::setw(13) << three_digits(p[i].exchange * 1e3) << std::setw(12)
              << three_digits(p[i].seconds_per_step * 1e3) << std::setw(12)
              << three_digits(p[i].seconds_per_step * double(steps)) << std::setw(9)
              << three_digits(p[0].seconds_per_step / p[i].seconds_per_step) << "x\n";
  if (splits.size() > 1 && !p.back().exchange_fitted)
    std::cout << "note: the fit has no partitioned timings, so the exchange is left out and more " << unit
              << "s always look faster\n";
  const std::size_t best = automatic ? pm::fastest(p) : p.size() - 1;
  std::cout << (automatic ? "best: " : "prediction: ") << splits[best].ranks << " " << unit
            << (splits[best].ranks > 1 ? "s" : "") << ", " << three_digits(p[best].seconds_per_step * 1e3)
            << " ms per step, " << three_digits(p[best].seconds_per_step * double(steps)) << " s for " << steps
            << " steps";
  if (best > 0)
    std::cout << " (" << three_digits(p[0].seconds_per_step / p[best].seconds_per_step) << "x one " << unit << ")";
  std::cout << "\n";
  return best;
}

// How far to trust the answer (a fit with a [cross_validation] section): the spread of its kind
// of run (layout, update, one or several GPUs) where the fit has it, else of every row.
void print_trust(const pm::FittedModel& f, pm::Measurement answered, std::uint32_t ranks, double seconds) {
  const std::optional<pm::ErrorSummary>& whole = f.cross_validation;
  if (!whole) return;
  const std::string unit = f.machine.backend == "cuda" ? "GPU" : "rank";
  answered.ranks = ranks;
  const pm::RunKind run = pm::run_kind_of(answered);
  const pm::ErrorSummary* own = f.errors_of_kind(run);
  const pm::ErrorSummary& c = own ? *own : *whole;
  std::cout << "how far to trust it: leaving each of the fit's " << whole->sources
            << " sources out in turn, 90% of the " << c.rows << " rows"
            << (own ? " of this kind (" + pm::describe_run(run, unit) + ")" : "") << " were predicted within "
            << three_digits(100 * c.p90) << "% (half within " << three_digits(100 * c.median) << "%): here "
            << three_digits(seconds / (1 + c.p90)) << " to " << three_digits(seconds / std::max(1e-9, 1 - c.p90))
            << " s\n";
}

}  // namespace

int perfmodel_predict(const Args& args) {
  po::variables_map vm;
  if (!parse_perfmodel_options(args, predict_options(), nullptr,
                               "usage: cellgraph perfmodel predict --model-file FIT SOURCE [--model M --param ...] "
                               "[--steps S] [--gpus K|auto] [--max-gpus 8]",
                               vm))
    return 0;
  if (!vm.count("model-file")) throw Error("--model-file FIT is required (written by `cellgraph perfmodel fit --out`)");
  const pm::FittedModel f = pm::read_fit(vm["model-file"].as<std::string>());
  const pm::View view = vm.count("view") ? pm::parse_view(vm["view"].as<std::string>()) : f.preferred;
  const std::uint64_t seed = get_unsigned<std::uint64_t>(vm, "seed");
  const std::vector<std::uint32_t> counts = gpu_counts(vm, f);

  const models::ModelInfo& info = models::find_model(vm["model"].as<std::string>());
  const models::Params params = model_params(vm);
  const UpdateRule update = update_rule(vm, info);
  const bool colored = update.mode == UpdateMode::colored;
  pm::Measurement base = base_row(f, info, params, update_rule_text(update));
  const std::uint32_t multiprocessors = f.machine.backend == "cuda" ? f.machine.sm_count : 0;  // a GPU step's L1s
  Target t;
  t.colored = colored;
  t.requested = source_spec(vm, &info);
  const CompileOptions compile_opts = compile_options(vm);
  t.grid = plain_grid(t.requested);
  if (t.grid) describe_grid(t, base, compile_opts, seed, multiprocessors);
  else describe_graph(t, base, compile_opts, seed, multiprocessors);
  base.bytes_per_cell = pm::step_bytes(1, t.stored, base.state_bytes, colored);
  if (colored) base.exchanges = base.launches;  // a partitioned colored step exchanges after each class

  const std::vector<pm::Split> splits = splits_for(t, base, counts, vm, compile_opts, multiprocessors);
  const std::vector<pm::Prediction> p = pm::predict_splits(f, base, splits, view);
  const std::size_t best = print_predictions(f, base, t, splits, p, view, vm);
  print_trust(f, base, splits[best].ranks, p[best].seconds_per_step * double(get_unsigned<std::uint64_t>(vm, "steps")));
  return 0;
}

}  // namespace cellgraph::cli
