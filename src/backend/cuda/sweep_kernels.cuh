// Agents and kernels of one synchronous step over the compiled layout.
//   ordinary slices: one thread per vertex; the warp walks its 32 column-major lists in
//                    lockstep, so each neighbor-index load is one coalesced 128-byte line
//   hub slices:      one warp per vertex, lanes striding its row-major list, then a shuffle
//                    tree (warp_fold.cuh)
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

// One warp per hub vertex.
template <class Model>
__global__ void __launch_bounds__(kSweepBlockThreads)
sweep_hub_kernel(Model model, LayoutView L, StateRef<typename Model::Vars> current,
                 StateRef<typename Model::Vars> next, StepParams p) {
  using Vars = typename Model::Vars;
  const std::uint32_t v = (blockIdx.x * kSweepBlockThreads + threadIdx.x) / 32;
  const std::uint32_t lane = threadIdx.x % 32;
  if (v >= L.num_hub_vertices) return;  // whole warps leave together
  const std::uint32_t degree = L.degree[v];
  const std::uint32_t* row = L.neighbors + L.hub_row_begin[v];
  typename Model::Acc acc = model.init();
  for (std::uint32_t k = lane; k < degree; k += 32) model.gather(acc, CellRead<Vars>{current, __ldg(row + k)}, k);
  warp_combine(model, acc);
  if (lane == 0) apply_cell(model, L, current, next, p, v, acc, degree);
}

__global__ void advance_step_counter(std::uint32_t* counter, std::uint32_t steps);

}  // namespace cellgraph::cuda
