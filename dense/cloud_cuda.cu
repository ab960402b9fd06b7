// Dispatch of the bit-packed cloud automaton on the GPU: device planes, launches, the host side
// of the Automaton interface. Kernels: cloud_kernels.cuh.
#include <algorithm>
#include <vector>

#include "dense/automata.hpp"
#include "dense/cloud_kernels.cuh"
#include "src/backend/cuda/cuda_check.cuh"
#include "src/backend/cuda/device_array.cuh"

namespace cellgraph::dense {
namespace {

using cellgraph::cuda::DeviceArray;
using cuda::kCloudBlockThreads;

int blocks_for(std::int64_t items) {
  return int(std::min<std::int64_t>((items + kCloudBlockThreads - 1) / kCloudBlockThreads, 65536));
}

// The split of a grid among the step's blocks: columns of kCloudTileRows rows across, cut along z
// into parts of equal length (to a plane) so that one wave of blocks fills every multiprocessor;
// no part is shorter than 8 planes, since each part loads act's planes z - 2 and z - 1 before its
// first and the one after its last.
cuda::CloudSplit plan_cloud_split(std::int64_t words, std::int64_t height, std::int64_t depth, bool draws) {
  // The kernel keeps a lane's word column in 32 bits.
  if (words >= (std::int64_t(1) << 31))
    throw Error("the bit-packed cloud kernel on the GPU takes rows of fewer than 2^36 cells");
  int device = 0, multiprocessors = 0, blocks_per_multiprocessor = 0;
  CG_CUDA(cudaGetDevice(&device));
  CG_CUDA(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  const auto kernel = draws ? cuda::cloud_step<true> : cuda::cloud_step<false>;
  CG_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, cuda::kCloudSharedBytes));
  CG_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_multiprocessor, kernel, cuda::kCloudWarps * 32,
                                                        cuda::kCloudSharedBytes));
  cuda::CloudSplit split{(words + 31) / 32, (height + cuda::kCloudTileRows - 1) / cuda::kCloudTileRows, 1};
  const std::int64_t columns = split.x_tiles * split.y_bands,
                     wave = std::int64_t(multiprocessors) * std::max(blocks_per_multiprocessor, 1);
  split.parts = std::max<std::int64_t>(1, std::min(wave / columns, depth / 8));
  return split;
}

// Three bit planes of rows * words 32-bit words.
struct DevicePlanes {
  DeviceArray<std::uint32_t> hum, act, cld;
  explicit DevicePlanes(std::size_t n) : hum(n), act(n), cld(n) {
    for (auto* a : {&hum, &act, &cld}) CG_CUDA(cudaMemset(a->data(), 0, n * 4));
  }
  cuda::CloudPlanes view() const { return {hum.data(), act.data(), cld.data()}; }
  void swap(DevicePlanes& o) {
    hum.swap(o.hum);
    act.swap(o.act);
    cld.swap(o.cld);
  }
};

class CudaCloudGrid final : public Automaton {
 public:
  CudaCloudGrid(const GridShape& shape, const CloudRule& rule)
      : shape_(shape), rule_(rule), width_(shape.size[0]), rows_(shape.size[1] * shape.size[2]),
        words_((width_ + 31) / 32), split_(plan_cloud_split(words_, shape.size[1], shape.size[2], rule.stochastic())),
        current_(std::size_t(rows_ * words_)), next_(std::size_t(rows_ * words_)) {}

  std::string name() const override {
    const std::int64_t depth = shape_.size[2], shortest = depth / split_.parts,
                       longest = (depth + split_.parts - 1) / split_.parts;
    return "bitpacked cloud (cuda, 32-bit words, columns of 32 words x " + std::to_string(cuda::kCloudTileRows) +
           " rows streamed along z, " +
           (shortest == longest ? std::to_string(shortest) : std::to_string(shortest) + "-" + std::to_string(longest)) +
           " planes a block)";
  }
  const GridShape& shape() const override { return shape_; }
  std::uint64_t step() const override { return step_; }
  double bytes_per_update() const override { return 0.75; }  // three bits read, three written

  void advance(std::uint64_t steps) override {
    for (std::uint64_t s = 0; s < steps; ++s, ++step_) {
      const cuda::CloudGridView view{current_.view(), next_.view(), width_,     shape_.size[1],
                                     shape_.size[2],  words_,       shape_.edge};
      if (rule_.stochastic())
        cuda::cloud_step<true><<<blocks(), cuda::kCloudWarps * 32, cuda::kCloudSharedBytes>>>(
            view, rule_, seed_, std::uint32_t(step_), split_);
      else
        cuda::cloud_step<false><<<blocks(), cuda::kCloudWarps * 32, cuda::kCloudSharedBytes>>>(
            view, rule_, seed_, std::uint32_t(step_), split_);
      CG_CUDA_LAUNCHED();
      current_.swap(next_);
    }
    CG_CUDA(cudaDeviceSynchronize());
  }
  void fill_random(std::uint64_t seed, double density) override {
    if (!(density >= 0.0 && density <= 1.0)) throw Error("--fill must be a density from 0 to 1");
    cuda::cloud_fill<<<blocks_for(rows_ * words_), kCloudBlockThreads>>>(current_.view(), width_, rows_, words_, rule_,
                                                                         seed, density);
    CG_CUDA_LAUNCHED();
    CG_CUDA(cudaDeviceSynchronize());
    seed_ = seed;
    step_ = 0;
  }
  void set_states(const std::vector<std::uint8_t>& states) override {
    check_cloud_states(states, shape_);
    std::vector<std::uint32_t> hum(current_.hum.size(), 0), act(hum.size(), 0), cld(hum.size(), 0);
    for (std::int64_t row = 0; row < rows_; ++row)
      for (std::int64_t x = 0; x < width_; ++x) {
        const std::uint8_t code = states[std::size_t(row * width_ + x)];
        const std::size_t word = std::size_t(row * words_ + x / 32);
        cld[word] |= std::uint32_t(code & 1) << (x % 32);
        hum[word] |= std::uint32_t(code >> 1 & 1) << (x % 32);
        act[word] |= std::uint32_t(code >> 2 & 1) << (x % 32);
      }
    current_.hum.upload(hum.data(), hum.size());
    current_.act.upload(act.data(), act.size());
    current_.cld.upload(cld.data(), cld.size());
    step_ = 0;
  }
  std::vector<std::uint8_t> states() const override {
    std::vector<std::uint32_t> hum(current_.hum.size()), act(hum.size()), cld(hum.size());
    for (auto [host, device] :
         {std::pair{&hum, &current_.hum}, std::pair{&act, &current_.act}, std::pair{&cld, &current_.cld}})
      CG_CUDA(cudaMemcpy(host->data(), device->data(), host->size() * 4, cudaMemcpyDeviceToHost));
    std::vector<std::uint8_t> out(shape_.cell_count());
    for (std::int64_t row = 0; row < rows_; ++row)
      for (std::int64_t x = 0; x < width_; ++x) {
        const std::size_t word = std::size_t(row * words_ + x / 32);
        const int b = int(x % 32);
        out[std::size_t(row * width_ + x)] = cloud_code(cld[word] >> b & 1u, hum[word] >> b & 1u, act[word] >> b & 1u);
      }
    return out;
  }
  std::uint64_t hash() const override { return totals().first; }
  std::uint64_t population() const override { return totals().second; }

 private:
  std::pair<std::uint64_t, std::uint64_t> totals() const {
    DeviceArray<unsigned long long> sums(2);
    CG_CUDA(cudaMemset(sums.data(), 0, 2 * sizeof(unsigned long long)));
    cuda::cloud_census<<<blocks_for(rows_ * words_), kCloudBlockThreads>>>(current_.view(), width_, rows_, words_,
                                                                           sums.data());
    CG_CUDA_LAUNCHED();
    unsigned long long host[2];
    CG_CUDA(cudaMemcpy(host, sums.data(), sizeof host, cudaMemcpyDeviceToHost));
    return {host[0], host[1]};
  }

  unsigned blocks() const { return unsigned(split_.x_tiles * split_.y_bands * split_.parts); }

  GridShape shape_;
  CloudRule rule_;
  std::int64_t width_, rows_, words_;
  cuda::CloudSplit split_;
  DevicePlanes current_, next_;
  std::uint64_t seed_ = 0, step_ = 0;
};

}  // namespace

std::unique_ptr<Automaton> make_cuda_bitpacked_cloud(const GridShape& shape, const CloudRule& rule) {
  return std::make_unique<CudaCloudGrid>(shape, rule);
}

}  // namespace cellgraph::dense
