// cellgraph compile: what the compiler makes of a source.
#include <iomanip>
#include <iostream>

#include "cellgraph/sweep_plan.hpp"
#include "tools/cellgraph/cli.hpp"

namespace cellgraph::cli {
namespace {

// The choices the CUDA backend makes for a whole-graph run of the model on this layout: the
// plan it would run (plan_sweeps), on this machine's GPU or, without one, a reference H200's.
void print_sweep_plan(const po::variables_map& vm, const Layout& layout) {
  const models::ModelInfo& model = models::find_model(vm["model"].as<std::string>());
  SimulationOptions options = simulation_options(vm);
  options.update = update_rule(vm, model);
  const DeviceTraits device = cuda_device_traits().value_or(reference_device_traits());
  const SweepPlan plan = plan_sweeps(layout, model.sweep_traits, options, device);
  std::cout << "  sweep plan        " << model.name << " on " << device.name << "\n";
  for (const auto& [name, value] : plan_fields(plan))
    std::cout << "    " << std::left << std::setw(20) << name << std::right << value << "\n";
}

}  // namespace

int compile_command(const Args& args) {
  po::options_description d("cellgraph compile");
  d.add_options()("help,h", "show this help")("config", po::value<std::string>(), "INI file of these options")(
      "report", po::bool_switch(),
      "also print the degree histogram, the memory of each table, and the CUDA backend's sweep plan for --model "
      "(on this machine's GPU, or an H200's where there is none)");
  d.add(source_options()).add(layout_options()).add(model_options()).add(backend_options());
  po::variables_map vm;
  if (!parse_options(args, d, "usage: cellgraph compile SOURCE [--report]", vm)) return 0;

  // The model's grid defaults shape the source, as in run (ising: von Neumann).
  Source source = load_source(source_spec(vm, &models::find_model(vm["model"].as<std::string>())));
  const Layout layout = compile(source.graph, compile_options(vm));
  const LayoutReport r = report(layout);
  std::cout << source.description << "\n"
            << "  vertices          " << r.vertices << "\n"
            << "  list entries      " << r.edges << (layout.slotted ? " (grid slots)" : " (each edge twice)") << "\n"
            << "  degree            " << r.min_degree << " .. " << r.max_degree << "\n"
            << "  slices of 32      " << r.slices << " (" << r.hub_slices << " hub slices, " << r.hub_vertices
            << " hub vertices of degree >= " << layout.hub_degree << ", " << r.giant_hubs
            << " giant hubs of degree >= " << layout.giant_degree << ")\n"
            << "  stored entries    " << r.stored << "\n"
            << "  index encoding    " << r.slices_by_encoding[0] << " explicit slices (4 B an entry), "
            << r.slices_by_encoding[1] << " delta slices (2 B), " << r.slices_by_encoding[2] << " stencil slices ("
            << r.stencils << (r.stencils == 1 ? " stencil" : " distinct stencils") << ", no entries)\n"
            << "  index bytes       " << std::fixed << std::setprecision(2) << r.index_bytes_per_vertex
            << " per vertex (" << r.entries_by_encoding[0] * 4 + r.entries_by_encoding[1] * 2 << " B of slice entries, "
            << layout.stencil_offsets.size() * 4 << " B of stencils)\n"
            << "  padding overhead  " << std::fixed << std::setprecision(2) << 100.0 * r.padding_overhead << " %\n"
            << "  gather span       " << median_gather_span(layout)
            << " cells (median over slices of the cells one slice reads"
            << (source.graph.coord_dim ? "; --order rcm or hilbert narrow it for a graph numbered poorly"
                                       : "; --order rcm narrows it for a graph numbered poorly")
            << ")\n";
  if (vm["report"].as<bool>()) {
    std::cout << "  layout bytes      " << r.bytes << "\n"
              << "  degree histogram" << (r.histogram_bucketed ? " (powers of two: [d, 2d))" : "") << "\n";
    for (auto [degree, count] : r.degree_histogram)
      std::cout << "    " << std::setw(10) << degree << "  " << count << "\n";
    print_sweep_plan(vm, layout);
  }
  return 0;
}

int models_command(const Args& args) {
  po::options_description d("cellgraph models");
  d.add_options()("help,h", "show this help");
  po::variables_map vm;
  if (!parse_options(args, d, "usage: cellgraph models", vm)) return 0;
  for (const models::ModelInfo& m : models::registered_models()) {
    std::cout << m.name << "\n  " << m.summary << "\n";
    if (!m.state_names.empty()) {
      std::cout << "  states:";
      for (std::size_t s = 0; s < m.state_names.size(); ++s)
        std::cout << " " << s << " " << m.state_names[s] << (s + 1 < m.state_names.size() ? "," : "\n");
    }
    std::cout << "  update (default): " << update_rule_text(m.default_update) << "\n";
    // A grid's stencil and boundary where the model names its own (run --neighborhood, --boundary).
    if (!m.grid_neighborhood.empty() || !m.grid_boundary.empty()) {
      std::cout << "  grid (default):";
      if (!m.grid_neighborhood.empty()) std::cout << " neighborhood " << m.grid_neighborhood;
      if (!m.grid_boundary.empty())
        std::cout << (m.grid_neighborhood.empty() ? "" : ",") << " boundary " << m.grid_boundary;
      std::cout << "\n";
    }
    for (const models::ParamInfo& p : m.params)
      std::cout << "  " << p.name << (p.default_value.empty() ? "" : " (default " + p.default_value + ")") << ": "
                << p.help << "\n";
  }
  return 0;
}

}  // namespace cellgraph::cli
