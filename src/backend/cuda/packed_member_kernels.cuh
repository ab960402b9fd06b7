// Agents and kernels of an ensemble stepped by multi-spin coding (packed_members.cuh): bit b of
// word w of a cell is member 64 w + b's state, for rules of two states whose next state is a
// function of the state and the count of live neighbors (two_state_rule.hpp). One load of a
// neighbor's word serves 64 members; the members' counts are added bit-sliced (word k holds bit
// k of every member's count), and the rule is a comparison of the count with each count at
// which some member's cell is live next, a few word operations each.
//   ordinary vertices: one thread per (vertex, word), the walk of sweep_kernels.cuh; a warp
//                      takes 32 vertices of a slice, so index loads stay one line per entry
//   hubs:              one warp per (hub, word), giant hubs one block: threads stride the
//                      list, then their counts are added by the plain sweep's shuffle tree
//                      (and across the block's warps in shared memory)
// Word w of every cell lies in plane w (element w * stride + cell), so the words a warp
// gathers and writes are those the plain sweep's states would be, 8 bytes wide.
#pragma once
#include <cstdint>

#include "src/backend/cuda/sweep_kernels.cuh"

namespace cellgraph::cuda {

// K-bit counts of 64 members, bit-sliced.
template <int K>
struct BitCount {
  std::uint64_t bit[K];

  // Adds 1 to the members whose bit of `live` is set.
  __device__ __forceinline__ void add(std::uint64_t live) {
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const std::uint64_t carry = bit[k] & live;
      bit[k] ^= live;
      live = carry;
    }
  }
  // The same, stopping when no member carries: for wide counts that mostly stay small.
  __device__ __forceinline__ void add_early_out(std::uint64_t live) {
#pragma unroll
    for (int k = 0; k < K; ++k) {
      if (!live) break;
      const std::uint64_t carry = bit[k] & live;
      bit[k] ^= live;
      live = carry;
    }
  }
  // Adds another count member by member (totals stay below 2^K).
  __device__ __forceinline__ void add(const BitCount& other) {
    std::uint64_t carry = 0;
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const std::uint64_t a = bit[k], b = other.bit[k], half = a ^ b;
      bit[k] = half ^ carry;
      carry = (a & b) | (carry & half);
    }
  }
  // The members whose count is c.
  __device__ __forceinline__ std::uint64_t equals(std::uint32_t c) const {
    std::uint64_t at = ~0ull;
#pragma unroll
    for (int k = 0; k < K; ++k) at &= (c >> k) & 1 ? bit[k] : ~bit[k];
    return at;
  }
};

// The rule of every word: live_counts[0 .. num_counts) are the counts, ascending, at which some
// member's cell is live next; bit b of born (survives)[word * num_counts + i] says whether member
// 64 word + b's cell in state 0 (1) is live next with live_counts[i] live neighbors.
struct PackedRuleView {
  const std::uint32_t* live_counts;
  const std::uint64_t* born;
  const std::uint64_t* survives;
  std::uint32_t num_counts;
};

template <int K>
__device__ __forceinline__ std::uint64_t next_word(const PackedRuleView& rule, std::uint32_t word, std::uint64_t self,
                                                   const BitCount<K>& count) {
  std::uint64_t next = 0;
  const std::size_t row = std::size_t(word) * rule.num_counts;
  for (std::uint32_t i = 0; i < rule.num_counts; ++i) {
    const std::uint32_t c = __ldg(rule.live_counts + i);
    if (c >> K) break;  // no count of K bits reaches it, nor the larger ones after it
    next |= count.equals(c) & ((self & __ldg(rule.survives + row + i)) | (~self & __ldg(rule.born + row + i)));
  }
  return next;
}

// The planes of one step: word w of cell c at from[w * stride + c], written to `to`.
struct PackedStep {
  const std::uint64_t* from;
  std::uint64_t* to;
  std::uint64_t stride;
  std::uint32_t words;
  PackedRuleView rule;
};

// Neighbors policy of fold_walk: adds the neighbor's word of `plane` to a BitCount.
struct PackedNeighbors {
  const std::uint64_t* plane;
  template <class Unused, int K>
  __device__ __forceinline__ void gather(const Unused&, BitCount<K>& count, std::uint32_t cell, std::uint32_t) const {
    count.add(__ldg(plane + cell));
  }
};
struct NoModel {};

// Ordinary vertices first .. first + count - 1, thread i taking word i / per_word of vertex
// first + i % per_word (per_word: count rounded up to whole slices).
template <int K>
__global__ void __launch_bounds__(kSweepBlockThreads)
    packed_ordinary_kernel(LayoutView L, PackedStep s, std::uint32_t first, std::uint32_t count,
                           std::uint32_t per_word) {
  const std::uint64_t i = std::uint64_t(blockIdx.x) * kSweepBlockThreads + threadIdx.x;
  const std::uint32_t word = std::uint32_t(i / per_word), k = std::uint32_t(i % per_word);
  if (word >= s.words || k >= count) return;
  const std::uint32_t v = first + k;
  const std::uint64_t* plane = s.from + word * s.stride;
  OrdinaryWalk w;
  begin_walk(L, v, w);
  BitCount<K> live{};
  fold_walk(NoModel{}, L, PackedNeighbors{plane}, w, live);
  s.to[word * s.stride + v] = next_word(s.rule, word, __ldg(plane + v), live);
}

// Hub counts are added in this many bits (PackedMembers refuses hubs of 2^24 neighbors or more).
inline constexpr int kHubCountBits = 24;
using HubCount = BitCount<kHubCountBits>;

// Thread t of `threads` counts entries t, t + threads, ... of a hub's row.
__device__ __forceinline__ HubCount count_strided(const std::uint64_t* plane, const std::uint32_t* row,
                                                  std::uint32_t degree, std::uint32_t t, std::uint32_t threads) {
  HubCount live{};
  for (std::uint32_t k0 = t; k0 < degree; k0 += kIndexBatch * threads) {
    std::uint64_t word[kIndexBatch];
#pragma unroll
    for (int j = 0; j < kIndexBatch; ++j) {
      const std::uint32_t k = k0 + j * threads;
      word[j] = k < degree ? __ldg(plane + __ldg(row + k)) : 0;
    }
#pragma unroll
    for (int j = 0; j < kIndexBatch; ++j) live.add_early_out(word[j]);
  }
  return live;
}

// The hubs' counts merged by the plain sweep's trees (warp_combine, block_combine): a fold
// whose Acc is a count and whose combine adds.
struct HubCountFold {
  using Acc = HubCount;
  __device__ __forceinline__ void combine(HubCount& count, const HubCount& more) const { count.add(more); }
};

// One warp per (hub, word): hubs first .. first + count - 1, word-major.
__global__ void __launch_bounds__(kSweepBlockThreads)
    packed_hub_kernel(LayoutView L, PackedStep s, std::uint32_t first, std::uint32_t count) {
  const std::uint64_t i = (std::uint64_t(blockIdx.x) * kSweepBlockThreads + threadIdx.x) / 32;
  if (i >= std::uint64_t(count) * s.words) return;  // whole warps leave together
  const std::uint32_t word = std::uint32_t(i / count), v = first + std::uint32_t(i % count);
  const std::uint64_t* plane = s.from + word * s.stride;
  HubCount live = count_strided(plane, L.neighbors + L.hub_row_begin[v], L.degree[v], threadIdx.x % 32, 32);
  warp_combine(HubCountFold{}, live);
  if (threadIdx.x % 32 == 0) s.to[word * s.stride + v] = next_word(s.rule, word, __ldg(plane + v), live);
}

// One block of kGiantHubThreads per (giant hub, word): giant hubs 0 .. count - 1, word-major.
__global__ void __launch_bounds__(kGiantHubThreads)
    packed_giant_hub_kernel(LayoutView L, PackedStep s, std::uint32_t count) {
  const std::uint32_t word = blockIdx.x / count, v = blockIdx.x % count;
  const std::uint64_t* plane = s.from + word * s.stride;
  const HubCount live = block_combine(HubCountFold{}, count_strided(plane, L.neighbors + L.hub_row_begin[v],
                                                                    L.degree[v], threadIdx.x, kGiantHubThreads));
  if (threadIdx.x == 0) s.to[word * s.stride + v] = next_word(s.rule, word, __ldg(plane + v), live);
}

// Word w of cells [0, cells) into both planes, from states whose element cell * members + m is
// member m's (0 or 1); bits past the last member are 0.
__global__ void pack_members_kernel(const std::uint8_t* states, std::uint32_t cells, std::uint32_t members,
                                    std::uint32_t words, std::uint64_t stride, std::uint64_t* a, std::uint64_t* b) {
  const std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= std::uint64_t(cells) * words) return;
  const std::uint32_t cell = std::uint32_t(i / words), word = std::uint32_t(i % words);
  const std::uint32_t first = word * 64, last = min(members, first + 64);
  const std::uint8_t* own = states + std::uint64_t(cell) * members;
  std::uint64_t packed = 0;
  for (std::uint32_t m = first; m < last; ++m) packed |= std::uint64_t(own[m] & 1) << (m - first);
  a[word * stride + cell] = b[word * stride + cell] = packed;
}

// The inverse: every member's state of cells [0, cells) from the planes.
__global__ void unpack_members_kernel(const std::uint64_t* plane, std::uint32_t cells, std::uint32_t members,
                                      std::uint64_t stride, std::uint8_t* states) {
  const std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= std::uint64_t(cells) * members) return;
  const std::uint32_t cell = std::uint32_t(i / members), m = std::uint32_t(i % members);
  states[i] = std::uint8_t((__ldg(plane + (m / 64) * stride + cell) >> (m % 64)) & 1);
}

}  // namespace cellgraph::cuda
