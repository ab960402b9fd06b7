// Outer totalistic rules of two states (Life-like), as the backends that count neighbors
// without the model's fold see them: the fast CPU walk, and the CUDA ensemble's multi-spin
// coding (one bit a member).
#pragma once
#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "cellgraph/layout.hpp"
#include "cellgraph/model.hpp"

namespace cellgraph {

// The longest list of an ordinary (not hub) vertex: the largest count an ordinary fold reaches.
inline std::uint32_t widest_ordinary_list(const Layout& L) {
  std::uint32_t widest = 0;
  for (std::uint32_t s = L.num_hub_vertices() / kSliceWidth; s < L.num_slices(); ++s)
    widest = std::max(widest, L.slice_width[s]);
  return widest;
}

// Whether the model's fold counts its neighbors' signals: init() is 0 and gather(a, bit, slot)
// is a + bit for every count a below `counts` and every slot below `slots`.
template <class Model>
bool fold_counts_signals(const Model& model, std::uint32_t counts, std::uint32_t slots) {
  if constexpr (HasSignal<Model>::value && !InitsFromSelf<Model>::value) {
    using Acc = typename Model::Acc;
    if (model.init() != Acc(0)) return false;
    for (std::uint32_t a = 0; a < counts; ++a)
      for (std::uint32_t slot = 0; slot < slots; ++slot)
        for (bool bit : {false, true}) {
          Acc folded = Acc(a);
          model.gather(folded, bit, slot);
          if (folded != Acc(a + bit)) return false;
        }
    return true;
  } else {
    return false;
  }
}

// apply()'s next state of a cell in `state` with a fold of `count`, for a model of one one-byte
// variable whose rule is outer totalistic (model.hpp).
template <class Model>
std::uint32_t outer_totalistic_next(const Model& model, std::uint32_t state, std::uint32_t count) {
  using Vars = typename Model::Vars;
  using State = typename Vars::template type<0>;
  State self = State(state), out = 0;
  const StateRef<Vars> self_ref{{&self}}, out_ref{{&out}};
  CellWrite<Vars> write{out_ref, 0};
  model.apply(CellRead<Vars>{self_ref, 0}, typename Model::Acc(count), write, CellContext{});
  return out;
}

// A rule whose cells are 0 or 1, whose signal is the state, and whose next state is a function
// of the state and the count of live neighbors alone: born[c] (survives[c]) is the next state
// of a cell in state 0 (1) with c live neighbors, for c up to the largest degree.
struct TwoStateRule {
  std::vector<std::uint8_t> born, survives;
};

// The model's rule as a TwoStateRule for counts up to max_count, or nothing where the model is
// not such a rule. Folds (gather, and combine of hubs' partial counts) are checked for counts
// and slots up to 1,024 (beyond, a fold that counts everywhere below is taken to count: slots
// are stencil offsets or list positions).
template <class Model>
std::optional<TwoStateRule> two_state_rule(const Model& model, std::uint32_t max_count) {
  if constexpr (HasOuterTotalistic<Model>::value && HasSignal<Model>::value &&
                sizeof(typename Model::Vars::template type<0>) == 1) {
    using Vars = typename Model::Vars;
    using State = typename Vars::template type<0>;
    if (!model.outer_totalistic() || model.num_states() != 2) return std::nullopt;
    const std::uint32_t checked = std::min<std::uint32_t>(max_count + 1, 1024);
    if (!fold_counts_signals(model, checked, checked)) return std::nullopt;
    for (std::uint32_t a = 0; a < checked; ++a)  // hubs' partial counts are combined
      for (std::uint32_t b = 0; a + b < checked; ++b) {
        typename Model::Acc sum = typename Model::Acc(a);
        model.combine(sum, typename Model::Acc(b));
        if (sum != typename Model::Acc(a + b)) return std::nullopt;
      }
    for (State s : {State(0), State(1)}) {
      const StateRef<Vars> self{{&s}};
      if (bool(model.signal(CellRead<Vars>{self, 0})) != bool(s)) return std::nullopt;
    }
    TwoStateRule rule;
    rule.born.resize(std::size_t(max_count) + 1);
    rule.survives.resize(rule.born.size());
    for (std::uint32_t state : {0u, 1u})
      for (std::uint32_t count = 0; count <= max_count; ++count) {
        const std::uint32_t next = outer_totalistic_next(model, state, count);
        if (next > 1) return std::nullopt;
        (state ? rule.survives : rule.born)[count] = std::uint8_t(next);
      }
    return rule;
  } else {
    (void)model;
    (void)max_count;
    return std::nullopt;
  }
}

}  // namespace cellgraph
