// The graph engine behind the dense Automaton interface, so that `compare` and the tests run
// it beside the dense kernels like any of them. It is the reference: the grid becomes the
// slotted graph of source/grid.hpp, compiled, and stepped by the registered lifelike model.
#include "cellgraph/error.hpp"
#include "cellgraph/layout.hpp"
#include "cellgraph/source/grid.hpp"
#include "cellgraph/source/source.hpp"
#include "dense/automata.hpp"
#include "models/lifelike.hpp"
#include "models/registry.hpp"

namespace cellgraph::dense {
namespace {

GridSpec grid_spec(const GridShape& shape) {
  GridSpec spec;
  spec.dims = shape.dims;
  spec.size = {shape.size[0], shape.size[1], shape.size[2]};
  spec.stencil =
      shape.neighborhood == Neighborhood::moore ? moore_stencil(shape.dims, 1) : von_neumann_stencil(shape.dims, 1);
  spec.boundary.kind = shape.edge == Edge::periodic ? BoundaryKind::periodic
                       : shape.edge == Edge::fixed  ? BoundaryKind::fixed
                                                    : BoundaryKind::reflective;
  spec.boundary.value = shape.edge_value;
  return spec;
}

class GraphEngine final : public Automaton {
 public:
  GraphEngine(Device device, const GridShape& shape, const LifeRule& rule, int threads) : shape_(shape) {
    const GridSpec spec = grid_spec(shape);
    check_grid(spec);
    auto layout = std::make_shared<const Layout>(compile(build_grid_graph(spec)));
    SimulationOptions options;
    options.backend = device == Device::cpu ? BackendKind::cpu : BackendKind::cuda;
    options.boundary_value = shape.edge == Edge::fixed ? shape.edge_value : 0;
    options.threads = threads;
    sim_ = models::find_model("lifelike").make({{"rule", rule_text(rule)}}, std::move(layout), options);
    bytes_per_update_ = 2.0 + double(sim_->layout().index_bytes()) / double(sim_->layout().num_vertices);
  }

  std::string name() const override { return "graph engine (" + sim_->backend_name() + ")"; }
  const GridShape& shape() const override { return shape_; }
  void advance(std::uint64_t steps) override { sim_->advance(steps); }
  std::uint64_t step() const override { return sim_->step() - first_step_; }
  void fill_random(std::uint64_t seed, double density) override {
    sim_->set_states(random_fill(sim_->layout().num_vertices, density, seed));
    first_step_ = sim_->step();
  }
  void set_states(const std::vector<std::uint8_t>& states) override {
    check_states(states, shape_, sim_->num_states());
    sim_->set_states(std::vector<std::uint32_t>(states.begin(), states.end()));
    first_step_ = sim_->step();
  }
  std::vector<std::uint8_t> states() const override {
    const std::vector<std::uint32_t> s = sim_->states();
    return std::vector<std::uint8_t>(s.begin(), s.end());
  }
  std::uint64_t hash() const override { return states_hash(sim_->states()); }
  std::uint64_t population() const override {
    const std::vector<std::uint64_t> census = sim_->census();
    std::uint64_t live = 0;
    for (std::size_t s = 1; s < census.size(); ++s) live += census[s];
    return live;
  }
  // Own state read and written plus every stored neighbor index, as `cellgraph bench` counts.
  double bytes_per_update() const override { return bytes_per_update_; }

 private:
  GridShape shape_;
  std::unique_ptr<Simulation> sim_;
  std::uint64_t first_step_ = 0;  // Simulation counts on across set_states
  double bytes_per_update_ = 0;
};

}  // namespace

std::unique_ptr<Automaton> make_graph_automaton(Device device, const GridShape& shape, const LifeRule& rule,
                                                int threads) {
  if (shape.cell_count() > kMaxVertices)
    throw Error("the graph engine holds at most " + std::to_string(kMaxVertices) + " cells; this grid has " +
                std::to_string(shape.cell_count()));
  return std::make_unique<GraphEngine>(device, shape, rule, threads);
}

LifeRule parse_life_rule(const std::string& text) {
  const models::LifeLike model = models::parse_lifelike_rule(text);
  return LifeRule{model.birth, model.survive, model.states};
}

std::string rule_text(const LifeRule& rule) {
  models::LifeLike model;
  model.birth = rule.birth;
  model.survive = rule.survive;
  model.states = rule.states;
  return models::rule_string(model);
}

}  // namespace cellgraph::dense
