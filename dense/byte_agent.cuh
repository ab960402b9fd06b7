// Agent of the byte GPU kernel on 2D Moore grids: each thread owns a column of 16 cells (one
// 16-byte load per row) and walks down a strip of rows, keeping the three-cell live sums of
// the last two rows; live flags and sums are added four cells per 32-bit word (SIMD within a
// register), the neighbor cells beyond the column come from the next lanes by shuffles. Each
// cell is read once and written once per step: the kernel is bound by memory bandwidth.
// The rule is a byte-permute lookup for two-state rules, else a (state, count) table in shared
// memory filled from LifeRule::next.
#pragma once
#include <cstdint>

#include "cellgraph/dense/boundary.hpp"
#include "cellgraph/dense/rule.hpp"

namespace cellgraph::dense::cuda {

constexpr int kByteLanes = 16;  // cells per thread
constexpr int kMaxCount = 9;    // count bytes go up to 8 (9 in the padding)
constexpr int kRuleTableSize = 256 * (kMaxCount + 1);

struct ByteGridView {
  const std::uint8_t* in;
  std::uint8_t* out;
  std::int64_t width, height;
  std::int64_t pitch;  // bytes per row, a multiple of 16
  Edge edge;
  std::uint8_t outside;  // state of the fixed outside
};

struct Cells16 {
  std::uint32_t word[4];
};

__device__ __forceinline__ std::uint32_t live4(std::uint32_t cells) {
  return __vcmpeq4(cells, 0x01010101u) & 0x01010101u;  // 1 in each byte whose state is 1
}

// The rule as a (state, count) table in shared memory, entry 10 * state + count, filled from
// LifeRule::next: any Life-like or Generations rule, a byte lookup per cell.
struct TableRule {
  const std::uint8_t* table;

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
// byte of an 8-byte born or survive table with one byte permute (PRMT), and count 8 is patched
// in where the rule has it. About 8 instructions for 4 cells against some 24 for the table,
// which made the kernel instruction-bound below the copy bound.
struct TwoStateRule {
  // Byte c of the pair (low, high): 1 when count c (0..7) gives a live cell. Plain members, not
  // arrays, so that a kernel keeps them in registers rather than in a local-memory copy.
  std::uint32_t born_low = 0, born_high = 0, survive_low = 0, survive_high = 0;
  std::uint32_t born8 = 0, survive8 = 0;  // 0x01010101 when count 8 does

  TwoStateRule() = default;
  explicit TwoStateRule(const LifeRule& rule) {
    for (int c = 0; c < 8; ++c) {
      (c < 4 ? born_low : born_high) |= std::uint32_t(rule.next(0, std::uint32_t(c))) << (8 * (c % 4));
      (c < 4 ? survive_low : survive_high) |= std::uint32_t(rule.next(1, std::uint32_t(c))) << (8 * (c % 4));
    }
    born8 = 0x01010101u * rule.next(0, 8);
    survive8 = 0x01010101u * rule.next(1, 8);
  }

  __device__ __forceinline__ std::uint32_t next4(std::uint32_t cells, std::uint32_t count) const {
    const std::uint32_t low = count & 0x07070707u;
    const std::uint32_t select = __byte_perm(low | (low >> 4), 0, 0x4420);  // a nibble per count
    std::uint32_t if_dead = __byte_perm(born_low, born_high, select);
    std::uint32_t if_live = __byte_perm(survive_low, survive_high, select);
    if (born8 | survive8) {  // the same for every thread
      const std::uint32_t eight = __vcmpeq4(count, 0x08080808u);
      if_dead = (if_dead & ~eight) | (born8 & eight);
      if_live = (if_live & ~eight) | (survive8 & eight);
    }
    const std::uint32_t live = cells * 0xFFu;  // 0xFF in each byte whose cell is live
    return (if_live & live) | (if_dead & ~live);
  }
};

// One row as this thread sees it: its 16 cells, their live flags with the edge fix-up applied,
// and the three-cell live sums.
struct ByteRow {
  Cells16 cells, live, sums;
};

// The row standing for y (any integer), or nullptr for the outside of a fixed boundary.
__device__ __forceinline__ const std::uint8_t* row_cells(const ByteGridView& g, std::int64_t y) {
  const std::int64_t source = image(y, g.height, g.edge);
  return source < 0 ? nullptr : g.in + source * g.pitch;
}

// Everything a thread reads of a row: its 16 cells and the live flags of the cells just beyond
// its column that no neighbor lane holds (lane 0's left, lane 31's right, the grid's edges).
// Issued a row ahead of its use, so that every load of the row is in flight together.
struct FetchedRow {
  Cells16 cells;
  std::uint32_t left_live, right_live, after_live;  // after: the cell past the grid's last column
};

__device__ __forceinline__ FetchedRow fetch_row(const ByteGridView& g, const std::uint8_t* cells, std::int64_t first) {
  const std::uint32_t outside_live = g.outside == 1;
  if (!cells) {
    const std::uint32_t word = 0x01010101u * g.outside;
    return {{{word, word, word, word}}, outside_live, outside_live, outside_live};
  }
  FetchedRow f{{{0, 0, 0, 0}}, 0, 0, 0};
  if (first < g.pitch) {
    const uint4 v = __ldg(reinterpret_cast<const uint4*>(cells + first));
    f.cells = {{v.x, v.y, v.z, v.w}};
  }
  auto live_at = [&](std::int64_t x) -> std::uint32_t {  // x in [-1, W]
    const std::int64_t sx = image(x, g.width, g.edge);
    return sx < 0 ? outside_live : __ldg(cells + sx) == 1;
  };
  const int lane = threadIdx.x & 31;
  if (first == 0) f.left_live = live_at(-1);
  else if (lane == 0 && first <= g.pitch) f.left_live = __ldg(cells + first - 1) == 1;
  if (lane == 31 && first + kByteLanes < g.pitch) f.right_live = __ldg(cells + first + kByteLanes) == 1;
  if (first <= g.width - 1 && g.width - 1 < first + kByteLanes) f.after_live = live_at(g.width);
  return f;
}

__device__ __forceinline__ ByteRow finish_row(const ByteGridView& g, const FetchedRow& fetched, std::int64_t first) {
  ByteRow r;
  r.cells = fetched.cells;
  const int lane = threadIdx.x & 31;
#pragma unroll
  for (int k = 0; k < 4; ++k) r.live.word[k] = live4(r.cells.word[k]);
  // Live flags of the cells just left and right of the column: from the neighbor lanes.
  std::uint32_t left_live = __shfl_up_sync(0xFFFFFFFFu, r.live.word[3], 1) >> 24;
  std::uint32_t right_live = __shfl_down_sync(0xFFFFFFFFu, r.live.word[0], 1) & 1u;
  if (lane == 0 || first == 0) left_live = fetched.left_live;
  if (lane == 31) right_live = fetched.right_live;
  if (first <= g.width - 1 && g.width - 1 < first + kByteLanes) {  // the column of the last cell
    const int t = int(g.width - first);                            // cells of this column in the grid
    if (t < kByteLanes) {
      // Every word written through a select: a store to word t / 4 alone became a local-memory
      // array that every row of every thread paid for.
      const int shift = 8 * (t % 4);
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        const bool patched = k == t / 4;
        const std::uint32_t keep = patched ? ~(0xFFu << shift) : ~0u, put = patched ? fetched.after_live << shift : 0u;
        r.live.word[k] = (r.live.word[k] & keep) | put;
      }
    } else {
      right_live = fetched.after_live;
    }
  }
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    const std::uint32_t before = k ? r.live.word[k - 1] >> 24 : left_live;
    const std::uint32_t next = k < 3 ? r.live.word[k + 1] & 1u : right_live;
    r.sums.word[k] = ((r.live.word[k] << 8) | before) + r.live.word[k] + ((r.live.word[k] >> 8) | (next << 24));
  }
  return r;
}

__device__ __forceinline__ ByteRow load_byte_row(const ByteGridView& g, std::int64_t y, std::int64_t first) {
  return finish_row(g, fetch_row(g, row_cells(g, y), first), first);
}

template <class Rule>
__device__ __forceinline__ void run_byte_strip(const ByteGridView& g, const Rule& rule, std::int64_t column,
                                               std::int64_t first_row, int rows) {
  const std::int64_t first = column * kByteLanes;
  const bool stores = first < g.width;
  ByteRow above = load_byte_row(g, first_row - 1, first);
  ByteRow here = load_byte_row(g, first_row, first);
  FetchedRow ahead = fetch_row(g, row_cells(g, first_row + 1), first);  // row y + 1, in flight
  for (int i = 0; i < rows; ++i) {
    const std::int64_t y = first_row + i;
    const FetchedRow further = i + 1 < rows ? fetch_row(g, row_cells(g, y + 2), first) : FetchedRow{};
    const ByteRow below = finish_row(g, ahead, first);
    Cells16 next;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      // Neighbors: the 3x3 sum less the cell itself; at most 8 (9 in padding bytes).
      const std::uint32_t count = above.sums.word[k] + here.sums.word[k] + below.sums.word[k] - here.live.word[k];
      next.word[k] = rule.next4(here.cells.word[k], count);
    }
    if (stores) {
      const std::int64_t t = g.width - first;  // keep the row's padding 0
      if (t < kByteLanes)
#pragma unroll
        for (int k = 0; k < 4; ++k)
#pragma unroll
          for (int b = 0; b < 4; ++b)
            if (4 * k + b >= t) next.word[k] &= ~(0xFFu << (8 * b));
      *reinterpret_cast<uint4*>(g.out + y * g.pitch + first) =
          make_uint4(next.word[0], next.word[1], next.word[2], next.word[3]);
    }
    above = here;
    here = below;
    ahead = further;
  }
}

}  // namespace cellgraph::dense::cuda
