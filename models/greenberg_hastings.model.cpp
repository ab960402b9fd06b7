// The Greenberg-Hastings excitable medium (Greenberg and Hastings, SIAM J. Appl. Math. 34,
// 1978): a cartoon of nerve or heart tissue. A resting cell fires (becomes excited) when at
// least `threshold` of its neighbors are excited, or by itself with probability p; an excited
// cell is refractory for the next `refractory` steps, deaf to its neighbors, then rests again.
// A stimulus sends out a wave that cannot turn back; where waves meet they annihilate.
// This file is the whole model; docs/TUTORIAL_MODEL.md walks through it.
#include "models/model_api.hpp"

namespace cellgraph::models {
namespace {

struct GreenbergHastings {
  // State variables, one array each: the state, and how many steps a refractory cell has
  // been refractory before this one (0 in its first).
  using Vars = Variables<std::uint8_t, std::uint8_t>;
  // What a cell learns from its neighbors: how many of them are excited.
  using Acc = std::uint32_t;
  static constexpr std::uint8_t kResting = 0, kExcited = 1, kRefractory = 2;

  // Parameters: plain values, set by from_params; the struct is copied to the GPU as it is.
  std::uint32_t threshold = 1;   // excited neighbors that make a resting cell fire
  std::uint32_t refractory = 1;  // steps a cell stays refractory after firing
  double spontaneous = 0;        // p: probability that a resting cell fires by itself

  // Host side: what `cellgraph models` lists, and the model made from --param values.
  static constexpr const char* name = "greenberghastings";
  static constexpr const char* summary = "Greenberg-Hastings excitable medium: resting, excited, refractory";
  static std::vector<ParamInfo> params() {
    return {
        {"threshold", "1", "excited neighbors that make a resting cell fire"},
        {"refractory", "1", "steps a cell stays refractory after firing (1 to 255)"},
        {"p", "0", "probability that a resting cell fires by itself in a step"},
    };
  }
  static std::vector<std::string> state_names() { return {"resting", "excited", "refractory"}; }
  static GreenbergHastings from_params(const ParamReader& read) {
    GreenbergHastings model;
    model.threshold = read.whole("threshold", 1, 1000000);
    model.refractory = read.whole("refractory", 1, 255);
    model.spontaneous = read.number("p", 0, 1);
    return model;
  }

  // The rule, compiled for the CPU and the GPU alike.
  std::uint32_t num_states() const { return 3; }

  CG_HD Acc init() const { return 0; }
  CG_HD void gather(Acc& excited, const CellRead<Vars>& neighbor, std::uint32_t /*slot*/) const {
    excited += get<0>(neighbor) == kExcited;
  }
  CG_HD void combine(Acc& excited, const Acc& more) const { excited += more; }
  CG_HD void apply(const CellRead<Vars>& self, const Acc& excited, CellWrite<Vars>& out,
                   const CellContext& context) const {
    const std::uint8_t state = get<0>(self), steps = get<1>(self);  // read all before writing any
    std::uint8_t next = state, next_steps = 0;
    if (state == kResting) {
      // Random numbers only from context.random(): the same on every backend and thread count.
      if (excited >= threshold || (spontaneous > 0 && context.random().bernoulli(spontaneous))) next = kExcited;
    } else if (state == kExcited) {
      next = kRefractory;
    } else if (steps + 1u < refractory) {
      next_steps = std::uint8_t(steps + 1);
    } else {
      next = kResting;
    }
    set<0>(out, next);
    set<1>(out, next_steps);
  }
};

const bool registered = register_model(model_info<GreenbergHastings>());

}  // namespace
}  // namespace cellgraph::models
