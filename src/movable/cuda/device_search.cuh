// The cell-list neighbor search on the GPU, the steps of the CPU's (src/movable/
// neighbor_search.cpp) with CUB: bin keys per particle (in particle id order), a stable radix
// sort of (key, id) pairs, bin ranges, a count pass, an exclusive scan into CSR offsets, and
// a fill pass that writes each row in ascending particle id. The graph stays on the device
// (cell-list order, as NeighborGraph); two small numbers come back to the host per search:
// the entry count (to size the rows) and the longest row (whether the device compiler can
// take the graph).
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "cellgraph/movable/box.hpp"
#include "src/backend/cuda/device_array.cuh"

namespace cellgraph::cuda {

// A neighbor graph in cell-list order on the device: vertex s is particle particle_of[s]; row
// s is neighbors[offsets[s], offsets[s + 1]), vertices in ascending particle id.
struct DeviceCsr {
  const std::uint64_t* offsets = nullptr;  // n + 1
  const std::uint32_t* neighbors = nullptr;
  const std::uint32_t* particle_of = nullptr;
  std::uint32_t n = 0;
  std::uint64_t entries = 0;
  std::uint32_t max_degree = 0;
};

// Coordinates by axis, as kernels take them.
template <class T>
struct DeviceAxes {
  const T* axis[3] = {nullptr, nullptr, nullptr};
};

// Grows `a` to hold at least n elements (contents not kept).
template <class T>
void ensure_size(DeviceArray<T>& a, std::size_t n) {
  if (a.size() < n) a = DeviceArray<T>(n);
}

template <class T>
class DeviceNeighborSearch {
 public:
  DeviceNeighborSearch();

  // Finds the neighbors within `cutoff` of n particles whose coordinates are `points` (device
  // arrays, particle id order), on `stream`: later work on the stream sees the whole graph,
  // which stays valid until the next call. Throws Error for a position that is not finite or
  // lies outside a periodic box, like the CPU search.
  DeviceCsr run(const Box& box, double cutoff, const DeviceAxes<T>& points, std::uint32_t n, cudaStream_t stream);

 private:
  DeviceArray<std::uint32_t> keys_in_, keys_, ids_in_, particle_of_, spatial_of_, bin_begin_, bin_end_, neighbors_;
  DeviceArray<T> sorted_[3];
  DeviceArray<std::uint64_t> row_length_, offsets_;
  DeviceArray<unsigned char> temp_;
  DeviceArray<unsigned long long> scalars_;   // the longest row, the count of bad positions
  PinnedArray<unsigned long long> readback_;  // entries, the longest row, bad positions
};

// Every pair compared on the device (a tile of particles in shared memory per block), rows in
// particle ids: the reference for tests and the baseline for the benchmark. Returns the graph
// in `offsets` (n + 1) and `neighbors`.
template <class T>
std::uint64_t device_all_pairs(const Box& box, double cutoff, const DeviceAxes<T>& points, std::uint32_t n,
                               DeviceArray<std::uint64_t>& offsets, DeviceArray<std::uint32_t>& neighbors,
                               cudaStream_t stream);

}  // namespace cellgraph::cuda
