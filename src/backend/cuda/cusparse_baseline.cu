// The GPU benchmark's baseline (see cusparse_baseline.hpp): a step is one cusparseSpMV
// (y = A x, CSR, float) and one elementwise kernel that applies the rule to (state, y) and
// writes the next state and the next x. Nothing else runs between steps.
#include <cusparse.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "cellgraph/error.hpp"
#include "src/backend/cuda/cuda_check.cuh"
#include "src/backend/cuda/cusparse_baseline.hpp"
#include "src/backend/cuda/device_array.cuh"

namespace cellgraph::cuda {
namespace {

void check_cusparse(cusparseStatus_t status, const char* call, const char* file, int line) {
  if (status != CUSPARSE_STATUS_SUCCESS)
    throw Error(std::string("cuSPARSE error: ") + cusparseGetErrorName(status) + " (" +
                cusparseGetErrorString(status) + ") in " + call + " (" + file + ":" + std::to_string(line) + ")");
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

__global__ void widen_columns(const std::uint32_t* in, std::int64_t* out, std::size_t count, std::uint32_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count;
       i += std::size_t(gridDim.x) * blockDim.x)
    out[i] = in[i] == kBoundaryVertex ? std::int64_t(n) : std::int64_t(in[i]);
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

// A in CSR on the device: offsets 32I when the entries fit, else 64I; columns 32I unless n + 1
// does not fit in int32 or cuSPARSE refuses mixed 64I offsets / 32I columns.
struct DeviceCsr {
  std::int64_t rows = 0, cols = 0, nnz = 0;
  DeviceArray<std::int32_t> offsets32;
  DeviceArray<std::int64_t> offsets64;
  DeviceArray<std::uint32_t> columns32;
  DeviceArray<std::int64_t> columns64;
  DeviceArray<float> values;
  cusparseIndexType_t offset_type = CUSPARSE_INDEX_32I, column_type = CUSPARSE_INDEX_32I;

  void* offsets() const {
    return offset_type == CUSPARSE_INDEX_32I ? static_cast<void*>(offsets32.data()) : offsets64.data();
  }
  void* columns() const {
    return column_type == CUSPARSE_INDEX_32I ? static_cast<void*>(columns32.data()) : columns64.data();
  }
  void widen_columns_to_64() {
    columns64 = DeviceArray<std::int64_t>(std::max<std::int64_t>(nnz, 1));
    widen_columns<<<grid_stride_blocks(std::size_t(nnz)), kThreads>>>(columns32.data(), columns64.data(),
                                                                      std::size_t(nnz), std::uint32_t(rows));
    CG_CUDA_LAUNCHED();
    CG_CUDA(cudaDeviceSynchronize());
    columns32 = DeviceArray<std::uint32_t>();
    column_type = CUSPARSE_INDEX_64I;
  }
};

DeviceCsr upload_csr(const Graph& g) {
  DeviceCsr a;
  const std::uint32_t n = g.num_vertices();
  a.rows = n, a.cols = std::int64_t(n) + 1, a.nnz = std::int64_t(g.num_entries());
  const std::size_t nnz = std::size_t(a.nnz), stored = std::max<std::size_t>(nnz, 1);
  if (g.num_entries() < (EdgeOffset(1) << 31)) {
    std::vector<std::int32_t> offsets(g.offsets.begin(), g.offsets.end());
    a.offsets32 = DeviceArray<std::int32_t>(offsets.data(), offsets.size());
  } else {
    a.offset_type = CUSPARSE_INDEX_64I;
    a.offsets64 = DeviceArray<std::int64_t>(reinterpret_cast<const std::int64_t*>(g.offsets.data()), g.offsets.size());
  }
  a.columns32 = DeviceArray<std::uint32_t>(stored);
  a.columns32.upload(g.neighbors.data(), nnz);
  a.values = DeviceArray<float>(stored);
  fill_ones<<<grid_stride_blocks(nnz), kThreads>>>(a.values.data(), nnz);
  CG_CUDA_LAUNCHED();
  if (a.cols > std::numeric_limits<std::int32_t>::max()) {
    a.widen_columns_to_64();
  } else {
    map_boundary_columns<<<grid_stride_blocks(nnz), kThreads>>>(a.columns32.data(), nnz, n);
    CG_CUDA_LAUNCHED();
  }
  CG_CUDA(cudaDeviceSynchronize());
  return a;
}

const char* index_name(cusparseIndexType_t t) { return t == CUSPARSE_INDEX_64I ? "64I" : "32I"; }

// One SpMV algorithm with its own descriptor and buffer (cusparseSpMV_preprocess ties its
// analysis to them).
struct Candidate {
  cusparseSpMVAlg_t alg;
  const char* name;
  SparseMatrix matrix;
  DeviceArray<unsigned char> buffer;
  bool usable = false;
  bool preprocessed = false;
};

double median(std::vector<double> t) {
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

}  // namespace

SpmvBaselineResult run_cusparse_life(const Graph& g, const models::LifeLike& rule,
                                     const std::vector<std::uint32_t>& initial, std::uint32_t boundary_value,
                                     int steps, int repeats, int warmup) {
  const std::uint32_t n = g.num_vertices();
  if (steps < 1 || repeats < 1 || warmup < 0)
    throw Error("cuSPARSE baseline: steps and repeats must be at least 1, warmup at least 0");
  if (initial.size() != n)
    throw Error("cuSPARSE baseline: " + std::to_string(initial.size()) + " initial states for " +
                std::to_string(n) + " vertices");
  if (boundary_value >= rule.num_states())
    throw Error("cuSPARSE baseline: boundary state " + std::to_string(boundary_value) + " is not a state of the rule");
  if (n == 0) return {0.0, {}, "none (empty graph)"};

  // The state, its initial copy and x = float(state == 1), on the device.
  std::vector<std::uint8_t> start(n);
  for (std::uint32_t v = 0; v < n; ++v) {
    if (initial[v] >= rule.num_states())
      throw Error("cuSPARSE baseline: initial state " + std::to_string(initial[v]) + " of vertex " +
                  std::to_string(v) + " is not a state of the rule");
    start[v] = std::uint8_t(initial[v]);
  }
  const DeviceArray<std::uint8_t> start_device(start.data(), n);
  DeviceArray<std::uint8_t> state[2] = {DeviceArray<std::uint8_t>(n), DeviceArray<std::uint8_t>(n)};
  DeviceArray<float> x(std::size_t(n) + 1), y(n);
  const float boundary_x = boundary_value == 1 ? 1.0f : 0.0f;
  x.upload(&boundary_x, 1, n);  // the boundary cell: never written again
  CG_CUDA(cudaMemset(y.data(), 0, std::size_t(n) * sizeof(float)));

  DeviceCsr a = upload_csr(g);

  Stream stream;
  CG_CUDA(cudaStreamCreateWithFlags(stream.put(), cudaStreamNonBlocking));
  SparseHandle handle;
  CG_CUSPARSE(cusparseCreate(handle.put()));
  CG_CUSPARSE(cusparseSetStream(handle.get(), stream.get()));
  DenseVector x_vec, y_vec;
  CG_CUSPARSE(cusparseCreateDnVec(x_vec.put(), std::int64_t(n) + 1, x.data(), CUDA_R_32F));
  CG_CUSPARSE(cusparseCreateDnVec(y_vec.put(), n, y.data(), CUDA_R_32F));
  const float one = 1.0f, zero = 0.0f;

  Candidate candidates[2] = {{CUSPARSE_SPMV_CSR_ALG1, "CUSPARSE_SPMV_CSR_ALG1", {}, {}, false, false},
                             {CUSPARSE_SPMV_CSR_ALG2, "CUSPARSE_SPMV_CSR_ALG2", {}, {}, false, false}};
  // Descriptor, buffer (sized and allocated once) and preprocessing; returns the status of the
  // first call that refused, or success.
  auto prepare = [&](Candidate& c) -> cusparseStatus_t {
    c.usable = c.preprocessed = false;
    c.buffer = DeviceArray<unsigned char>();
    cusparseStatus_t s = cusparseCreateCsr(c.matrix.put(), a.rows, a.cols, a.nnz, a.offsets(), a.columns(),
                                           a.values.data(), a.offset_type, a.column_type,
                                           CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F);
    if (s != CUSPARSE_STATUS_SUCCESS) return s;
    std::size_t bytes = 0;
    s = cusparseSpMV_bufferSize(handle.get(), CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c.matrix.get(), x_vec.get(),
                                &zero, y_vec.get(), CUDA_R_32F, c.alg, &bytes);
    if (s != CUSPARSE_STATUS_SUCCESS) return s;
    c.buffer = DeviceArray<unsigned char>(std::max<std::size_t>(bytes, 1));
    // Optional: speeds up later calls on the same matrix. Where cuSPARSE has no
    // preprocessing for this configuration, the plain call is timed.
    s = cusparseSpMV_preprocess(handle.get(), CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c.matrix.get(), x_vec.get(),
                                &zero, y_vec.get(), CUDA_R_32F, c.alg, c.buffer.data());
    if (s == CUSPARSE_STATUS_SUCCESS)
      c.preprocessed = true;
    else if (s != CUSPARSE_STATUS_NOT_SUPPORTED)
      check_cusparse(s, "cusparseSpMV_preprocess", __FILE__, __LINE__);
    c.usable = true;
    return CUSPARSE_STATUS_SUCCESS;
  };
  // Mixed 64I offsets / 32I columns: where no algorithm takes them, 64-bit columns too; where
  // one does, the algorithms that refuse them are left out.
  auto refused = [](cusparseStatus_t s) {
    return s == CUSPARSE_STATUS_NOT_SUPPORTED || s == CUSPARSE_STATUS_INVALID_VALUE;
  };
  cusparseStatus_t status[2];
  for (int i = 0; i < 2; ++i) status[i] = prepare(candidates[i]);
  bool mixed = a.offset_type != a.column_type;
  if (mixed && !candidates[0].usable && !candidates[1].usable && (refused(status[0]) || refused(status[1]))) {
    CG_CUDA(cudaStreamSynchronize(stream.get()));
    for (auto& c : candidates) c.matrix.reset(), c.buffer = DeviceArray<unsigned char>();
    a.widen_columns_to_64();
    mixed = false;
    for (int i = 0; i < 2; ++i) status[i] = prepare(candidates[i]);
  }
  for (int i = 0; i < 2; ++i)
    if (!candidates[i].usable && !(mixed ? refused(status[i]) : status[i] == CUSPARSE_STATUS_NOT_SUPPORTED))
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
      CG_CUSPARSE(cusparseSpMV(handle.get(), CUSPARSE_OPERATION_NON_TRANSPOSE, &one, c.matrix.get(), x_vec.get(),
                               &zero, y_vec.get(), CUDA_R_32F, c.alg, c.buffer.data()));
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
      best.algorithm = std::string(c.name) + ", " + index_name(a.offset_type) + " offsets, " +
                       index_name(a.column_type) + " columns" + (c.preprocessed ? ", preprocessed" : "");
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
  CG_CUDA(cudaMemcpy(to.data(), from.data(), bytes, cudaMemcpyDeviceToDevice));  // untimed
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
