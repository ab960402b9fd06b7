// Kernels of the bit-packed cloud automaton on the GPU: three bit planes (hum, act, cld), 32
// cells of an x row per word, bit i of word j = cell x = 32j + i, rows (y, z) in cell-id order.
// The step runs a block per column of the grid streamed along z (cloud_agent.cuh); filling and
// the census run a thread per word.
#pragma once
#include <cstdint>

#include "cellgraph/dense/cell_hash.hpp"
#include "dense/cloud_agent.cuh"
#include "dense/cloud_draws.hpp"
#include "dense/warp_sum.cuh"

namespace cellgraph::dense::cuda {

constexpr int kCloudBlockThreads = 256;

// How the step's blocks split the grid: x_tiles x y_bands columns, each cut along z into
// `parts` parts of equal length to a plane. Block b is column (b % x_tiles, b / x_tiles %
// y_bands), part b / (x_tiles * y_bands).
struct CloudSplit {
  std::int64_t x_tiles, y_bands, parts;
};

template <bool kDraws>
__global__ void __launch_bounds__(kCloudWarps * 32)
    cloud_step(CloudGridView g, CloudRule rule, std::uint64_t seed, std::uint32_t step, CloudSplit split) {
  extern __shared__ std::uint32_t shared[];  // kCloudSharedBytes
  const std::int64_t b = blockIdx.x, column = b % (split.x_tiles * split.y_bands),
                     part = b / (split.x_tiles * split.y_bands);
  const CloudColumn c{32 * (column % split.x_tiles), kCloudTileRows * (column / split.x_tiles),
                      part * g.depth / split.parts, (part + 1) * g.depth / split.parts};
  run_cloud_column<kDraws>(g, rule, seed, step, c, shared);
}

// cld with `density` as random_fill draws it, hum and act as the model draws them.
__global__ void cloud_fill(CloudPlanes p, std::int64_t width, std::int64_t rows, std::int64_t words, CloudRule rule,
                           std::uint64_t seed, double density) {
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < rows * words;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    const std::int64_t row = i / words, x0 = (i % words) * 32;
    std::uint32_t hum = 0, act = 0, cld = 0;
    for (int b = 0; b < 32 && x0 + b < width; ++b) {
      const std::uint64_t id = std::uint64_t(row * width + x0 + b);
      const CloudStart start = cloud_initial(rule, seed, id);
      cld |= std::uint32_t(random_live(seed, id, density)) << b;
      hum |= std::uint32_t(start.hum) << b;
      act |= std::uint32_t(start.act) << b;
    }
    p.hum[i] = hum, p.act[i] = act, p.cld[i] = cld;
  }
}

// totals[0] += state hash (of cloud codes), totals[1] += cells whose code is not 0.
__global__ void cloud_census(CloudPlanes p, std::int64_t width, std::int64_t rows, std::int64_t words,
                             unsigned long long* totals) {
  std::uint64_t hash = 0, cells = 0;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < rows * words;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    const std::uint64_t first = std::uint64_t((i / words) * width + (i % words) * 32);
    const std::uint32_t hum = p.hum[i], act = p.act[i], cld = p.cld[i];
    std::uint32_t any = hum | act | cld;
    cells += __popc(any);
    for (; any; any &= any - 1) {
      const int b = __ffs(any) - 1;
      hash += cell_hash(first + b, cloud_code(cld >> b & 1u, hum >> b & 1u, act >> b & 1u));
    }
  }
  warp_add_to(totals, hash);
  warp_add_to(totals + 1, cells);
}

}  // namespace cellgraph::dense::cuda
