// The cloud model's parameters, initial variables and registration (the rule: models/cloud.hpp).
#include "models/cloud.hpp"

#include "cellgraph/error.hpp"
#include "models/model_api.hpp"

namespace cellgraph::models {
namespace {

const std::vector<ParamInfo> kCloudParams = {
    {"hum0", "0.17", "initial density of vapor (hum): each cell humid with this probability, keyed by --seed"},
    {"act0", "0.001", "initial density of phase transition (act), drawn like hum0"},
    {"p_ext", "0", "probability per step that a cloudy cell clears (extinction)"},
    {"p_hum", "0", "probability per step that a cell gains vapor (vapor supply)"},
    {"p_act", "0", "probability per step that a cell becomes active (activation supply)"},
};

}  // namespace

CloudSettings read_cloud_params(const Params& params) {
  const ParamReader read("cloud", params, kCloudParams);
  CloudSettings s;
  s.model.extinction = read.number("p_ext", 0, 1);
  s.model.vapor = read.number("p_hum", 0, 1);
  s.model.activation = read.number("p_act", 0, 1);
  s.hum0 = read.number("hum0", 0, 1);
  s.act0 = read.number("act0", 0, 1);
  return s;
}

std::vector<std::vector<std::uint8_t>> cloud_initial_variables(const std::vector<std::uint32_t>& cld, double hum0,
                                                               double act0, std::uint64_t seed) {
  std::vector<std::vector<std::uint8_t>> variables(3, std::vector<std::uint8_t>(cld.size()));
  for (std::size_t id = 0; id < cld.size(); ++id) {
    if (cld[id] > 1)
      throw Error("initial state " + std::to_string(cld[id]) + " of vertex " + std::to_string(id) +
                  " is not a state of the cloud model (cld: 0 or 1)");
    const Philox4x32 words = cloud_initial_words(seed, id);
    variables[Cloud::kCld][id] = std::uint8_t(cld[id]);
    variables[Cloud::kHum][id] = bernoulli(words.v[0], hum0);
    variables[Cloud::kAct][id] = bernoulli(words.v[1], act0);
  }
  return variables;
}

namespace {

ModelInfo cloud_model_info() {
  ModelInfo info;
  info.name = "cloud";
  info.pictured_from_above = true;
  info.summary =
      "Dobashi et al. 2000 cloud growth: vapor (hum), phase transition (act), cloud (cld) bits; "
      "3D grids take the cloud neighborhood and open boundaries unless told otherwise; --fill sets "
      "the initial cld; statistics add the humid and active cells";
  info.params = kCloudParams;
  info.state_names = {"clear", "cloud"};
  info.variable_names = {"cld", "hum", "act"};
  info.grid_neighborhood = "cloud";
  info.grid_boundary = "open";
  set_builders(info, [](const Params& params, const Layout&, const SimulationOptions& options) {
    // Only act is read across the boundary; a boundary cell holds act = 0 whatever its cld.
    if (options.boundary_value != 0)
      throw Error("model cloud: the fixed boundary is clear air, fixed:0 (open), not fixed:" +
                  std::to_string(options.boundary_value));
    return BuiltModel<Cloud>{read_cloud_params(params).model, nullptr};
  });
  info.initial_variables = [](const Params& params, const std::vector<std::uint32_t>& cld, std::uint64_t seed) {
    const CloudSettings s = read_cloud_params(params);
    return cloud_initial_variables(cld, s.hum0, s.act0, seed);
  };
  return info;
}

const bool registered = register_model(cloud_model_info());

}  // namespace
}  // namespace cellgraph::models
