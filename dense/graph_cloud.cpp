// The graph engine running the cloud model behind the dense Automaton interface: the reference
// the bit-packed cloud kernels are checked against. The grid becomes the slotted graph of the
// cloud stencil (source/grid.hpp), compiled and stepped by the registered cloud model; its three variables
// cross the interface as cloud codes (cld + 2 hum + 4 act).
#include "cellgraph/error.hpp"
#include "cellgraph/layout.hpp"
#include "cellgraph/source/grid.hpp"
#include "cellgraph/source/source.hpp"
#include "dense/automata.hpp"
#include "models/cloud.hpp"
#include "models/registry.hpp"

namespace cellgraph::dense {
namespace {

class GraphCloud final : public Automaton {
 public:
  GraphCloud(Device device, const GridShape& shape, const CloudRule& rule, int threads) : shape_(shape), rule_(rule) {
    GridSpec spec;
    spec.dims = 3;
    spec.size = {shape.size[0], shape.size[1], shape.size[2]};
    spec.stencil = cloud_stencil();
    spec.boundary.kind = shape.edge == Edge::periodic ? BoundaryKind::periodic
                         : shape.edge == Edge::fixed  ? BoundaryKind::fixed
                                                      : BoundaryKind::reflective;
    layout_ = std::make_shared<const Layout>(compile(build_grid_graph(spec)));
    options_.backend = device == Device::cpu ? BackendKind::cpu : BackendKind::cuda;
    options_.threads = threads;
    params_ = {{"p_ext", models::number_text(rule.extinction)},
               {"p_hum", models::number_text(rule.vapor)},
               {"p_act", models::number_text(rule.activation)}};
    restart(0, std::vector<std::vector<std::uint8_t>>(3, std::vector<std::uint8_t>(shape.cell_count(), 0)));
  }

  std::string name() const override { return "graph engine, cloud model (" + sim_->backend_name() + ")"; }
  const GridShape& shape() const override { return shape_; }
  void advance(std::uint64_t steps) override { sim_->advance(steps); }
  std::uint64_t step() const override { return sim_->step(); }
  void fill_random(std::uint64_t seed, double density) override {
    const std::vector<std::uint32_t> cld = random_fill(layout_->num_vertices, density, seed);
    restart(seed, models::cloud_initial_variables(cld, rule_.hum0, rule_.act0, seed));
  }
  void set_states(const std::vector<std::uint8_t>& states) override {
    check_cloud_states(states, shape_);
    std::vector<std::vector<std::uint8_t>> variables(3, std::vector<std::uint8_t>(states.size()));
    for (std::size_t id = 0; id < states.size(); ++id) {
      variables[models::Cloud::kCld][id] = states[id] & 1;
      variables[models::Cloud::kHum][id] = states[id] >> 1 & 1;
      variables[models::Cloud::kAct][id] = states[id] >> 2 & 1;
    }
    restart(options_.seed, variables);
  }
  std::vector<std::uint8_t> states() const override {
    const std::vector<std::vector<std::uint8_t>> v = sim_->export_state();
    std::vector<std::uint8_t> codes(shape_.cell_count());
    for (std::size_t id = 0; id < codes.size(); ++id)
      codes[id] = cloud_code(v[models::Cloud::kCld][id], v[models::Cloud::kHum][id], v[models::Cloud::kAct][id]);
    return codes;
  }
  std::uint64_t hash() const override { return states_hash(states()); }
  std::uint64_t population() const override {
    std::uint64_t cells = 0;
    for (std::uint8_t code : states()) cells += code != 0;
    return cells;
  }
  // Own three bytes read and written plus the stored neighbor lists, as `cellgraph bench` counts.
  double bytes_per_update() const override {
    return 6.0 + double(layout_->index_bytes()) / double(layout_->num_vertices);
  }

 private:
  // A fresh simulation keyed by `seed` (its step draws) from these variables, at step 0.
  void restart(std::uint64_t seed, const std::vector<std::vector<std::uint8_t>>& variables) {
    options_.seed = seed;
    sim_ = models::find_model("cloud").make(params_, layout_, options_);
    sim_->import_state(variables, 0);
  }

  GridShape shape_;
  CloudRule rule_;
  models::Params params_;  // the registered cloud model's: the rates, exactly (number_text)
  std::shared_ptr<const Layout> layout_;
  SimulationOptions options_;
  std::unique_ptr<Simulation> sim_;
};

}  // namespace

std::unique_ptr<Automaton> make_graph_cloud_automaton(Device device, const GridShape& shape, const CloudRule& rule,
                                                      int threads) {
  if (std::string reason = cloud_unsupported_reason(shape); !reason.empty())
    throw Error("the graph engine cannot run the cloud model here: " + reason);
  if (shape.cell_count() > kMaxVertices)
    throw Error("the graph engine holds at most " + std::to_string(kMaxVertices) + " cells; this grid has " +
                std::to_string(shape.cell_count()));
  return std::make_unique<GraphCloud>(device, shape, rule, threads);
}

}  // namespace cellgraph::dense
