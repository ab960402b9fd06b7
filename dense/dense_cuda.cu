// Dispatch layer of the dense GPU kernels: device buffers, launch shapes, the host side of the
// Automaton interface. Agents: bit_agent.cuh (bit-packed tiles), byte_agent.cuh (byte tiles);
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

// How a pass of G generations is cut into tiles (bit_agent.cuh, byte_agent.cuh), chosen per
// grid and GPU: as many blocks of 32 / b warps as fill the multiprocessors b at a time, tiles as
// tall as shared memory allows for b blocks, then just short enough that the tiles make whole
// waves. Of b = 1, 2 or 4, the one with the least work per multiprocessor: waves x b x (H + G),
// the rows a block computes per generation (halo included) times the blocks sharing a
// multiprocessor.
struct TilePlan {
  int generations = 0, blocks_per_multiprocessor = 0, warps = 0;
  int tile_rows = 0;  // H + 2G
  std::int64_t columns = 0, bands = 0;
  std::size_t shared_bytes = 0;  // dynamic, per block
  std::string describe(const std::string& width) const {
    return std::to_string(generations) + " generations per pass, tiles " + width + " x " +
           std::to_string(tile_rows - 2 * generations) + " rows, " + std::to_string(blocks_per_multiprocessor) + " x " +
           std::to_string(warps) + " warps per multiprocessor";
  }
};

// lanes: the grid's columns of lanes (a word or 16 cells each), a tile writing 30 of them;
// row_bytes: shared memory per tile row (both buffers); reserved: static shared memory a block.
TilePlan plan_tiles(std::int64_t lanes, std::int64_t height, int generations, int row_bytes, int reserved) {
  constexpr std::int64_t kMostBands = 65535, kMostColumns = 2147483647;  // gridDim.y and gridDim.x
  int device = 0, multiprocessors = 0, shared_per_multiprocessor = 0, shared_per_block = 0;
  CG_CUDA(cudaGetDevice(&device));
  CG_CUDA(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
  CG_CUDA(cudaDeviceGetAttribute(&shared_per_multiprocessor, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device));
  CG_CUDA(cudaDeviceGetAttribute(&shared_per_block, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  const int G = generations;
  TilePlan best;
  double best_cost = 0;
  for (int b : {1, 2, 4}) {
    const int block_bytes = std::min(shared_per_multiprocessor / b - 1024, shared_per_block) - reserved;
    const std::int64_t most_written = std::min<std::int64_t>(block_bytes / row_bytes - 2 * G, height);
    if (most_written < 1) continue;
    TilePlan p;
    p.generations = G, p.blocks_per_multiprocessor = b, p.warps = 32 / b;
    p.columns = (lanes + 29) / 30;
    const std::int64_t fewest_bands = (height + most_written - 1) / most_written;
    const std::int64_t slots = std::int64_t(multiprocessors) * b;
    const std::int64_t waves = (p.columns * fewest_bands + slots - 1) / slots;
    const std::int64_t bands = std::clamp<std::int64_t>(waves * slots / p.columns, fewest_bands, height);
    const std::int64_t written = (height + bands - 1) / bands;
    p.bands = (height + written - 1) / written;
    if (p.bands > kMostBands || p.columns > kMostColumns) continue;
    p.tile_rows = int(written + 2 * G);
    p.shared_bytes = std::size_t(p.tile_rows) * std::size_t(row_bytes);
    const double cost = double(waves) * b * double(written + G);
    if (!best.generations || cost < best_cost) best = p, best_cost = cost;
  }
  if (!best.generations)
    throw Error("the dense GPU kernels: no tile plan fits this grid (" + std::to_string(lanes) + " lanes x " +
                std::to_string(height) + " rows, " + std::to_string(G) + " generations a pass) in this GPU's shared " +
                "memory and launch limits");
  return best;
}

// The largest pass of 1, 2, 4, ... `most` generations not above `left` and `setting`: the
// pass lengths the kernels are instantiated for.
int pass_length(std::uint64_t left, int setting, int most) {
  int pass = 1;
  while (pass * 2 <= most && std::uint64_t(pass * 2) <= left && pass * 2 <= setting) pass *= 2;
  return pass;
}

// Calls f(std::integral_constant<int, G>) for G = 1, 2, 4, .. 2^(n - 1), given
// std::make_integer_sequence<int, n>: once per instantiated pass length.
template <class F, int... I>
void for_each_pass_length(const F& f, std::integer_sequence<int, I...>) {
  (f(std::integral_constant<int, (1 << I)>{}), ...);
}

// Calls f(std::integral_constant<int, pass>) for the one instantiated pass length `pass`.
template <class F, int... I>
void with_pass_length(int pass, const F& f, std::integer_sequence<int, I...>) {
  ((pass == (1 << I) ? f(std::integral_constant<int, (1 << I)>{}) : void()), ...);
}

// A kernel's tile plans by pass length, each made when first needed.
template <int kPassLengths>
class TilePlans {
 public:
  TilePlans(std::int64_t lanes, std::int64_t height, int row_bytes, int reserved)
      : lanes_(lanes), height_(height), row_bytes_(row_bytes), reserved_(reserved) {}
  const TilePlan& operator()(int generations) const {
    TilePlan& p = plans_[std::size_t(__builtin_ctz(unsigned(generations)))];
    if (!p.generations) p = plan_tiles(lanes_, height_, generations, row_bytes_, reserved_);
    return p;
  }

 private:
  std::int64_t lanes_, height_;
  int row_bytes_, reserved_;
  mutable TilePlan plans_[kPassLengths];
};

// Lets a tile kernel take the most dynamic shared memory a block may have beside its static.
template <class Kernel>
void allow_largest_tiles(Kernel* kernel) {
  int device = 0, most = 0;
  CG_CUDA(cudaGetDevice(&device));
  CG_CUDA(cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  cudaFuncAttributes attributes{};
  CG_CUDA(cudaFuncGetAttributes(&attributes, kernel));
  CG_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               most - int(attributes.sharedSizeBytes)));
}

// Byte per cell, rows of `pitch` bytes: 16-byte aligned rows for the 2D Moore tiles, packed
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
    for (std::uint64_t left = steps; left > 0;) {
      left -= std::uint64_t(launch_pass(left));
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
  // Launches one pass of at most `left` steps; returns how many it runs.
  virtual int launch_pass(std::uint64_t left) = 0;
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
  CudaByteLife(const GridShape& shape, const LifeRule& rule, int generations_per_pass)
      : CudaByteGrid(shape, rule.states, tiles(shape) ? (shape.size[0] + 15) / 16 * 16 : shape.size[0]), rule_(rule),
        generations_(pass_length(~std::uint64_t(0), generations_per_pass ? generations_per_pass : kAutoGenerations,
                                 cuda::kMaxByteGenerations)),
        plan_((width_ + cuda::kCellsPerLane - 1) / cuda::kCellsPerLane, rows_, kTileRowBytes, cuda::kRuleTableSize) {
    if (!tiles(shape_)) return;
    for_each_pass_length(
        [](auto g) {
          allow_largest_tiles(cuda::byte_generations<decltype(g)::value, false, cuda::TwoStateRule>);
          allow_largest_tiles(cuda::byte_generations<decltype(g)::value, true, cuda::TwoStateRule>);
          allow_largest_tiles(cuda::byte_generations<decltype(g)::value, false, LifeRule>);
          allow_largest_tiles(cuda::byte_generations<decltype(g)::value, true, LifeRule>);
        },
        std::make_integer_sequence<int, kPassLengths>{});
  }
  std::string name() const override {
    if (!tiles(shape_)) return "byte (cuda, a thread per cell)";
    return "byte (cuda, 16-cell columns, SWAR counts, " + std::string(rule_.two_state() ? "byte-permute" : "table") +
           " rule, " + plan_(generations_).describe("480") + ")";
  }
  double bytes_per_update() const override { return tiles(shape_) ? 2.0 / generations_ : 2.0; }

 private:
  // 16 generations a pass, the most a 16-cell halo lane allows, was the fastest on an H200 at
  // every grid from 4096^2 to 65536^2 (16384^2: 2.05e12 updates/s at 4, 2.52e12 at 8, 2.81e12
  // at 16).
  static constexpr int kAutoGenerations = 16;
  static constexpr int kPassLengths = 5;  // 1 .. 16
  static constexpr int kTileRowBytes = 2 * 32 * cuda::kCellsPerLane;

  static bool tiles(const GridShape& s) { return s.dims == 2 && s.neighborhood == Neighborhood::moore; }

  int launch_pass(std::uint64_t left) override {
    if (!tiles(shape_)) {
      cuda::byte_stencil_step<<<grid_stride_blocks(width_ * rows_), kBlockThreads>>>(stencil_view(), rule_);
      return 1;
    }
    const int pass = pass_length(left, generations_, cuda::kMaxByteGenerations);
    with_pass_length(
        pass, [&](auto g) { launch<decltype(g)::value>(); }, std::make_integer_sequence<int, kPassLengths>{});
    return pass;
  }

  template <int G>
  void launch() {
    const TilePlan& p = plan_(G);
    const dim3 blocks(unsigned(p.columns), unsigned(p.bands));
    const unsigned threads = unsigned(p.warps * 32);
    const cuda::ByteGridView view{
        current_.data(), next_.data(), width_, rows_, pitch_, shape_.edge, std::uint8_t(shape_.edge_value)};
    const bool fixed = shape_.edge == Edge::fixed;
    if (rule_.two_state()) {
      const cuda::TwoStateRule rule(rule_);
      if (fixed) cuda::byte_generations<G, true><<<blocks, threads, p.shared_bytes>>>(view, rule, p.tile_rows);
      else cuda::byte_generations<G, false><<<blocks, threads, p.shared_bytes>>>(view, rule, p.tile_rows);
    } else {
      if (fixed) cuda::byte_generations<G, true><<<blocks, threads, p.shared_bytes>>>(view, rule_, p.tile_rows);
      else cuda::byte_generations<G, false><<<blocks, threads, p.shared_bytes>>>(view, rule_, p.tile_rows);
    }
  }

  LifeRule rule_;
  int generations_;
  TilePlans<kPassLengths> plan_;
};

class CudaElementary final : public CudaByteGrid {
 public:
  CudaElementary(const GridShape& shape, const ElementaryRule& rule)
      : CudaByteGrid(shape, 2, shape.size[0]), rule_(rule) {}
  std::string name() const override { return "byte (cuda, elementary rule " + std::to_string(rule_.number) + ")"; }

 private:
  int launch_pass(std::uint64_t) override {
    cuda::elementary_step<<<grid_stride_blocks(width_), kBlockThreads>>>(stencil_view(), rule_);
    return 1;
  }
  ElementaryRule rule_;
};

// Bit per cell, 32 per word; G generations per launch (the rest of a run by smaller passes).
class CudaBitGrid final : public Automaton {
 public:
  CudaBitGrid(const GridShape& shape, const LifeRule& rule, int generations_per_pass)
      : shape_(shape), rule_(rule),
        generations_(pass_length(~std::uint64_t(0), generations_per_pass ? generations_per_pass : kAutoGenerations,
                                 cuda::kMaxBitGenerations)),
        width_(shape.size[0]), height_(shape.size[1]), words_((width_ + 31) / 32),
        current_(std::size_t(words_ * height_)), next_(current_.size()), plan_(words_, height_, kTileRowBytes, 0) {
    CG_CUDA(cudaMemset(current_.data(), 0, current_.size() * 4));
    for_each_pass_length(
        [](auto g) {
          allow_largest_tiles(cuda::bit_generations<decltype(g)::value, false, ConwayLogic>);
          allow_largest_tiles(cuda::bit_generations<decltype(g)::value, true, ConwayLogic>);
          allow_largest_tiles(cuda::bit_generations<decltype(g)::value, false, TableLogic>);
          allow_largest_tiles(cuda::bit_generations<decltype(g)::value, true, TableLogic>);
        },
        std::make_integer_sequence<int, kPassLengths>{});
  }
  std::string name() const override {
    return "bitpacked (cuda, 32-bit words, " + plan_(generations_).describe("30 words") + ", " +
           (rule_.is_conway() ? "B3/S23 logic)" : "table logic)");
  }
  const GridShape& shape() const override { return shape_; }
  std::uint64_t step() const override { return step_; }
  double bytes_per_update() const override { return 0.25 / generations_; }

  void advance(std::uint64_t steps) override {
    for (std::uint64_t left = steps; left > 0;) {
      const int pass = pass_length(left, generations_, cuda::kMaxBitGenerations);
      with_pass_length(
          pass,
          [&](auto g) {
            if (rule_.is_conway()) launch<decltype(g)::value>(ConwayLogic{});
            else launch<decltype(g)::value>(TableLogic(rule_));
          },
          std::make_integer_sequence<int, kPassLengths>{});
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
  static constexpr int kAutoGenerations = cuda::kMaxBitGenerations;
  static constexpr int kPassLengths = 6;            // 1 .. 32
  static constexpr int kTileRowBytes = 2 * 32 * 4;  // a word a lane, two buffers

  std::pair<std::uint64_t, std::uint64_t> totals() const {
    return census([&](unsigned long long* t) {
      cuda::census_bits<<<grid_stride_blocks(words_ * height_), kBlockThreads>>>(current_.data(), width_, height_,
                                                                                 words_, t);
    });
  }

  template <int G, class Logic>
  void launch(const Logic& logic) {
    const TilePlan& p = plan_(G);
    const dim3 blocks(unsigned(p.columns), unsigned(p.bands));
    const cuda::BitGridView view{
        current_.data(), next_.data(), width_, height_, words_, shape_.edge, outside_live(shape_) ? ~0u : 0u};
    if (shape_.edge == Edge::fixed)
      cuda::bit_generations<G, true><<<blocks, unsigned(p.warps * 32), p.shared_bytes>>>(view, logic, p.tile_rows);
    else cuda::bit_generations<G, false><<<blocks, unsigned(p.warps * 32), p.shared_bytes>>>(view, logic, p.tile_rows);
  }

  GridShape shape_;
  LifeRule rule_;
  int generations_;
  std::int64_t width_, height_, words_;
  DeviceArray<std::uint32_t> current_, next_;
  TilePlans<kPassLengths> plan_;
  std::uint64_t step_ = 0;
};

}  // namespace

std::unique_ptr<Automaton> make_cuda_byte_life(const GridShape& shape, const LifeRule& rule, int generations_per_pass) {
  return std::make_unique<CudaByteLife>(shape, rule, generations_per_pass);
}

std::unique_ptr<Automaton> make_cuda_byte_elementary(const GridShape& shape, const ElementaryRule& rule) {
  return std::make_unique<CudaElementary>(shape, rule);
}

std::unique_ptr<Automaton> make_cuda_bitpacked(const GridShape& shape, const LifeRule& rule, int generations_per_pass) {
  return std::make_unique<CudaBitGrid>(shape, rule, generations_per_pass);
}

}  // namespace cellgraph::dense
