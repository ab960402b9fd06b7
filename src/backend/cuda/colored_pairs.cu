// ColoredPairs (colored_pairs.cuh).
#include "src/backend/cuda/colored_pairs.cuh"

#include <algorithm>
#include <cub/device/device_scan.cuh>

namespace cellgraph::cuda {
namespace {

constexpr unsigned kThreads = 256;
unsigned blocks_for(std::uint64_t n) { return unsigned((n + kThreads - 1) / kThreads); }

__global__ void flag_members(const std::uint32_t* live, std::uint32_t count, std::uint8_t* is_live) {
  const std::uint32_t i = blockIdx.x * kThreads + threadIdx.x;
  if (i < count) is_live[live[i]] = 1;
}

__global__ void mark_live_pairs(const std::uint32_t* member, std::uint32_t pairs, const std::uint8_t* live,
                                std::uint32_t* kept) {
  const std::uint64_t i = std::uint64_t(blockIdx.x) * kThreads + threadIdx.x;
  if (i < pairs) kept[i] = live[member[i]] ? 1u : 0u;
  if (i == pairs) kept[i] = 0;  // the scan's last element is then the count
}

__global__ void scatter_live_pairs(const std::uint32_t* every_vertex, const std::uint32_t* every_member,
                                   const std::uint32_t* kept, const std::uint32_t* position, std::uint32_t pairs,
                                   std::uint32_t* vertex, std::uint32_t* member) {
  const std::uint64_t i = std::uint64_t(blockIdx.x) * kThreads + threadIdx.x;
  if (i >= pairs || !kept[i]) return;
  vertex[position[i]] = every_vertex[i];
  member[position[i]] = every_member[i];
}

__global__ void gather_positions(const std::uint32_t* position, const std::uint32_t* at, std::uint32_t count,
                                 std::uint32_t* out) {
  const std::uint32_t i = blockIdx.x * kThreads + threadIdx.x;
  if (i < count) out[i] = position[at[i]];
}

}  // namespace

ColoredPairs::ColoredPairs(const std::vector<std::uint32_t>& vertex, const std::vector<std::uint32_t>& member,
                           std::vector<Range> ranges, std::uint32_t members)
    : size_(std::uint32_t(vertex.size())), every_(std::move(ranges)), every_vertex_(vertex.data(), vertex.size()),
      every_member_(member.data(), member.size()), vertex_(vertex.size() + 1), member_(vertex.size() + 1),
      kept_(std::size_t(size_) + 1), position_(std::size_t(size_) + 1) {
  std::vector<std::uint32_t> boundary;  // each range's begin, then the end
  for (const Range& r : every_) boundary.push_back(r.begin);
  boundary.push_back(size_);
  boundary_ = DeviceArray<std::uint32_t>(boundary.data(), boundary.size());
  boundary_position_ = DeviceArray<std::uint32_t>(boundary.size());
  is_live_ = DeviceArray<std::uint8_t>(members);
  std::size_t bytes = 0;
  CG_CUDA(cub::DeviceScan::ExclusiveSum(nullptr, bytes, kept_.data(), position_.data(), size_ + 1));
  scan_temp_ = DeviceArray<unsigned char>(std::max<std::size_t>(bytes, 1));
}

const std::vector<ColoredPairs::Range>& ColoredPairs::list_live(const std::uint32_t* live, std::uint32_t count,
                                                                cudaStream_t stream) {
  CG_CUDA(cudaMemsetAsync(is_live_.data(), 0, is_live_.size(), stream));
  if (count) flag_members<<<blocks_for(count), kThreads, 0, stream>>>(live, count, is_live_.data());
  mark_live_pairs<<<blocks_for(std::uint64_t(size_) + 1), kThreads, 0, stream>>>(every_member_.data(), size_,
                                                                                 is_live_.data(), kept_.data());
  CG_CUDA_LAUNCHED();
  std::size_t bytes = scan_temp_.size();
  CG_CUDA(cub::DeviceScan::ExclusiveSum(scan_temp_.data(), bytes, kept_.data(), position_.data(), size_ + 1, stream));
  scatter_live_pairs<<<blocks_for(size_), kThreads, 0, stream>>>(every_vertex_.data(), every_member_.data(),
                                                                 kept_.data(), position_.data(), size_, vertex_.data(),
                                                                 member_.data());
  CG_CUDA_LAUNCHED();
  const std::uint32_t boundaries = std::uint32_t(boundary_.size());
  gather_positions<<<blocks_for(boundaries), kThreads, 0, stream>>>(position_.data(), boundary_.data(), boundaries,
                                                                    boundary_position_.data());
  CG_CUDA_LAUNCHED();
  std::vector<std::uint32_t> at(boundaries);
  CG_CUDA(cudaMemcpyAsync(at.data(), boundary_position_.data(), boundaries * sizeof(std::uint32_t),
                          cudaMemcpyDeviceToHost, stream));
  CG_CUDA(cudaStreamSynchronize(stream));
  live_.resize(every_.size());
  for (std::size_t r = 0; r < every_.size(); ++r) live_[r] = {at[r], at[r + 1]};
  return live_;
}

}  // namespace cellgraph::cuda
