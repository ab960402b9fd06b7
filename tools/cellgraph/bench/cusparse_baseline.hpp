// The GPU benchmark's baseline: Life-like steps written the obvious way with cuSPARSE (neighbor
// counts by CSR SpMV in float, then an elementwise rule kernel), and the device's copy bandwidth.
// A plain C++ header: host .cpp files include it; the implementation is cusparse_baseline.cu,
// built only with the CUDA backend (call these under #if CELLGRAPH_HAVE_CUDA), except the
// inline row_block_starts, which any build can use.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cellgraph/error.hpp"
#include "cellgraph/graph.hpp"
#include "models/lifelike.hpp"

namespace cellgraph::cuda {

struct SpmvBaselineResult {
  double seconds_per_step = 0;
  std::vector<std::uint32_t> states;  // after the last timed run, user order
  // The configuration that was timed, e.g. "CUSPARSE_SPMV_CSR_ALG2, 32I indices, 1 row block,
  // preprocessed".
  std::string algorithm;
};

// Cuts the rows of a CSR matrix (`offsets`: n + 1 entries) greedily, at row boundaries, into
// consecutive blocks of at most `max_entries` entries each. Returns the first row of each block
// followed by n: block b is rows [starts[b], starts[b + 1]). One block {0, n} when all entries
// fit; {0} (no block) when n == 0. Throws Error when a single row has more than max_entries.
inline std::vector<std::uint32_t> row_block_starts(const std::vector<EdgeOffset>& offsets, std::uint64_t max_entries) {
  const std::size_t n = offsets.empty() ? 0 : offsets.size() - 1;
  std::vector<std::uint32_t> starts{0};
  for (std::size_t first = 0; first < n;) {
    const EdgeOffset base = offsets[first];
    std::size_t end = n;  // the last row boundary at most max_entries past base
    if (offsets[n] - base > max_entries)
      end = std::size_t(std::upper_bound(offsets.begin() + std::ptrdiff_t(first), offsets.end(), base + max_entries) -
                        offsets.begin()) -
            1;
    if (end == first)
      throw Error("row " + std::to_string(first) + " has " + std::to_string(offsets[first + 1] - base) +
                  " entries, more than the " + std::to_string(max_entries) + " a row block may hold");
    starts.push_back(std::uint32_t(end));
    first = end;
  }
  return starts;
}

// Runs `steps` steps of the Life-like rule the way a user would with cuSPARSE: x = float(state
// == 1), y = A x by cusparseSpMV (CSR, float, A = adjacency with 1.0 per entry), then a kernel
// applies the rule to (state, y) and writes the next state and the next x. Boundary entries
// (kBoundaryVertex) are column n, the boundary cell (x[n] = boundary_value == 1, never
// updated): A is n x (n + 1).
//
// Indices are always 32-bit (cuSPARSE 13.0 refuses or fails on 64-bit ones), so the graph must
// have fewer than 2^31 - 1 vertices, and A is cut into row blocks of at most 2^30 entries
// (row_block_starts), each its own CSR matrix and SpMV into its slice of y: a step is one
// cusparseSpMV per block, all on one stream, then the rule kernel.
//
// Both CSR SpMV algorithms (CUSPARSE_SPMV_CSR_ALG1 and ALG2) are set up (buffer sized and
// allocated once each per block, cusparseSpMV_preprocess called) and timed; the faster one is reported,
// so the baseline is the best cuSPARSE offers for this graph. Per algorithm: `warmup` untimed
// steps, then the median of `repeats` runs of `steps` steps, each restarting from `initial`,
// timed with CUDA events. Returns the states after the last timed run of the reported
// algorithm (user order) so that the caller can check them against the engine.
//
// Throws Error on bad arguments and on any CUDA or cuSPARSE failure (naming the call).
SpmvBaselineResult run_cusparse_life(const Graph& g, const models::LifeLike& rule,
                                     const std::vector<std::uint32_t>& initial, std::uint32_t boundary_value, int steps,
                                     int repeats, int warmup);

// Bytes/s of a 2 GiB device-to-device cudaMemcpy of non-zero data, read + write counted: the
// median of 5 copies timed with CUDA events (after one untimed copy). The ceiling for a
// memory-bound step on the current device.
double device_copy_bandwidth();

// The current device's name (cudaGetDeviceProperties).
std::string device_name();

}  // namespace cellgraph::cuda
