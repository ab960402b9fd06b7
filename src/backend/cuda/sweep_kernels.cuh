// Agents and kernels of one synchronous step over the compiled layout.
//   ordinary slices: one thread per vertex; the warp walks its 32 column-major lists in
//                    lockstep, so each neighbor-index load is one coalesced 128-byte line
//   hub slices:      one warp per vertex, lanes striding its row-major list, then a shuffle
//                    tree (warp_fold.cuh); giant hubs one block per vertex, the warps' folds
//                    then combined in warp order (the order cpu::fold_hub reproduces)
// The step number is read from device memory so that captured CUDA graphs can be replayed.
#pragma once
#include <cstdint>

#include "cellgraph/model.hpp"
#include "src/backend/cuda/device_layout.cuh"
#include "src/backend/cuda/warp_fold.cuh"

namespace cellgraph::cuda {

inline constexpr int kSweepBlockThreads = 256;

struct StepParams {
  std::uint64_t seed;
  const std::uint32_t* step_counter;  // the step of offset 0
  std::uint32_t step_offset;
};

template <class Model>
__device__ __forceinline__ void apply_cell(const Model& model, const LayoutView& L,
                                           StateRef<typename Model::Vars> current,
                                           StateRef<typename Model::Vars> next, const StepParams& p,
                                           std::uint32_t v, const typename Model::Acc& acc,
                                           std::uint32_t degree) {
  using Vars = typename Model::Vars;
  CellWrite<Vars> out{next, v};
  model.apply(CellRead<Vars>{current, v}, acc, out,
              CellContext{p.seed, *p.step_counter + p.step_offset, L.local_to_user[v], degree});
}

// Agent for one ordinary vertex: lane `lane` of slice `slice`. Indices are loaded a batch at a
// time before any state is read, so each thread keeps several loads in flight (a loop that
// stopped at the first padding entry would wait for each load in turn).
inline constexpr int kIndexBatch = 8;

template <class Model>
__device__ __forceinline__ void sweep_ordinary_vertex(const Model& model, const LayoutView& L,
                                                      StateRef<typename Model::Vars> current,
                                                      StateRef<typename Model::Vars> next,
                                                      const StepParams& p, std::uint32_t slice,
                                                      std::uint32_t lane) {
  using Vars = typename Model::Vars;
  const std::uint32_t v = slice * 32 + lane;
  if (v >= L.num_vertices) return;
  const std::uint32_t width = L.slice_width[slice];
  const std::uint32_t* column = L.neighbors + L.slice_begin[slice] + lane;
  typename Model::Acc acc = model.init();
  std::uint32_t degree = 0;
  for (std::uint32_t k0 = 0; k0 < width; k0 += kIndexBatch) {
    std::uint32_t cell[kIndexBatch];
#pragma unroll
    for (int j = 0; j < kIndexBatch; ++j)
      cell[j] = k0 + j < width ? __ldg(column + std::size_t(k0 + j) * 32) : L.null_cell;
#pragma unroll
    for (int j = 0; j < kIndexBatch; ++j)
      if (cell[j] != L.null_cell) {  // padding only follows the real entries
        model.gather(acc, CellRead<Vars>{current, cell[j]}, k0 + j);
        ++degree;
      }
  }
  apply_cell(model, L, current, next, p, v, acc, degree);
}

template <class Model>
__global__ void __launch_bounds__(kSweepBlockThreads)
sweep_ordinary_kernel(Model model, LayoutView L, StateRef<typename Model::Vars> current,
                      StateRef<typename Model::Vars> next, StepParams p) {
  const std::uint32_t thread = blockIdx.x * kSweepBlockThreads + threadIdx.x;
  const std::uint32_t slice = L.num_hub_slices + thread / 32;
  if (slice < L.num_slices) sweep_ordinary_vertex(model, L, current, next, p, slice, thread % 32);
}

// Thread `t` of `threads` folds entries t, t + threads, ... of a row, a batch of loads at a time.
template <class Model>
__device__ __forceinline__ typename Model::Acc fold_strided(const Model& model, StateRef<typename Model::Vars> current,
                                                           const std::uint32_t* row, std::uint32_t degree,
                                                           std::uint32_t t, std::uint32_t threads) {
  using Vars = typename Model::Vars;
  typename Model::Acc acc = model.init();
  for (std::uint32_t k0 = t; k0 < degree; k0 += kIndexBatch * threads) {
    std::uint32_t cell[kIndexBatch];
#pragma unroll
    for (int j = 0; j < kIndexBatch; ++j) {
      const std::uint32_t k = k0 + j * threads;
      cell[j] = k < degree ? __ldg(row + k) : 0u;
    }
#pragma unroll
    for (int j = 0; j < kIndexBatch; ++j)
      if (k0 + j * threads < degree) model.gather(acc, CellRead<Vars>{current, cell[j]}, k0 + j * threads);
  }
  return acc;
}

// One warp per hub vertex (after the giant ones).
template <class Model>
__global__ void __launch_bounds__(kSweepBlockThreads)
sweep_hub_kernel(Model model, LayoutView L, StateRef<typename Model::Vars> current,
                 StateRef<typename Model::Vars> next, StepParams p) {
  const std::uint32_t v = L.num_giant_hubs + (blockIdx.x * kSweepBlockThreads + threadIdx.x) / 32;
  const std::uint32_t lane = threadIdx.x % 32;
  if (v >= L.num_hub_vertices) return;  // whole warps leave together
  const std::uint32_t degree = L.degree[v];
  typename Model::Acc acc = fold_strided(model, current, L.neighbors + L.hub_row_begin[v], degree, lane, 32);
  warp_combine(model, acc);
  if (lane == 0) apply_cell(model, L, current, next, p, v, acc, degree);
}

// One block of kGiantHubThreads per giant hub.
template <class Model>
__global__ void __launch_bounds__(kGiantHubThreads)
sweep_giant_hub_kernel(Model model, LayoutView L, StateRef<typename Model::Vars> current,
                       StateRef<typename Model::Vars> next, StepParams p) {
  using Acc = typename Model::Acc;
  constexpr int kWarps = kGiantHubThreads / 32;
  __shared__ alignas(16) unsigned char partial_bytes[kWarps * sizeof(Acc)];
  Acc* partial = reinterpret_cast<Acc*>(partial_bytes);
  const std::uint32_t v = blockIdx.x;
  const std::uint32_t degree = L.degree[v];
  Acc acc = fold_strided(model, current, L.neighbors + L.hub_row_begin[v], degree, threadIdx.x, kGiantHubThreads);
  warp_combine(model, acc);
  if (threadIdx.x % 32 == 0) memcpy(&partial[threadIdx.x / 32], &acc, sizeof(Acc));
  __syncthreads();
  if (threadIdx.x == 0) {
    Acc total;
    memcpy(&total, &partial[0], sizeof(Acc));
    for (int w = 1; w < kWarps; ++w) {
      Acc other;
      memcpy(&other, &partial[w], sizeof(Acc));
      model.combine(total, other);
    }
    apply_cell(model, L, current, next, p, v, total, degree);
  }
}

__global__ void advance_step_counter(std::uint32_t* counter, std::uint32_t steps);

}  // namespace cellgraph::cuda
