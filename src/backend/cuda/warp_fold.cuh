// Warp level: merging 32 partial folds with shuffles, in the order the CPU reference
// (cpu::fold_hub) reproduces: offsets 16, 8, 4, 2, 1, lane i combining lane i + offset.
#pragma once
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace cellgraph::cuda {

// Shuffles any trivially copyable value down the warp, one 32-bit word at a time.
template <class T>
__device__ __forceinline__ T shuffle_down(const T& value, unsigned delta) {
  static_assert(std::is_trivially_copyable_v<T>, "a model's Acc must be trivially copyable");
  constexpr int kWords = (sizeof(T) + 3) / 4;
  std::uint32_t words[kWords] = {};
  memcpy(words, &value, sizeof(T));
#pragma unroll
  for (int i = 0; i < kWords; ++i) words[i] = __shfl_down_sync(0xFFFFFFFFu, words[i], delta);
  T out;
  memcpy(&out, words, sizeof(T));
  return out;
}

// After the call lane 0 holds the fold of all 32 lanes.
template <class Model>
__device__ __forceinline__ void warp_combine(const Model& model, typename Model::Acc& acc) {
#pragma unroll
  for (unsigned offset = 16; offset > 0; offset /= 2) {
    const typename Model::Acc other = shuffle_down(acc, offset);
    model.combine(acc, other);
  }
}

}  // namespace cellgraph::cuda
