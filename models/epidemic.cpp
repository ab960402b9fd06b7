#include "models/epidemic.hpp"

#include "models/registry.hpp"

namespace cellgraph::models {
namespace {

const std::vector<ParamInfo> kEpidemicParams = {
    {"beta", "0.1", "per-contact transmission probability per step"},
    {"tau", "0", "fixed infectious period in steps (1..65535); 0: geometric, see gamma"},
    {"gamma", "0.1", "per-step recovery probability when tau is 0"},
};

ModelInfo epidemic_info(const std::string& name, bool immunity) {
  ModelInfo info;
  info.name = name;
  info.summary = immunity ? "SIR epidemic: susceptible, infected, recovered (immune)"
                          : "SIS epidemic: susceptible, infected, susceptible again";
  info.params = kEpidemicParams;
  info.state_names = immunity ? std::vector<std::string>{"S", "I", "R"} : std::vector<std::string>{"S", "I"};
  info.make = [name, immunity](const Params& params, std::shared_ptr<const Layout> layout,
                               const SimulationOptions& options) {
    const ParamReader read(name, params, kEpidemicParams);
    Epidemic model;
    model.escape = 1.0 - read.number("beta", 0, 1);
    model.period = read.whole("tau", 0, 65535);
    model.recovery = read.number("gamma", 0, 1);
    model.immunity = immunity;
    return make_simulation_for(model, std::move(layout), options);
  };
  return info;
}

}  // namespace

ModelInfo sir_model_info() { return epidemic_info("sir", true); }
ModelInfo sis_model_info() { return epidemic_info("sis", false); }

}  // namespace cellgraph::models
