// Agent of the bit-packed GPU kernel: one warp runs G generations of a tile in registers.
//
// The tile is 32 words wide (1024 cells), one word per lane; lanes 0 and 31 are halo, so a
// tile writes the 30 words of lanes 1..30. The warp streams down a strip of rows, from G rows
// above the strip to G rows below it, and keeps a pipeline of G stages: stage s holds the
// three-cell sums of the last two rows of generation s and turns each new row of generation s
// into a row of generation s + 1 one row higher. Horizontal neighbors come from the next lanes
// by warp shuffles, so a word is read from memory once per G generations. The halo lanes' bits
// go wrong from the tile edge inwards, one bit per generation: G <= 32 keeps lanes 1..30 right.
//
// Coordinates outside the grid read their image (boundary.hpp): periodic and reflective grids
// are the infinite grid of images, which evolves consistently; a fixed outside is put back
// after every generation.
#pragma once
#include <cstdint>

#include "cellgraph/dense/bit_logic.hpp"
#include "cellgraph/dense/boundary.hpp"

namespace cellgraph::dense::cuda {

constexpr int kTileWords = 30;  // words a warp writes per row

struct BitGridView {
  const std::uint32_t* in;
  std::uint32_t* out;
  std::int64_t width, height;
  std::int64_t words;  // per row, the row pitch: bit i of word j is cell x = 32j + i
  Edge edge;
  std::uint32_t outside;  // a word of the fixed outside: all ones when it is live
};

// The image of c when it is at most one axis length outside [0, n) (the common case: no
// division); otherwise boundary.hpp's general image().
__device__ __forceinline__ std::int64_t near_image(std::int64_t c, std::int64_t n, Edge edge) {
  if (c >= 0 && c < n) return c;
  if (edge == Edge::fixed) return -1;
  if (c >= -n && c < 2 * n) {
    if (edge == Edge::periodic) return c < 0 ? c + n : c - n;
    return c < 0 ? -1 - c : 2 * n - 1 - c;
  }
  return image(c, n, edge);
}

// Word column j (any integer) of row y (any integer) of the grid of images.
__device__ __forceinline__ std::uint32_t load_image_word(const BitGridView& g, std::int64_t y, std::int64_t j) {
  const std::int64_t row = near_image(y, g.height, g.edge);
  if (row < 0) return g.outside;
  const std::uint32_t* cells = g.in + row * g.words;
  const std::int64_t x0 = 32 * j;
  if (x0 >= 0 && x0 + 32 <= g.width) return __ldg(cells + j);
  std::uint32_t word = 0;  // a word across or beyond the edge: bit by bit
  for (int b = 0; b < 32; ++b) {
    const std::int64_t x = near_image(x0 + b, g.width, g.edge);
    const std::uint32_t bit = x < 0 ? (g.outside & 1u) : (__ldg(cells + (x >> 5)) >> (x & 31)) & 1u;
    word |= bit << b;
  }
  return word;
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

// kFixed: the boundary is fixed (known at compile time: the other grids pay nothing for it).
template <int G, bool kFixed, class Logic>
__device__ __forceinline__ void run_bit_tile(const BitGridView& g, const Logic& logic, std::int64_t tile,
                                             std::int64_t first_row, int rows) {
  const int lane = threadIdx.x & 31;
  const std::int64_t j = tile * kTileWords - 1 + lane;
  const bool needed = j <= g.words;  // lanes further right feed nothing that is stored
  const std::uint32_t inside = inside_mask(g, j);
  const std::uint32_t tail = g.width % 32 ? (1u << (g.width % 32)) - 1 : ~0u;

  TwoBits<std::uint32_t> above[G], here[G];  // three-cell sums of generation s, rows r-2 and r-1
  std::uint32_t alive[G];                    // generation s, row r-1
#pragma unroll
  for (int s = 0; s < G; ++s) above[s] = here[s] = {0u, 0u}, alive[s] = 0;

  for (int i = 0; i < rows + 2 * G; ++i) {
    const std::int64_t y = first_row - G + i;
    std::uint32_t word = needed ? load_image_word(g, y, j) : 0u;  // generation 0, row y
#pragma unroll
    for (int s = 0; s < G; ++s) {  // word: generation s, row y - s
      const std::uint32_t left_word = __shfl_up_sync(0xFFFFFFFFu, word, 1);
      const std::uint32_t right_word = __shfl_down_sync(0xFFFFFFFFu, word, 1);
      const TwoBits<std::uint32_t> below =
          add3(__funnelshift_l(left_word, word, 1), word, __funnelshift_r(word, right_word, 1));
      std::uint32_t next = logic(alive[s], add_rows(above[s], here[s], below));  // generation s+1, row y-s-1
      if (kFixed) {
        const std::int64_t row = y - s - 1;
        next = (row < 0 || row >= g.height) ? g.outside : (next & inside) | (g.outside & ~inside);
      }
      above[s] = here[s];
      here[s] = below;
      alive[s] = word;
      word = next;
    }
    const std::int64_t row = y - G;
    if (i >= 2 * G && row < g.height && lane >= 1 && lane <= kTileWords && j < g.words)
      g.out[row * g.words + j] = j == g.words - 1 ? word & tail : word;
  }
}

}  // namespace cellgraph::dense::cuda
