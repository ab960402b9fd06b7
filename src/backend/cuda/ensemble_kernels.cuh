// Agents and kernels of an ensemble's sweeps (ensemble.hpp): sweep_kernels.cuh's walks with a
// member dimension. A work item is a (vertex, member) pair; member m's copy of cell c is state
// element c * members + m. Consecutive threads take consecutive members of one vertex, so the
// lanes of a warp load each neighbor index at one address (one broadcast load between them)
// and gather their copies of that neighbor from one or two 32-byte sectors.
//   ordinary vertices: one thread per item, the walk of sweep_kernels.cuh
//   hubs:              one warp per item, giant hubs one block per item, folded in the plain
//                      sweep's order (which cpu::fold_hub reproduces)
// Which items a launch covers is an item policy: every live member of a range of vertices
// (a synchronous step) or listed pairs (one color class of every member).
#pragma once
#include <cstdint>
#include <type_traits>

#include "src/backend/cuda/sweep_kernels.cuh"

namespace cellgraph::cuda {

struct MemberItem {
  std::uint32_t v, m;
};

// Up to K members of one vertex: what one thread of an ordinary sweep updates, walking the
// vertex's list once for all of them.
template <int K>
struct MemberGroup {
  std::uint32_t v, count;
  std::uint32_t m[K];
};

// Vertices first .. first + count - 1, each for members live[0 .. live_count), members minor;
// an ordinary sweep takes them K at a time.
struct LiveMembersOf {
  VertexRange vertices;
  const std::uint32_t* live;
  std::uint32_t live_count;
  __host__ __device__ std::uint32_t count() const { return vertices.count * live_count; }
  __device__ MemberItem operator[](std::uint32_t i) const {
    return {vertices.first + i / live_count, __ldg(live + i % live_count)};
  }
  template <int K>
  __host__ __device__ std::uint32_t groups() const {
    return vertices.count * ((live_count + K - 1) / K);
  }
  template <int K>
  __device__ MemberGroup<K> group(std::uint32_t i) const {
    const std::uint32_t per_vertex = (live_count + K - 1) / K, first = (i % per_vertex) * K;
    MemberGroup<K> g;
    g.v = vertices.first + i / per_vertex;
    g.count = min(std::uint32_t(K), live_count - first);
#pragma unroll
    for (int q = 0; q < K; ++q) g.m[q] = __ldg(live + first + min(std::uint32_t(q), g.count - 1));
    return g;
  }
};

// `size` listed pairs: vertex[i] of member member[i], one a group.
struct MemberPairs {
  const std::uint32_t* vertex;
  const std::uint32_t* member;
  std::uint32_t size;
  __host__ __device__ std::uint32_t count() const { return size; }
  __device__ MemberItem operator[](std::uint32_t i) const { return {__ldg(vertex + i), __ldg(member + i)}; }
  template <int K>
  __host__ __device__ std::uint32_t groups() const {
    static_assert(K == 1, "listed pairs are taken one at a time");
    return size;
  }
  template <int K>
  __device__ MemberGroup<K> group(std::uint32_t i) const {
    return {__ldg(vertex + i), 1, {__ldg(member + i)}};
  }
};

// The model of each member: one per sweep point, `replicas` members each.
template <class Model>
struct MemberModels {
  const Model* models;
  std::uint32_t replicas;
  __device__ const Model& of(std::uint32_t m) const { return models[m / replicas]; }
};

// Member m's copies of the neighbors.
template <class Vars>
struct MemberNeighbors {
  StateRef<Vars> state;
  std::uint32_t members, m;
  template <class Model>
  __device__ __forceinline__ void gather(const Model& model, typename Model::Acc& acc, std::uint32_t cell,
                                         std::uint32_t slot) const {
    gather_neighbor(model, acc, CellRead<Vars>{state, cell * members + m}, slot);
  }
};

// Finish policy of a step: the model's apply into `next` (== current for colored updates),
// with the member's own seed.
template <class Model>
struct ApplyMemberStep {
  using Vars = typename Model::Vars;
  StateRef<Vars> next;
  const std::uint64_t* seeds;
  std::uint32_t members, step;
  double alpha;  // < 1: alpha-asynchronous

  __device__ bool skips(const LayoutView& L, MemberItem c) const {
    return alpha < 1.0 && !updates_this_step(alpha, seeds[c.m], L.user_of(c.v), step);
  }
  __device__ void keep(StateRef<Vars> current, MemberItem c) const {
    const std::uint32_t e = c.v * members + c.m;
    CellWrite<Vars> out{next, e};
    keep_cell(CellRead<Vars>{current, e}, out);
  }
  __device__ void operator()(const Model& model, const LayoutView& L, StateRef<Vars> current, MemberItem c,
                             const typename Model::Acc& acc, std::uint32_t degree) const {
    const std::uint32_t e = c.v * members + c.m;
    CellWrite<Vars> out{next, e};
    model.apply(CellRead<Vars>{current, e}, acc, out,
                CellContext::deferred(seeds[c.m], nullptr, step, L.local_to_user ? L.local_to_user + c.v : nullptr,
                                      degree, c.v));
  }
};

// Finish policy adding each item's observable terms to its member's sums (sums[m * K + k]):
// integers, so the atomic additions give the same totals in any order.
template <class Model>
struct AddMemberObservables {
  using Vars = typename Model::Vars;
  static constexpr int K = Model::num_observables;
  unsigned long long* sums;
  std::uint32_t members;

  __device__ bool skips(const LayoutView&, MemberItem) const { return false; }
  __device__ void keep(StateRef<Vars>, MemberItem) const {}
  __device__ void operator()(const Model& model, const LayoutView&, StateRef<Vars> current, MemberItem c,
                             const typename Model::Acc& acc, std::uint32_t) const {
    std::int64_t terms[K] = {};
    model.observe(CellRead<Vars>{current, c.v * members + c.m}, acc, terms);
    for (int k = 0; k < K; ++k)
      if (terms[k]) atomicAdd(&sums[std::size_t(c.m) * K + k], static_cast<unsigned long long>(terms[k]));
  }
};

// The folds of a group's members, and the policy that gathers a neighbor into each.
template <class Model, int K>
struct GroupAcc {
  typename Model::Acc member[K];
};
template <class Model, int K>
struct GroupNeighbors {
  using Vars = typename Model::Vars;
  StateRef<Vars> state;
  std::uint32_t members;
  const MemberGroup<K>& group;
  const Model* const* model;  // each member's
  template <class Any>
  __device__ __forceinline__ void gather(const Any&, GroupAcc<Model, K>& acc, std::uint32_t cell,
                                         std::uint32_t slot) const {
    const std::uint32_t base = cell * members;
#pragma unroll
    for (int q = 0; q < K; ++q)
      gather_neighbor(*model[q], acc.member[q], CellRead<Vars>{state, base + group.m[q]}, slot);
  }
};

// Members a thread of an ordinary sweep takes: one walk of a vertex's list (its slice
// metadata, its index loads) serves them all. Small folds only, to keep the registers of a
// plain sweep.
template <class Model>
inline constexpr int kMembersPerThread = sizeof(typename Model::Acc) <= 8 ? 4 : 1;

template <int K, class Model, class Items, class Finish>
__global__ void __launch_bounds__(kSweepBlockThreads)
    ensemble_ordinary_kernel(MemberModels<Model> models, LayoutView L, StateRef<typename Model::Vars> current,
                             std::uint32_t members, Items items, Finish finish) {
  using Vars = typename Model::Vars;
  const std::uint64_t i = std::uint64_t(blockIdx.x) * kSweepBlockThreads + threadIdx.x;
  if (i >= items.template groups<K>()) return;
  const MemberGroup<K> g = items.template group<K>(std::uint32_t(i));
  const Model* model[K];
  bool walks = false, updates[K];
#pragma unroll
  for (int q = 0; q < K; ++q) {
    model[q] = &models.of(g.m[q]);
    const MemberItem c{g.v, g.m[q]};
    updates[q] = std::uint32_t(q) < g.count && !finish.skips(L, c);
    if (std::uint32_t(q) < g.count && !updates[q]) finish.keep(current, c);
    walks |= updates[q];
  }
  if (!walks) return;
  OrdinaryWalk w;
  begin_walk(L, g.v, w);
  GroupAcc<Model, K> acc;
#pragma unroll
  for (int q = 0; q < K; ++q) acc.member[q] = initial_fold(*model[q], CellRead<Vars>{current, g.v * members + g.m[q]});
  const std::uint32_t degree = fold_walk(*model[0], L, GroupNeighbors<Model, K>{current, members, g, model}, w, acc);
#pragma unroll
  for (int q = 0; q < K; ++q)
    if (updates[q]) finish(*model[q], L, current, MemberItem{g.v, g.m[q]}, acc.member[q], degree);
}

// One warp per item.
template <class Model, class Items, class Finish>
__global__ void __launch_bounds__(kSweepBlockThreads)
    ensemble_hub_kernel(MemberModels<Model> models, LayoutView L, StateRef<typename Model::Vars> current,
                        std::uint32_t members, Items items, Finish finish) {
  using Vars = typename Model::Vars;
  const std::uint64_t i = (std::uint64_t(blockIdx.x) * kSweepBlockThreads + threadIdx.x) / 32;
  const std::uint32_t lane = threadIdx.x % 32;
  if (i >= items.count()) return;  // whole warps leave together
  const MemberItem c = items[std::uint32_t(i)];
  if (finish.skips(L, c)) {
    if (lane == 0) finish.keep(current, c);
    return;
  }
  const Model& model = models.of(c.m);
  const std::uint32_t degree = L.degree[c.v];
  typename Model::Acc acc = fold_strided(model, current, MemberNeighbors<Vars>{current, members, c.m},
                                         L.neighbors + L.hub_row_begin[c.v], degree, lane, 32, c.v * members + c.m);
  warp_combine(model, acc);
  if (lane == 0) finish(model, L, current, c, acc, degree);
}

// One block of kGiantHubThreads per item.
template <class Model, class Items, class Finish>
__global__ void __launch_bounds__(kGiantHubThreads)
    ensemble_giant_hub_kernel(MemberModels<Model> models, LayoutView L, StateRef<typename Model::Vars> current,
                              std::uint32_t members, Items items, Finish finish) {
  using Vars = typename Model::Vars;
  const MemberItem c = items[blockIdx.x];
  if (finish.skips(L, c)) {
    if (threadIdx.x == 0) finish.keep(current, c);
    return;
  }
  const Model& model = models.of(c.m);
  const std::uint32_t degree = L.degree[c.v];
  const typename Model::Acc total =
      block_combine(model, fold_strided(model, current, MemberNeighbors<Vars>{current, members, c.m},
                                        L.neighbors + L.hub_row_begin[c.v], degree, threadIdx.x, kGiantHubThreads,
                                        c.v * members + c.m));
  if (threadIdx.x == 0) finish(model, L, current, c, total, degree);
}

// Dispatch: the items of one sweep, split by kind, one launch each on `stream`.
template <class Model, class Items, class Finish>
void launch_ensemble_sweep(MemberModels<Model> models, const LayoutView& L, StateRef<typename Model::Vars> current,
                           std::uint32_t members, Items giants, Items hubs, Items ordinary, const Finish& finish,
                           cudaStream_t stream) {
  auto blocks = [](std::uint64_t threads) { return unsigned((threads + kSweepBlockThreads - 1) / kSweepBlockThreads); };
  if (giants.count())
    ensemble_giant_hub_kernel<<<unsigned(giants.count()), kGiantHubThreads, 0, stream>>>(models, L, current, members,
                                                                                         giants, finish);
  if (hubs.count())
    ensemble_hub_kernel<<<blocks(std::uint64_t(hubs.count()) * 32), kSweepBlockThreads, 0, stream>>>(
        models, L, current, members, hubs, finish);
  constexpr int K = std::is_same_v<Items, MemberPairs> ? 1 : kMembersPerThread<Model>;
  if (const std::uint32_t groups = ordinary.template groups<K>())
    ensemble_ordinary_kernel<K>
        <<<blocks(groups), kSweepBlockThreads, 0, stream>>>(models, L, current, members, ordinary, finish);
  CG_CUDA_LAUNCHED();
}

// Census of every member at once: counts[m * bins + s] += cells of member m in state s (values
// past the last state in the last bin). A thread counts one member's cells of a chunk of
// vertices in shared memory (16-bit counters: chunks of at most 65,535), then adds its counts.
inline constexpr unsigned kCensusThreads = 64;
inline constexpr std::uint32_t kCensusChunk = 4096;
inline constexpr std::uint32_t kCensusMaxBins = 256;  // 32 KiB of counters a block

template <class Primary>
__global__ void __launch_bounds__(kCensusThreads)
    ensemble_census_kernel(const Primary* states, std::uint32_t cells, std::uint32_t members, std::uint32_t bins,
                           unsigned long long* counts) {
  extern __shared__ std::uint16_t local[];  // bins x kCensusThreads
  const std::uint32_t m = blockIdx.x * kCensusThreads + threadIdx.x;
  if (m >= members) return;
  const std::uint32_t chunks = (cells + kCensusChunk - 1) / kCensusChunk;
  for (std::uint32_t chunk = blockIdx.y; chunk < chunks; chunk += gridDim.y) {
    for (std::uint32_t s = 0; s < bins; ++s) local[s * kCensusThreads + threadIdx.x] = 0;
    const std::uint32_t first = chunk * kCensusChunk, last = min(cells, first + kCensusChunk);
    for (std::uint32_t v = first; v < last; ++v) {
      const std::uint32_t s = min(std::uint32_t(states[std::size_t(v) * members + m]), bins - 1);
      ++local[s * kCensusThreads + threadIdx.x];
    }
    for (std::uint32_t s = 0; s < bins; ++s)
      if (const std::uint32_t n = local[s * kCensusThreads + threadIdx.x])
        atomicAdd(&counts[std::size_t(m) * bins + s], static_cast<unsigned long long>(n));
  }
}

// active[k] = 1 where live member live[k] has an active cell (model.hpp's HasActive) among the
// vertices and the boundary cell (which is read like any other).
template <class Model>
__global__ void ensemble_active_kernel(MemberModels<Model> models, StateRef<typename Model::Vars> current,
                                       std::uint32_t vertices, std::uint32_t boundary, std::uint32_t members,
                                       const std::uint32_t* live, std::uint32_t live_count, std::uint8_t* active) {
  const std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= std::uint64_t(vertices + 1) * live_count) return;
  const std::uint32_t v = std::uint32_t(i / live_count), k = std::uint32_t(i % live_count), m = live[k];
  const std::uint32_t cell = v < vertices ? v : boundary;
  if (models.of(m).active(CellRead<typename Model::Vars>{current, cell * members + m})) active[k] = 1;
}

// Copies every variable of `count` cells of members listed[0 .. listed_count) from one buffer
// to the other.
template <class Vars>
__global__ void copy_members_kernel(StateRef<Vars> from, StateRef<Vars> to, std::uint32_t cells, std::uint32_t members,
                                    const std::uint32_t* listed, std::uint32_t listed_count) {
  const std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= std::uint64_t(cells) * listed_count) return;
  const std::uint32_t e = std::uint32_t(i / listed_count) * members + listed[i % listed_count];
  CellWrite<Vars> out{to, e};
  keep_cell(CellRead<Vars>{from, e}, out);
}

}  // namespace cellgraph::cuda
