// The cloud model's draws for the dense kernels: the model's own random words
// (models::cloud_step_words, cloud_initial_words) turned into lane masks and initial bits, so
// that the dense kernels and the graph engine draw alike.
#pragma once
#include <cstdint>

#include "cellgraph/dense/cloud_rule.hpp"
#include "cellgraph/philox.hpp"
#include "models/cloud.hpp"

namespace cellgraph::dense {

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
