// The rules the dense grid kernels run, written once for the CPU and the GPU (CG_HD).
// LifeRule::next is the Life-like transition on a bare (state, live count) pair, which
// models::LifeLike::apply calls too: the rule is written once for both engines.
#pragma once
#include <cstdint>

#include "cellgraph/hd.hpp"

namespace cellgraph::dense {

// Life-like and Generations rules: state 1 is live, 2 .. states-1 are dying, only state 1
// counts as a live neighbor.
struct LifeRule {
  std::uint64_t birth = 0;    // bit c: a dead cell with c live neighbors is born
  std::uint64_t survive = 0;  // bit c: a live cell with c live neighbors survives
  std::uint32_t states = 2;

  // Without branches on the state, which a soup's cells would mispredict half the time.
  CG_HD std::uint8_t next(std::uint8_t state, std::uint32_t live) const {
    const std::uint64_t count_bit = live < 64 ? std::uint64_t(1) << live : 0;
    const std::uint8_t born = (birth & count_bit) != 0;
    const std::uint8_t from_live = (survive & count_bit) ? 1 : (states > 2 ? 2 : 0);
    const std::uint8_t dying = state + 1u < states ? std::uint8_t(state + 1) : 0;
    return state == 0 ? born : state == 1 ? from_live : dying;
  }
  bool two_state() const { return states == 2; }
  bool is_conway() const { return states == 2 && birth == (1u << 3) && survive == ((1u << 2) | (1u << 3)); }
};

// Wolfram's elementary automata (rules 0-255) on a 1D row of 0/1 cells: bit 4l + 2c + r of
// the rule number is the next state of a cell c between l and r.
struct ElementaryRule {
  std::uint8_t number = 30;

  CG_HD std::uint8_t next(std::uint8_t left, std::uint8_t centre, std::uint8_t right) const {
    return (number >> (4 * left + 2 * centre + right)) & 1u;
  }
};

}  // namespace cellgraph::dense
