// The Drossel-Schwabl forest fire: a burning cell burns out (empty), a tree catches fire when
// a neighbor burns or, with probability f, from lightning, and an empty cell grows a tree with
// probability p.
#include "models/model_api.hpp"

namespace cellgraph::models {
namespace {

struct ForestFire {
  using Vars = Variables<std::uint8_t>;
  using Acc = std::uint32_t;  // burning neighbors
  static constexpr std::uint8_t kEmpty = 0, kTree = 1, kBurning = 2;

  double growth = 0.01;     // p
  double lightning = 1e-5;  // f

  static constexpr const char* name = "forestfire";
  static constexpr const char* summary = "Drossel-Schwabl forest fire: empty, tree, burning";
  static std::vector<ParamInfo> params() {
    return {
        {"p", "0.01", "probability that an empty cell grows a tree in a step"},
        {"f", "0.00001", "probability that lightning sets a tree on fire in a step"},
    };
  }
  static std::vector<std::string> state_names() { return {"empty", "tree", "burning"}; }
  static ForestFire from_params(const ParamReader& read) {
    ForestFire model;
    model.growth = read.number("p", 0, 1);
    model.lightning = read.number("f", 0, 1);
    return model;
  }

  std::uint32_t num_states() const { return 3; }

  CG_HD Acc init() const { return 0; }
  CG_HD bool signal(const CellRead<Vars>& cell) const { return get<0>(cell) == kBurning; }
  CG_HD void gather(Acc& burning, bool neighbor_burning, std::uint32_t) const { burning += neighbor_burning; }
  CG_HD void combine(Acc& burning, const Acc& more) const { burning += more; }
  CG_HD void apply(const CellRead<Vars>& self, const Acc& burning, CellWrite<Vars>& out,
                   const CellContext& context) const {
    const std::uint8_t state = get<0>(self);
    std::uint8_t next = kEmpty;
    if (state == kTree) next = burning || context.random().bernoulli(lightning) ? kBurning : kTree;
    else if (state == kEmpty) next = context.random().bernoulli(growth) ? kTree : kEmpty;
    set<0>(out, next);
  }
};

const bool registered = register_model(model_info<ForestFire>());

}  // namespace
}  // namespace cellgraph::models
