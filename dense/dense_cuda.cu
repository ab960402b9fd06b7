// Dispatch layer of the dense GPU kernels: device buffers, launch shapes, the host side of the
// Automaton interface. Agents: bit_agent.cuh (bit-packed tiles), byte_agent.cuh (byte strips);
// kernels: cell_kernels.cuh.
#include <algorithm>
#include <string>
#include <utility>
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
    if (!strips(shape_)) return "byte (cuda, a thread per cell)";
    return std::string("byte (cuda, 16-cell columns, SWAR counts, ") +
           (rule_.two_state() ? "byte-permute rule" : "table rule") + ", " + std::to_string(strip_rows_) +
           "-row strips)";
  }

 private:
  static bool strips(const GridShape& s) { return s.dims == 2 && s.neighborhood == Neighborhood::moore; }
  // Strips of an eighth of the rows that would fill every multiprocessor with as many blocks as
  // fit in one wave, from 8 to 64 rows: a few waves of short strips keep more loads in flight
  // than one wave of long ones (on an H200, 16384^2: 124-row strips 8.0e11 updates/s, 16-row
  // 1.18e12).
  static int strip_rows(std::int64_t rows, std::int64_t column_blocks, int multiprocessors) {
    const std::int64_t blocks = std::int64_t(cuda::kByteBlocksPerMultiprocessor) * multiprocessors;
    return int(std::clamp<std::int64_t>(rows * column_blocks / blocks / 8, 8, 64));
  }
  void launch_step() override {
    if (strips(shape_)) {
      const cuda::ByteGridView view{
          current_.data(), next_.data(), width_, rows_, pitch_, shape_.edge, std::uint8_t(shape_.edge_value)};
      const dim3 blocks(unsigned(column_blocks_), unsigned((rows_ + strip_rows_ - 1) / strip_rows_));
      if (rule_.two_state())
        cuda::byte_moore_two_state_step<<<blocks, kBlockThreads>>>(view, cuda::TwoStateRule(rule_), strip_rows_);
      else cuda::byte_moore_step<<<blocks, kBlockThreads>>>(view, rule_, strip_rows_);
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

// How a pass of G generations is cut into tiles (bit_agent.cuh), chosen per grid and GPU: as
// many blocks of 32 / b warps as fill the multiprocessors b at a time, tiles as tall as shared
// memory allows for b blocks, then just short enough that the tiles make whole waves. Of b = 1,
// 2 or 4, the one with the least work per multiprocessor: waves x b x (H + G), the rows a
// block computes per generation (halo included) times the blocks sharing a multiprocessor.
struct BitPlan {
  int generations = 0, blocks_per_multiprocessor = 0, warps = 0;
  int tile_rows = 0;  // H + 2G
  std::int64_t columns = 0, bands = 0;
  std::size_t shared_bytes() const { return std::size_t(2) * std::size_t(tile_rows) * 32 * 4; }
  std::string describe() const {
    return std::to_string(generations) + " generations per pass, tiles 30 x " +
           std::to_string(tile_rows - 2 * generations) + " words x rows, " + std::to_string(blocks_per_multiprocessor) +
           " x " + std::to_string(warps) + " warps per multiprocessor";
  }
};

BitPlan plan_bit_pass(std::int64_t words, std::int64_t height, int generations) {
  int device = 0, multiprocessors = 0, shared_per_multiprocessor = 0, shared_per_block = 0;
  CG_CUDA(cudaGetDevice(&device));
  CG_CUDA(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  CG_CUDA(cudaDeviceGetAttribute(&shared_per_multiprocessor, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device));
  CG_CUDA(cudaDeviceGetAttribute(&shared_per_block, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  const int G = generations, row_bytes = 2 * 32 * 4;
  BitPlan best;
  double best_cost = 0;
  for (int b : {1, 2, 4}) {
    const int most_rows = std::min((shared_per_multiprocessor / b - 1024) / row_bytes, shared_per_block / row_bytes);
    const std::int64_t most_written = std::min<std::int64_t>(most_rows - 2 * G, height);
    if (most_written < 1) continue;
    BitPlan p;
    p.generations = G, p.blocks_per_multiprocessor = b, p.warps = 32 / b;
    p.columns = (words + cuda::kTileWords - 1) / cuda::kTileWords;
    const std::int64_t fewest_bands = (height + most_written - 1) / most_written;
    const std::int64_t slots = std::int64_t(multiprocessors) * b;
    const std::int64_t waves = (p.columns * fewest_bands + slots - 1) / slots;
    const std::int64_t bands = std::clamp<std::int64_t>(waves * slots / p.columns, fewest_bands, height);
    const std::int64_t written = (height + bands - 1) / bands;
    p.bands = (height + written - 1) / written;
    p.tile_rows = int(written + 2 * G);
    const double cost = double(waves) * b * double(written + G);
    if (!best.generations || cost < best_cost) best = p, best_cost = cost;
  }
  if (!best.generations) throw Error("the bit-packed kernel: this GPU's shared memory holds no tile");
  return best;
}

// Bit per cell, 32 per word; G generations per launch (the rest of a run by smaller passes).
class CudaBitGrid final : public Automaton {
 public:
  CudaBitGrid(const GridShape& shape, const LifeRule& rule, int generations_per_pass)
      : shape_(shape), rule_(rule), generations_(generations_per_pass ? generations_per_pass : kAutoGenerations),
        width_(shape.size[0]), height_(shape.size[1]), words_((width_ + 31) / 32),
        current_(std::size_t(words_ * height_)), next_(current_.size()) {
    CG_CUDA(cudaMemset(current_.data(), 0, current_.size() * 4));
    if (rule_.is_conway()) allow_shared_memory<ConwayLogic>();
    else allow_shared_memory<TableLogic>();
  }
  std::string name() const override {
    return "bitpacked (cuda, 32-bit words, " + plan(generations_).describe() + ", " +
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
  // 32 generations a pass was the fastest on an H200 at every grid from 2048^2 to 65536^2:
  // tiles are tall enough there that the 2G rows of halo cost less than reloading the tile.
  static constexpr int kAutoGenerations = cuda::kMaxGenerations;

  std::pair<std::uint64_t, std::uint64_t> totals() const {
    return census([&](unsigned long long* t) {
      cuda::census_bits<<<grid_stride_blocks(words_ * height_), kBlockThreads>>>(current_.data(), width_, height_,
                                                                                 words_, t);
    });
  }

  const BitPlan& plan(int generations) const {
    BitPlan& p = plans_[std::size_t(__builtin_ctz(unsigned(generations)))];
    if (!p.generations) p = plan_bit_pass(words_, height_, generations);
    return p;
  }

  template <class Logic>
  void allow_shared_memory() {
    int device = 0, most = 0;
    CG_CUDA(cudaGetDevice(&device));
    CG_CUDA(cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    allow_each<Logic>(most, std::make_integer_sequence<int, 6>{});
  }
  template <class Logic, int... I>
  static void allow_each(int bytes, std::integer_sequence<int, I...>) {
    (allow_one<(1 << I), Logic>(bytes), ...);
  }
  template <int G, class Logic>
  static void allow_one(int bytes) {
    CG_CUDA(cudaFuncSetAttribute(cuda::bit_generations<G, true, Logic>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 bytes));
    CG_CUDA(cudaFuncSetAttribute(cuda::bit_generations<G, false, Logic>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 bytes));
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

  template <int G, class Logic>
  void launch(const Logic& logic) {
    const BitPlan& p = plan(G);
    const dim3 blocks(unsigned(p.columns), unsigned(p.bands));
    const cuda::BitGridView view{
        current_.data(), next_.data(), width_, height_, words_, shape_.edge, outside_live(shape_) ? ~0u : 0u};
    if (shape_.edge == Edge::fixed)
      cuda::bit_generations<G, true><<<blocks, unsigned(p.warps * 32), p.shared_bytes()>>>(view, logic, p.tile_rows);
    else
      cuda::bit_generations<G, false><<<blocks, unsigned(p.warps * 32), p.shared_bytes()>>>(view, logic, p.tile_rows);
  }

  GridShape shape_;
  LifeRule rule_;
  int generations_;
  std::int64_t width_, height_, words_;
  DeviceArray<std::uint32_t> current_, next_;
  mutable BitPlan plans_[6];  // by pass length 1, 2, 4, ... 32, made when first needed
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
