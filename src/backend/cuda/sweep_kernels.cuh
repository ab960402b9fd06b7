// Agents and kernels that walk the compiled layout: each folds a vertex's neighbors and hands
// the fold to a Finish policy (apply the model for a step, or add to the observables).
//   ordinary vertices: one thread each (a thread takes kVerticesPerThread of them, a block
//                      apart); in a synchronous step the warp walks its slice's 32
//                      column-major lists in lockstep, so each index load is one 128-byte line
//   hubs:              one warp each, lanes striding the row-major list, then a shuffle tree
//                      (warp_fold.cuh); giant hubs one block each, the warps' folds then
//                      combined in warp order (the order cpu::fold_hub reproduces)
// Which vertices a launch covers is a Cells policy: a range (every vertex of a kind) or a list
// (one color class); where neighbors are read from, a Neighbors policy (neighbor_source.cuh).
// The step number is read from device memory so that captured CUDA graphs can be replayed.
#pragma once
#include <cstddef>
#include <cstdint>

#include "cellgraph/model.hpp"
#include "cellgraph/sweep_tuning.hpp"
#include "cellgraph/update.hpp"
#include "src/backend/cuda/cuda_check.cuh"
#include "src/backend/cuda/device_layout.cuh"
#include "src/backend/cuda/neighbor_source.cuh"
#include "src/backend/cuda/warp_fold.cuh"

namespace cellgraph::cuda {

// The block shape and batch come from the tuning policy (sweep_tuning.hpp), as the host's launches do.
inline constexpr int kSweepBlockThreads = int(kSweepTuning.block_threads);

// Vertices first .. first + count - 1.
struct VertexRange {
  std::uint32_t first, count;
  __device__ std::uint32_t operator[](std::uint32_t i) const { return first + i; }
};
// count vertices listed at ids (a color class).
struct VertexList {
  const std::uint32_t* ids;
  std::uint32_t count;
  __device__ std::uint32_t operator[](std::uint32_t i) const { return ids[i]; }
};

struct StepParams {
  std::uint64_t seed;
  const std::uint32_t* step_counter;  // the step of offset 0
  std::uint32_t step_offset;
  double alpha;  // < 1: alpha-asynchronous
};

// Finish policy of a step: the model's apply into `next` (== current for colored updates).
template <class Model>
struct ApplyStep {
  using Vars = typename Model::Vars;
  StateRef<Vars> next;
  StepParams p;

  __device__ std::uint32_t step() const { return *p.step_counter + p.step_offset; }
  // Alpha-asynchronous cells that sit this step out are copied before any neighbor is read.
  __device__ bool skips(const LayoutView& L, std::uint32_t v) const {
    return p.alpha < 1.0 && !updates_this_step(p.alpha, p.seed, L.user_of(v), step());
  }
  __device__ void keep(StateRef<Vars> current, std::uint32_t v) const {
    CellWrite<Vars> out{next, v};
    keep_cell(CellRead<Vars>{current, v}, out);
  }
  __device__ void operator()(const Model& model, const LayoutView& L, StateRef<Vars> current, std::uint32_t v,
                             const typename Model::Acc& acc, std::uint32_t degree) const {
    CellWrite<Vars> out{next, v};
    model.apply(CellRead<Vars>{current, v}, acc, out,
                CellContext::deferred(p.seed, p.step_counter, p.step_offset,
                                      L.local_to_user ? L.local_to_user + v : nullptr, degree, v));
  }
};

// Agent for one ordinary vertex. Indices are loaded a batch at a time before any state is
// read, so each thread keeps several loads in flight (a loop that stopped at the first padding
// entry would wait for each load in turn).
inline constexpr int kIndexBatch = int(kSweepTuning.index_batch);

// An ordinary vertex being walked: where its entries start, and the batch of cells in flight.
// The encoding rides in the low bits of that address (ids and stencils are 4-byte aligned,
// deltas 2-byte), so a walk keeps the registers of a walk of ids alone: 40, six blocks a
// multiprocessor. With the encoding apart, the kernel took 46, five blocks, and stepped an rgg
// of 2^24 vertices 17% slower on an H200. The encoding is the same in every lane of a warp (a
// warp walks one slice), so its branches do not diverge.
struct OrdinaryWalk {
  std::uint32_t v, width;
  std::uintptr_t column;  // ids: the address; stencil: address | 2; deltas: address | 1
  std::uint32_t cell[kIndexBatch];
};

__device__ __forceinline__ void load_index_batch(const LayoutView& L, OrdinaryWalk& w, std::uint32_t k0) {
  if (w.column & 1) {  // deltas
    const auto* deltas = reinterpret_cast<const std::int16_t*>(w.column - 1);
#pragma unroll
    for (int j = 0; j < kIndexBatch; ++j)
      w.cell[j] =
          k0 + j < w.width ? delta_cell(__ldg(deltas + std::size_t(k0 + j) * 32), w.v, L.null_cell) : L.null_cell;
  } else if (w.column & 2) {  // a stencil: the same offset in every lane, one broadcast load
    const auto* offsets = reinterpret_cast<const std::int32_t*>(w.column - 2);
#pragma unroll
    for (int j = 0; j < kIndexBatch; ++j)
      w.cell[j] = k0 + j < w.width ? w.v + std::uint32_t(__ldg(offsets + k0 + j)) : L.null_cell;
  } else {
    const auto* ids = reinterpret_cast<const std::uint32_t*>(w.column);
#pragma unroll
    for (int j = 0; j < kIndexBatch; ++j)
      w.cell[j] = k0 + j < w.width ? __ldg(ids + std::size_t(k0 + j) * 32) : L.null_cell;
  }
}

__device__ __forceinline__ void begin_walk(const LayoutView& L, std::uint32_t v, OrdinaryWalk& w) {
  const std::uint32_t slice = v / 32;
  w.v = v;
  w.width = L.slice_width[slice];
  const std::uint64_t begin = L.slice_begin[slice];
  switch (L.encoding(slice)) {
    case SliceEncoding::delta16:
      w.column = reinterpret_cast<std::uintptr_t>(L.deltas + begin + v % 32) | 1;
      break;
    case SliceEncoding::stencil:
      w.column = reinterpret_cast<std::uintptr_t>(L.stencil_offsets + begin) | 2;
      break;
    default:
      w.column = reinterpret_cast<std::uintptr_t>(L.neighbors + begin + v % 32);
  }
  load_index_batch(L, w, 0);
}

// Folds a walk's remaining neighbors into `acc`; returns how many it gathered.
// (An ensemble's walk folds several members' Acc at once: `acc` is whatever `neighbors` folds.)
template <class Model, class Neighbors, class Acc>
__device__ __forceinline__ std::uint32_t fold_walk(const Model& model, const LayoutView& L, const Neighbors& neighbors,
                                                   OrdinaryWalk& w, Acc& acc) {
  std::uint32_t degree = 0;
  for (std::uint32_t k0 = 0;;) {
    if ((w.column & 2) && k0 + kIndexBatch <= w.width) {  // a whole batch of a stencil: no padding
#pragma unroll
      for (int j = 0; j < kIndexBatch; ++j) neighbors.gather(model, acc, w.cell[j], k0 + j);
      degree += kIndexBatch;
    } else {
#pragma unroll
      for (int j = 0; j < kIndexBatch; ++j)
        if (w.cell[j] != L.null_cell) {  // padding only follows the real entries
          neighbors.gather(model, acc, w.cell[j], k0 + j);
          ++degree;
        }
    }
    k0 += kIndexBatch;
    if (k0 >= w.width) break;
    load_index_batch(L, w, k0);
  }
  return degree;
}

template <class Model, class Neighbors, class Finish>
__device__ __forceinline__ void finish_walk(const Model& model, const LayoutView& L,
                                            StateRef<typename Model::Vars> current, const Neighbors& neighbors,
                                            const Finish& finish, OrdinaryWalk& w) {
  typename Model::Acc acc = initial_fold(model, CellRead<typename Model::Vars>{current, w.v});
  const std::uint32_t degree = fold_walk(model, L, neighbors, w, acc);
  finish(model, L, current, w.v, acc, degree);
}

// Programmatic dependent launch (sm_90): an ordinary or fused sweep lets the next kernel on its
// stream launch once all its blocks run; that kernel loads its first index batches (the layout
// never changes) and then waits for this one to finish before it reads any state. Before the
// wait it also reads the step counter (the skip test of alpha-asynchronous cells), so a sweep
// right after the kernel that advances it is launched without overlap. A launch without the
// attribute waits for nothing here.
__device__ __forceinline__ void allow_next_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}
__device__ __forceinline__ void wait_for_previous_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

// Each thread walks this many vertices, a block-width apart (so each warp still walks whole
// slices), with the first index batches of all of them loaded before any state is read: twice
// the loads in flight at the same occupancy.
inline constexpr int kVerticesPerThread = int(kSweepTuning.vertices_per_thread);

// Block `block` of an ordinary sweep.
template <class Model, class Neighbors, class Cells, class Finish>
__device__ __forceinline__ void ordinary_agent(const Model& model, const LayoutView& L,
                                               StateRef<typename Model::Vars> current, const Neighbors& neighbors,
                                               const Cells& cells, const Finish& finish, std::uint32_t block) {
  const std::uint32_t first = block * kSweepBlockThreads * kVerticesPerThread + threadIdx.x;
  OrdinaryWalk w[kVerticesPerThread];
  bool live[kVerticesPerThread];
#pragma unroll
  for (int r = 0; r < kVerticesPerThread; ++r) {
    const std::uint32_t i = first + r * kSweepBlockThreads;
    live[r] = false;
    if (i < cells.count) {
      const std::uint32_t v = cells[i];
      if (finish.skips(L, v)) {
        wait_for_previous_grid();
        finish.keep(current, v);
      } else {
        begin_walk(L, v, w[r]);
        live[r] = true;
      }
    }
  }
  wait_for_previous_grid();  // idempotent
#pragma unroll
  for (int r = 0; r < kVerticesPerThread; ++r)
    if (live[r]) finish_walk(model, L, current, neighbors, finish, w[r]);
}

template <class Model, class Neighbors, class Cells, class Finish>
__global__ void __launch_bounds__(kSweepBlockThreads)
    sweep_ordinary_kernel(Model model, LayoutView L, StateRef<typename Model::Vars> current, Neighbors neighbors,
                          Cells cells, Finish finish) {
  allow_next_grid();
  ordinary_agent(model, L, current, neighbors, cells, finish, blockIdx.x);
}

// Thread `t` of `threads` folds entries t, t + threads, ... of a row, a batch of loads at a time.
template <class Model, class Neighbors>
__device__ __forceinline__ typename Model::Acc fold_strided(const Model& model, StateRef<typename Model::Vars> current,
                                                            const Neighbors& neighbors, const std::uint32_t* row,
                                                            std::uint32_t degree, std::uint32_t t,
                                                            std::uint32_t threads, std::uint32_t v) {
  using Vars = typename Model::Vars;
  typename Model::Acc acc = initial_fold(model, CellRead<Vars>{current, v});
  for (std::uint32_t k0 = t; k0 < degree; k0 += kIndexBatch * threads) {
    std::uint32_t cell[kIndexBatch];
#pragma unroll
    for (int j = 0; j < kIndexBatch; ++j) {
      const std::uint32_t k = k0 + j * threads;
      cell[j] = k < degree ? __ldg(row + k) : 0u;
    }
#pragma unroll
    for (int j = 0; j < kIndexBatch; ++j)
      if (k0 + j * threads < degree) neighbors.gather(model, acc, cell[j], k0 + j * threads);
  }
  return acc;
}

// One warp per hub vertex: block `block` of a hub sweep.
template <class Model, class Neighbors, class Cells, class Finish>
__device__ __forceinline__ void hub_agent(const Model& model, const LayoutView& L,
                                          StateRef<typename Model::Vars> current, const Neighbors& neighbors,
                                          const Cells& cells, const Finish& finish, std::uint32_t block) {
  const std::uint32_t i = (block * kSweepBlockThreads + threadIdx.x) / 32;
  const std::uint32_t lane = threadIdx.x % 32;
  if (i >= cells.count) return;  // whole warps leave together
  const std::uint32_t v = cells[i];
  if (finish.skips(L, v)) {  // the same answer in every lane
    if (lane == 0) finish.keep(current, v);
    return;
  }
  const std::uint32_t degree = L.degree[v];
  typename Model::Acc acc =
      fold_strided(model, current, neighbors, L.neighbors + L.hub_row_begin[v], degree, lane, 32, v);
  warp_combine(model, acc);
  if (lane == 0) finish(model, L, current, v, acc, degree);
}

template <class Model, class Neighbors, class Cells, class Finish>
__global__ void __launch_bounds__(kSweepBlockThreads)
    sweep_hub_kernel(Model model, LayoutView L, StateRef<typename Model::Vars> current, Neighbors neighbors,
                     Cells cells, Finish finish) {
  hub_agent(model, L, current, neighbors, cells, finish, blockIdx.x);
}

// Merges the partial folds of a block of kGiantHubThreads: each warp's by the shuffle tree, then
// the warps' in warp order. Thread 0 gets the total. Every thread of the block must call it.
template <class Model>
__device__ __forceinline__ typename Model::Acc block_combine(const Model& model, typename Model::Acc acc) {
  using Acc = typename Model::Acc;
  constexpr int kWarps = kGiantHubThreads / 32;
  __shared__ alignas(16) unsigned char partial_bytes[kWarps * sizeof(Acc)];
  Acc* partial = reinterpret_cast<Acc*>(partial_bytes);
  warp_combine(model, acc);
  if (threadIdx.x % 32 == 0) memcpy(&partial[threadIdx.x / 32], &acc, sizeof(Acc));
  __syncthreads();
  if (threadIdx.x == 0) {
    memcpy(&acc, &partial[0], sizeof(Acc));
    for (int w = 1; w < kWarps; ++w) {
      Acc other;
      memcpy(&other, &partial[w], sizeof(Acc));
      model.combine(acc, other);
    }
  }
  return acc;
}

// One block of kGiantHubThreads per giant hub: giant hub `block`.
template <class Model, class Neighbors, class Cells, class Finish>
__device__ __forceinline__ void giant_hub_agent(const Model& model, const LayoutView& L,
                                                StateRef<typename Model::Vars> current, const Neighbors& neighbors,
                                                const Cells& cells, const Finish& finish, std::uint32_t block) {
  const std::uint32_t v = cells[block];
  if (finish.skips(L, v)) {
    if (threadIdx.x == 0) finish.keep(current, v);
    return;
  }
  const std::uint32_t degree = L.degree[v];
  const typename Model::Acc total =
      block_combine(model, fold_strided(model, current, neighbors, L.neighbors + L.hub_row_begin[v], degree,
                                        threadIdx.x, kGiantHubThreads, v));
  if (threadIdx.x == 0) finish(model, L, current, v, total, degree);
}

template <class Model, class Neighbors, class Cells, class Finish>
__global__ void __launch_bounds__(kGiantHubThreads)
    sweep_giant_hub_kernel(Model model, LayoutView L, StateRef<typename Model::Vars> current, Neighbors neighbors,
                           Cells cells, Finish finish) {
  giant_hub_agent(model, L, current, neighbors, cells, finish, blockIdx.x);
}

// A whole sweep in one launch: the first blocks take the giant hubs, the next the hubs, the
// rest the ordinary vertices, so that hubs and ordinary slices run side by side without a
// second stream and the launch can overlap the kernel before it. Hub blocks wait for that
// kernel at once, ordinary ones after their first index loads.
static_assert(kGiantHubThreads == kSweepBlockThreads, "one block size for every part of a fused sweep");
template <class Model, class Neighbors, class Cells, class Finish>
__global__ void __launch_bounds__(kSweepBlockThreads)
    sweep_fused_kernel(Model model, LayoutView L, StateRef<typename Model::Vars> current, Neighbors neighbors,
                       Cells giants, Cells hubs, std::uint32_t hub_blocks, Cells ordinary, Finish finish) {
  allow_next_grid();
  std::uint32_t block = blockIdx.x;
  if (block < giants.count) {
    wait_for_previous_grid();
    return giant_hub_agent(model, L, current, neighbors, giants, finish, block);
  }
  block -= giants.count;
  if (block < hub_blocks) {
    wait_for_previous_grid();
    return hub_agent(model, L, current, neighbors, hubs, finish, block);
  }
  ordinary_agent(model, L, current, neighbors, ordinary, finish, block - hub_blocks);
}

// How the kernels of one sweep are launched (measured on an H100, B3/S23, `run`, updates/s):
//   overlap:  the ordinary sweep overlaps the end of the kernel before it on its stream
//             (programmatic dependent launch), which hides most of a launch where a step is
//             only a few microseconds: 4elt +27%, copter2 +4%; large graphs unchanged
//   resident: the array the gathers read, kept in the L2's persisting set-aside so that the
//             index stream does not evict it: rgg 2^24 +5%, a 4096^2 grid +12% (16 MiB
//             states); not for packed signals, which stay in L2 anyway (R-MAT 24: -5%)
//   fused:    giant hubs, hubs and ordinary vertices in one launch on one stream (small
//             layouts, whose steps last as long as their longest walk): copter2 with hubs
//             from degree 25, +15% against three kernels on two streams
struct SweepLaunch {
  bool overlap = false;
  const void* resident = nullptr;
  std::size_t resident_bytes = 0;
  bool fused = false;

  SweepLaunch without_overlap() const { return {false, resident, resident_bytes, fused}; }
};

template <class... Params, class... Args>
void launch_kernel(void (*kernel)(Params...), unsigned blocks, unsigned threads, cudaStream_t stream,
                   const SweepLaunch& how, const Args&... args) {
  cudaLaunchAttribute attributes[2];
  unsigned count = 0;
  if (how.overlap) {
    attributes[count].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attributes[count++].val.programmaticStreamSerializationAllowed = 1;
  }
  if (how.resident) {
    cudaAccessPolicyWindow& w = attributes[count].val.accessPolicyWindow;
    attributes[count++].id = cudaLaunchAttributeAccessPolicyWindow;
    w.base_ptr = const_cast<void*>(how.resident);
    w.num_bytes = how.resident_bytes;
    w.hitRatio = 1.0f;
    w.hitProp = cudaAccessPropertyPersisting;
    w.missProp = cudaAccessPropertyStreaming;
  }
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(threads);
  config.stream = stream;
  config.attrs = attributes;
  config.numAttrs = count;
  CG_CUDA(cudaLaunchKernelEx(&config, kernel, args...));
}

// Dispatch: a sweep over one set of vertices, split by kind (giant hubs, hubs, ordinary).
// Fused: one kernel on `stream`. Else three, the hubs' on hub_stream (which may equal stream);
// only the ordinary sweep overlaps the kernel before it, as the hub kernels read state from
// their first load.
template <class Model, class Neighbors, class Cells, class Finish>
void launch_sweep(const Model& model, const LayoutView& L, StateRef<typename Model::Vars> current,
                  const Neighbors& neighbors, Cells giants, Cells hubs, Cells ordinary, const Finish& finish,
                  cudaStream_t stream, cudaStream_t hub_stream, const SweepLaunch& how = {}) {
  auto blocks = [](std::uint64_t threads) { return unsigned((threads + kSweepBlockThreads - 1) / kSweepBlockThreads); };
  const unsigned hub_blocks = blocks(std::uint64_t(hubs.count) * 32);
  const unsigned ordinary_blocks =
      blocks((std::uint64_t(ordinary.count) + kVerticesPerThread - 1) / kVerticesPerThread);
  if (how.fused) {
    if (const unsigned all = giants.count + hub_blocks + ordinary_blocks)
      launch_kernel(sweep_fused_kernel<Model, Neighbors, Cells, Finish>, all, kSweepBlockThreads, stream, how, model, L,
                    current, neighbors, giants, hubs, std::uint32_t(hub_blocks), ordinary, finish);
    return;
  }
  if (giants.count)
    launch_kernel(sweep_giant_hub_kernel<Model, Neighbors, Cells, Finish>, giants.count, kGiantHubThreads, hub_stream,
                  how.without_overlap(), model, L, current, neighbors, giants, finish);
  if (hubs.count)
    launch_kernel(sweep_hub_kernel<Model, Neighbors, Cells, Finish>, hub_blocks, kSweepBlockThreads, hub_stream,
                  how.without_overlap(), model, L, current, neighbors, hubs, finish);
  if (ordinary.count)
    launch_kernel(sweep_ordinary_kernel<Model, Neighbors, Cells, Finish>, ordinary_blocks, kSweepBlockThreads, stream,
                  how, model, L, current, neighbors, ordinary, finish);
}

// The same, reading neighbors from the state itself.
template <class Model, class Cells, class Finish>
void launch_sweep(const Model& model, const LayoutView& L, StateRef<typename Model::Vars> current, Cells giants,
                  Cells hubs, Cells ordinary, const Finish& finish, cudaStream_t stream, cudaStream_t hub_stream,
                  const SweepLaunch& how = {}) {
  launch_sweep(model, L, current, StateNeighbors<typename Model::Vars>{current}, giants, hubs, ordinary, finish, stream,
               hub_stream, how);
}

__global__ void advance_step_counter(std::uint32_t* counter, std::uint32_t steps);

}  // namespace cellgraph::cuda
