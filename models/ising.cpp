#include "models/ising.hpp"

#include "models/registry.hpp"

namespace cellgraph::models {
namespace {

const std::vector<ParamInfo> kIsingParams = {
    {"T", "2.0", "temperature (k_B = 1); the square lattice orders below 2 / ln(1 + sqrt 2) = 2.269"},
    {"J", "1", "coupling: > 0 ferromagnetic, < 0 antiferromagnetic"},
    {"h", "0", "external field"},
    {"dynamics", "metropolis", "metropolis or glauber"},
};

}  // namespace

ModelInfo ising_model_info() {
  ModelInfo info;
  info.name = "ising";
  info.summary = "Ising model, Metropolis or Glauber dynamics; statistics add magnetization and energy per site";
  info.params = kIsingParams;
  info.state_names = {"down", "up"};
  info.default_update = {UpdateMode::colored, 1.0};
  info.make = [](const Params& params, std::shared_ptr<const Layout> layout, const SimulationOptions& options) {
    const ParamReader read("ising", params, kIsingParams);
    Ising model;
    model.inverse_temperature = 1.0 / read.number("T", 1e-9, 1e9);
    model.coupling = read.number("J", -1e9, 1e9);
    model.field = read.number("h", -1e9, 1e9);
    model.glauber = read.choice("dynamics", {"metropolis", "glauber"}) == 1;
    return make_simulation_for(model, std::move(layout), options);
  };
  return info;
}

}  // namespace cellgraph::models
