// The cloud model (models/cloud.hpp) in bit-sliced form for the dense kernels: a bit per cell
// and variable, lane i of a word one cell, every lane of a word stepped at once. Written once
// for 32-bit (GPU) and 64-bit (CPU) words (CG_HD). The test suite checks cloud_next against the
// model's apply for every cell state, neighborhood and draw. The draws, which are the model's
// own random words, are in dense/cloud_draws.hpp.
#pragma once
#include <cstdint>

#include "cellgraph/hd.hpp"

namespace cellgraph::dense {

struct CloudRule {
  double extinction = 0, vapor = 0, activation = 0;  // p_ext, p_hum, p_act per step
  double hum0 = 0, act0 = 0;                         // initial densities of hum and act

  CG_HD bool stochastic() const { return extinction > 0 || vapor > 0 || activation > 0; }
};

// A cell's three bits as one byte, the dense automata's state: cld + 2 hum + 4 act (so the
// byte's bit 0 is variable 0, what the graph engine's census and pictures see).
CG_HD inline std::uint8_t cloud_code(std::uint32_t cld, std::uint32_t hum, std::uint32_t act) {
  return std::uint8_t(cld | hum << 1 | act << 2);
}

template <class Word>
struct CloudWords {
  Word hum, act, cld;
};

// Dobashi et al.'s step on every lane: growth, then extinction and supply. `near`: lanes with
// an active neighbor (f_act); `extinct`, `humid`, `active`: lanes whose draw came out.
template <class Word>
CG_HD inline CloudWords<Word> cloud_next(CloudWords<Word> c, Word near, Word extinct, Word humid, Word active) {
  return {(c.hum & ~c.act) | humid, (~c.act & c.hum & near) | active, (c.cld | c.act) & ~extinct};
}

}  // namespace cellgraph::dense
