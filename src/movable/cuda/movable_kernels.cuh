// The movable CUDA backend's own kernels, beside the sweep it borrows: positions into
// particle order for the search, the state moved to a new layout's order, the Verlet filter,
// the rebuild check, and the state back in particle order for observers. One thread per cell.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "cellgraph/movable/box.hpp"
#include "src/backend/cuda/device_layout.cuh"
#include "src/movable/cuda/device_search.cuh"
#include "src/movable/movable_rules.hpp"

namespace cellgraph::cuda::movable_kernels {

inline constexpr int kThreads = 256;
inline unsigned blocks_for(std::uint64_t threads) { return unsigned((threads + kThreads - 1) / kThreads); }

// out[p] = values[user_to_local[p]] (user_to_local == nullptr: the values are in particle
// order already).
template <class T>
__global__ void to_particle_order_kernel(const T* values, const std::uint32_t* user_to_local, std::uint32_t n, T* out) {
  const std::uint32_t p = blockIdx.x * kThreads + threadIdx.x;
  if (p < n) out[p] = values[user_to_local ? user_to_local[p] : p];
}

// to[l] = from[source[l]]: one variable moved to a new layout's order.
template <class T>
__global__ void gather_kernel(const T* from, const std::uint32_t* source, std::uint32_t n, T* to) {
  const std::uint32_t l = blockIdx.x * kThreads + threadIdx.x;
  if (l < n) to[l] = from[source[l]];
}

template <class T>
__global__ void filter_kernel(BoxIn<T> box, DeviceAxes<T> positions, T radius_squared, LayoutView candidates,
                              std::uint32_t* kept, std::uint32_t* degree) {
  const std::uint32_t v = blockIdx.x * kThreads + threadIdx.x;
  if (v >= candidates.num_vertices) return;
  const movable::ListAddress at =
      movable::list_address(candidates.slice_begin, candidates.hub_row_begin, candidates.num_hub_vertices, v);
  degree[v] = movable::filter_list(box, positions.axis, radius_squared, candidates.neighbors, kept, at,
                                   candidates.degree[v], v, candidates.null_cell);
}

// *moved = 1 when a cell is farther than sqrt(limit) from where it was at the last rebuild.
template <class T>
__global__ void moved_kernel(BoxIn<T> box, DeviceAxes<T> now, DeviceAxes<T> anchor, T limit, std::uint32_t n,
                             std::uint32_t* moved) {
  const std::uint32_t v = blockIdx.x * kThreads + threadIdx.x;
  if (v < n && squared_distance(box, now.axis, v, anchor.axis, v) > limit) *moved = 1;
}

// source[l] = where new cell l's state is now: the old layout's cell of the same particle.
void compose_sources(const std::uint32_t* old_user_to_local, const std::uint32_t* new_local_to_user, std::uint32_t n,
                     std::uint32_t* source, cudaStream_t stream);

}  // namespace cellgraph::cuda::movable_kernels
