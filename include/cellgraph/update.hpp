// How a step updates the cells, for any model:
//   synchronous         every cell at once, from the previous step's states (the default)
//   alpha-asynchronous  each cell updates with probability alpha, else keeps its state
//   colored             color classes of a proper coloring one after another, in place: a
//                       cell sees the new states of the classes before its own (asynchronous
//                       updating without conflicts, as Ising's Metropolis sweeps need)
#pragma once
#include <cstdint>
#include <string>

#include "cellgraph/hd.hpp"
#include "cellgraph/model.hpp"
#include "cellgraph/philox.hpp"

namespace cellgraph {

enum class UpdateMode { synchronous, alpha_asynchronous, colored };

struct UpdateRule {
  UpdateMode mode = UpdateMode::synchronous;
  double alpha = 1.0;  // alpha-asynchronous only
};

// "sync", "colored", "alpha:0.3" (0 < alpha <= 1). Throws Error for anything else.
UpdateRule parse_update_rule(const std::string& text);
std::string update_rule_text(const UpdateRule& rule);

// Alpha-asynchronous: does the cell with this user id update in this step?
CG_HD inline bool updates_this_step(double alpha, std::uint64_t seed, std::uint32_t vertex, std::uint32_t step) {
  return alpha >= 1.0 || CellRandom(seed, vertex, step, RandomStream::update_choice).bernoulli(alpha);
}

// A cell that does not update carries every variable over to the next buffer.
template <class Vars, int I = 0>
CG_HD inline void keep_cell(const CellRead<Vars>& self, CellWrite<Vars>& out) {
  if constexpr (I < Vars::count) {
    set<I>(out, get<I>(self));
    keep_cell<Vars, I + 1>(self, out);
  }
}

}  // namespace cellgraph
