// Kernels of the bit-packed cloud automaton on the GPU: three bit planes (hum, act, cld), 32
// cells of an x row per word, bit i of word j = cell x = 32j + i, rows (y, z) in cell-id order.
// A thread updates a word: f_act is the OR of act shifted by 1 and 2 along x (the neighbor
// words through funnel-like shifts) and of the act words of rows y+-1, y+-2, z+-1 and z-2.
// Words that cross or lie beyond an x edge are assembled bit by bit through the boundary
// (boundary.hpp); rows beyond a y or z edge are their images, or zeros outside a fixed edge.
#pragma once
#include <cstdint>

#include "cellgraph/dense/boundary.hpp"
#include "cellgraph/dense/cell_hash.hpp"
#include "dense/cloud_draws.hpp"
#include "dense/warp_sum.cuh"

namespace cellgraph::dense::cuda {

constexpr int kCloudBlockThreads = 256;

struct CloudPlanes {
  std::uint32_t *hum, *act, *cld;
};

struct CloudGridView {
  CloudPlanes in, out;
  std::int64_t width, height, depth;
  std::int64_t words;  // per row
  Edge edge;

  // The act row standing for (y, z), any integers, or nullptr outside a fixed edge.
  __device__ const std::uint32_t* act_row(std::int64_t y, std::int64_t z) const {
    const std::int64_t sy = image(y, height, edge), sz = image(z, depth, edge);
    return sy < 0 || sz < 0 ? nullptr : in.act + (sy + height * sz) * words;
  }
  // Word j of row y, z of act for the vertical neighbors (0 <= j < words).
  __device__ std::uint32_t act_word(std::int64_t y, std::int64_t z, std::int64_t j) const {
    const std::uint32_t* row = act_row(y, z);
    return row ? __ldg(row + j) : 0u;
  }
  // Word j (any integer) of a grid row of act, with the boundary's images in place of the
  // cells beyond x = 0 and x = W - 1.
  __device__ std::uint32_t act_image_word(const std::uint32_t* row, std::int64_t j) const {
    const std::int64_t x0 = 32 * j;
    if (x0 >= 0 && x0 + 32 <= width) return __ldg(row + j);
    std::uint32_t word = 0;
    for (int b = 0; b < 32; ++b) {
      const std::int64_t x = image(x0 + b, width, edge);
      if (x >= 0) word |= ((__ldg(row + (x >> 5)) >> (x & 31)) & 1u) << b;
    }
    return word;
  }
};

__global__ void __launch_bounds__(kCloudBlockThreads)
    cloud_step(CloudGridView g, CloudRule rule, std::uint64_t seed, std::uint32_t step) {
  const std::int64_t total = g.height * g.depth * g.words;
  const std::uint32_t tail = g.width % 32 ? (1u << (g.width % 32)) - 1 : ~0u;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < total;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    const std::int64_t j = i % g.words, row = i / g.words, y = row % g.height, z = row / g.height;
    const std::uint32_t* own = g.in.act + row * g.words;
    const std::uint32_t centre = g.act_image_word(own, j), before = g.act_image_word(own, j - 1),
                        after = g.act_image_word(own, j + 1);
    // Lane i of (w << 1 | ...) holds cell x - 1 of lane i; of (w >> 1 | ...) cell x + 1.
    std::uint32_t near = (centre << 1 | before >> 31) | (centre >> 1 | after << 31) | (centre << 2 | before >> 30) |
                         (centre >> 2 | after << 30);
    near |= g.act_word(y - 1, z, j) | g.act_word(y + 1, z, j) | g.act_word(y - 2, z, j) | g.act_word(y + 2, z, j) |
            g.act_word(y, z - 1, j) | g.act_word(y, z + 1, j) | g.act_word(y, z - 2, j);  // not z + 2
    std::uint32_t extinct = 0, humid = 0, active = 0;
    if (rule.stochastic()) {
      const int lanes = int(g.width - 32 * j < 32 ? g.width - 32 * j : 32);
      cloud_draw_masks(rule, seed, std::uint64_t(row * g.width + 32 * j), lanes, step, extinct, humid, active);
    }
    const CloudWords<std::uint32_t> next =
        cloud_next(CloudWords<std::uint32_t>{g.in.hum[i], g.in.act[i], g.in.cld[i]}, near, extinct, humid, active);
    const std::uint32_t keep = j == g.words - 1 ? tail : ~0u;  // bits past the last cell stay 0
    g.out.hum[i] = next.hum & keep;
    g.out.act[i] = next.act & keep;
    g.out.cld[i] = next.cld & keep;
  }
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
