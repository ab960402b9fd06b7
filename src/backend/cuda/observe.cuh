// Finish policy that adds each vertex's observable terms (model.hpp) to device sums. Terms are
// integers, so the atomic additions give the same total in any order; 32 copies of the sums
// (by lane) keep the atomics from all meeting on one address.
#pragma once
#include <cstdint>

#include "src/backend/cuda/sweep_kernels.cuh"

namespace cellgraph::cuda {

inline constexpr int kObservableCopies = 32;

template <class Model>
struct AddObservables {
  using Vars = typename Model::Vars;
  static constexpr int K = Model::num_observables;
  unsigned long long* sums;  // kObservableCopies x K

  __device__ bool skips(const LayoutView&, std::uint32_t) const { return false; }
  __device__ void keep(StateRef<Vars>, std::uint32_t) const {}
  __device__ void operator()(const Model& model, const LayoutView&, StateRef<Vars> current, std::uint32_t v,
                             const typename Model::Acc& acc, std::uint32_t) const {
    std::int64_t terms[K] = {};
    model.observe(CellRead<Vars>{current, v}, acc, terms);
    for (int k = 0; k < K; ++k)
      if (terms[k]) atomicAdd(&sums[(v % kObservableCopies) * K + k], static_cast<unsigned long long>(terms[k]));
  }
};

}  // namespace cellgraph::cuda
