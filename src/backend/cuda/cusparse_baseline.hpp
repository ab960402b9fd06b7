// The GPU benchmark's baseline: Life-like steps written the obvious way with cuSPARSE (neighbor
// counts by CSR SpMV in float, then an elementwise rule kernel), and the device's copy bandwidth.
// A plain C++ header: host .cpp files include it; the implementation is cusparse_baseline.cu,
// built only with the CUDA backend (call these under #if CELLGRAPH_HAVE_CUDA).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "cellgraph/graph.hpp"
#include "models/lifelike.hpp"

namespace cellgraph::cuda {

struct SpmvBaselineResult {
  double seconds_per_step = 0;
  std::vector<std::uint32_t> states;  // after the last timed run, user order
  // The configuration that was timed, e.g. "CUSPARSE_SPMV_CSR_ALG2, 32I offsets, 32I columns".
  std::string algorithm;
};

// Runs `steps` steps of the Life-like rule the way a user would with cuSPARSE: x = float(state
// == 1), y = A x by cusparseSpMV (CSR, float, A = adjacency with 1.0 per entry), then a kernel
// applies the rule to (state, y) and writes the next state and the next x. Boundary entries
// (kBoundaryVertex) are column n, the boundary cell (x[n] = boundary_value == 1, never
// updated): A is n x (n + 1).
//
// Both CSR SpMV algorithms (CUSPARSE_SPMV_CSR_ALG1 and ALG2) are set up (buffer sized and
// allocated once each, cusparseSpMV_preprocess called) and timed; the faster one is reported,
// so the baseline is the best cuSPARSE offers for this graph. Per algorithm: `warmup` untimed
// steps, then the median of `repeats` runs of `steps` steps, each restarting from `initial`,
// timed with CUDA events. Returns the states after the last timed run of the reported
// algorithm (user order) so that the caller can check them against the engine.
//
// Throws Error on bad arguments and on any CUDA or cuSPARSE failure (naming the call).
SpmvBaselineResult run_cusparse_life(const Graph& g, const models::LifeLike& rule,
                                     const std::vector<std::uint32_t>& initial, std::uint32_t boundary_value,
                                     int steps, int repeats, int warmup);

// Bytes/s of a 2 GiB device-to-device cudaMemcpy of non-zero data, read + write counted: the
// median of 5 copies timed with CUDA events (after one untimed copy). The ceiling for a
// memory-bound step on the current device.
double device_copy_bandwidth();

// The current device's name (cudaGetDeviceProperties).
std::string device_name();

}  // namespace cellgraph::cuda
