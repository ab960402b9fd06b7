// Life-like rules in B/S notation and Generations rules (dying states), on any graph: a cell
// counts its live neighbors (state 1), whatever their number. Probabilistic variant: each
// change of state the rule calls for happens with probability p (else the cell keeps its
// state).
#pragma once
#include <cstdint>
#include <string>

#include "cellgraph/dense/rule.hpp"  // the transition, shared with the dense kernels
#include "cellgraph/model.hpp"

namespace cellgraph::models {

struct LifeLike {
  using Vars = Variables<std::uint8_t>;
  using Acc = std::uint32_t;  // live neighbors

  std::uint64_t birth = 0;    // bit c: a dead cell with c live neighbors is born
  std::uint64_t survive = 0;  // bit c: a live cell with c live neighbors survives
  std::uint32_t states = 2;   // Generations: a live cell that does not survive dies through
                              // states 2 .. states-1; 2 for plain Life-like rules
  double probability = 1.0;   // p of a transition

  std::uint32_t num_states() const { return states; }

  CG_HD Acc init() const { return 0; }
  bool outer_totalistic() const { return probability >= 1.0; }
  CG_HD bool signal(const CellRead<Vars>& cell) const { return get<0>(cell) == 1; }  // live
  // Dead cells stay dead among dead neighbors, unless the rule has B0.
  CG_HD bool active(const CellRead<Vars>& cell) const { return get<0>(cell) != 0 || (birth & 1u); }
  CG_HD void gather(Acc& live, bool neighbor_live, std::uint32_t) const { live += neighbor_live; }
  CG_HD void combine(Acc& live, const Acc& more) const { live += more; }
  CG_HD void apply(const CellRead<Vars>& self, const Acc& live, CellWrite<Vars>& out,
                   const CellContext& context) const {
    const std::uint8_t s = get<0>(self);
    std::uint8_t next = dense::LifeRule{birth, survive, states}.next(s, live);
    if (probability < 1.0 && next != s && !context.random().bernoulli(probability)) next = s;
    set<0>(out, next);
  }
};

// Parses "B3/S23", "S23/B3", "23/3" (S/B), Generations "B2/S/C3", "/2/3", "345/3/6" (S/B/C),
// counts above 9 as comma lists ("B3,10/S2,3"), and names: life, highlife, seeds, daynight,
// briansbrain. Case-insensitive. Throws Error for anything else.
LifeLike parse_lifelike_rule(const std::string& text);

// Golly's spelling: "B3/S23", or "S/B/C" ("/2/3") for Generations rules.
std::string rule_string(const LifeLike& rule);

}  // namespace cellgraph::models
