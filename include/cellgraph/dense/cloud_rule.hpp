// The cloud model (models/cloud.hpp) in bit-sliced form for the dense kernels: a bit per cell
// and variable, lane i of a word one cell, every lane of a word stepped at once. Written once
// for 32-bit (GPU) and 64-bit (CPU) words (CG_HD). The test suite checks cloud_next against the
// model's apply for every cell state, neighborhood and draw.
#pragma once
#include <cstdint>

#include "cellgraph/hd.hpp"
#include "models/cloud.hpp"

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

// The draws of `lanes` cells from id `first` on at `step`, as lane masks: the model's words
// (models::cloud_step_words), compared as the model compares them.
template <class Word>
CG_HD inline void cloud_draw_masks(const CloudRule& rule, std::uint64_t seed, std::uint64_t first, int lanes,
                                   std::uint32_t step, Word& extinct, Word& humid, Word& active) {
  extinct = humid = active = 0;
  for (int b = 0; b < lanes; ++b) {
    const Philox4x32 words = models::cloud_step_words(seed, first + std::uint64_t(b), step);
    extinct |= Word(bernoulli(words.v[0], rule.extinction)) << b;
    humid |= Word(bernoulli(words.v[1], rule.vapor)) << b;
    active |= Word(bernoulli(words.v[2], rule.activation)) << b;
  }
}

// Cell `id`'s initial hum and act, as the model's initial_variables draws them.
struct CloudStart {
  bool hum, act;
};
CG_HD inline CloudStart cloud_initial(const CloudRule& rule, std::uint64_t seed, std::uint64_t id) {
  const Philox4x32 words = models::cloud_initial_words(seed, id);
  return {bernoulli(words.v[0], rule.hum0), bernoulli(words.v[1], rule.act0)};
}

}  // namespace cellgraph::dense
