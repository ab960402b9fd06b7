// cellgraph perfmodel predict: "how long will my run take, and how many GPUs should I use?"
// From a fit file, for a source, a model and a step count: the time per step and in all on
// one GPU and on K (or each count up to --max-gpus, and the fastest). The split is the one a
// run would make: slabs of a grid (estimated from its shape, no grid is built), METIS parts of
// any other graph (partitioned here, as rank 0 of the run would).
#include <iomanip>
#include <iostream>

#include "cellgraph/coloring.hpp"
#include "cellgraph/error.hpp"
#include "cellgraph/perfmodel.hpp"
#include "src/cli/perfmodel_cli.hpp"

namespace cellgraph::cli {
namespace {

namespace pm = perfmodel;

po::options_description predict_options() {
  po::options_description d("cellgraph perfmodel predict");
  d.add_options()("help,h", "show this help")(
      "model-file", po::value<std::string>(), "the fit (written by `perfmodel fit --out`); required")(
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
  const std::uint64_t steps = get_unsigned<std::uint64_t>(vm, "steps"), seed = get_unsigned<std::uint64_t>(vm, "seed");
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

  const bool gpu = f.machine.backend == "cuda";
  const std::uint32_t cores = f.machine.sm_count ? f.machine.sm_count : f.machine.threads;
  if (!gpu && counts.back() > cores) {
    if (gpus != "auto") throw Error("a CPU fit predicts at most one rank per core of its host (" + std::to_string(cores) + ")");
    while (counts.back() > cores) counts.pop_back();
  }

  // The model as the fit names it, and what the fit knows of its state.
  const models::ModelInfo& info = models::find_model(vm["model"].as<std::string>());
  const models::Params params = model_params(vm);
  pm::ModelSpec spec;
  spec.name = info.name;
  spec.params.assign(params.begin(), params.end());
  const UpdateRule update_mode = update_rule(vm, info);
  const std::string update = update_rule_text(update_mode);
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
  const bool colored = update_mode.mode == UpdateMode::colored;
  const std::uint32_t multiprocessors = gpu ? f.machine.sm_count : 0;  // the L1s a GPU step's gathers go through

  // The source: a plain grid from its shape alone; anything else loaded and compiled.
  const SourceSpec requested = source_spec(vm, &info);
  const CompileOptions compile_opts = compile_options(vm);
  const std::optional<GridSpec> grid = plain_grid(requested);
  std::optional<Source> loaded;
  auto graph = [&]() -> const Graph& {
    if (!loaded) loaded = load_source(requested);
    return loaded->graph;
  };
  std::string description, colors_note;
  double stored = 0;  // neighbor indices stored per cell, padding included
  if (grid) {
    base.cells = grid->cell_count();
    base.kind = "grid";
    stored = double(grid->stencil.size());  // grids compile without padding
    description = "grid " + requested.grid + " " + requested.neighborhood + " " + requested.boundary;
    // Its launches, depth and gathers: of a slab of the grid, whole along the fastest axis, of
    // about 2^20 cells and at least 8 cells along the others (a plane alone would read itself
    // across the cut); a grid's coloring and reads hardly depend on its size.
    GridSpec sample = *grid;
    for (int a = sample.dims - 1; a > 0 && sample.cell_count() > (1u << 20); --a) {
      const std::int64_t over = std::max<std::int64_t>(1, std::int64_t(sample.cell_count() >> 20));
      sample.size[a] = std::max(std::min<std::int64_t>(8, sample.size[a]), sample.size[a] / over);
    }
    const Layout sampled = compile(build_grid_graph(sample), compile_opts);
    std::optional<ColorClasses> classes;
    if (colored) {
      classes = color_classes(sampled, greedy_coloring(sampled, seed));
      if (sample.cell_count() < grid->cell_count()) colors_note = " (the classes counted on a slab of the grid)";
    }
    // The packing rule on the whole grid: its cells, the sample's span (the same rows).
    const bool scattered = gathers_scattered(grid->cell_count(), median_gather_span(sampled));
    const pm::StepShape shape = pm::step_shape(
        sampled, classes ? &*classes : nullptr,
        pm::gather_path(scattered, !colored && gathers_signal(base.model), colored, multiprocessors));
    pm::record_shape(base, shape);
  } else {
    const Graph& g = graph();
    base.cells = g.num_vertices();
    base.kind = pm::layout_kind(g, compile_opts);
    const Layout layout = compile(g, compile_opts);
    stored = double(layout.neighbors.size()) / double(base.cells);
    description = loaded->description;
    pm::StepShape shape;
    if (colored) {
      const ColorClasses classes = color_classes(layout, greedy_coloring(layout, seed));
      shape = pm::step_shape(layout, &classes, pm::gather_path(false, false, true, multiprocessors));
    } else {
      shape = pm::step_shape(layout, nullptr,
                             pm::gather_path(gathers_scattered(layout), gathers_signal(base.model), false, multiprocessors));
    }
    pm::record_shape(base, shape);
  }
  base.bytes_per_cell = pm::step_bytes(1, stored, base.state_bytes, colored);
  if (colored) base.exchanges = base.launches;  // a partitioned colored step exchanges after each class

  // The split into K parts for every count.
  Source probe;  // partition_options_from only asks whether the source is a grid
  if (grid || (loaded && loaded->grid)) probe.grid.emplace();
  const PartitionOptions partition_opts = partition_options_from(vm, probe);
  std::vector<pm::Split> splits;
  for (std::uint32_t k : counts) {
    if (k > base.cells) throw Error(std::to_string(k) + " GPUs for " + std::to_string(base.cells) + " cells");
    pm::Split split{k, {base.cells, 0, 0}};
    if (k > 1) {
      std::optional<pm::PartShape> shape;
      if (grid && partition_opts.method == PartitionMethod::block) shape = pm::grid_slab_estimate(*grid, k);
      if (!shape) {
        const Graph& g = graph();
        const std::vector<std::uint32_t> partition = partition_graph(g, k, partition_opts);
        const PartitionReport r = partition_report(g, partition, k);
        shape = pm::PartShape{*std::max_element(r.vertices.begin(), r.vertices.end()),
                              *std::max_element(r.halo.begin(), r.halo.end()),
                              *std::max_element(r.peers.begin(), r.peers.end())};
        shape->boundary_share = r.boundary_share();
        shape->send_cells_max = r.sends_max();
        if (colored) {  // the busiest part's bytes: its entries stored as the whole graph stores them
          const double stored_per_entry = g.num_entries() ? stored * double(base.cells) / double(g.num_entries()) : 0;
          for (std::uint32_t p = 0; p < k; ++p)
            shape->bytes_max = std::max(shape->bytes_max, pm::step_bytes(double(r.vertices[p]),
                                                                         stored_per_entry * double(r.entries[p]),
                                                                         base.state_bytes, colored));
        } else {  // each part compiled, as a run compiles it: its bytes, depth and gathers (measure's)
          std::vector<Layout> layouts;
          for (std::uint32_t p = 0; p < k; ++p) layouts.push_back(compile_part(g, partition, k, p, compile_opts));
          shape->bytes_max = pm::busiest_part_bytes(layouts, base.state_bytes);
          shape->parts = pm::part_works(layouts, gathers_signal(base.model), multiprocessors);
          shape->step = pm::busiest_part_shape(shape->parts, shape->cells_max);
        }
      }
      split.shape = *shape;
    }
    splits.push_back(split);
  }
  const std::vector<pm::Prediction> p = pm::predict_splits(f, base, splits, view);

  const std::string unit = gpu ? "GPU" : "rank";
  std::cout << "perfmodel predict: " << base.model << " (" << update << ") on " << description << ": " << base.cells
            << " cells, " << three_digits(base.bytes_per_cell) << " B/cell, layout kind " << base.kind << "\n"
            << "fit " << vm["model-file"].as<std::string>() << ": " << f.machine.backend << " on " << f.machine.device << ", "
            << pm::view_name(view) << " view, constants of " << p[0].basis
            << (f.exchange ? ", the machine's exchange" : "") << "\n";
  std::cout << "step: " << base.launches << (base.launches > 1 ? " launches" : " launch") << ", depth "
            << three_digits(base.depth) << " (the longest chain of neighbor entries a thread walks)"
            << (colored ? "; colored: " + std::to_string(base.exchanges) + " classes, an exchange after each on several " + unit + "s" : "")
            << (base.packs_signals() ? "; one-bit signals packed first (a pass of their own)" : "") << colors_note << "\n";
  if (gpu)
    std::cout << "(several GPUs: one per rank, as `mpirun -np K cellgraph run` places them)\n";
  else
    std::cout << "(ranks share the host's " << cores << " cores as runs do, cores / ranks threads each; a thread at the "
              << "fitted cost of one)\n";
  std::cout << std::setw(6) << (gpu ? "gpus" : "ranks") << std::setw(13) << "cells/part" << std::setw(11) << "halo/part"
            << std::setw(7) << "peers" << std::setw(14) << "compute ms" << std::setw(13) << "exchange ms" << std::setw(12)
            << "ms/step" << std::setw(12) << "total s" << std::setw(10) << "speed-up" << "\n";
  for (std::size_t i = 0; i < p.size(); ++i)
    std::cout << std::setw(6) << splits[i].ranks << std::setw(13) << splits[i].shape.cells_max << std::setw(11)
              << splits[i].shape.halo_max << std::setw(7) << splits[i].shape.peers_max << std::setw(14)
              << three_digits(p[i].compute * 1e3) << std::setw(13) << three_digits(p[i].exchange * 1e3) << std::setw(12)
              << three_digits(p[i].seconds_per_step * 1e3) << std::setw(12)
              << three_digits(p[i].seconds_per_step * double(steps)) << std::setw(9)
              << three_digits(p[0].seconds_per_step / p[i].seconds_per_step) << "x\n";
  if (counts.size() > 1 && !p.back().exchange_fitted)
    std::cout << "note: the fit has no partitioned timings, so the exchange is left out and more "
              << unit << "s always look faster\n";
  const std::size_t best = gpus == "auto" ? pm::fastest(p) : p.size() - 1;
  std::cout << (gpus == "auto" ? "best: " : "prediction: ") << splits[best].ranks << " " << unit
            << (splits[best].ranks > 1 ? "s" : "") << ", " << three_digits(p[best].seconds_per_step * 1e3) << " ms per step, "
            << three_digits(p[best].seconds_per_step * double(steps)) << " s for " << steps << " steps";
  if (best > 0) std::cout << " (" << three_digits(p[0].seconds_per_step / p[best].seconds_per_step) << "x one " << unit << ")";
  std::cout << "\n";
  if (const std::optional<pm::ErrorSummary>& whole = f.cross_validation) {
    // The spread of this kind of run (layout, update, one or several GPUs) where the fit has it.
    pm::Measurement answered = base;
    answered.ranks = splits[best].ranks;
    const pm::RunKind run = pm::run_kind_of(answered);
    const pm::ErrorSummary* own = f.errors_of_kind(run);
    const pm::ErrorSummary& c = own ? *own : *whole;
    const double t = p[best].seconds_per_step * double(steps);
    std::cout << "how far to trust it: leaving each of the fit's " << whole->sources << " sources out in turn, 90% of the "
              << c.rows << " rows" << (own ? " of this kind (" + pm::describe_run(run, unit) + ")" : "")
              << " were predicted within " << three_digits(100 * c.p90) << "% (half within " << three_digits(100 * c.median)
              << "%): here " << three_digits(t / (1 + c.p90)) << " to " << three_digits(t / std::max(1e-9, 1 - c.p90)) << " s\n";
  }
  return 0;
}

}  // namespace cellgraph::cli
