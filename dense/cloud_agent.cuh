// Agent of the bit-packed cloud kernel on the GPU: a block streams a column of the grid along z.
//
// A column is 32 words across (a word a lane, 1024 cells) and kCloudTileRows rows along y; the
// block walks it from z_begin to z_end, a plane at a time. f_act of a cell reads act at x +- 1,
// x +- 2, y +- 1, y +- 2, z +- 1 and z - 2, so the block keeps the act planes z - 2 .. z + 1 of
// its column in shared memory, each with two rows of halo above and below and a word of halo
// each side: act is read from memory about once per step (36 rows for 32), not eight times as
// a thread per word read it, and hum and cld are read once, where they are updated.
//
// Planes arrive by asynchronous copies (cp.async) kCloudLookahead planes ahead of the one being
// updated, so a block keeps that many planes of loads in flight without holding them in
// registers. The act ring has room for the four planes read and the ones in flight, so a copy
// never overwrites a plane a slower warp still reads, and one barrier per plane suffices.
//
// Coordinates outside the grid read their image (boundary.hpp), or an empty act outside a
// fixed edge. A whole word beyond a reflective x edge is its mirror word reversed, applied
// where it is read; words across an x edge of a grid whose width is not whole words are
// assembled a bit per lane with a ballot.
#pragma once
#include <cuda_pipeline.h>

#include <cstdint>

#include "cellgraph/dense/boundary.hpp"
#include "cellgraph/dense/cloud_rule.hpp"
#include "dense/cloud_draws.hpp"
#include "dense/image_words.cuh"

namespace cellgraph::dense::cuda {

constexpr int kCloudWarps = 8;
constexpr int kCloudTileRows = 32;  // rows (y) a block writes, kCloudTileRows / kCloudWarps a warp
constexpr int kCloudReach = 2;      // how far f_act reaches along x and y
constexpr int kCloudLookahead = 2;  // planes of copies in flight
constexpr int kCloudPlaneRows = kCloudTileRows + 2 * kCloudReach;
constexpr int kCloudPitch = 34;                       // words of a plane row: the warp's 32 and one each side
constexpr int kCloudActPlanes = 4 + kCloudLookahead;  // z - 2 .. z + 1 read, and the ones in flight
constexpr int kCloudActWords = kCloudActPlanes * kCloudPlaneRows * kCloudPitch;
constexpr int kCloudStages = 1 + kCloudLookahead;  // planes of hum and cld: the one read, the ones in flight
constexpr int kCloudStageWords = 2 * kCloudTileRows * 32;
constexpr int kCloudSharedBytes = 4 * (kCloudActWords + kCloudStages * kCloudStageWords);

struct CloudPlanes {
  std::uint32_t *hum, *act, *cld;
};

struct CloudGridView {
  CloudPlanes in, out;
  std::int64_t width, height, depth;
  std::int64_t words;  // per row, the row pitch: bit i of word j is cell x = 32j + i
  Edge edge;
};

// The part of the grid a block writes: word columns first .. first + 31, rows top ..
// top + kCloudTileRows - 1, planes z_begin .. z_end - 1.
struct CloudColumn {
  std::int64_t first, top, z_begin, z_end;
};

// Where a lane's word of a plane row comes from. It is the same for every row of a column, so a
// block works it out once: a word of the row, that word mirrored (the image of a whole word
// beyond a reflective edge), nothing (beyond a fixed edge, or feeding no cell), or assembled a
// bit per lane with a ballot (a word across an edge of a grid whose width is not whole words).
enum class WordFrom : std::uint8_t { nothing, word, mirrored, assembled };
struct WordSource {
  WordFrom from;
  std::int64_t index;  // the row's word, for `word` and `mirrored`
};

__device__ __forceinline__ WordSource word_source(const CloudGridView& g, std::int64_t j, bool needed) {
  if (!needed || j > g.words) return {WordFrom::nothing, 0};  // words beyond column `words` feed no cell
  if (j >= 0 && 32 * j + 32 <= g.width) return {WordFrom::word, j};
  if (g.width % 32) return {WordFrom::assembled, j};
  // j = -1 or j = words, on a grid of whole words.
  if (g.edge == Edge::fixed) return {WordFrom::nothing, 0};
  if (g.edge == Edge::periodic) return {WordFrom::word, j < 0 ? g.words - 1 : 0};
  return {WordFrom::mirrored, j < 0 ? 0 : g.words - 1};  // x = -1 - x' maps bit b to bit 31 - b
}

constexpr int kActRowsPerWarp = (kCloudPlaneRows + kCloudWarps - 1) / kCloudWarps;
constexpr int kTileRowsPerWarp = kCloudTileRows / kCloudWarps;

// What a thread copies and updates, worked out once per block: everything that does not depend
// on the plane, so that a plane costs its copies and its update and little else.
struct ColumnPlan {
  std::int64_t plane_words;                     // words of an (x, y) plane
  std::int64_t act_row[kActRowsPerWarp];        // plane rows warp + kCloudWarps k: offset in a plane, or -1
  std::int64_t cell[kTileRowsPerWarp];          // tile rows warp * kTileRowsPerWarp + k: this lane's word, or -1
  std::int32_t low_word, high_word;             // the row words copied for this lane's two ring words, or -1
  std::uint32_t assembled_low, assembled_high;  // lanes whose ring word is assembled (warp-wide)
  bool before_mirrored, after_mirrored;         // the ring words left and right of this lane's, stored unreversed

  __device__ __forceinline__ ColumnPlan(const CloudGridView& g, const CloudColumn& c) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    plane_words = g.height * g.words;
#pragma unroll
    for (int k = 0; k < kActRowsPerWarp; ++k) {
      const int r = warp + kCloudWarps * k;
      const std::int64_t y = r < kCloudPlaneRows ? near_image(c.top - kCloudReach + r, g.height, g.edge) : -1;
      act_row[k] = y < 0 ? -1 : y * g.words;
    }
    const std::int64_t j = c.first + lane;
#pragma unroll
    for (int k = 0; k < kTileRowsPerWarp; ++k) {
      const std::int64_t y = c.top + warp * kTileRowsPerWarp + k;
      cell[k] = y < g.height && j < g.words ? y * g.words + j : -1;
    }
    const WordSource low = word_source(g, c.first - 1 + lane, true),
                     high = word_source(g, c.first + 31 + lane, lane < kCloudPitch - 32);
    auto copied = [](const WordSource& s) {
      return s.from == WordFrom::word || s.from == WordFrom::mirrored ? std::int32_t(s.index) : -1;
    };
    low_word = copied(low);
    high_word = copied(high);
    assembled_low = __ballot_sync(0xFFFFFFFFu, low.from == WordFrom::assembled);
    assembled_high = __ballot_sync(0xFFFFFFFFu, high.from == WordFrom::assembled);
    before_mirrored = word_source(g, j - 1, true).from == WordFrom::mirrored;
    after_mirrored = word_source(g, j + 1, true).from == WordFrom::mirrored;
  }
};

// The copies of act plane z of the column into `plane`, a warp a row. Words that are not
// copied are written at once: zeros, or assembled words (a slow path, for widths that are not
// whole words).
__device__ __forceinline__ void copy_act_plane(const CloudGridView& g, const CloudColumn& c, const ColumnPlan& p,
                                               std::int64_t z, std::uint32_t* plane) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const std::int64_t sz = near_image(z, g.depth, g.edge);
  const std::uint32_t* base = sz < 0 ? nullptr : g.in.act + sz * p.plane_words;
#pragma unroll
  for (int k = 0; k < kActRowsPerWarp; ++k) {
    const int r = warp + kCloudWarps * k;
    if (r >= kCloudPlaneRows) break;
    const std::uint32_t* row = base && p.act_row[k] >= 0 ? base + p.act_row[k] : nullptr;
    std::uint32_t* to = plane + r * kCloudPitch;
    if (row && p.low_word >= 0) __pipeline_memcpy_async(to + lane, row + p.low_word, 4);
    else to[lane] = 0;
    if (lane < kCloudPitch - 32) {
      if (row && p.high_word >= 0) __pipeline_memcpy_async(to + 32 + lane, row + p.high_word, 4);
      else to[32 + lane] = 0;
    }
    if (p.assembled_low | p.assembled_high) {
      // Lanes with a copy in flight leave its word alone.
      const std::uint32_t low = ballot_image_words(row, g.width, g.edge, c.first - 1, p.assembled_low, 0, 0),
                          high = ballot_image_words(row, g.width, g.edge, c.first + 31, p.assembled_high, 0, 0);
      if (p.assembled_low >> lane & 1u) to[lane] = low;
      if (lane < kCloudPitch - 32 && (p.assembled_high >> lane & 1u)) to[32 + lane] = high;
    }
  }
}

// One step of the block's column. `shared` holds kCloudSharedBytes. kDraws: whether the rule
// draws (a separate kernel, so that pure growth keeps the registers Philox needs free).
//
// The pipeline: while plane z is updated, the copies of act up to plane z + kCloudLookahead + 1
// and of hum and cld up to plane z + kCloudLookahead are in flight.
template <bool kDraws>
__device__ __forceinline__ void run_cloud_column(const CloudGridView& g, const CloudRule& rule, std::uint64_t seed,
                                                 std::uint32_t step, const CloudColumn& c, std::uint32_t* shared) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const ColumnPlan p(g, c);
  const std::int64_t j = c.first + lane;
  const std::uint32_t keep = j == g.words - 1 && g.width % 32 ? (1u << (g.width % 32)) - 1 : ~0u;
  constexpr int kPlaneWords = kCloudPlaneRows * kCloudPitch;
  auto act_plane = [&](std::int64_t z) {
    return shared + int(z - c.z_begin + kCloudReach) % kCloudActPlanes * kPlaneWords;
  };
  // This lane's hum of its tile row k in plane z's stage is stage(z)[64 k], its cld stage(z)[64 k + 32].
  std::uint32_t* const stages = shared + kCloudActWords + warp * kTileRowsPerWarp * 64 + lane;
  auto stage = [&](std::int64_t z) { return stages + int(z - c.z_begin) % kCloudStages * kCloudStageWords; };
  // Plane z's copies: act of z + 1, hum and cld of z; one commit, empty or not.
  auto copy_plane = [&](std::int64_t z) {
    if (z + 1 <= c.z_end) copy_act_plane(g, c, p, z + 1, act_plane(z + 1));
    if (z < c.z_end) {
      const std::int64_t at = z * p.plane_words;
      std::uint32_t* to = stage(z);
#pragma unroll
      for (int k = 0; k < kTileRowsPerWarp; ++k)
        if (p.cell[k] >= 0) {
          __pipeline_memcpy_async(to + 64 * k, g.in.hum + at + p.cell[k], 4);
          __pipeline_memcpy_async(to + 64 * k + 32, g.in.cld + at + p.cell[k], 4);
        }
    }
    __pipeline_commit();
  };

  for (std::int64_t z = c.z_begin - kCloudReach; z <= c.z_begin; ++z) copy_act_plane(g, c, p, z, act_plane(z));
  for (int d = 0; d < kCloudLookahead; ++d) copy_plane(c.z_begin + d);

#pragma unroll 1
  for (std::int64_t z = c.z_begin; z < c.z_end; ++z) {
    __pipeline_wait_prior(kCloudLookahead - 1);  // this thread's copies for plane z have landed
    __syncthreads();  // everyone's have; every warp is done with z - 1, so act's slot of z - 3 is free
    copy_plane(z + kCloudLookahead);
    // Tile row 0 of this warp, at this lane's word, in the planes z - 2 .. z + 1.
    const int at = (warp * kTileRowsPerWarp + kCloudReach) * kCloudPitch + 1 + lane;
    const std::uint32_t *here = act_plane(z) + at, *below = act_plane(z - 1) + at, *below2 = act_plane(z - 2) + at,
                        *above = act_plane(z + 1) + at;
    const std::uint32_t* hum_cld = stage(z);
    // The act words of rows -2 .. kTileRowsPerWarp + 1 of plane z, each read once.
    std::uint32_t column[kTileRowsPerWarp + 2 * kCloudReach];
#pragma unroll
    for (int r = 0; r < kTileRowsPerWarp + 2 * kCloudReach; ++r) column[r] = here[(r - kCloudReach) * kCloudPitch];
    const std::int64_t plane_at = z * p.plane_words;
#pragma unroll
    for (int k = 0; k < kTileRowsPerWarp; ++k) {
      if (p.cell[k] < 0) continue;
      const std::uint32_t centre = column[k + kCloudReach];
      const std::uint32_t before = p.before_mirrored ? __brev(here[k * kCloudPitch - 1]) : here[k * kCloudPitch - 1],
                          after = p.after_mirrored ? __brev(here[k * kCloudPitch + 1]) : here[k * kCloudPitch + 1];
      // Lane i of funnelshift_l(before, centre, 1) holds cell x - 1 of lane i; of funnelshift_r(centre, after, 1), x
      // + 1.
      std::uint32_t near = __funnelshift_l(before, centre, 1) | __funnelshift_r(centre, after, 1) |
                           __funnelshift_l(before, centre, 2) | __funnelshift_r(centre, after, 2);
      near |= column[k] | column[k + 1] | column[k + 3] | column[k + 4];
      near |= below[k * kCloudPitch] | above[k * kCloudPitch] | below2[k * kCloudPitch];  // not z + 2
      std::uint32_t extinct = 0, humid = 0, active = 0;
      if (kDraws) {
        const std::int64_t first_cell = (plane_at + p.cell[k]) / g.words * g.width + 32 * j;
        const int lanes = int(g.width - 32 * j < 32 ? g.width - 32 * j : 32);
        cloud_draw_masks(rule, seed, std::uint64_t(first_cell), lanes, step, extinct, humid, active);
      }
      const CloudWords<std::uint32_t> next = cloud_next(
          CloudWords<std::uint32_t>{hum_cld[64 * k], centre, hum_cld[64 * k + 32]}, near, extinct, humid, active);
      const std::int64_t i = plane_at + p.cell[k];
      g.out.hum[i] = next.hum & keep;
      g.out.act[i] = next.act & keep;
      g.out.cld[i] = next.cld & keep;
    }
  }
}

}  // namespace cellgraph::dense::cuda
