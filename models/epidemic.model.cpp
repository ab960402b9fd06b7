// SIR and SIS epidemics on any graph. Each step, an infected cell transmits to each
// susceptible neighbor independently with probability beta (per contact), so a susceptible
// cell with k infected neighbors is infected with probability 1 - (1 - beta)^k. An infected
// cell recovers after a fixed infectious period of tau steps, or with probability gamma each
// step (a geometric period); SIR's recovered cells stay immune, SIS's are susceptible again.
#include "models/model_api.hpp"

namespace cellgraph::models {
namespace {

struct Epidemic {
  using Vars = Variables<std::uint8_t, std::uint16_t>;  // state; steps infected so far
  using Acc = std::uint32_t;                            // infected neighbors
  static constexpr std::uint8_t kSusceptible = 0, kInfected = 1, kRecovered = 2;

  double escape = 0.9;       // 1 - beta: one contact's chance not to transmit in a step
  std::uint32_t period = 0;  // tau, fixed infectious period in steps; 0: geometric
  double recovery = 0.1;     // gamma, per-step recovery probability (geometric period)
  bool immunity = true;      // SIR; false: SIS

  std::uint32_t num_states() const { return immunity ? 3 : 2; }

  CG_HD Acc init() const { return 0; }
  CG_HD bool signal(const CellRead<Vars>& cell) const { return get<0>(cell) == kInfected; }
  // With no infected cell, nothing is drawn and every other cell keeps its state and age 0.
  CG_HD bool active(const CellRead<Vars>& cell) const { return get<0>(cell) == kInfected || get<1>(cell) != 0; }
  CG_HD void gather(Acc& infected, bool neighbor_infected, std::uint32_t) const { infected += neighbor_infected; }
  CG_HD void combine(Acc& infected, const Acc& more) const { infected += more; }
  CG_HD void apply(const CellRead<Vars>& self, const Acc& infected, CellWrite<Vars>& out,
                   const CellContext& context) const {
    const std::uint8_t state = get<0>(self);
    const std::uint16_t age = get<1>(self);
    std::uint8_t next = state;
    std::uint16_t next_age = 0;
    if (state == kSusceptible) {
      if (infected && context.random().uniform() >= power(escape, infected)) next = kInfected;
    } else if (state == kInfected) {
      const std::uint32_t days = age + 1u;
      const bool recovers = period ? days >= period : context.random().bernoulli(recovery);
      if (recovers) next = immunity ? kRecovered : kSusceptible;
      else next_age = days < 0xFFFFu ? std::uint16_t(days) : std::uint16_t(0xFFFFu);
    }
    set<0>(out, next);
    set<1>(out, next_age);
  }
};

const std::vector<ParamInfo> kEpidemicParams = {
    {"beta", "0.1", "per-contact transmission probability per step"},
    {"tau", "0", "fixed infectious period in steps (1..65535); 0: geometric, see gamma"},
    {"gamma", "0.1", "per-step recovery probability when tau is 0"},
};

// One rule, two registry entries (written by hand: model_info<>() makes one per struct).
ModelInfo epidemic_info(const std::string& name, bool immunity) {
  ModelInfo info;
  info.name = name;
  info.summary = immunity ? "SIR epidemic: susceptible, infected, recovered (immune)"
                          : "SIS epidemic: susceptible, infected, susceptible again";
  info.params = kEpidemicParams;
  info.state_names = immunity ? std::vector<std::string>{"S", "I", "R"} : std::vector<std::string>{"S", "I"};
  info.sweep_traits = sweep_model_traits<Epidemic>();
  set_builders(info, [name, immunity](const Params& params, const Layout&, const SimulationOptions&) {
    const ParamReader read(name, params, kEpidemicParams);
    Epidemic model;
    model.escape = 1.0 - read.number("beta", 0, 1);
    model.period = read.whole("tau", 0, 65535);
    model.recovery = read.number("gamma", 0, 1);
    model.immunity = immunity;
    return BuiltModel<Epidemic>{model, nullptr};
  });
  return info;
}

const bool sir_registered = register_model(epidemic_info("sir", true));
const bool sis_registered = register_model(epidemic_info("sis", false));

}  // namespace
}  // namespace cellgraph::models
