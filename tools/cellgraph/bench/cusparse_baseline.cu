// The GPU benchmark's baseline (see cusparse_baseline.hpp): a step is one cusparseSpMV per row
// block of A (y = A x, CSR, float, 32-bit indices) and one elementwise kernel that applies the
// rule to (state, y) and writes the next state and the next x. Nothing else runs between steps.
#include <cusparse.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "cellgraph/error.hpp"
#include "src/backend/cuda/cuda_check.cuh"
#include "src/backend/cuda/device_array.cuh"
#include "tools/cellgraph/bench/cusparse_baseline.hpp"

namespace cellgraph::cuda {
namespace {

void check_cusparse(cusparseStatus_t status, const char* call, const char* file, int line) {
  if (status != CUSPARSE_STATUS_SUCCESS)
    throw Error(std::string("cuSPARSE error: ") + cusparseGetErrorName(status) + " (" + cusparseGetErrorString(status) +
                ") in " + call + " (" + file + ":" + std::to_string(line) + ")");
}

}  // namespace
}  // namespace cellgraph::cuda

#define CG_CUSPARSE(call) ::cellgraph::cuda::check_cusparse((call), #call, __FILE__, __LINE__)

namespace cellgraph::cuda {
namespace {

using Vars = models::LifeLike::Vars;
constexpr unsigned kThreads = 256;

// Owns one CUDA or cuSPARSE handle; `destroy` releases it.
template <class Handle, auto destroy>
class Owned {
 public:
  Owned() = default;
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;
  ~Owned() { reset(); }
  Handle* put() {  // for the create call
    reset();
    return &h_;
  }
  Handle get() const { return h_; }
  void reset() {
    if (h_) destroy(h_);
    h_ = Handle{};
  }

 private:
  Handle h_{};
};
using SparseHandle = Owned<cusparseHandle_t, cusparseDestroy>;
using SparseMatrix = Owned<cusparseSpMatDescr_t, cusparseDestroySpMat>;
using DenseVector = Owned<cusparseDnVecDescr_t, cusparseDestroyDnVec>;
using Stream = Owned<cudaStream_t, cudaStreamDestroy>;
using Event = Owned<cudaEvent_t, cudaEventDestroy>;

unsigned blocks_for(std::size_t threads) { return unsigned((threads + kThreads - 1) / kThreads); }
unsigned grid_stride_blocks(std::size_t count) {
  return unsigned(std::clamp<std::size_t>(blocks_for(count), 1, 65536));
}

// Boundary slots become column n, the boundary cell.
__global__ void map_boundary_columns(std::uint32_t* columns, std::size_t count, std::uint32_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count;
       i += std::size_t(gridDim.x) * blockDim.x)
    if (columns[i] == kBoundaryVertex) columns[i] = n;
}

__global__ void fill_ones(float* values, std::size_t count) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count;
       i += std::size_t(gridDim.x) * blockDim.x)
    values[i] = 1.0f;
}

// x = float(state == 1) over the n vertices (x[n], the boundary cell, is set once).
__global__ void live_indicator(const std::uint8_t* state, float* x, std::uint32_t n) {
  const std::size_t v = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (v < n) x[v] = state[v] == 1 ? 1.0f : 0.0f;
}

// One thread per vertex: the rule of models/lifelike.hpp applied to (state, live count), the
// next state written, and x updated for the next SpMV. Counts are sums of 0/1 floats, exact
// below 2^24 whatever the summation order.
__global__ void life_rule(models::LifeLike rule, std::uint32_t n, const float* __restrict__ count,
                          const std::uint8_t* __restrict__ cur, std::uint8_t* __restrict__ next,
                          float* __restrict__ x) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  const std::uint32_t v = std::uint32_t(i);
  const StateRef<Vars> from{{const_cast<std::uint8_t*>(cur)}}, to{{next}};
  CellWrite<Vars> out{to, v};
  rule.apply(CellRead<Vars>{from, v}, __float2uint_rn(count[v]), out, CellContext{0, 0, v, 0});
  x[v] = next[v] == 1 ? 1.0f : 0.0f;
}

__global__ void fill_pattern(std::uint32_t* data, std::size_t count) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count;
       i += std::size_t(gridDim.x) * blockDim.x)
    data[i] = (std::uint32_t(i) * 2654435761u) | 1u;  // odd: never zero
}

// One row block of A on the device: rows [first_row, first_row + rows) in CSR with 32-bit
// offsets relative to the block's first entry, and global columns (x has n + 1 entries). The
// blocks together hold each column and value once. `y` is the block's slice of y.
struct RowBlock {
  std::uint32_t first_row = 0, rows = 0;
  std::int64_t nnz = 0;
  DeviceArray<std::int32_t> offsets;
  DeviceArray<std::uint32_t> columns;
  DeviceArray<float> values;
  DenseVector y;
};

// A cut at row_block_starts(g.offsets, 2^30), uploaded straight from g (n + 1 < 2^31). Blocks
// stay well under 2^31 entries: cuSPARSE 13.0's SpMV failed (INTERNAL_ERROR) on an H200 with one
// block of 2^31 - 1.
std::vector<RowBlock> upload_blocks(const Graph& g, float* y) {
  const std::uint32_t n = g.num_vertices();
  const std::vector<std::uint32_t> starts = row_block_starts(g.offsets, std::uint64_t(1) << 30);
  std::vector<RowBlock> blocks(starts.size() - 1);
  std::vector<std::int32_t> offsets;
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    RowBlock& k = blocks[b];
    k.first_row = starts[b], k.rows = starts[b + 1] - starts[b];
    const EdgeOffset base = g.offsets[k.first_row];
    const std::size_t nnz = std::size_t(g.offsets[starts[b + 1]] - base), stored = std::max<std::size_t>(nnz, 1);
    k.nnz = std::int64_t(nnz);
    offsets.resize(std::size_t(k.rows) + 1);
    for (std::uint32_t r = 0; r <= k.rows; ++r) offsets[r] = std::int32_t(g.offsets[k.first_row + r] - base);
    k.offsets = DeviceArray<std::int32_t>(offsets.data(), offsets.size());
    k.columns = DeviceArray<std::uint32_t>(stored);
    k.columns.upload(g.neighbors.data() + base, nnz);
    map_boundary_columns<<<grid_stride_blocks(nnz), kThreads>>>(k.columns.data(), nnz, n);
    CG_CUDA_LAUNCHED();
    k.values = DeviceArray<float>(stored);
    fill_ones<<<grid_stride_blocks(nnz), kThreads>>>(k.values.data(), nnz);
    CG_CUDA_LAUNCHED();
    CG_CUSPARSE(cusparseCreateDnVec(k.y.put(), k.rows, y + k.first_row, CUDA_R_32F));
  }
  CG_CUDA(cudaDeviceSynchronize());
  return blocks;
}

// One SpMV algorithm with its own descriptor and buffer per row block (cusparseSpMV_preprocess
// ties its analysis to them).
struct Candidate {
  cusparseSpMVAlg_t alg;
  const char* name;
  std::vector<SparseMatrix> matrices;
  std::vector<DeviceArray<unsigned char>> buffers;
  bool usable = false;
  std::size_t preprocessed = 0;  // blocks preprocessed
};

double median(std::vector<double> t) {
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

}  // namespace

SpmvBaselineResult run_cusparse_life(const Graph& g, const models::LifeLike& rule,
                                     const std::vector<std::uint32_t>& initial, std::uint32_t boundary_value, int steps,
                                     int repeats, int warmup) {
  const std::uint32_t n = g.num_vertices();
  if (steps < 1 || repeats < 1 || warmup < 0)
    throw Error("cuSPARSE baseline: steps and repeats must be at least 1, warmup at least 0");
  if (initial.size() != n)
    throw Error("cuSPARSE baseline: " + std::to_string(initial.size()) + " initial states for " + std::to_string(n) +
                " vertices");
  if (boundary_value >= rule.num_states())
    throw Error("cuSPARSE baseline: boundary state " + std::to_string(boundary_value) + " is not a state of the rule");
  if (n == 0) return {0.0, {}, "none (empty graph)"};
  if (std::uint64_t(n) + 1 >= (std::uint64_t(1) << 31))
    throw Error("cuSPARSE baseline: supports fewer than 2^31 - 1 vertices (32-bit cuSPARSE indices), the graph has " +
                std::to_string(n));

  // The state, its initial copy and x = float(state == 1), on the device.
  std::vector<std::uint8_t> start(n);
  for (std::uint32_t v = 0; v < n; ++v) {
    if (initial[v] >= rule.num_states())
      throw Error("cuSPARSE baseline: initial state " + std::to_string(initial[v]) + " of vertex " + std::to_string(v) +
                  " is not a state of the rule");
    start[v] = std::uint8_t(initial[v]);
  }
  const DeviceArray<std::uint8_t> start_device(start.data(), n);
  DeviceArray<std::uint8_t> state[2] = {DeviceArray<std::uint8_t>(n), DeviceArray<std::uint8_t>(n)};
  DeviceArray<float> x(std::size_t(n) + 1), y(n);
  const float boundary_x = boundary_value == 1 ? 1.0f : 0.0f;
  x.upload(&boundary_x, 1, n);  // the boundary cell: never written again
  CG_CUDA(cudaMemset(y.data(), 0, std::size_t(n) * sizeof(float)));

  std::vector<RowBlock> blocks = upload_blocks(g, y.data());

  Stream stream;
  CG_CUDA(cudaStreamCreateWithFlags(stream.put(), cudaStreamNonBlocking));
  SparseHandle handle;
  CG_CUSPARSE(cusparseCreate(handle.put()));
  CG_CUSPARSE(cusparseSetStream(handle.get(), stream.get()));
  DenseVector x_vec;
  CG_CUSPARSE(cusparseCreateDnVec(x_vec.put(), std::int64_t(n) + 1, x.data(), CUDA_R_32F));
  const float one = 1.0f, zero = 0.0f;

  Candidate candidates[2] = {{CUSPARSE_SPMV_CSR_ALG1, "CUSPARSE_SPMV_CSR_ALG1", {}, {}, false, 0},
                             {CUSPARSE_SPMV_CSR_ALG2, "CUSPARSE_SPMV_CSR_ALG2", {}, {}, false, 0}};
  // Per block: descriptor, buffer (sized and allocated once) and preprocessing; returns the
  // status of the first call that refused, or success.
  auto prepare = [&](Candidate& c) -> cusparseStatus_t {
    c.usable = false;
    c.preprocessed = 0;
    c.matrices = std::vector<SparseMatrix>(blocks.size());
    c.buffers = std::vector<DeviceArray<unsigned char>>(blocks.size());
    for (std::size_t b = 0; b < blocks.size(); ++b) {
      RowBlock& k = blocks[b];
      cusparseStatus_t s = cusparseCreateCsr(c.matrices[b].put(), k.rows, std::int64_t(n) + 1, k.nnz, k.offsets.data(),
                                             k.columns.data(), k.values.data(), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                             CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F);
      if (s != CUSPARSE_STATUS_SUCCESS) return s;
      std::size_t bytes = 0;
      s = cusparseSpMV_bufferSize(handle.get(), CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c.matrices[b].get(),
                                  x_vec.get(), &zero, k.y.get(), CUDA_R_32F, c.alg, &bytes);
      if (s != CUSPARSE_STATUS_SUCCESS) return s;
      c.buffers[b] = DeviceArray<unsigned char>(std::max<std::size_t>(bytes, 1));
      // Optional: speeds up later calls on the same matrix. Where cuSPARSE cannot preprocess
      // a block, its plain call is timed.
      s = cusparseSpMV_preprocess(handle.get(), CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c.matrices[b].get(),
                                  x_vec.get(), &zero, k.y.get(), CUDA_R_32F, c.alg, c.buffers[b].data());
      if (s == CUSPARSE_STATUS_SUCCESS) ++c.preprocessed;
    }
    c.usable = true;
    return CUSPARSE_STATUS_SUCCESS;
  };
  cusparseStatus_t status[2];
  for (int i = 0; i < 2; ++i) status[i] = prepare(candidates[i]);
  // An algorithm may refuse a configuration; the other is then timed alone.
  for (int i = 0; i < 2; ++i)
    if (!candidates[i].usable && status[i] != CUSPARSE_STATUS_NOT_SUPPORTED)
      check_cusparse(status[i], "cusparseCreateCsr / cusparseSpMV_bufferSize", __FILE__, __LINE__);
  if (!candidates[0].usable && !candidates[1].usable)
    check_cusparse(status[0], "cusparseSpMV_bufferSize (no CSR algorithm takes this matrix)", __FILE__, __LINE__);

  int parity = 0;  // state[parity] holds the current state
  auto restart = [&] {
    CG_CUDA(cudaMemcpyAsync(state[0].data(), start_device.data(), n, cudaMemcpyDeviceToDevice, stream.get()));
    live_indicator<<<blocks_for(n), kThreads, 0, stream.get()>>>(state[0].data(), x.data(), n);
    CG_CUDA_LAUNCHED();
    parity = 0;
  };
  auto run_steps = [&](const Candidate& c, int count) {
    for (int s = 0; s < count; ++s, parity ^= 1) {
      for (std::size_t b = 0; b < blocks.size(); ++b)
        CG_CUSPARSE(cusparseSpMV(handle.get(), CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c.matrices[b].get(), x_vec.get(),
                                 &zero, blocks[b].y.get(), CUDA_R_32F, c.alg, c.buffers[b].data()));
      life_rule<<<blocks_for(n), kThreads, 0, stream.get()>>>(rule, n, y.data(), state[parity].data(),
                                                              state[parity ^ 1].data(), x.data());
      CG_CUDA_LAUNCHED();
    }
  };

  Event begin, end;
  CG_CUDA(cudaEventCreate(begin.put()));
  CG_CUDA(cudaEventCreate(end.put()));
  SpmvBaselineResult best;
  best.seconds_per_step = -1;
  std::vector<std::uint8_t> final_states(n);
  for (const Candidate& c : candidates) {
    if (!c.usable) continue;
    restart();
    run_steps(c, warmup);
    CG_CUDA(cudaStreamSynchronize(stream.get()));
    std::vector<double> seconds;
    for (int r = 0; r < repeats; ++r) {
      restart();
      CG_CUDA(cudaEventRecord(begin.get(), stream.get()));
      run_steps(c, steps);
      CG_CUDA(cudaEventRecord(end.get(), stream.get()));
      CG_CUDA(cudaEventSynchronize(end.get()));
      float ms = 0;
      CG_CUDA(cudaEventElapsedTime(&ms, begin.get(), end.get()));
      seconds.push_back(ms / 1e3);
    }
    const double per_step = median(seconds) / steps;
    if (best.seconds_per_step < 0 || per_step < best.seconds_per_step) {
      CG_CUDA(cudaMemcpy(final_states.data(), state[parity].data(), n, cudaMemcpyDeviceToHost));
      best.seconds_per_step = per_step;
      const std::size_t m = blocks.size();
      best.algorithm =
          std::string(c.name) + ", 32I indices, " + std::to_string(m) + (m == 1 ? " row block" : " row blocks");
      if (c.preprocessed == m) best.algorithm += ", preprocessed";
      else if (c.preprocessed > 0) best.algorithm += ", " + std::to_string(c.preprocessed) + " of them preprocessed";
    }
  }
  best.states.assign(final_states.begin(), final_states.end());
  return best;
}

double device_copy_bandwidth() {
  const std::size_t bytes = std::size_t(2) << 30, words = bytes / sizeof(std::uint32_t);
  DeviceArray<std::uint32_t> from(words), to(words);
  fill_pattern<<<grid_stride_blocks(words), kThreads>>>(from.data(), words);
  CG_CUDA_LAUNCHED();
  CG_CUDA(cudaMemset(to.data(), 0xA5, bytes));
  // Untimed copies for a fifth of a second first: an idle GPU's memory clock takes longer than
  // one copy to come up (a single warm-up copy measured 1.35 TB/s on an H200 that copies 4.2).
  const auto warm_until = std::chrono::steady_clock::now() + std::chrono::milliseconds(200);
  while (std::chrono::steady_clock::now() < warm_until) {
    CG_CUDA(cudaMemcpyAsync(to.data(), from.data(), bytes, cudaMemcpyDeviceToDevice));
    CG_CUDA(cudaDeviceSynchronize());
  }
  Event begin, end;
  CG_CUDA(cudaEventCreate(begin.put()));
  CG_CUDA(cudaEventCreate(end.put()));
  std::vector<double> seconds;
  for (int r = 0; r < 5; ++r) {
    CG_CUDA(cudaEventRecord(begin.get()));
    CG_CUDA(cudaMemcpyAsync(to.data(), from.data(), bytes, cudaMemcpyDeviceToDevice));
    CG_CUDA(cudaEventRecord(end.get()));
    CG_CUDA(cudaEventSynchronize(end.get()));
    float ms = 0;
    CG_CUDA(cudaEventElapsedTime(&ms, begin.get(), end.get()));
    seconds.push_back(ms / 1e3);
  }
  return 2.0 * double(bytes) / median(seconds);
}

std::string device_name() {
  int device = 0;
  CG_CUDA(cudaGetDevice(&device));
  cudaDeviceProp properties;
  CG_CUDA(cudaGetDeviceProperties(&properties, device));
  return properties.name;
}

}  // namespace cellgraph::cuda
