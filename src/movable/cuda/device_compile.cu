#include "src/movable/cuda/device_compile.cuh"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <string>
#include <vector>

#include "cellgraph/error.hpp"
#include "cellgraph/movable/neighbor_search.hpp"
#include "src/backend/cuda/cuda_check.cuh"

namespace cellgraph::cuda {
namespace {

constexpr int kThreads = 256;

unsigned blocks_for(std::uint64_t threads) { return unsigned((threads + kThreads - 1) / kThreads); }

// Sort keys of compile.cpp's degree_order without hubs: window first, then the degree bucket
// descending (its complement ascending); the stable sort keeps vertex order among equals.
__global__ void order_keys_kernel(const std::uint64_t* offsets, std::uint32_t n, std::uint32_t window,
                                  std::uint32_t quantum, std::uint64_t* keys, std::uint32_t* ids) {
  const std::uint32_t s = blockIdx.x * kThreads + threadIdx.x;
  if (s >= n) return;
  const std::uint32_t degree = std::uint32_t(offsets[s + 1] - offsets[s]);
  const std::uint32_t bucket = (degree + quantum - 1) / quantum;
  keys[s] = (std::uint64_t(s / window) << 32) | std::uint64_t(0xFFFFFFFFu - bucket);
  ids[s] = s;
}

__global__ void place_kernel(const std::uint32_t* graph_of_local, const std::uint64_t* offsets,
                             const std::uint32_t* particle_of, std::uint32_t n, std::uint32_t* local_of_graph,
                             std::uint32_t* degree, std::uint32_t* local_to_user, std::uint32_t* user_to_local) {
  const std::uint32_t l = blockIdx.x * kThreads + threadIdx.x;
  if (l >= n) return;
  const std::uint32_t g = graph_of_local[l], user = particle_of[g];
  local_of_graph[g] = l;
  degree[l] = std::uint32_t(offsets[g + 1] - offsets[g]);
  local_to_user[l] = user;
  user_to_local[user] = l;
}

__global__ void slice_width_kernel(const std::uint32_t* degree, std::uint32_t n, std::uint32_t slices,
                                   std::uint32_t* width, std::uint64_t* size) {
  const std::uint32_t s = blockIdx.x * kThreads + threadIdx.x;
  if (s >= slices) return;
  std::uint32_t w = 0;
  for (std::uint32_t v = s * kSliceWidth; v < n && v < (s + 1) * kSliceWidth; ++v) w = max(w, degree[v]);
  width[s] = w;
  size[s] = std::uint64_t(w) * kSliceWidth;
}

// One thread per lane of every slice (lanes past the last vertex hold padding only).
__global__ void fill_slices_kernel(const std::uint64_t* offsets, const std::uint32_t* graph_neighbors,
                                   const std::uint32_t* graph_of_local, const std::uint32_t* local_of_graph,
                                   const std::uint32_t* degree, const std::uint64_t* slice_begin,
                                   const std::uint32_t* slice_width, std::uint32_t n, std::uint32_t lanes,
                                   std::uint32_t* neighbors) {
  const std::uint32_t l = blockIdx.x * kThreads + threadIdx.x;
  if (l >= lanes) return;
  const std::uint32_t s = l / kSliceWidth, width = slice_width[s], null_cell = n;
  std::uint32_t* column = neighbors + slice_begin[s] + l % kSliceWidth;
  const std::uint32_t d = l < n ? degree[l] : 0;
  const std::uint32_t* row = l < n ? graph_neighbors + offsets[graph_of_local[l]] : nullptr;
  for (std::uint32_t k = 0; k < width; ++k)
    column[std::size_t(k) * kSliceWidth] = k < d ? local_of_graph[row[k]] : null_cell;
}

int bits_for(std::uint64_t count) {
  int bits = 1;
  while (bits < 64 && (std::uint64_t(1) << bits) < count) ++bits;
  return bits;
}

template <class T>
void download_into(std::vector<T>& host, const DeviceArray<T>& device, std::size_t n, cudaStream_t stream) {
  host.resize(n);
  if (n) CG_CUDA(cudaMemcpyAsync(host.data(), device.data(), n * sizeof(T), cudaMemcpyDeviceToHost, stream));
}

template <class T>
void upload_from(DeviceArray<T>& device, const T* host, std::size_t n, cudaStream_t stream) {
  ensure_size(device, std::max<std::size_t>(n, 1));
  if (n) CG_CUDA(cudaMemcpyAsync(device.data(), host, n * sizeof(T), cudaMemcpyHostToDevice, stream));
}

// The graph copied back to the host, for the host compiler.
NeighborGraph download_graph(const DeviceCsr& graph, cudaStream_t stream) {
  NeighborGraph g;
  g.particle_of.resize(graph.n);
  g.graph.offsets.resize(std::size_t(graph.n) + 1);
  g.graph.neighbors.resize(graph.entries);
  CG_CUDA(cudaMemcpyAsync(g.particle_of.data(), graph.particle_of, graph.n * sizeof(std::uint32_t),
                          cudaMemcpyDeviceToHost, stream));
  CG_CUDA(cudaMemcpyAsync(g.graph.offsets.data(), graph.offsets, (std::size_t(graph.n) + 1) * sizeof(std::uint64_t),
                          cudaMemcpyDeviceToHost, stream));
  if (graph.entries)
    CG_CUDA(cudaMemcpyAsync(g.graph.neighbors.data(), graph.neighbors, graph.entries * sizeof(std::uint32_t),
                            cudaMemcpyDeviceToHost, stream));
  CG_CUDA(cudaStreamSynchronize(stream));
  return g;
}

}  // namespace

LayoutView DeviceLayoutBuffers::view() const {
  return {neighbors.data(), slice_begin.data(),   slice_width.data(), hub_row_begin.data(),
          degree.data(),    local_to_user.data(), num_vertices,       num_slices,
          num_hub_slices,   num_hub_vertices,     num_giant_hubs,     num_vertices};
}

Layout DeviceLayoutBuffers::download(cudaStream_t stream) const {
  Layout L;
  L.num_vertices = num_vertices;
  L.num_hub_slices = num_hub_slices;
  L.num_giant_hubs = num_giant_hubs;
  L.hub_degree = hub_degree;
  L.giant_degree = giant_degree;
  L.interior_begin = interior_begin;
  download_into(L.slice_begin, slice_begin, std::size_t(num_slices) + 1, stream);
  download_into(L.slice_width, slice_width, num_slices, stream);
  download_into(L.hub_row_begin, hub_row_begin, std::size_t(num_hub_vertices) + 1, stream);
  download_into(L.degree, degree, num_vertices, stream);
  download_into(L.local_to_user, local_to_user, num_vertices, stream);
  download_into(L.user_to_local, user_to_local, num_vertices, stream);
  L.neighbors = AlignedArray<std::uint32_t>(stored);
  if (stored)
    CG_CUDA(cudaMemcpyAsync(L.neighbors.data(), neighbors.data(), stored * sizeof(std::uint32_t),
                            cudaMemcpyDeviceToHost, stream));
  CG_CUDA(cudaStreamSynchronize(stream));
  return L;
}

void DeviceLayoutBuffers::upload(const Layout& L, cudaStream_t stream) {
  if (L.num_halo != 0 || !L.peers.empty()) throw Error("a movable layout is a whole graph");
  num_vertices = L.num_vertices;
  num_slices = L.num_slices();
  num_hub_slices = L.num_hub_slices;
  num_hub_vertices = L.num_hub_vertices();
  num_giant_hubs = L.num_giant_hubs;
  hub_degree = L.hub_degree;
  giant_degree = L.giant_degree;
  interior_begin = L.interior_begin;
  stored = L.neighbors.size();
  upload_from(neighbors, L.neighbors.data(), stored, stream);
  upload_from(slice_begin, L.slice_begin.data(), L.slice_begin.size(), stream);
  upload_from(slice_width, L.slice_width.data(), L.slice_width.size(), stream);
  upload_from(hub_row_begin, L.hub_row_begin.data(), L.hub_row_begin.size(), stream);
  upload_from(degree, L.degree.data(), L.degree.size(), stream);
  upload_from(local_to_user, L.local_to_user.data(), L.local_to_user.size(), stream);
  upload_from(user_to_local, L.user_to_local.data(), L.user_to_local.size(), stream);
  CG_CUDA(cudaStreamSynchronize(stream));  // the host layout may go now
}

DeviceCompiler::DeviceCompiler() : readback_(1) {}

void DeviceCompiler::compile(const DeviceCsr& graph, CompileOptions options, DeviceLayoutBuffers& out,
                             cudaStream_t stream) {
  if (options.sort_window == 0) throw Error("the sort window must be at least 1");
  if (options.degree_quantum == 0) throw Error("the degree quantum must be at least 1");
  const std::uint32_t n = graph.n;
  // compile()'s thresholds: the same mean degree, computed alike.
  options = compile_options_for_mean_degree(n ? double(graph.entries) / n : 0.0, options);
  on_host_ = graph.max_degree >= options.hub_degree;
  if (on_host_) {
    out.upload(cellgraph::compile_neighbors(download_graph(graph, stream), options), stream);
    return;
  }
  const std::uint32_t slices = (n + kSliceWidth - 1) / kSliceWidth;
  for (auto* a : {&keys_in_, &keys_}) ensure_size(*a, n);
  for (auto* a : {&ids_in_, &graph_of_local_, &local_of_graph_}) ensure_size(*a, n);
  ensure_size(slice_size_, std::size_t(slices) + 1);
  for (auto* a : {&out.degree, &out.local_to_user, &out.user_to_local}) ensure_size(*a, n);
  ensure_size(out.slice_width, slices);
  ensure_size(out.slice_begin, std::size_t(slices) + 1);
  ensure_size(out.hub_row_begin, 1);

  order_keys_kernel<<<blocks_for(n), kThreads, 0, stream>>>(graph.offsets, n, options.sort_window,
                                                            options.degree_quantum, keys_in_.data(), ids_in_.data());
  CG_CUDA_LAUNCHED();
  const std::uint64_t windows = (std::uint64_t(n) + options.sort_window - 1) / options.sort_window;
  const int end_bit = 32 + (windows > 1 ? bits_for(windows) : 0);
  std::size_t sort_bytes = 0, scan_bytes = 0;
  CG_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, keys_in_.data(), keys_.data(), ids_in_.data(),
                                          graph_of_local_.data(), n, 0, end_bit, stream));
  CG_CUDA(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, slice_size_.data(), out.slice_begin.data(), slices + 1,
                                        stream));
  ensure_size(temp_, std::max<std::size_t>({sort_bytes, scan_bytes, 1}));
  CG_CUDA(cub::DeviceRadixSort::SortPairs(temp_.data(), sort_bytes, keys_in_.data(), keys_.data(), ids_in_.data(),
                                          graph_of_local_.data(), n, 0, end_bit, stream));
  place_kernel<<<blocks_for(n), kThreads, 0, stream>>>(graph_of_local_.data(), graph.offsets, graph.particle_of, n,
                                                       local_of_graph_.data(), out.degree.data(),
                                                       out.local_to_user.data(), out.user_to_local.data());
  CG_CUDA_LAUNCHED();
  CG_CUDA(cudaMemsetAsync(slice_size_.data() + slices, 0, sizeof(std::uint64_t), stream));
  slice_width_kernel<<<blocks_for(slices), kThreads, 0, stream>>>(out.degree.data(), n, slices, out.slice_width.data(),
                                                                  slice_size_.data());
  CG_CUDA_LAUNCHED();
  CG_CUDA(cub::DeviceScan::ExclusiveSum(temp_.data(), scan_bytes, slice_size_.data(), out.slice_begin.data(),
                                        slices + 1, stream));
  CG_CUDA(cudaMemcpyAsync(&readback_[0], out.slice_begin.data() + slices, sizeof(std::uint64_t), cudaMemcpyDeviceToHost,
                          stream));
  CG_CUDA(cudaMemsetAsync(out.hub_row_begin.data(), 0, sizeof(std::uint64_t), stream));
  CG_CUDA(cudaStreamSynchronize(stream));  // the entries to make room for
  out.stored = readback_[0];
  ensure_size(out.neighbors, std::max<std::uint64_t>(out.stored, 1));
  const std::uint32_t lanes = slices * kSliceWidth;
  fill_slices_kernel<<<blocks_for(lanes), kThreads, 0, stream>>>(
      graph.offsets, graph.neighbors, graph_of_local_.data(), local_of_graph_.data(), out.degree.data(),
      out.slice_begin.data(), out.slice_width.data(), n, lanes, out.neighbors.data());
  CG_CUDA_LAUNCHED();
  out.num_vertices = n;
  out.num_slices = slices;
  out.num_hub_slices = 0;
  out.num_hub_vertices = 0;
  out.num_giant_hubs = 0;
  out.hub_degree = options.hub_degree;
  out.giant_degree = options.giant_degree;
  out.interior_begin = 0;
}

}  // namespace cellgraph::cuda
