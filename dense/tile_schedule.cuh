// The schedule both GPU tile agents share (bit_agent.cuh: a word a lane; byte_agent.cuh: 16
// cells a lane). A block holds a tile of `rows` rows x 32 lanes in two shared buffers: it loads
// the tile into the first, then generation s computes rows s+1 .. rows-s-2, the ones still
// right, split evenly among the block's warps, from one buffer into the other. The last
// generation, rows G .. rows-G-1, goes to memory instead.
#pragma once

namespace cellgraph::dense::cuda {

// load(r): this lane's cells of tile row r. step(in, r0, r1, out): one generation of rows
// [r0, r1) from buffer `in` into `out`; last(in, r0, r1): the last one, to memory. (Two calls,
// not one with a null `out`: what only the last generation needs then stays out of the
// registers of the others, which spilled at 64 registers a thread.)
template <int G, class Cell, class Load, class Step, class Last>
__device__ __forceinline__ void run_tile_generations(Cell* shared, int rows, const Load& load, const Step& step,
                                                     const Last& last) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
  Cell* buffer[2] = {shared, shared + rows * 32};
#pragma unroll 4
  for (int r = warp; r < rows; r += warps) buffer[0][r * 32 + lane] = load(r);
  __syncthreads();
#pragma unroll 1
  for (int s = 0; s < G - 1; ++s) {
    const int lo = s + 1, n = rows - 2 * s - 2;
    step(buffer[s & 1], lo + n * warp / warps, lo + n * (warp + 1) / warps, buffer[(s + 1) & 1]);
    __syncthreads();
  }
  const int n = rows - 2 * G;
  last(buffer[(G - 1) & 1], G + n * warp / warps, G + n * (warp + 1) / warps);
}

}  // namespace cellgraph::dense::cuda
