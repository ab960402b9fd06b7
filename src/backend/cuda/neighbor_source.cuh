// Where a walk reads its neighbors from: the state arrays themselves, or, for a model that
// gathers over a one-bit signal (model.hpp), the signals of every cell packed 32 to a word.
// A random gather fetches a whole 32-byte sector for what it reads: 32 cells' bytes, or 256
// cells' bits, so the packed words keep eight times the cells in L1 and in each L2 transfer.
#pragma once
#include <cstdint>

#include "cellgraph/model.hpp"
#include "src/backend/cuda/device_array.cuh"

namespace cellgraph::cuda {

template <class Vars>
struct StateNeighbors {
  StateRef<Vars> state;
  template <class Model>
  __device__ __forceinline__ void gather(const Model& model, typename Model::Acc& acc, std::uint32_t cell,
                                         std::uint32_t slot) const {
    gather_neighbor(model, acc, CellRead<Vars>{state, cell}, slot);
  }
};

struct SignalNeighbors {
  const std::uint32_t* words;  // bit c % 32 of word c / 32: cell c's signal
  template <class Model>
  __device__ __forceinline__ void gather(const Model& model, typename Model::Acc& acc, std::uint32_t cell,
                                         std::uint32_t slot) const {
    model.gather(acc, bool((__ldg(words + cell / 32) >> (cell % 32)) & 1u), slot);
  }
};

// When the automatic choice packs: gathers_scattered (layout.hpp).

inline constexpr int kPackThreads = 256;
// Words per warp: each lane has this many state loads in flight before its first ballot (one
// load a lane leaves a copy-speed pass latency-bound: measured on an H100, a 16384^2 grid's pack
// took 0.6 ms a step, 15% of the step).
inline constexpr int kPackWordsPerWarp = 16;

// Words w .. w + kPackWordsPerWarp - 1 of `words` from their cells by one warp's ballots:
// bit l of word w from cell 32w + l, for cells < cells.
template <class Model>
__global__ void __launch_bounds__(kPackThreads)
    pack_signals_kernel(Model model, StateRef<typename Model::Vars> state, std::uint32_t cells, std::uint32_t* words) {
  const std::uint64_t warp = (std::uint64_t(blockIdx.x) * kPackThreads + threadIdx.x) / 32;
  const std::uint32_t lane = threadIdx.x % 32;
  const std::uint64_t first_word = warp * kPackWordsPerWarp;
  bool bit[kPackWordsPerWarp];
#pragma unroll
  for (int i = 0; i < kPackWordsPerWarp; ++i) {
    const std::uint64_t c = (first_word + i) * 32 + lane;
    bit[i] = c < cells && model.signal(CellRead<typename Model::Vars>{state, std::uint32_t(c)});
  }
  std::uint32_t mine = 0;  // lane i keeps word i
#pragma unroll
  for (int i = 0; i < kPackWordsPerWarp; ++i) {
    const std::uint32_t word = __ballot_sync(0xffffffffu, bit[i]);  // whole warps: no lane has left
    if (lane == std::uint32_t(i)) mine = word;
  }
  const std::uint64_t w = first_word + lane;
  if (lane < kPackWordsPerWarp && w * 32 < cells) words[w] = mine;
}

// The packed signals of one state buffer's cells (the boundary and halo cells included).
class SignalBits {
 public:
  SignalBits() = default;
  explicit SignalBits(std::uint32_t cells) : cells_(cells), words_((std::size_t(cells) + 31) / 32) {}

  template <class Model>
  void pack(const Model& model, StateRef<typename Model::Vars> state, cudaStream_t stream) const {
    const std::uint64_t cells_per_block = std::uint64_t(kPackThreads) * kPackWordsPerWarp;
    const unsigned blocks = unsigned((std::uint64_t(cells_) + cells_per_block - 1) / cells_per_block);
    pack_signals_kernel<<<blocks, kPackThreads, 0, stream>>>(model, state, cells_, words_.data());
  }
  SignalNeighbors neighbors() const { return {words_.data()}; }

 private:
  std::uint32_t cells_ = 0;
  DeviceArray<std::uint32_t> words_;
};

}  // namespace cellgraph::cuda
