// Agent of the bit-packed GPU kernel: one block runs G generations of a tile in shared memory.
//
// A tile is 32 words wide (1024 cells), one word per lane; lanes 0 and 31 are halo, so a tile
// writes the 30 words of lanes 1..30. It is H + 2G rows tall, G rows of halo above and below
// the H rows it writes, and runs as tile_schedule.cuh says: loaded once, each generation from one
// shared buffer into the other, the last one straight to memory. Each warp walks its rows
// keeping the three-cell sums of the two rows above; horizontal neighbors come from the next
// lanes by warp shuffles. Generation s computes rows s+1 .. H+2G-s-2, the ones still right.
// The halo lanes' bits go wrong from the tile edge inwards, one bit per generation: G <= 32
// keeps lanes 1..30 right.
//
// Sharing the vertical halo among a block's warps is what makes tiles pay at every size: a
// warp per tile needs 2G halo rows per warp, so mid-size grids either starved the GPU or
// recomputed half their rows (16384^2 on an H200: 4.3e12 cell updates/s against 1.98e13).
//
// Coordinates outside the grid read their image (boundary.hpp): periodic and reflective grids
// are the infinite grid of images, which evolves consistently; a fixed outside is put back
// after every generation.
#pragma once
#include <cstdint>

#include "cellgraph/dense/bit_logic.hpp"
#include "cellgraph/dense/boundary.hpp"
#include "dense/image_words.cuh"
#include "dense/tile_schedule.cuh"

namespace cellgraph::dense::cuda {

constexpr int kBitTileWords = 30;  // words a tile writes per row
constexpr int kMaxBitGenerations = 32;

struct BitGridView {
  const std::uint32_t* in;
  std::uint32_t* out;
  std::int64_t width, height;
  std::int64_t words;  // per row, the row pitch: bit i of word j is cell x = 32j + i
  Edge edge;
  std::uint32_t outside;  // a word of the fixed outside: all ones when it is live
};

// Word column j = first + lane (any integer) of row y (any integer) of the grid of images, for
// every lane of the warp at once (all 32 lanes call it). A word across or beyond an x edge is
// assembled by ballot_image_words.
__device__ __forceinline__ std::uint32_t load_image_word(const BitGridView& g, std::int64_t y, std::int64_t first,
                                                         bool needed) {
  const int lane = threadIdx.x & 31;
  const std::int64_t row = near_image(y, g.height, g.edge);
  if (row < 0) return g.outside;  // the same row for every lane
  const std::uint32_t* cells = g.in + row * g.words;
  const std::int64_t j = first + lane, x0 = 32 * j;
  const bool whole = x0 >= 0 && x0 + 32 <= g.width;
  const std::uint32_t word = whole && needed ? __ldg(cells + j) : 0u;
  return ballot_image_words(cells, g.width, g.edge, first, __ballot_sync(0xFFFFFFFFu, needed && !whole), g.outside & 1u,
                            word);
}

// Lanes whose cells lie inside the grid (a fixed outside is restored elsewhere).
__device__ __forceinline__ std::uint32_t inside_mask(const BitGridView& g, std::int64_t j) {
  if (g.edge != Edge::fixed) return ~0u;
  std::uint32_t mask = 0;
  for (int b = 0; b < 32; ++b) {
    const std::int64_t x = 32 * j + b;
    mask |= std::uint32_t(x >= 0 && x < g.width) << b;
  }
  return mask;
}

// Each lane's three-cell sums of a row: its word with the neighbor lanes' edge bits.
__device__ __forceinline__ TwoBits<std::uint32_t> row_sums(std::uint32_t word) {
  const std::uint32_t left = __shfl_up_sync(0xFFFFFFFFu, word, 1), right = __shfl_down_sync(0xFFFFFFFFu, word, 1);
  return add3(__funnelshift_l(left, word, 1), word, __funnelshift_r(word, right, 1));
}

// Where a tile sits: tile rows r = 0 .. rows-1 stand for grid rows top + r.
struct BitTile {
  std::int64_t top;
  std::int64_t first;  // the word column of lane 0
  int rows;
};

// One generation of rows [r0, r1) of a warp: `in` rows r0-1 .. r1 to `next(r, word)`.
template <bool kFixed, class Logic, class Next>
__device__ __forceinline__ void step_rows(const std::uint32_t* in, int r0, int r1, const Logic& logic,
                                          std::uint32_t inside, std::uint32_t outside, int inside_lo, int inside_hi,
                                          Next next) {
  const int lane = threadIdx.x & 31;
  std::uint32_t here_word = in[r0 * 32 + lane];
  TwoBits<std::uint32_t> above = row_sums(in[(r0 - 1) * 32 + lane]), here = row_sums(here_word);
#pragma unroll 4
  for (int r = r0; r < r1; ++r) {
    const std::uint32_t below_word = in[(r + 1) * 32 + lane];
    const TwoBits<std::uint32_t> below = row_sums(below_word);
    std::uint32_t word = logic(here_word, add_rows(above, here, below));
    if (kFixed) word = (r < inside_lo || r >= inside_hi) ? outside : (word & inside) | (outside & ~inside);
    next(r, word);
    above = here;
    here = below;
    here_word = below_word;
  }
}

// The block's G generations of `tile` (rows = H + 2G), in `shared` (2 x rows x 32 words).
template <int G, bool kFixed, class Logic>
__device__ __forceinline__ void run_bit_tile(const BitGridView& g, const Logic& logic, const BitTile& tile,
                                             std::uint32_t* shared) {
  const int lane = threadIdx.x & 31;
  const std::int64_t j = tile.first + lane;
  const bool needed = j <= g.words;  // lanes further right feed nothing that is stored
  const std::uint32_t inside = inside_mask(g, j);
  // Tile rows of the grid, [inside_lo, inside_hi): the others are a fixed outside.
  const int inside_lo = int(tile.top < 0 ? -tile.top : 0);
  const int inside_hi = int(g.height - tile.top < tile.rows ? g.height - tile.top : tile.rows);
  run_tile_generations<G>(
      shared, tile.rows, [&](int r) { return load_image_word(g, tile.top + r, tile.first, needed); },
      [&](const std::uint32_t* in, int r0, int r1, std::uint32_t* out) {
        step_rows<kFixed>(in, r0, r1, logic, inside, g.outside, inside_lo, inside_hi,
                          [&](int r, std::uint32_t word) { out[r * 32 + lane] = word; });
      },
      [&](const std::uint32_t* in, int r0, int r1) {
        const bool stores = lane >= 1 && lane <= kBitTileWords && j < g.words;
        const std::uint32_t tail = j == g.words - 1 && g.width % 32 ? (1u << (g.width % 32)) - 1 : ~0u;
        step_rows<kFixed>(in, r0, r1, logic, inside, g.outside, inside_lo, inside_hi, [&](int r, std::uint32_t word) {
          if (stores && r < inside_hi) g.out[(tile.top + r) * g.words + j] = word & tail;
        });
      });
}

}  // namespace cellgraph::dense::cuda
