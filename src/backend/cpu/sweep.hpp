// The CPU reference: one synchronous step over the compiled layout, slice by slice, with the
// model's own gather/apply. Every GPU kernel is tested against this.
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
#include <cstdint>
#include <array>

#include "cellgraph/layout.hpp"
#include "cellgraph/model.hpp"

namespace cellgraph::cpu {

// The vertex's neighbor cells in list order: row-major for hubs, column-major otherwise.
template <class Visit>
void for_each_neighbor(const Layout& L, std::uint32_t slice, std::uint32_t v, Visit visit) {
  const std::uint32_t* nb = L.neighbors.data();
  if (slice < L.num_hub_slices) {
    for (std::uint64_t at = L.hub_row_begin[v], k = 0; k < L.degree[v]; ++at, ++k) visit(nb[at], k);
  } else {
    const std::uint64_t column = L.slice_begin[slice] + (v - slice * kSliceWidth);
    for (std::uint32_t k = 0; k < L.degree[v]; ++k) visit(nb[column + std::uint64_t(k) * kSliceWidth], k);
  }
}

template <class Model>
typename Model::Acc fold_hub(const Layout& L, const Model& model, StateRef<typename Model::Vars> current,
                             std::uint32_t v) {
  using Vars = typename Model::Vars;
  using Acc = typename Model::Acc;
  const std::uint32_t threads = v < L.num_giant_hubs ? kGiantHubThreads : kWarpSize;
  std::array<Acc, kGiantHubThreads> partial;
  partial.fill(model.init());
  const std::uint32_t* row = L.neighbors.data() + L.hub_row_begin[v];
  for (std::uint32_t k = 0; k < L.degree[v]; ++k)
    model.gather(partial[k % threads], CellRead<Vars>{current, row[k]}, k);
  for (std::uint32_t warp = 0; warp < threads; warp += kWarpSize)
    for (std::uint32_t offset = kWarpSize / 2; offset > 0; offset /= 2)
      for (std::uint32_t i = 0; i < offset; ++i) model.combine(partial[warp + i], partial[warp + i + offset]);
  Acc total = partial[0];
  for (std::uint32_t warp = kWarpSize; warp < threads; warp += kWarpSize) model.combine(total, partial[warp]);
  return total;
}

template <class Model>
typename Model::Acc fold_ordinary(const Layout& L, const Model& model, StateRef<typename Model::Vars> current,
                                  std::uint32_t slice, std::uint32_t v) {
  using Vars = typename Model::Vars;
  typename Model::Acc acc = model.init();
  for_each_neighbor(L, slice, v, [&](std::uint32_t cell, std::uint32_t slot) {
    model.gather(acc, CellRead<Vars>{current, cell}, slot);
  });
  return acc;
}

template <class Model>
void sweep(const Layout& L, const Model& model, StateRef<typename Model::Vars> current,
           StateRef<typename Model::Vars> next, std::uint64_t seed, std::uint32_t step,
           int threads) {
  using Vars = typename Model::Vars;
  const std::int64_t slices = L.num_slices();
#pragma omp parallel for schedule(dynamic, 16) num_threads(threads)
  for (std::int64_t s = 0; s < slices; ++s) {
    const std::uint32_t slice = std::uint32_t(s), first = slice * kSliceWidth;
    const std::uint32_t last = std::min(L.num_vertices, first + kSliceWidth);
    for (std::uint32_t v = first; v < last; ++v) {
      const typename Model::Acc acc = slice < L.num_hub_slices ? fold_hub(L, model, current, v)
                                                               : fold_ordinary(L, model, current, slice, v);
      CellWrite<Vars> out{next, v};
      model.apply(CellRead<Vars>{current, v}, acc, out,
                  CellContext{seed, step, L.local_to_user[v], L.degree[v]});
    }
  }
}

}  // namespace cellgraph::cpu
