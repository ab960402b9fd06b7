// Warp-level assembly of bit-packed words across a grid's x edge, shared by the GPU bit-packed
// agents (bit_agent.cuh, cloud_agent.cuh).
#pragma once
#include <cstdint>

#include "cellgraph/dense/boundary.hpp"

namespace cellgraph::dense::cuda {

// For each lane `owner` in `owners`: word first + owner of a bit row of the grid of images
// (bit i = cell x = 32 (first + owner) + i, read through near_image), assembled a bit per lane
// with a ballot, so a word across an edge costs a load per lane rather than 32. Owners get
// their word; the other lanes keep `word`. Cells outside a fixed edge, or of a null row, read
// `outside_bit`. Every lane of the warp calls it.
__device__ __forceinline__ std::uint32_t ballot_image_words(const std::uint32_t* row, std::int64_t width, Edge edge,
                                                            std::int64_t first, std::uint32_t owners,
                                                            std::uint32_t outside_bit, std::uint32_t word) {
  const int lane = threadIdx.x & 31;
  for (; owners; owners &= owners - 1) {
    const int owner = __ffs(owners) - 1;
    const std::int64_t x = near_image(32 * (first + owner) + lane, width, edge);
    const std::uint32_t bit = x < 0 || !row ? outside_bit : (__ldg(row + (x >> 5)) >> (x & 31)) & 1u;
    const std::uint32_t bits = __ballot_sync(0xFFFFFFFFu, bit);
    if (lane == owner) word = bits;
  }
  return word;
}

}  // namespace cellgraph::dense::cuda
