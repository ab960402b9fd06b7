// The GPU neighbor search and compiler from and to host memory (neighbor_search.hpp): what
// the tests compare with the CPU and the benchmark times.
#include <algorithm>
#include <chrono>
#include <vector>

#include "cellgraph/error.hpp"
#include "cellgraph/movable/neighbor_search.hpp"
#include "src/backend/cuda/cuda_check.cuh"
#include "src/backend/cuda/stream.cuh"
#include "src/movable/cuda/device_compile.cuh"
#include "src/movable/cuda/device_search.cuh"

namespace cellgraph::cuda {
namespace {

// The coordinates copied to the device.
template <class T>
struct DevicePoints {
  DeviceArray<T> axis[3];
  DeviceAxes<T> view;
  DevicePoints(const Box& box, const PointsView<T>& points) {
    if (box.dims != 2 && box.dims != 3) throw Error("a box has 2 or 3 dimensions, not " + std::to_string(box.dims));
    for (int a = 0; a < box.dims; ++a) {
      if (points.count && !points.axis[a])
        throw Error("the positions have no coordinates along axis " + std::to_string(a));
      axis[a] = DeviceArray<T>(std::max<std::uint32_t>(points.count, 1));
      axis[a].upload(points.axis[a], points.count);
      view.axis[a] = axis[a].data();
    }
  }
};

template <class T>
void download(std::vector<T>& host, const T* device, std::size_t n) {
  host.resize(n);
  if (n) CG_CUDA(cudaMemcpy(host.data(), device, n * sizeof(T), cudaMemcpyDeviceToHost));
}

template <class F>
double median_seconds(int repeats, F&& run) {
  std::vector<double> t;
  for (int r = 0; r < std::max(repeats, 1); ++r) {
    const auto start = std::chrono::steady_clock::now();
    run();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

}  // namespace

template <class T>
NeighborGraph find_neighbors(const Box& box, double cutoff, const PointsView<T>& points) {
  const DevicePoints<T> on_device(box, points);
  Stream stream;
  DeviceNeighborSearch<T> search;
  const DeviceCsr csr = search.run(box, cutoff, on_device.view, points.count, stream);
  CG_CUDA(cudaStreamSynchronize(stream));
  NeighborGraph out;
  download(out.particle_of, csr.particle_of, csr.n);
  download(out.graph.offsets, csr.offsets, std::size_t(csr.n) + 1);
  download(out.graph.neighbors, csr.neighbors, csr.entries);
  return out;
}

template <class T>
Graph all_pairs_neighbors(const Box& box, double cutoff, const PointsView<T>& points) {
  const DevicePoints<T> on_device(box, points);
  Stream stream;
  DeviceArray<std::uint64_t> offsets;
  DeviceArray<std::uint32_t> neighbors;
  const std::uint64_t entries = device_all_pairs(box, cutoff, on_device.view, points.count, offsets, neighbors, stream);
  Graph g;
  download(g.offsets, offsets.data(), std::size_t(points.count) + 1);
  download(g.neighbors, neighbors.data(), entries);
  return g;
}

Layout compile_neighbors(const NeighborGraph& neighbors, const CompileOptions& options) {
  const Graph& g = neighbors.graph;
  check_graph(g, "compile_neighbors");
  if (neighbors.particle_of.size() != g.num_vertices())
    throw Error("compile_neighbors: one particle per vertex expected");
  if (g.num_vertices() == 0) throw Error("compile_neighbors: the graph has no vertices");
  const DeviceArray<std::uint64_t> offsets(g.offsets.data(), g.offsets.size());
  DeviceArray<std::uint32_t> list(std::max<std::size_t>(g.neighbors.size(), 1));
  list.upload(g.neighbors.data(), g.neighbors.size());
  const DeviceArray<std::uint32_t> particle_of(neighbors.particle_of.data(), neighbors.particle_of.size());
  DeviceCsr csr;
  csr.offsets = offsets.data();
  csr.neighbors = list.data();
  csr.particle_of = particle_of.data();
  csr.n = g.num_vertices();
  csr.entries = g.num_entries();
  for (VertexId v = 0; v < csr.n; ++v) csr.max_degree = std::max(csr.max_degree, g.degree(v));
  Stream stream;
  DeviceCompiler compiler;
  DeviceLayoutBuffers layout;
  compiler.compile(csr, options, layout, stream);
  return layout.download(stream);
}

template <class T>
RebuildTiming time_rebuild(const Box& box, double cutoff, const PointsView<T>& points, const CompileOptions& options,
                           int repeats) {
  const DevicePoints<T> on_device(box, points);
  Stream stream;
  DeviceNeighborSearch<T> search;
  DeviceCompiler compiler;
  DeviceLayoutBuffers layout;
  RebuildTiming t;
  auto search_only = [&] {
    const DeviceCsr csr = search.run(box, cutoff, on_device.view, points.count, stream);
    CG_CUDA(cudaStreamSynchronize(stream));
    t.entries = csr.entries;
  };
  auto search_and_compile = [&] {
    compiler.compile(search.run(box, cutoff, on_device.view, points.count, stream), options, layout, stream);
    CG_CUDA(cudaStreamSynchronize(stream));
  };
  search_and_compile();  // warm-up: buffers allocated
  t.search_seconds = median_seconds(repeats, search_only);
  t.compile_seconds = median_seconds(repeats, search_and_compile) - t.search_seconds;
  return t;
}

template <class T>
double time_all_pairs(const Box& box, double cutoff, const PointsView<T>& points, int repeats) {
  const DevicePoints<T> on_device(box, points);
  Stream stream;
  DeviceArray<std::uint64_t> offsets;
  DeviceArray<std::uint32_t> neighbors;
  auto run = [&] { device_all_pairs(box, cutoff, on_device.view, points.count, offsets, neighbors, stream); };
  run();
  return median_seconds(repeats, run);
}

#define CELLGRAPH_DEVICE_SEARCH(T)                                                                              \
  template NeighborGraph find_neighbors<T>(const Box&, double, const PointsView<T>&);                           \
  template Graph all_pairs_neighbors<T>(const Box&, double, const PointsView<T>&);                              \
  template RebuildTiming time_rebuild<T>(const Box&, double, const PointsView<T>&, const CompileOptions&, int); \
  template double time_all_pairs<T>(const Box&, double, const PointsView<T>&, int);
CELLGRAPH_DEVICE_SEARCH(float)
CELLGRAPH_DEVICE_SEARCH(double)
#undef CELLGRAPH_DEVICE_SEARCH

}  // namespace cellgraph::cuda
