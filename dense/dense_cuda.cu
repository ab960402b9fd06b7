// Dispatch layer of the dense GPU kernels: device buffers, launch shapes, the host side of the
// Automaton interface. Agents: bit_agent.cuh (bit-packed tiles), byte_agent.cuh (byte strips);
// kernels: cell_kernels.cuh.
#include <algorithm>
#include <vector>

#include "dense/automata.hpp"
#include "dense/cell_kernels.cuh"
#include "src/backend/cuda/cuda_check.cuh"
#include "src/backend/cuda/device_array.cuh"

namespace cellgraph::dense {
namespace {

using cellgraph::cuda::DeviceArray;
using cuda::kBlockThreads;

int grid_stride_blocks(std::int64_t items) {
  return int(std::min<std::int64_t>((items + kBlockThreads - 1) / kBlockThreads, 65536));
}

int multiprocessors() {
  int device = 0, count = 0;
  CG_CUDA(cudaGetDevice(&device));
  CG_CUDA(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
  return count;
}

// Hash and population of a layout, by one census kernel into two device counters.
template <class Launch>
std::pair<std::uint64_t, std::uint64_t> census(Launch launch) {
  DeviceArray<unsigned long long> totals(2);
  CG_CUDA(cudaMemset(totals.data(), 0, 2 * sizeof(unsigned long long)));
  launch(totals.data());
  CG_CUDA_LAUNCHED();
  unsigned long long host[2];
  CG_CUDA(cudaMemcpy(host, totals.data(), sizeof host, cudaMemcpyDeviceToHost));
  return {host[0], host[1]};
}

// Byte per cell, rows of `pitch` bytes: 16-byte aligned rows for the 2D Moore strips, packed
// rows for the per-cell stencil kernels.
class CudaByteGrid : public Automaton {
 public:
  CudaByteGrid(const GridShape& shape, std::uint32_t num_states, std::int64_t pitch)
      : shape_(shape), num_states_(num_states), width_(shape.size[0]), rows_(shape.size[1] * shape.size[2]),
        pitch_(pitch), current_(std::size_t(pitch * rows_)), next_(current_.size()) {
    CG_CUDA(cudaMemset(current_.data(), 0, current_.size()));
    CG_CUDA(cudaMemset(next_.data(), 0, next_.size()));
  }
  const GridShape& shape() const override { return shape_; }
  std::uint64_t step() const override { return step_; }
  double bytes_per_update() const override { return 2.0; }

  void advance(std::uint64_t steps) override {
    for (std::uint64_t s = 0; s < steps; ++s) {
      launch_step();
      CG_CUDA_LAUNCHED();
      current_.swap(next_);
    }
    CG_CUDA(cudaDeviceSynchronize());
    step_ += steps;
  }
  void fill_random(std::uint64_t seed, double density) override {
    if (!(density >= 0.0 && density <= 1.0)) throw Error("--fill must be a density from 0 to 1");
    cuda::fill_bytes<<<grid_stride_blocks(width_ * rows_), kBlockThreads>>>(current_.data(), width_, rows_, pitch_,
                                                                            seed, density);
    CG_CUDA_LAUNCHED();
    CG_CUDA(cudaDeviceSynchronize());
    step_ = 0;
  }
  void set_states(const std::vector<std::uint8_t>& states) override {
    check_states(states, shape_, num_states_);
    CG_CUDA(cudaMemcpy2D(current_.data(), pitch_, states.data(), width_, width_, rows_, cudaMemcpyHostToDevice));
    step_ = 0;
  }
  std::vector<std::uint8_t> states() const override {
    std::vector<std::uint8_t> out(shape_.cell_count());
    CG_CUDA(cudaMemcpy2D(out.data(), width_, current_.data(), pitch_, width_, rows_, cudaMemcpyDeviceToHost));
    return out;
  }
  std::uint64_t hash() const override { return totals().first; }
  std::uint64_t population() const override { return totals().second; }

 protected:
  virtual void launch_step() = 0;
  std::pair<std::uint64_t, std::uint64_t> totals() const {
    return census([&](unsigned long long* t) {
      cuda::census_bytes<<<grid_stride_blocks(width_ * rows_), kBlockThreads>>>(current_.data(), width_, rows_, pitch_,
                                                                                t);
    });
  }
  cuda::StencilGridView stencil_view() const {
    return {current_.data(),
            next_.data(),
            {shape_.size[0], shape_.size[1], shape_.size[2]},
            shape_.edge,
            std::uint8_t(shape_.edge_value),
            shape_.neighborhood == Neighborhood::moore,
            shape_.dims};
  }

  GridShape shape_;
  std::uint32_t num_states_;
  std::int64_t width_, rows_, pitch_;
  DeviceArray<std::uint8_t> current_, next_;
  std::uint64_t step_ = 0;
};

class CudaByteLife final : public CudaByteGrid {
 public:
  CudaByteLife(const GridShape& shape, const LifeRule& rule)
      : CudaByteGrid(shape, rule.states, strips(shape) ? (shape.size[0] + 15) / 16 * 16 : shape.size[0]), rule_(rule),
        column_blocks_((pitch_ / cuda::kByteLanes + kBlockThreads - 1) / kBlockThreads),
        strip_rows_(strip_rows(rows_, column_blocks_, multiprocessors())) {}
  std::string name() const override {
    return strips(shape_) ? "byte (cuda, 16-cell columns, SWAR counts)" : "byte (cuda, a thread per cell)";
  }

 private:
  static bool strips(const GridShape& s) { return s.dims == 2 && s.neighborhood == Neighborhood::moore; }
  // Strips of 128 rows (each reads 2 rows of halo) where the grid still fills every
  // multiprocessor with as many blocks as fit, shorter otherwise: 128-row strips left an
  // 8192 x 8192 grid 256 blocks on an H100's 132 multiprocessors (3.5e11 updates/s, against
  // 9.8e11 on 131072 x 65536).
  static int strip_rows(std::int64_t rows, std::int64_t column_blocks, int multiprocessors) {
    const std::int64_t blocks = std::int64_t(cuda::kByteBlocksPerMultiprocessor) * multiprocessors;
    return int(std::clamp<std::int64_t>(rows * column_blocks / blocks, 8, 128));
  }
  void launch_step() override {
    if (strips(shape_)) {
      const cuda::ByteGridView view{
          current_.data(), next_.data(), width_, rows_, pitch_, shape_.edge, std::uint8_t(shape_.edge_value)};
      const dim3 blocks(unsigned(column_blocks_), unsigned((rows_ + strip_rows_ - 1) / strip_rows_));
      cuda::byte_moore_step<<<blocks, kBlockThreads>>>(view, rule_, strip_rows_);
    } else {
      cuda::byte_stencil_step<<<grid_stride_blocks(width_ * rows_), kBlockThreads>>>(stencil_view(), rule_);
    }
  }
  LifeRule rule_;
  std::int64_t column_blocks_;
  int strip_rows_;
};

class CudaElementary final : public CudaByteGrid {
 public:
  CudaElementary(const GridShape& shape, const ElementaryRule& rule)
      : CudaByteGrid(shape, 2, shape.size[0]), rule_(rule) {}
  std::string name() const override { return "byte (cuda, elementary rule " + std::to_string(rule_.number) + ")"; }

 private:
  void launch_step() override {
    cuda::elementary_step<<<grid_stride_blocks(width_), kBlockThreads>>>(stencil_view(), rule_);
  }
  ElementaryRule rule_;
};

// Bit per cell, 32 per word; G generations per launch (the rest of a run by smaller passes).
class CudaBitGrid final : public Automaton {
 public:
  CudaBitGrid(const GridShape& shape, const LifeRule& rule, int generations_per_pass)
      : shape_(shape), rule_(rule), generations_(generations_per_pass), width_(shape.size[0]), height_(shape.size[1]),
        words_((width_ + 31) / 32), current_(std::size_t(words_ * height_)), next_(current_.size()),
        warps_wanted_(std::int64_t(multiprocessors()) * 32) {
    CG_CUDA(cudaMemset(current_.data(), 0, current_.size() * 4));
  }
  std::string name() const override {
    return "bitpacked (cuda, 32-bit words, " + std::to_string(generations_) + " generations per pass, " +
           (rule_.is_conway() ? "B3/S23 logic)" : "table logic)");
  }
  const GridShape& shape() const override { return shape_; }
  std::uint64_t step() const override { return step_; }
  double bytes_per_update() const override { return 0.25 / generations_; }

  void advance(std::uint64_t steps) override {
    for (std::uint64_t left = steps; left > 0;) {
      int pass = 1;  // the largest instantiated pass not above what is left and the setting
      for (int g : {32, 16, 8, 4, 2, 1})
        if (std::uint64_t(g) <= left && g <= generations_) {
          pass = g;
          break;
        }
      if (rule_.is_conway()) launch(pass, ConwayLogic{});
      else launch(pass, TableLogic(rule_));
      CG_CUDA_LAUNCHED();
      current_.swap(next_);
      left -= std::uint64_t(pass);
    }
    CG_CUDA(cudaDeviceSynchronize());
    step_ += steps;
  }
  void fill_random(std::uint64_t seed, double density) override {
    if (!(density >= 0.0 && density <= 1.0)) throw Error("--fill must be a density from 0 to 1");
    cuda::fill_bits<<<grid_stride_blocks(words_ * height_), kBlockThreads>>>(current_.data(), width_, height_, words_,
                                                                             seed, density);
    CG_CUDA_LAUNCHED();
    CG_CUDA(cudaDeviceSynchronize());
    step_ = 0;
  }
  void set_states(const std::vector<std::uint8_t>& states) override {
    check_states(states, shape_, 2);
    std::vector<std::uint32_t> words(current_.size(), 0);
    for (std::int64_t y = 0; y < height_; ++y)
      for (std::int64_t x = 0; x < width_; ++x)
        words[std::size_t(y * words_ + x / 32)] |= std::uint32_t(states[std::size_t(y * width_ + x)]) << (x % 32);
    current_.upload(words.data(), words.size());
    step_ = 0;
  }
  std::vector<std::uint8_t> states() const override {
    std::vector<std::uint32_t> words(current_.size());
    CG_CUDA(cudaMemcpy(words.data(), current_.data(), words.size() * 4, cudaMemcpyDeviceToHost));
    std::vector<std::uint8_t> out(shape_.cell_count());
    for (std::int64_t y = 0; y < height_; ++y)
      for (std::int64_t x = 0; x < width_; ++x)
        out[std::size_t(y * width_ + x)] = (words[std::size_t(y * words_ + x / 32)] >> (x % 32)) & 1u;
    return out;
  }
  std::uint64_t hash() const override { return totals().first; }
  std::uint64_t population() const override { return totals().second; }

 private:
  std::pair<std::uint64_t, std::uint64_t> totals() const {
    return census([&](unsigned long long* t) {
      cuda::census_bits<<<grid_stride_blocks(words_ * height_), kBlockThreads>>>(current_.data(), width_, height_,
                                                                                 words_, t);
    });
  }

  template <class Logic>
  void launch(int pass, const Logic& logic) {
    switch (pass) {
      case 32:
        return launch<32>(logic);
      case 16:
        return launch<16>(logic);
      case 8:
        return launch<8>(logic);
      case 4:
        return launch<4>(logic);
      case 2:
        return launch<2>(logic);
      default:
        return launch<1>(logic);
    }
  }

  // Strips as tall as 512 rows while the launch still has a few waves of warps; never shorter
  // than the 2G rows of halo they read.
  template <int G, class Logic>
  void launch(const Logic& logic) {
    const std::int64_t tiles = (words_ + cuda::kTileWords - 1) / cuda::kTileWords;
    const std::int64_t fair = (height_ * tiles + warps_wanted_ - 1) / warps_wanted_;
    const int strip_rows = int(std::clamp<std::int64_t>(fair, 2 * G, 512));
    const std::int64_t strips = (height_ + strip_rows - 1) / strip_rows;
    const std::int64_t blocks = (tiles * strips * 32 + kBlockThreads - 1) / kBlockThreads;
    const cuda::BitGridView view{
        current_.data(), next_.data(), width_, height_, words_, shape_.edge, outside_live(shape_) ? ~0u : 0u};
    if (shape_.edge == Edge::fixed)
      cuda::bit_generations<G, true><<<unsigned(blocks), kBlockThreads>>>(view, logic, tiles, strips, strip_rows);
    else cuda::bit_generations<G, false><<<unsigned(blocks), kBlockThreads>>>(view, logic, tiles, strips, strip_rows);
  }

  GridShape shape_;
  LifeRule rule_;
  int generations_;
  std::int64_t width_, height_, words_;
  DeviceArray<std::uint32_t> current_, next_;
  std::int64_t warps_wanted_;
  std::uint64_t step_ = 0;
};

}  // namespace

std::unique_ptr<Automaton> make_cuda_byte_life(const GridShape& shape, const LifeRule& rule) {
  return std::make_unique<CudaByteLife>(shape, rule);
}

std::unique_ptr<Automaton> make_cuda_byte_elementary(const GridShape& shape, const ElementaryRule& rule) {
  return std::make_unique<CudaElementary>(shape, rule);
}

std::unique_ptr<Automaton> make_cuda_bitpacked(const GridShape& shape, const LifeRule& rule, int generations_per_pass) {
  return std::make_unique<CudaBitGrid>(shape, rule, generations_per_pass);
}

}  // namespace cellgraph::dense
