// Warp level: sums of 64-bit counters by shuffles, then one atomic per warp.
#pragma once
#include <cstdint>

namespace cellgraph::dense::cuda {

__device__ __forceinline__ std::uint64_t warp_sum(std::uint64_t value) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(0xFFFFFFFFu, value, offset);
  return value;
}

// Adds the warp's values into *total (lane 0 does the atomic). Every lane of the warp must call.
__device__ __forceinline__ void warp_add_to(unsigned long long* total, std::uint64_t value) {
  value = warp_sum(value);
  if ((threadIdx.x & 31) == 0) atomicAdd(total, static_cast<unsigned long long>(value));
}

}  // namespace cellgraph::dense::cuda
