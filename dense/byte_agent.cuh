// Agent of the byte GPU kernel on 2D Moore grids: one block runs G generations of a tile in
// shared memory, as the bit-packed agent does with bits.
//
// A lane holds a column of 16 cells (one 16-byte access per row); a tile is 32 lanes wide, of
// which lanes 0 and 31 are halo, so it writes the 480 cells of lanes 1..30. It is G rows of
// halo above and below the rows it writes, run as tile_schedule.cuh says: loaded once, each
// generation from one shared buffer into the other, the last one straight to memory. Live
// flags and three-cell sums are added four cells per 32-bit word (SIMD within a register), the
// cells just beyond a lane's column come from the next lanes by shuffles. The halo lanes go
// wrong from the tile edge inwards, a cell per generation: G <= 16 keeps lanes 1..30 right.
//
// One generation a launch read and wrote every cell from memory, and stayed at 47-65% of the
// copy bound (an H200, 8192^2 to 65536^2); G generations a launch move 2/G bytes an update.
// Coordinates outside the grid read their image (boundary.hpp), as in the bit-packed agent.
#pragma once
#include <cstdint>

#include "cellgraph/dense/boundary.hpp"
#include "dense/byte_rules.cuh"
#include "dense/tile_schedule.cuh"

namespace cellgraph::dense::cuda {

constexpr int kCellsPerLane = 16;     // cells per lane
constexpr int kByteTileColumns = 30;  // 16-cell columns a tile writes per row
constexpr int kMaxByteGenerations = 16;

struct ByteGridView {
  const std::uint8_t* in;
  std::uint8_t* out;
  std::int64_t width, height;
  std::int64_t pitch;  // bytes per row, a multiple of 16
  Edge edge;
  std::uint8_t outside;  // state of the fixed outside
};

struct Cells16 {
  std::uint32_t word[4];
};

__device__ __forceinline__ Cells16 cells_of(uint4 v) { return {{v.x, v.y, v.z, v.w}}; }
__device__ __forceinline__ uint4 vector_of(const Cells16& c) {
  return make_uint4(c.word[0], c.word[1], c.word[2], c.word[3]);
}

// The 16 cells of column j = first + lane (any integer) of row y (any integer) of the grid of
// images. A column across or beyond an x edge is read a cell at a time through the boundary.
__device__ __forceinline__ Cells16 load_image_cells(const ByteGridView& g, std::int64_t y, std::int64_t first,
                                                    bool needed) {
  const std::uint32_t outside4 = 0x01010101u * g.outside;
  const std::int64_t row = near_image(y, g.height, g.edge);
  if (row < 0) return {{outside4, outside4, outside4, outside4}};
  if (!needed) return {{0, 0, 0, 0}};
  const std::uint8_t* cells = g.in + row * g.pitch;
  const std::int64_t x0 = kCellsPerLane * (first + (threadIdx.x & 31));
  if (x0 >= 0 && x0 + kCellsPerLane <= g.width) return cells_of(__ldg(reinterpret_cast<const uint4*>(cells + x0)));
  Cells16 c{{0, 0, 0, 0}};
#pragma unroll
  for (int i = 0; i < kCellsPerLane; ++i) {
    const std::int64_t x = near_image(x0 + i, g.width, g.edge);
    c.word[i / 4] |= std::uint32_t(x < 0 ? g.outside : __ldg(cells + x)) << (8 * (i % 4));
  }
  return c;
}

// Bytes of the lane's column that lie inside the grid, 0xFF each (a fixed outside is restored
// elsewhere).
__device__ __forceinline__ Cells16 inside_bytes(const ByteGridView& g, std::int64_t j) {
  Cells16 mask{{0, 0, 0, 0}};
#pragma unroll
  for (int i = 0; i < kCellsPerLane; ++i) {
    const std::int64_t x = kCellsPerLane * j + i;
    mask.word[i / 4] |= std::uint32_t(x >= 0 && x < g.width ? 0xFFu : 0u) << (8 * (i % 4));
  }
  return mask;
}

// A row as a generation needs it: its live flags and their three-cell sums.
struct ByteSums {
  Cells16 live, sums;
};

template <class Rule>
__device__ __forceinline__ ByteSums byte_row_sums(const Cells16& cells, const Rule& rule) {
  ByteSums r;
#pragma unroll
  for (int k = 0; k < 4; ++k) r.live.word[k] = rule.live4(cells.word[k]);
  const std::uint32_t left = __shfl_up_sync(0xFFFFFFFFu, r.live.word[3], 1) >> 24;
  const std::uint32_t right = __shfl_down_sync(0xFFFFFFFFu, r.live.word[0], 1) & 1u;
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    const std::uint32_t before = k ? r.live.word[k - 1] >> 24 : left;
    const std::uint32_t after = k < 3 ? r.live.word[k + 1] & 1u : right;
    r.sums.word[k] = ((r.live.word[k] << 8) | before) + r.live.word[k] + ((r.live.word[k] >> 8) | (after << 24));
  }
  return r;
}

// Where a tile sits: tile rows r = 0 .. rows-1 stand for grid rows top + r.
struct ByteTile {
  std::int64_t top;
  std::int64_t first;  // the 16-cell column of lane 0
  int rows;
};

// The fixed outside: rows of the tile outside the grid, and the columns' bytes outside it.
struct ByteOutside {
  Cells16 inside;
  std::uint32_t outside4;
  int inside_lo, inside_hi;
};

// One generation of rows [r0, r1) of a warp: `in` rows r0-1 .. r1 to `next(r, cells)`.
template <bool kFixed, class Rule, class Next>
__device__ __forceinline__ void step_byte_rows(const uint4* in, int r0, int r1, const Rule& rule,
                                               const ByteOutside& fixed, Next next) {
  const int lane = threadIdx.x & 31;
  Cells16 here_cells = cells_of(in[r0 * 32 + lane]);
  ByteSums above = byte_row_sums(cells_of(in[(r0 - 1) * 32 + lane]), rule), here = byte_row_sums(here_cells, rule);
#pragma unroll 2
  for (int r = r0; r < r1; ++r) {
    const Cells16 below_cells = cells_of(in[(r + 1) * 32 + lane]);
    const ByteSums below = byte_row_sums(below_cells, rule);
    Cells16 cells;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const std::uint32_t count = above.sums.word[k] + here.sums.word[k] + below.sums.word[k] - here.live.word[k];
      cells.word[k] = rule.next4(here_cells.word[k], count);
      if (kFixed)
        cells.word[k] = r < fixed.inside_lo || r >= fixed.inside_hi
                            ? fixed.outside4
                            : (cells.word[k] & fixed.inside.word[k]) | (fixed.outside4 & ~fixed.inside.word[k]);
    }
    next(r, cells);
    above = here;
    here = below;
    here_cells = below_cells;
  }
}

// The block's G generations of `tile` (rows = H + 2G), in `shared` (2 x rows x 32 x 16 bytes).
template <int G, bool kFixed, class Rule>
__device__ __forceinline__ void run_byte_tile(const ByteGridView& g, const Rule& rule, const ByteTile& tile,
                                              uint4* shared) {
  const int lane = threadIdx.x & 31;
  const std::int64_t j = tile.first + lane, columns = (g.width + kCellsPerLane - 1) / kCellsPerLane;
  const bool needed = j <= columns;  // lanes further right feed nothing that is stored
  // Tile rows of the grid, [inside_lo, inside_hi): the others are a fixed outside.
  ByteOutside fixed{{{~0u, ~0u, ~0u, ~0u}},
                    0x01010101u * g.outside,
                    int(tile.top < 0 ? -tile.top : 0),
                    int(g.height - tile.top < tile.rows ? g.height - tile.top : tile.rows)};
  if (kFixed) fixed.inside = inside_bytes(g, j);
  run_tile_generations<G>(
      shared, tile.rows, [&](int r) { return vector_of(load_image_cells(g, tile.top + r, tile.first, needed)); },
      [&](const uint4* in, int r0, int r1, uint4* out) {
        step_byte_rows<kFixed>(in, r0, r1, rule, fixed,
                               [&](int r, const Cells16& cells) { out[r * 32 + lane] = vector_of(cells); });
      },
      [&](const uint4* in, int r0, int r1) {
        const bool stores = lane >= 1 && lane <= kByteTileColumns && j < columns;
        Cells16 keep{{~0u, ~0u, ~0u, ~0u}};  // the row's padding stays 0
        if (g.width - kCellsPerLane * j < kCellsPerLane) keep = inside_bytes(g, j);
        step_byte_rows<kFixed>(in, r0, r1, rule, fixed, [&](int r, Cells16 cells) {
#pragma unroll
          for (int k = 0; k < 4; ++k) cells.word[k] &= keep.word[k];
          if (stores && r < fixed.inside_hi)
            *reinterpret_cast<uint4*>(g.out + (tile.top + r) * g.pitch + kCellsPerLane * j) = vector_of(cells);
        });
      });
}

}  // namespace cellgraph::dense::cuda
