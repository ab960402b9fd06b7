// Jones-Plassmann coloring on the GPU: in each round, every uncolored vertex whose uncolored
// neighbors all have lower priority takes the smallest color none of its (colored, higher
// priority) neighbors has. Colors are read from the previous round and written to the next,
// so a round's result does not depend on thread timing, and the whole equals greedy first-fit
// in priority order: the CPU's greedy_coloring.
#include <cstdint>
#include <vector>

#include "cellgraph/coloring.hpp"
#include "cellgraph/error.hpp"
#include "cellgraph/simulation.hpp"
#include "src/backend/cuda/coloring.cuh"
#include "src/backend/cuda/device_array.cuh"

namespace cellgraph {
namespace cuda {
namespace {

constexpr int kColoringBlock = 256;

// visit(u) for each list entry of v that is another updated vertex.
template <class Visit>
__device__ void for_each_vertex_neighbor(const LayoutView& L, std::uint32_t v, Visit&& visit) {
  // Ordinary lists to their slice's width: padding reads the null cell, which is skipped (the
  // device keeps the degrees of hubs only).
  const bool hub = v < L.num_hub_vertices;
  const std::uint32_t length = hub ? L.degree[v] : L.slice_width[v / 32];
  const SliceLists lists = L.lists();
  for (std::uint32_t k = 0; k < length; ++k) {
    const std::uint32_t u = hub ? L.neighbors[L.hub_row_begin[v] + k] : lists.entry(v, k);
    if (u < L.num_vertices && u != v) visit(u);
  }
}

__global__ void priorities_kernel(LayoutView L, std::uint64_t seed, std::uint64_t* priority) {
  const std::uint32_t v = blockIdx.x * kColoringBlock + threadIdx.x;
  if (v < L.num_vertices) priority[v] = coloring_priority(seed, L.user_of(v));
}

__global__ void jones_plassmann_round(LayoutView L, const std::uint64_t* priority, const std::uint32_t* color,
                                      std::uint32_t* next_color, unsigned int* uncolored) {
  const std::uint32_t v = blockIdx.x * kColoringBlock + threadIdx.x;
  if (v >= L.num_vertices) return;
  if (color[v] != kNoColor) {
    next_color[v] = color[v];
    return;
  }
  bool waits = false;
  for_each_vertex_neighbor(L, v, [&](std::uint32_t u) { waits |= color[u] == kNoColor && priority[u] > priority[v]; });
  if (waits) {
    next_color[v] = kNoColor;
    atomicAdd(uncolored, 1u);
    return;
  }
  // First fit, 64 colors at a time: every colored neighbor has a higher priority.
  for (std::uint32_t base = 0;; base += 64) {
    std::uint64_t used = 0;
    for_each_vertex_neighbor(L, v, [&](std::uint32_t u) {
      const std::uint32_t c = color[u];
      if (c != kNoColor && c >= base && c - base < 64) used |= std::uint64_t(1) << (c - base);
    });
    if (~used) {
      next_color[v] = base + std::uint32_t(__ffsll(static_cast<long long>(~used)) - 1);
      return;
    }
  }
}

}  // namespace

std::vector<std::uint32_t> jones_plassmann(const DeviceLayout& device, std::uint32_t num_vertices, std::uint64_t seed) {
  const LayoutView& L = device.view();
  const unsigned blocks = (num_vertices + kColoringBlock - 1) / kColoringBlock;
  std::vector<std::uint32_t> colors(num_vertices);
  if (!num_vertices) return colors;
  DeviceArray<std::uint64_t> priority(num_vertices);
  DeviceArray<std::uint32_t> color(num_vertices), next_color(num_vertices);
  DeviceArray<unsigned int> uncolored(1);
  CG_CUDA(cudaMemset(color.data(), 0xFF, num_vertices * sizeof(std::uint32_t)));
  priorities_kernel<<<blocks, kColoringBlock>>>(L, seed, priority.data());
  CG_CUDA_LAUNCHED();
  for (unsigned int left = num_vertices; left > 0;) {
    CG_CUDA(cudaMemset(uncolored.data(), 0, sizeof(unsigned int)));
    jones_plassmann_round<<<blocks, kColoringBlock>>>(L, priority.data(), color.data(), next_color.data(),
                                                      uncolored.data());
    CG_CUDA_LAUNCHED();
    color.swap(next_color);
    CG_CUDA(cudaMemcpy(&left, uncolored.data(), sizeof left, cudaMemcpyDeviceToHost));
  }
  CG_CUDA(cudaMemcpy(colors.data(), color.data(), num_vertices * sizeof(std::uint32_t), cudaMemcpyDeviceToHost));
  return colors;
}

}  // namespace cuda

std::vector<std::uint32_t> gpu_coloring(const Layout& layout, std::uint64_t seed) {
  if (!cuda_device_available()) throw Error("gpu_coloring: no CUDA device is available");
  if (!layout.symmetric) throw Error("gpu_coloring: the graph is not symmetric (greedy_coloring handles it)");
  cuda::DeviceLayout device(layout);
  return cuda::jones_plassmann(device, layout.num_vertices, seed);
}

}  // namespace cellgraph
