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
enum class RandomStream : std::uint32_t {
  initial_fill = 0,
  model = 1,            // a model's own draws (CellContext::random())
  update_choice = 2,    // alpha-asynchronous updates: does the cell update this step?
  coloring = 3,         // priorities of the Jones-Plassmann / greedy coloring
  model_initial = 4,    // a model's further state variables at the start (cloud: vapor, activation)
  ensemble_member = 5,  // the seeds of an ensemble's members (ensemble.hpp)
};

// Four 32-bit words for one (seed, global vertex id, step, stream); `block` numbers further
// groups of four from the same key.
CG_HD inline Philox4x32 random_words(std::uint64_t seed, std::uint32_t vertex, std::uint32_t step, RandomStream stream,
                                     std::uint32_t block = 0) {
  Philox4x32 ctr{{vertex, step, static_cast<std::uint32_t>(stream), block}};
  return philox4x32_10(ctr, static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32));
}

// A uniform float in [0, 1) from the top 24 bits: exact, so every backend agrees.
CG_HD inline float uniform_float(std::uint32_t word) { return static_cast<float>(word >> 8) * (1.0f / 16777216.0f); }

// True with probability p, decided by integer comparison (no rounding differences).
CG_HD inline bool bernoulli(std::uint32_t word, double p) {
  if (p <= 0.0) return false;
  if (p >= 1.0) return true;
  return word < static_cast<std::uint32_t>(p * 4294967296.0);
}

// The random numbers of one cell update: an endless sequence of words keyed by (seed, vertex,
// step, stream), drawn four at a time. Every conversion is exact integer or power-of-two
// arithmetic, so CPU and GPU draw the same values.
class CellRandom {
 public:
  CG_HD CellRandom(std::uint64_t seed, std::uint32_t vertex, std::uint32_t step, RandomStream stream)
      : seed_(seed), vertex_(vertex), step_(step), stream_(stream) {}

  CG_HD std::uint32_t word() {
    if (used_ == 4) {
      words_ = random_words(seed_, vertex_, step_, stream_, block_++);
      used_ = 0;
    }
    return words_.v[used_++];
  }
  // Uniform in [0, 1) with 53 random bits: k * 2^-53.
  CG_HD double uniform() {
    const std::uint64_t hi = word() >> 5, lo = word() >> 6;  // 27 + 26 bits
    return static_cast<double>((hi << 26) | lo) * (1.0 / 9007199254740992.0);
  }
  CG_HD float uniform_float() { return cellgraph::uniform_float(word()); }
  // True with probability p (0 and 1 exactly).
  CG_HD bool bernoulli(double p) { return uniform() < p; }
  // Uniform in [0, n), n >= 1, without modulo bias (Lemire's multiply-and-reject).
  CG_HD std::uint32_t below(std::uint32_t n) {
    std::uint64_t m = static_cast<std::uint64_t>(word()) * n;
    if (static_cast<std::uint32_t>(m) < n) {
      const std::uint32_t threshold = (0u - n) % n;  // 2^32 mod n
      while (static_cast<std::uint32_t>(m) < threshold) m = static_cast<std::uint64_t>(word()) * n;
    }
    return static_cast<std::uint32_t>(m >> 32);
  }

 private:
  std::uint64_t seed_;
  std::uint32_t vertex_, step_;
  RandomStream stream_;
  std::uint32_t block_ = 0, used_ = 4;
  Philox4x32 words_{};
};

}  // namespace cellgraph
