#include "src/movable/cuda/device_search.cuh"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <string>

#include "cellgraph/error.hpp"
#include "cellgraph/movable/neighbor_search.hpp"
#include "src/backend/cuda/cuda_check.cuh"

namespace cellgraph::cuda {
namespace {

constexpr int kThreads = 256;
constexpr unsigned long long kNoParticle = ~0ull;

unsigned blocks_for(std::uint64_t threads) { return unsigned((threads + kThreads - 1) / kThreads); }

// Bits that number `count` values 0 .. count-1 (at least 1: CUB sorts on a bit range).
int bits_for(std::uint64_t count) {
  int bits = 1;
  while (bits < 64 && (std::uint64_t(1) << bits) < count) ++bits;
  return bits;
}

// As check_points on the CPU: finite, and inside [0, length) in a periodic box.
template <class T>
__device__ bool position_ok(T x, T length, bool periodic) {
  if (!(x - x == T(0))) return false;  // NaN or infinite
  return !periodic || (x >= T(0) && x < length);
}

template <class T>
__global__ void bin_keys_kernel(CellGrid grid, BoxIn<T> box, DeviceAxes<T> points, std::uint32_t n, std::uint32_t* keys,
                                std::uint32_t* ids, unsigned long long* first_bad) {
  const std::uint32_t p = blockIdx.x * kThreads + threadIdx.x;
  if (p >= n) return;
  for (int a = 0; a < box.dims; ++a)
    if (!position_ok(points.axis[a][p], box.length[a], box.periodic)) atomicMin(first_bad, (unsigned long long)p);
  keys[p] = bin_key(grid, points.axis, p);
  ids[p] = p;
}

// Bin b holds the sorted particles [begin[b], end[b]) (both 0 when empty).
__global__ void bin_ranges_kernel(const std::uint32_t* keys, std::uint32_t n, std::uint32_t* begin,
                                  std::uint32_t* end) {
  const std::uint32_t s = blockIdx.x * kThreads + threadIdx.x;
  if (s >= n) return;
  const std::uint32_t key = keys[s];
  if (s == 0 || keys[s - 1] != key) begin[key] = s;
  if (s + 1 == n || keys[s + 1] != key) end[key] = s + 1;
}

template <class T>
__global__ void gather_sorted_kernel(DeviceAxes<T> points, int dims, const std::uint32_t* particle_of, std::uint32_t n,
                                     T* x, T* y, T* z, std::uint32_t* spatial_of) {
  const std::uint32_t s = blockIdx.x * kThreads + threadIdx.x;
  if (s >= n) return;
  const std::uint32_t p = particle_of[s];
  x[s] = points.axis[0][p];
  y[s] = points.axis[1][p];
  if (dims == 3) z[s] = points.axis[2][p];
  spatial_of[p] = s;
}

struct BinRanges {
  const std::uint32_t* begin;
  const std::uint32_t* end;
};

// Calls visit(t) for every neighbor t of sorted particle s (cell-list order, any order).
template <class T, class Visit>
__device__ void for_each_neighbor_of(const CellGrid& grid, const BoxIn<T>& box, const DeviceAxes<T>& sorted, T c2,
                                     const std::uint32_t* keys, BinRanges bins, std::uint32_t s, Visit&& visit) {
  for_each_adjacent_bin(grid, keys[s], [&](std::uint32_t b) {
    for (std::uint32_t t = bins.begin[b]; t < bins.end[b]; ++t)
      if (t != s && squared_distance(box, sorted.axis, s, t) <= c2) visit(t);
  });
}

template <class T>
__global__ void count_kernel(CellGrid grid, BoxIn<T> box, DeviceAxes<T> sorted, T c2, const std::uint32_t* keys,
                             BinRanges bins, std::uint32_t n, std::uint64_t* row_length) {
  const std::uint32_t s = blockIdx.x * kThreads + threadIdx.x;
  if (s >= n) return;
  std::uint64_t count = 0;
  for_each_neighbor_of(grid, box, sorted, c2, keys, bins, s, [&](std::uint32_t) { ++count; });
  row_length[s] = count;
}

// Each row by insertion in ascending particle id as the candidates come, then turned into
// cell-list vertices: the order of the CPU's rows.
template <class T>
__global__ void fill_kernel(CellGrid grid, BoxIn<T> box, DeviceAxes<T> sorted, T c2, const std::uint32_t* keys,
                            BinRanges bins, std::uint32_t n, const std::uint64_t* offsets,
                            const std::uint32_t* particle_of, const std::uint32_t* spatial_of,
                            std::uint32_t* neighbors) {
  const std::uint32_t s = blockIdx.x * kThreads + threadIdx.x;
  if (s >= n) return;
  std::uint32_t* row = neighbors + offsets[s];
  std::uint32_t length = 0;
  for_each_neighbor_of(grid, box, sorted, c2, keys, bins, s, [&](std::uint32_t t) {
    const std::uint32_t id = particle_of[t];
    std::uint32_t j = length++;
    for (; j > 0 && row[j - 1] > id; --j) row[j] = row[j - 1];
    row[j] = id;
  });
  for (std::uint32_t k = 0; k < length; ++k) row[k] = spatial_of[row[k]];
}

// All pairs, a block's tile of particles in shared memory at a time; rows come out in
// ascending particle id. Count pass (neighbors == nullptr) and fill pass.
template <class T>
__global__ void all_pairs_kernel(BoxIn<T> box, DeviceAxes<T> points, std::uint32_t n, T c2, std::uint64_t* row_length,
                                 const std::uint64_t* offsets, std::uint32_t* neighbors) {
  __shared__ T tile[3][kThreads];
  const std::uint32_t i = blockIdx.x * kThreads + threadIdx.x;
  T mine[3] = {T(0), T(0), T(0)};
  for (int a = 0; a < box.dims; ++a) mine[a] = i < n ? points.axis[a][i] : T(0);
  std::uint32_t* row = neighbors && i < n ? neighbors + offsets[i] : nullptr;
  std::uint64_t count = 0;
  for (std::uint32_t first = 0; first < n; first += kThreads) {
    const std::uint32_t j = first + threadIdx.x;
    for (int a = 0; a < box.dims; ++a) tile[a][threadIdx.x] = j < n ? points.axis[a][j] : T(0);
    __syncthreads();
    const std::uint32_t m = min(std::uint32_t(kThreads), n - first);
    if (i < n)
      for (std::uint32_t k = 0; k < m; ++k) {
        T d2 = 0;  // squared_distance's sum, in its order
        for (int a = 0; a < box.dims; ++a) {
          const T d = axis_delta(mine[a], tile[a][k], box.length[a], box.periodic);
          d2 += d * d;
        }
        if (first + k != i && d2 <= c2) {
          if (row) row[count] = first + k;
          ++count;
        }
      }
    __syncthreads();
  }
  if (!neighbors && i < n) row_length[i] = count;
}

// Temporary storage for CUB, grown to the largest request.
void* temp_for(DeviceArray<unsigned char>& temp, std::size_t bytes) {
  ensure_size(temp, std::max<std::size_t>(bytes, 1));
  return temp.data();
}

}  // namespace

template <class T>
DeviceNeighborSearch<T>::DeviceNeighborSearch() : scalars_(2), readback_(3) {}

template <class T>
DeviceCsr DeviceNeighborSearch<T>::run(const Box& box, double cutoff, const DeviceAxes<T>& points, std::uint32_t n,
                                       cudaStream_t stream) {
  if (n == 0) throw Error("the neighbor search needs at least one particle");
  const CellGrid grid = make_cell_grid<T>(box, cutoff, n);  // checks the box and the cutoff
  const BoxIn<T> in = box_in<T>(box);
  const T c2 = cutoff_squared<T>(cutoff);
  const std::uint64_t bins = grid.count();
  for (auto* a : {&keys_in_, &keys_, &ids_in_, &particle_of_, &spatial_of_}) ensure_size(*a, n);
  ensure_size(bin_begin_, bins);
  ensure_size(bin_end_, bins);
  for (int a = 0; a < 3; ++a) ensure_size(sorted_[a], a < box.dims ? n : 1);
  ensure_size(row_length_, std::size_t(n) + 1);
  ensure_size(offsets_, std::size_t(n) + 1);

  CG_CUDA(cudaMemsetAsync(scalars_.data() + 1, 0xFF, sizeof(unsigned long long), stream));
  bin_keys_kernel<<<blocks_for(n), kThreads, 0, stream>>>(grid, in, points, n, keys_in_.data(), ids_in_.data(),
                                                          scalars_.data() + 1);
  CG_CUDA_LAUNCHED();
  std::size_t sort_bytes = 0, scan_bytes = 0, max_bytes = 0;
  const int key_bits = bits_for(bins);
  CG_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, keys_in_.data(), keys_.data(), ids_in_.data(),
                                          particle_of_.data(), n, 0, key_bits, stream));
  CG_CUDA(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, row_length_.data(), offsets_.data(), n + 1, stream));
  CG_CUDA(cub::DeviceReduce::Max(nullptr, max_bytes, row_length_.data(), scalars_.data(), n, stream));
  void* temp = temp_for(temp_, std::max({sort_bytes, scan_bytes, max_bytes}));
  // Stable: particles enter in id order, so each bin lists them by id, as on the CPU.
  CG_CUDA(cub::DeviceRadixSort::SortPairs(temp, sort_bytes, keys_in_.data(), keys_.data(), ids_in_.data(),
                                          particle_of_.data(), n, 0, key_bits, stream));
  CG_CUDA(cudaMemsetAsync(bin_begin_.data(), 0, bins * sizeof(std::uint32_t), stream));
  CG_CUDA(cudaMemsetAsync(bin_end_.data(), 0, bins * sizeof(std::uint32_t), stream));
  bin_ranges_kernel<<<blocks_for(n), kThreads, 0, stream>>>(keys_.data(), n, bin_begin_.data(), bin_end_.data());
  CG_CUDA_LAUNCHED();
  gather_sorted_kernel<<<blocks_for(n), kThreads, 0, stream>>>(points, box.dims, particle_of_.data(), n,
                                                               sorted_[0].data(), sorted_[1].data(), sorted_[2].data(),
                                                               spatial_of_.data());
  CG_CUDA_LAUNCHED();
  DeviceAxes<T> sorted;
  for (int a = 0; a < box.dims; ++a) sorted.axis[a] = sorted_[a].data();
  const BinRanges ranges{bin_begin_.data(), bin_end_.data()};
  CG_CUDA(cudaMemsetAsync(row_length_.data() + n, 0, sizeof(std::uint64_t), stream));
  count_kernel<<<blocks_for(n), kThreads, 0, stream>>>(grid, in, sorted, c2, keys_.data(), ranges, n,
                                                       row_length_.data());
  CG_CUDA_LAUNCHED();
  CG_CUDA(cub::DeviceScan::ExclusiveSum(temp, scan_bytes, row_length_.data(), offsets_.data(), n + 1, stream));
  CG_CUDA(cub::DeviceReduce::Max(temp, max_bytes, row_length_.data(), scalars_.data(), n, stream));
  // The one wait of a search: the rows' total sizes the fill pass's output.
  CG_CUDA(cudaMemcpyAsync(&readback_[0], offsets_.data() + n, sizeof(std::uint64_t), cudaMemcpyDeviceToHost, stream));
  CG_CUDA(
      cudaMemcpyAsync(&readback_[1], scalars_.data(), 2 * sizeof(unsigned long long), cudaMemcpyDeviceToHost, stream));
  CG_CUDA(cudaStreamSynchronize(stream));
  if (readback_[2] != kNoParticle)
    throw Error("particle " + std::to_string(readback_[2]) + ": a coordinate is not finite" +
                (box.periodic ? " or lies outside the periodic box" : ""));
  const std::uint64_t entries = readback_[0];
  ensure_size(neighbors_, std::max<std::uint64_t>(entries, 1));
  fill_kernel<<<blocks_for(n), kThreads, 0, stream>>>(grid, in, sorted, c2, keys_.data(), ranges, n, offsets_.data(),
                                                      particle_of_.data(), spatial_of_.data(), neighbors_.data());
  CG_CUDA_LAUNCHED();
  DeviceCsr csr;
  csr.offsets = offsets_.data();
  csr.neighbors = neighbors_.data();
  csr.particle_of = particle_of_.data();
  csr.n = n;
  csr.entries = entries;
  csr.max_degree = std::uint32_t(readback_[1]);
  return csr;
}

template <class T>
std::uint64_t device_all_pairs(const Box& box, double cutoff, const DeviceAxes<T>& points, std::uint32_t n,
                               DeviceArray<std::uint64_t>& offsets, DeviceArray<std::uint32_t>& neighbors,
                               cudaStream_t stream) {
  check_box(box, cutoff);
  if (n == 0) throw Error("the neighbor search needs at least one particle");
  const BoxIn<T> in = box_in<T>(box);
  const T c2 = cutoff_squared<T>(cutoff);
  DeviceArray<std::uint64_t> row_length(std::size_t(n) + 1);
  ensure_size(offsets, std::size_t(n) + 1);
  CG_CUDA(cudaMemsetAsync(row_length.data() + n, 0, sizeof(std::uint64_t), stream));
  all_pairs_kernel<<<blocks_for(n), kThreads, 0, stream>>>(in, points, n, c2, row_length.data(), nullptr, nullptr);
  CG_CUDA_LAUNCHED();
  std::size_t bytes = 0;
  CG_CUDA(cub::DeviceScan::ExclusiveSum(nullptr, bytes, row_length.data(), offsets.data(), n + 1, stream));
  DeviceArray<unsigned char> temp(std::max<std::size_t>(bytes, 1));
  CG_CUDA(cub::DeviceScan::ExclusiveSum(temp.data(), bytes, row_length.data(), offsets.data(), n + 1, stream));
  std::uint64_t entries = 0;
  CG_CUDA(cudaMemcpyAsync(&entries, offsets.data() + n, sizeof entries, cudaMemcpyDeviceToHost, stream));
  CG_CUDA(cudaStreamSynchronize(stream));
  ensure_size(neighbors, std::max<std::uint64_t>(entries, 1));
  all_pairs_kernel<<<blocks_for(n), kThreads, 0, stream>>>(in, points, n, c2, nullptr, offsets.data(),
                                                           neighbors.data());
  CG_CUDA_LAUNCHED();
  CG_CUDA(cudaStreamSynchronize(stream));
  return entries;
}

template class DeviceNeighborSearch<float>;
template class DeviceNeighborSearch<double>;
template std::uint64_t device_all_pairs<float>(const Box&, double, const DeviceAxes<float>&, std::uint32_t,
                                               DeviceArray<std::uint64_t>&, DeviceArray<std::uint32_t>&, cudaStream_t);
template std::uint64_t device_all_pairs<double>(const Box&, double, const DeviceAxes<double>&, std::uint32_t,
                                                DeviceArray<std::uint64_t>&, DeviceArray<std::uint32_t>&, cudaStream_t);

}  // namespace cellgraph::cuda
