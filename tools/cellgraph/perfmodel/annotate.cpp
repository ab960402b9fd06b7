// cellgraph perfmodel annotate: the launches, depth, gather and parts columns of timings measured
// before `measure` recorded them (or by an older model), reconstructed as `measure` computes them
// (the signal packing taken as automatic: the CSV does not record --signal-bits). A row's source
// label names what `measure` built (grid:DIMSxDIMS:NEIGHBORHOOD periodic, a generator with its
// fixed seed, a file), so its layout is compiled again with the given layout options and its
// coloring taken with --seed (measure's default 1); each source is checked against the row's
// cells and bytes per cell, and a row that does not match is an error. A synchronous partitioned
// row is split again with the partition options given, each part compiled; a row whose split
// differs (its largest part or halo) is left alone, and said so. Colored partitioned rows are
// left alone.
#include <chrono>
#include <cmath>
#include <iostream>
#include <map>
#include <optional>

#include "cellgraph/coloring.hpp"
#include "cellgraph/error.hpp"
#include "cellgraph/output/atomic_file.hpp"
#include "cellgraph/perfmodel.hpp"
#include "tools/cellgraph/perfmodel/commands.hpp"

namespace cellgraph::cli {
namespace {

namespace pm = perfmodel;

SourceSpec source_from_label(const std::string& label) {
  SourceSpec spec;
  const std::string kind = label.substr(0, label.find(':'));
  const std::string rest = label.size() > kind.size() + 1 ? label.substr(kind.size() + 1) : "";
  if (rest.empty()) throw Error("source " + quoted_text(label) + " is not one that `perfmodel measure` writes");
  if (kind == "grid") {
    const auto colon = rest.find(':');
    if (colon == std::string::npos) throw Error("source " + quoted_text(label) + ": expected grid:DIMS:NEIGHBORHOOD");
    spec.grid = rest.substr(0, colon);
    spec.neighborhood = rest.substr(colon + 1);
    spec.boundary = "periodic";
  } else if (kind == "rgg" || kind == "er" || kind == "rmat") {
    spec.generator = label;
  } else if (kind == "graph") {
    spec.graph_file = rest;
  } else if (kind == "mesh") {
    spec.mesh_file = rest;
  } else {
    throw Error("source " + quoted_text(label) + " is not one that `perfmodel measure` writes");
  }
  return spec;
}

// One-rank rows: each source built and compiled again, checked against its rows (cells, layout
// kind, bytes per cell), and its step's shape recorded in each row as `measure` records it.
// Returns the rows annotated.
std::size_t annotate_one_rank(std::vector<pm::Measurement>& rows, const CompileOptions& compile_opts,
                              std::uint64_t seed) {
  std::vector<std::string> order;  // sources in the order of their first row
  std::map<std::string, std::vector<pm::Measurement*>> by_source;
  for (pm::Measurement& m : rows)
    if (m.ranks == 1) {
      if (!by_source.count(m.source)) order.push_back(m.source);
      by_source[m.source].push_back(&m);
    }
  std::size_t annotated = 0;
  for (const std::string& label : order) {
    std::vector<pm::Measurement*>& list = by_source[label];
    std::optional<Layout> layout;
    std::optional<ColorClasses> classes;
    // By the gather path's inputs: the model's signal and the row's multiprocessors (0: a CPU).
    std::map<std::pair<bool, std::uint32_t>, pm::StepShape> sync_shapes;
    std::map<std::uint32_t, pm::StepShape> colored_shapes;
    {
      const Source source = load_source(source_from_label(label));
      if (source.graph.num_vertices() != list[0]->cells)
        throw Error(list[0]->origin + ": " + label + " builds " + std::to_string(source.graph.num_vertices()) +
                    " cells, the row has " + std::to_string(list[0]->cells));
      if (pm::layout_kind(source.graph, compile_opts) != list[0]->kind)
        throw Error(list[0]->origin + ": " + label + " compiles to a layout of kind " +
                    pm::layout_kind(source.graph, compile_opts) + ", the row has " + list[0]->kind +
                    " (other layout options?)");
      layout.emplace(compile(source.graph, compile_opts));
    }
    const double stored = double(pm::stored_indices(*layout)) / double(layout->num_vertices);
    for (pm::Measurement* m : list) {
      const bool colored = m->update == "colored";
      // The layout measured: the row's bytes per cell, as measure counts them.
      const double bytes = pm::step_bytes(1, stored, m->state_bytes, colored);
      if (std::abs(bytes - m->bytes_per_cell) > 1e-6 * m->bytes_per_cell)
        throw Error(m->origin + ": " + label + " compiles to " + three_digits(bytes) + " bytes per cell, the row has " +
                    three_digits(m->bytes_per_cell) + " (other layout options?)");
      const std::uint32_t multiprocessors = m->backend == "cuda" ? m->sm_count : 0;
      if (colored && !colored_shapes.count(multiprocessors)) {
        if (!classes) classes = color_classes(*layout, greedy_coloring(*layout, seed));
        colored_shapes[multiprocessors] =
            pm::step_shape(*layout, &*classes, pm::gather_path(pm::step_plan(*layout, {}, true), multiprocessors));
      }
      const SweepModelTraits traits = sweep_traits(m->model);
      const std::pair<bool, std::uint32_t> path{!colored && traits.gathers_signal, multiprocessors};
      if (!colored && !sync_shapes.count(path))
        sync_shapes[path] =
            pm::step_shape(*layout, nullptr, pm::gather_path(pm::step_plan(*layout, traits, false), multiprocessors));
      const pm::StepShape& shape = colored ? colored_shapes.at(multiprocessors) : sync_shapes.at(path);
      pm::record_shape(*m, shape);
      ++annotated;
    }
    const pm::StepShape& first = sync_shapes.empty() ? colored_shapes.begin()->second : sync_shapes.begin()->second;
    std::cout << label << ": " << layout->num_vertices << " cells, depth " << three_digits(first.depth) << ", gathers "
              << three_digits(first.gathers) << " (" << three_digits(first.missed_gathers) << " past the L1)"
              << (colored_shapes.empty() ? std::string()
                                         : ", colored " + std::to_string(colored_shapes.begin()->second.launches) +
                                               " classes, depth " + three_digits(colored_shapes.begin()->second.depth))
              << "\n"
              << std::flush;
  }
  return annotated;
}

// Synchronous partitioned rows: the source split again as measure split it (the partition
// options given), each part compiled; a row whose largest part or halo differs is left alone.
// Its busiest part's depth, gathers (the most a part reads, per cell of the largest part) and
// bytes, as measure records them. Returns the rows annotated.
std::size_t annotate_partitioned(std::vector<pm::Measurement>& rows, const po::variables_map& vm,
                                 const CompileOptions& compile_opts) {
  std::map<std::pair<std::string, std::uint32_t>, std::vector<pm::Measurement*>> by_split;
  for (pm::Measurement& m : rows)
    if (m.ranks > 1 && m.update == "sync") by_split[{m.source, m.ranks}].push_back(&m);
  std::size_t annotated = 0;
  for (auto& [key, list] : by_split) {
    const auto& [label, parts] = key;
    const Source source = load_source(source_from_label(label));
    const Graph& g = source.graph;
    const std::vector<std::uint32_t> partition = partition_graph(g, parts, partition_options_from(vm, source));
    const PartitionReport r = partition_report(g, partition, parts);
    const std::uint64_t cells_max = *std::max_element(r.vertices.begin(), r.vertices.end());
    const std::uint64_t halo_max = *std::max_element(r.halo.begin(), r.halo.end());
    if (cells_max != list[0]->part_cells_max || halo_max != list[0]->halo_cells_max) {
      std::cout << label << " on " << parts << " parts: left alone (this split's largest part and halo, " << cells_max
                << " and " << halo_max << ", are not the row's " << list[0]->part_cells_max << " and "
                << list[0]->halo_cells_max << ": other partition options?)\n";
      continue;
    }
    for (pm::Measurement* m : list) m->boundary_share = r.boundary_share(), m->send_cells_max = r.sends_max();
    std::vector<Layout> layouts;
    for (std::uint32_t p = 0; p < parts; ++p) layouts.push_back(compile_part(g, partition, parts, p, compile_opts));
    std::map<std::pair<bool, std::uint32_t>, std::vector<pm::PartWork>> works;  // by signal and multiprocessors
    for (pm::Measurement* m : list) {
      const std::uint32_t multiprocessors = m->backend == "cuda" ? m->sm_count : 0;
      const SweepModelTraits traits = sweep_traits(m->model);
      const std::pair<bool, std::uint32_t> path{traits.gathers_signal, multiprocessors};
      if (!works.count(path)) works[path] = pm::part_works(layouts, traits, multiprocessors);
      pm::record_shape(*m, pm::busiest_part_shape(works.at(path), cells_max));
      m->parts = works.at(path);
      m->part_bytes_max = pm::busiest_part_bytes(layouts, m->state_bytes);
      ++annotated;
    }
    std::cout << label << " on " << parts << " parts: busiest part's gathers " << three_digits(list[0]->gathers) << " ("
              << three_digits(list[0]->missed_gathers) << " past the L1) a cell of the largest part\n"
              << std::flush;
  }
  return annotated;
}

}  // namespace

int perfmodel_annotate(const Args& args) {
  po::options_description d("cellgraph perfmodel annotate");
  d.add_options()("help,h", "show this help")("timings", po::value<std::vector<std::string>>(),
                                              "CSV file(s) of `perfmodel measure` (the positional arguments)")(
      "out", po::value<std::string>(),
      "the CSV to write, every one-rank row with launches, depth, gathers and missed "
      "gathers, and every synchronous partitioned row whose split the partition options "
      "rebuild (the same largest part and halo) with those of its busiest part (required)")(
      "seed", unsigned_value<std::uint64_t>(1),
      "the seed the timings were measured with (colored updates: the coloring)");
  d.add(layout_options()).add(partition_method_options());
  po::variables_map vm;
  if (!parse_perfmodel_options(args, d, "timings", "usage: cellgraph perfmodel annotate TIMINGS.csv... --out CSV", vm))
    return 0;
  if (!vm.count("timings")) throw Error("no timings: name the CSV file(s) that `cellgraph perfmodel measure` wrote");
  if (!vm.count("out")) throw Error("--out FILE is required (the annotated CSV)");
  const std::uint64_t seed = get_unsigned<std::uint64_t>(vm, "seed");
  const CompileOptions compile_opts = compile_options(vm);
  std::vector<pm::Measurement> rows;
  for (const std::string& path : vm["timings"].as<std::vector<std::string>>()) {
    std::vector<pm::Measurement> more = pm::read_measurements(path);
    rows.insert(rows.end(), more.begin(), more.end());
  }
  AtomicFile out(vm["out"].as<std::string>());
  const auto start = std::chrono::steady_clock::now();
  std::size_t annotated = annotate_one_rank(rows, compile_opts, seed), partitioned = rows.size() - annotated;
  const std::size_t split = annotate_partitioned(rows, vm, compile_opts);
  partitioned -= split;
  annotated += split;
  out.stream() << pm::csv_header() << "\n";
  for (const pm::Measurement& m : rows) out.stream() << pm::csv_row(m) << "\n";
  out.commit();
  std::cout << "wrote " << vm["out"].as<std::string>() << ": " << annotated << " rows annotated"
            << (partitioned ? ", " + std::to_string(partitioned) + " partitioned rows left without" : std::string())
            << " in " << std::lround(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count())
            << " s\n";
  return 0;
}

}  // namespace cellgraph::cli
