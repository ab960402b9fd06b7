// Philox4x32-10 (Salmon et al., SC'11), counter-based: the same (key, counter) gives the same
// numbers on every backend, thread count and partitioning.
#pragma once
#include <cstdint>

#include "cellgraph/hd.hpp"

namespace cellgraph {

struct Philox4x32 {
  std::uint32_t v[4];
};

namespace detail {
CG_HD inline std::uint32_t mulhilo(std::uint32_t a, std::uint32_t b, std::uint32_t& hi) {
  std::uint64_t p = static_cast<std::uint64_t>(a) * b;
  hi = static_cast<std::uint32_t>(p >> 32);
  return static_cast<std::uint32_t>(p);
}
}  // namespace detail

CG_HD inline Philox4x32 philox4x32_10(Philox4x32 ctr, std::uint32_t k0, std::uint32_t k1) {
  for (int round = 0; round < 10; ++round) {
    std::uint32_t hi0, hi1;
    std::uint32_t lo0 = detail::mulhilo(0xD2511F53u, ctr.v[0], hi0);
    std::uint32_t lo1 = detail::mulhilo(0xCD9E8D57u, ctr.v[2], hi1);
    ctr = {{hi1 ^ ctr.v[1] ^ k0, lo1, hi0 ^ ctr.v[3] ^ k1, lo0}};
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return ctr;
}

// Streams keep independent uses of one (seed, vertex, step) apart.
enum class RandomStream : std::uint32_t { initial_fill = 0, model = 1 };

// Four 32-bit words for one (seed, global vertex id, step, stream).
CG_HD inline Philox4x32 random_words(std::uint64_t seed, std::uint32_t vertex, std::uint32_t step,
                                     RandomStream stream) {
  Philox4x32 ctr{{vertex, step, static_cast<std::uint32_t>(stream), 0u}};
  return philox4x32_10(ctr, static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32));
}

// A uniform float in [0, 1) from the top 24 bits: exact, so every backend agrees.
CG_HD inline float uniform_float(std::uint32_t word) {
  return static_cast<float>(word >> 8) * (1.0f / 16777216.0f);
}

// True with probability p, decided by integer comparison (no rounding differences).
CG_HD inline bool bernoulli(std::uint32_t word, double p) {
  if (p <= 0.0) return false;
  if (p >= 1.0) return true;
  return word < static_cast<std::uint32_t>(p * 4294967296.0);
}

}  // namespace cellgraph
