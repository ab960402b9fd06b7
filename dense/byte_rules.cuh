// The rules of the byte GPU kernel, applied to four cells in a 32-bit word: `live4` gives 1 in
// each byte whose cell counts as live, `next4` the next states from the states and the live
// neighbor counts (a count per byte, 0..8). Two-state rules by byte permutes, any Life-like or
// Generations rule by a table in shared memory filled from LifeRule::next.
#pragma once
#include <cstdint>

#include "cellgraph/dense/rule.hpp"

namespace cellgraph::dense::cuda {

constexpr int kMaxCount = 9;  // count bytes go up to 8; the table keeps a spare column
constexpr int kRuleTableSize = 256 * (kMaxCount + 1);

// The rule as a (state, count) table in shared memory, entry 10 * state + count, filled from
// LifeRule::next: any Life-like or Generations rule, a byte lookup per cell.
struct TableRule {
  const std::uint8_t* table;

  // 1 in each byte whose state is 1 (the only state that counts).
  __device__ __forceinline__ std::uint32_t live4(std::uint32_t cells) const {
    return __vcmpeq4(cells, 0x01010101u) & 0x01010101u;
  }
  __device__ __forceinline__ std::uint32_t next4(std::uint32_t cells, std::uint32_t count) const {
    std::uint32_t out = 0;
#pragma unroll
    for (int b = 0; b < 4; ++b) {
      const std::uint32_t state = (cells >> (8 * b)) & 0xFFu, n = (count >> (8 * b)) & 0xFFu;
      out |= std::uint32_t(table[state * (kMaxCount + 1) + n]) << (8 * b);
    }
    return out;
  }
};

__device__ __forceinline__ void fill_rule_table(const LifeRule& rule, std::uint8_t* table) {
  for (int i = threadIdx.x; i < kRuleTableSize; i += blockDim.x) {
    const int state = i / (kMaxCount + 1), count = i % (kMaxCount + 1);
    table[i] = state < int(rule.states) ? rule.next(std::uint8_t(state), std::uint32_t(count)) : 0;
  }
}

// Two-state rules, four cells a word with no memory access: each count byte (0..8) selects a
// byte of an 8-byte born or survive table with one byte permute (PRMT) by its low three bits,
// so count 8 reads count 0's entry and is patched where the two differ (B0 without B8, say).
// About 8 instructions for 4 cells against some 24 for the table, which made the kernel
// instruction-bound below the copy bound.
struct TwoStateRule {
  // Byte c of the pair (low, high): 1 when count c (0..7) gives a live cell. Plain members, not
  // arrays, so that a kernel keeps them in registers rather than in a local-memory copy.
  std::uint32_t born_low = 0, born_high = 0, survive_low = 0, survive_high = 0;
  std::uint32_t born8 = 0, survive8 = 0;  // 0x01010101 when count 8 gives a live cell
  bool patch8 = false;                    // count 8's next states differ from count 0's

  TwoStateRule() = default;
  explicit TwoStateRule(const LifeRule& rule) {
    for (int c = 0; c < 8; ++c) {
      (c < 4 ? born_low : born_high) |= std::uint32_t(rule.next(0, std::uint32_t(c))) << (8 * (c % 4));
      (c < 4 ? survive_low : survive_high) |= std::uint32_t(rule.next(1, std::uint32_t(c))) << (8 * (c % 4));
    }
    born8 = 0x01010101u * rule.next(0, 8);
    survive8 = 0x01010101u * rule.next(1, 8);
    patch8 = rule.next(0, 8) != rule.next(0, 0) || rule.next(1, 8) != rule.next(1, 0);
  }

  __device__ __forceinline__ std::uint32_t live4(std::uint32_t cells) const { return cells; }  // states 0 and 1
  __device__ __forceinline__ std::uint32_t next4(std::uint32_t cells, std::uint32_t count) const {
    const std::uint32_t low = count & 0x07070707u;
    const std::uint32_t select = __byte_perm(low | (low >> 4), 0, 0x4420);  // a nibble per count
    std::uint32_t if_dead = __byte_perm(born_low, born_high, select);
    std::uint32_t if_live = __byte_perm(survive_low, survive_high, select);
    if (patch8) {  // the same for every thread
      const std::uint32_t eight = __vcmpeq4(count, 0x08080808u);
      if_dead = (if_dead & ~eight) | (born8 & eight);
      if_live = (if_live & ~eight) | (survive8 & eight);
    }
    const std::uint32_t live = cells * 0xFFu;  // 0xFF in each byte whose cell is live
    return (if_live & live) | (if_dead & ~live);
  }
};

}  // namespace cellgraph::dense::cuda
