// The CPU reference: steps over the compiled layout with the model's own gather/apply. Every
// GPU kernel is tested against this.
//
// Fold order is part of the contract, so that models with floating-point folds agree bit for
// bit: an ordinary vertex gathers its neighbors in list order; a hub is folded as the GPU folds
// it: T partial folds (thread t takes entries t, t + T, ...; T = 32 for a hub, a warp, and
// kGiantHubThreads for a giant hub, a block), each warp's 32 merged by the shuffle tree
// (offsets 16, 8, 4, 2, 1: lane i combines lane i + offset into its own), then the warps'
// results combined in warp order.
#pragma once
#include <omp.h>

#include <algorithm>
#include <array>
#include <cstdint>

#include "cellgraph/coloring.hpp"
#include "cellgraph/layout.hpp"
#include "cellgraph/model.hpp"
#include "cellgraph/update.hpp"

namespace cellgraph::cpu {

// Merges a hub's `threads` partial folds as the GPU does: each warp's 32 by the shuffle tree
// (offsets 16, 8, 4, 2, 1), then the warps' results in warp order.
template <class Model>
typename Model::Acc combine_partials(const Model& model, typename Model::Acc* partial, std::uint32_t threads) {
  for (std::uint32_t warp = 0; warp < threads; warp += kWarpSize)
    for (std::uint32_t offset = kWarpSize / 2; offset > 0; offset /= 2)
      for (std::uint32_t i = 0; i < offset; ++i) model.combine(partial[warp + i], partial[warp + i + offset]);
  typename Model::Acc total = partial[0];
  for (std::uint32_t warp = kWarpSize; warp < threads; warp += kWarpSize) model.combine(total, partial[warp]);
  return total;
}

// `stride`: the state's elements per cell. An ensemble keeps its members' copies of a cell side
// by side (ensemble.hpp): member m reads through a StateRef offset by m with stride = members.
template <class Model>
typename Model::Acc fold_hub(const Layout& L, const Model& model, StateRef<typename Model::Vars> current,
                             std::uint32_t v, std::uint32_t stride = 1) {
  using Vars = typename Model::Vars;
  using Acc = typename Model::Acc;
  const std::uint32_t threads = v < L.num_giant_hubs ? kGiantHubThreads : kWarpSize;
  std::array<Acc, kGiantHubThreads> partial;
  partial.fill(initial_fold(model, CellRead<Vars>{current, v * stride}));
  const std::uint32_t* row = L.neighbors.data() + L.hub_row_begin[v];
  for (std::uint32_t k = 0; k < L.degree[v]; ++k)
    gather_neighbor(model, partial[k % threads], CellRead<Vars>{current, row[k] * stride}, k);
  return combine_partials(model, partial.data(), threads);
}

// Vertex v's neighbors folded in the contract's order.
template <class Model>
typename Model::Acc fold(const Layout& L, const Model& model, StateRef<typename Model::Vars> current, std::uint32_t v,
                         std::uint32_t stride = 1) {
  if (v < L.num_hub_vertices()) return fold_hub(L, model, current, v, stride);
  typename Model::Acc acc = initial_fold(model, CellRead<typename Model::Vars>{current, v * stride});
  for_each_neighbor(L, v, [&](std::uint32_t cell, std::uint32_t slot) {
    gather_neighbor(model, acc, CellRead<typename Model::Vars>{current, cell * stride}, slot);
  });
  return acc;
}

// Fewer vertices than this are updated by one thread: forking costs more than it saves.
inline constexpr std::int64_t kParallelMinimum = 8192;

struct StepContext {
  std::uint64_t seed;
  std::uint32_t step;
  double alpha;  // < 1: alpha-asynchronous
};

// One vertex's update from `current` into `next` (the same buffer for colored updates).
template <class Model>
void update_vertex(const Layout& L, const Model& model, StateRef<typename Model::Vars> current,
                   StateRef<typename Model::Vars> next, std::uint32_t v, const StepContext& step,
                   std::uint32_t stride = 1) {
  using Vars = typename Model::Vars;
  const CellRead<Vars> self{current, v * stride};
  CellWrite<Vars> out{next, v * stride};
  const std::uint32_t user = L.local_to_user[v];
  if (!updates_this_step(step.alpha, step.seed, user, step.step)) return keep_cell(self, out);
  model.apply(self, fold(L, model, current, v, stride), out, CellContext{step.seed, step.step, user, L.degree[v]});
}

// A synchronous (or alpha-asynchronous) step of vertices [first, last) from `current` into
// `next` (a partitioned step takes the vertices that read no halo cell first).
template <class Model>
void sweep(const Layout& L, const Model& model, StateRef<typename Model::Vars> current,
           StateRef<typename Model::Vars> next, const StepContext& step, int threads, std::int64_t first,
           std::int64_t last) {
#pragma omp parallel for schedule(dynamic, 512) num_threads(threads) if (last - first >= kParallelMinimum)
  for (std::int64_t v = first; v < last; ++v) update_vertex(L, model, current, next, std::uint32_t(v), step);
}

// A colored step: the classes one after another, each in place (no two of its vertices are
// neighbors, so none reads what another writes). after_class() runs after each (a
// partitioned run sends the class's new cells to its peers there).
template <class Model, class AfterClass>
void sweep_colored(const Layout& L, const Model& model, StateRef<typename Model::Vars> state,
                   const ColorClasses& classes, const StepContext& step, int threads, AfterClass&& after_class,
                   std::uint32_t stride = 1) {
  for (std::uint32_t c = 0; c < classes.count(); ++c) {
    const std::int64_t first = classes.begin[c], last = classes.begin[c + 1];
#pragma omp parallel for schedule(static) num_threads(threads) if (last - first >= kParallelMinimum)
    for (std::int64_t i = first; i < last; ++i)
      update_vertex(L, model, state, state, classes.vertices[i], step, stride);
    after_class();
  }
}

}  // namespace cellgraph::cpu
