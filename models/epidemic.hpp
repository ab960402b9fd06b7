// SIR and SIS epidemics on any graph. Each step, an infected cell transmits to each
// susceptible neighbor independently with probability beta (per contact), so a susceptible
// cell with k infected neighbors is infected with probability 1 - (1 - beta)^k. An infected
// cell recovers after a fixed infectious period of tau steps, or with probability gamma each
// step (a geometric period); SIR's recovered cells stay immune, SIS's are susceptible again.
#pragma once
#include <cstdint>

#include "cellgraph/exact_math.hpp"
#include "cellgraph/model.hpp"

namespace cellgraph::models {

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
  CG_HD void gather(Acc& infected, const CellRead<Vars>& neighbor, std::uint32_t) const {
    infected += get<0>(neighbor) == kInfected;
  }
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

}  // namespace cellgraph::models
