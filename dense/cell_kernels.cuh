// Kernels of the dense GPU automata: the two agents' launch wrappers (bit-packed and byte
// tiles), the per-cell stencil kernel for the other grids (1D, 3D, von Neumann) and elementary
// rules, and the fill and census kernels every layout shares.
#pragma once
#include <cstdint>
#include <type_traits>

#include "cellgraph/dense/cell_hash.hpp"
#include "dense/bit_agent.cuh"
#include "dense/byte_agent.cuh"
#include "dense/warp_sum.cuh"

namespace cellgraph::dense::cuda {

constexpr int kBlockThreads = 128;

// Bit-packed: block (x, y) runs the tile of word columns 30x - 1 .. 30x + 30 and rows
// y * H - G .. (y + 1) * H + G - 1, in dynamic shared memory of 2 x (H + 2G) x 32 words.
template <int G, bool kFixed, class Logic>
__global__ void __launch_bounds__(1024) bit_generations(BitGridView g, Logic logic, int tile_rows) {
  extern __shared__ std::uint32_t tile_words[];
  const int H = tile_rows - 2 * G;
  const BitTile tile{std::int64_t(blockIdx.y) * H - G, std::int64_t(blockIdx.x) * kBitTileWords - 1, tile_rows};
  run_bit_tile<G, kFixed>(g, logic, tile, tile_words);
}

// Byte, 2D Moore: block (x, y) runs the tile of 16-cell columns 30x - 1 .. 30x + 30 and rows
// y * H - G .. (y + 1) * H + G - 1, in dynamic shared memory of 2 x (H + 2G) x 512 bytes.
// Two-state rules come as a TwoStateRule; others as the LifeRule whose table the block fills.
template <int G, bool kFixed, class RuleParameter>
__global__ void __launch_bounds__(1024) byte_generations(ByteGridView g, RuleParameter rule, int tile_rows) {
  extern __shared__ uint4 tile_cells[];
  const int H = tile_rows - 2 * G;
  const ByteTile tile{std::int64_t(blockIdx.y) * H - G, std::int64_t(blockIdx.x) * kByteTileColumns - 1, tile_rows};
  if constexpr (std::is_same_v<RuleParameter, LifeRule>) {
    __shared__ std::uint8_t table[kRuleTableSize];
    fill_rule_table(rule, table);
    __syncthreads();
    run_byte_tile<G, kFixed>(g, TableRule{table}, tile, tile_cells);
  } else {
    run_byte_tile<G, kFixed>(g, rule, tile, tile_cells);
  }
}

// A cell's state at (x, y, z) + offset through the boundary; `outside` when fixed.
struct StencilGridView {
  const std::uint8_t* in;
  std::uint8_t* out;
  std::int64_t size[3];
  Edge edge;
  std::uint8_t outside;
  bool moore;
  int dims;

  __device__ std::uint8_t at(std::int64_t x, std::int64_t y, std::int64_t z) const {
    const std::int64_t sx = image(x, size[0], edge), sy = image(y, size[1], edge), sz = image(z, size[2], edge);
    if (sx < 0 || sy < 0 || sz < 0) return outside;
    return in[sx + size[0] * (sy + size[1] * sz)];
  }
};

// Byte, any other Life-like grid: one thread per cell, neighbors read through the boundary.
__global__ void byte_stencil_step(StencilGridView g, LifeRule rule) {
  const std::int64_t cells = g.size[0] * g.size[1] * g.size[2];
  const int ry = g.dims >= 2, rz = g.dims >= 3;
  for (std::int64_t id = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; id < cells;
       id += std::int64_t(gridDim.x) * blockDim.x) {
    const std::int64_t x = id % g.size[0], y = (id / g.size[0]) % g.size[1], z = id / (g.size[0] * g.size[1]);
    std::uint32_t live = 0;
    for (int dz = -rz; dz <= rz; ++dz)
      for (int dy = -ry; dy <= ry; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const int reach = (dx != 0) + (dy != 0) + (dz != 0);
          if (reach == 0 || (!g.moore && reach > 1)) continue;
          live += g.at(x + dx, y + dy, z + dz) == 1;
        }
    g.out[id] = rule.next(g.in[id], live);
  }
}

__global__ void elementary_step(StencilGridView g, ElementaryRule rule) {
  for (std::int64_t x = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; x < g.size[0];
       x += std::int64_t(gridDim.x) * blockDim.x)
    g.out[x] = rule.next(g.at(x - 1, 0, 0), g.in[x], g.at(x + 1, 0, 0));
}

// Fill and census over rows of `pitch` bytes (bytes) or words (bits), of which the first
// `width` cells are the grid's.
__global__ void fill_bytes(std::uint8_t* cells, std::int64_t width, std::int64_t rows, std::int64_t pitch,
                           std::uint64_t seed, double density) {
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < rows * width;
       i += std::int64_t(gridDim.x) * blockDim.x)
    cells[(i / width) * pitch + i % width] = random_live(seed, std::uint64_t(i), density);
}

__global__ void fill_bits(std::uint32_t* words, std::int64_t width, std::int64_t rows, std::int64_t pitch,
                          std::uint64_t seed, double density) {
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < rows * pitch;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    const std::int64_t y = i / pitch, x0 = (i % pitch) * 32;
    std::uint32_t word = 0;
    for (int b = 0; b < 32 && x0 + b < width; ++b)
      word |= std::uint32_t(random_live(seed, std::uint64_t(y * width + x0 + b), density)) << b;
    words[i] = word;
  }
}

// totals[0] += state hash, totals[1] += cells not 0.
__global__ void census_bytes(const std::uint8_t* cells, std::int64_t width, std::int64_t rows, std::int64_t pitch,
                             unsigned long long* totals) {
  std::uint64_t hash = 0, live = 0;
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < rows * width; i += stride) {
    const std::uint8_t s = cells[(i / width) * pitch + i % width];
    if (s) hash += cell_hash(std::uint64_t(i), s), ++live;
  }
  warp_add_to(totals, hash);
  warp_add_to(totals + 1, live);
}

__global__ void census_bits(const std::uint32_t* words, std::int64_t width, std::int64_t rows, std::int64_t pitch,
                            unsigned long long* totals) {
  std::uint64_t hash = 0, live = 0;
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < rows * pitch; i += stride) {
    const std::uint64_t first = std::uint64_t((i / pitch) * width + (i % pitch) * 32);
    std::uint32_t word = words[i];
    live += __popc(word);
    for (; word; word &= word - 1) hash += cell_hash(first + __ffs(word) - 1, 1);
  }
  warp_add_to(totals, hash);
  warp_add_to(totals + 1, live);
}

}  // namespace cellgraph::dense::cuda
