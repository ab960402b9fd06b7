// The compiler of src/layout/compile.cpp on the GPU, for neighbor graphs that live there
// (movable cells): the same Layout, array for array, without the graph leaving the device.
//   order:    vertices sorted by degree (rounded up to the degree quantum), descending, within
//             windows of sort_window: one stable CUB radix sort of (window, ~degree) keys
//   slices:   each slice's width a max over its 32 degrees, slice_begin a CUB exclusive scan
//   lists:    one thread per vertex fills its column, padded with the null cell
//   user ids: local_to_user / user_to_local through the search's particle_of
// Graphs with hubs (a vertex of degree >= the hub threshold, rare among particles) are copied
// back and compiled on the host, then uploaded: the device compiler builds ordinary slices only.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "cellgraph/layout.hpp"
#include "src/backend/cuda/device_array.cuh"
#include "src/backend/cuda/device_layout.cuh"
#include "src/movable/cuda/device_search.cuh"

namespace cellgraph::cuda {

// A compiled layout of a whole graph (no halo) held on the device only, and the view the
// sweep kernels take. Arrays may be longer than the layout (they are reused).
struct DeviceLayoutBuffers {
  std::uint32_t num_vertices = 0, num_slices = 0, num_hub_slices = 0, num_hub_vertices = 0, num_giant_hubs = 0;
  std::uint32_t hub_degree = 0, giant_degree = 0, interior_begin = 0;
  std::uint64_t stored = 0;  // list entries, padding included
  DeviceArray<std::uint32_t> neighbors, slice_width, degree, local_to_user, user_to_local;
  DeviceArray<std::uint64_t> slice_begin, hub_row_begin;

  LayoutView view() const;
  // A host copy, as compile_neighbors() returns it.
  Layout download(cudaStream_t stream) const;
  // From a layout compiled on the host.
  void upload(const Layout& layout, cudaStream_t stream);
};

class DeviceCompiler {
 public:
  DeviceCompiler();
  // Compiles `graph` into `out` on `stream` as compile_neighbors() would on the host. Waits
  // once, for the number of list entries (to size them).
  void compile(const DeviceCsr& graph, CompileOptions options, DeviceLayoutBuffers& out, cudaStream_t stream);
  // Whether the last graph had hubs and was compiled on the host.
  bool compiled_on_host() const { return on_host_; }

 private:
  DeviceArray<std::uint64_t> keys_in_, keys_, slice_size_;
  DeviceArray<std::uint32_t> ids_in_, graph_of_local_, local_of_graph_;
  DeviceArray<unsigned char> temp_;
  PinnedArray<std::uint64_t> readback_;
  bool on_host_ = false;
};

}  // namespace cellgraph::cuda
