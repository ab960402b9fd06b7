// The CUDA sweep's tuning policy: the shapes and thresholds that were measured rather than
// derived, kept apart from the kernels and from the choices made with them (sweep_plan.hpp),
// as CUB keeps its policies apart from its algorithms. The kernels take their block shape from
// the policy at compile time; the host takes it from the same policy when it launches them, so
// the two cannot disagree.
#pragma once
#include <cstdint>

namespace cellgraph {

struct SweepTuning {
  std::uint32_t block_threads;        // threads of a sweep block (and of a giant hub's block)
  std::uint32_t vertices_per_thread;  // ordinary vertices each thread walks, interleaved
  std::uint32_t index_batch;          // neighbor indices a walk loads before it gathers
  // Below this many vertices a step is bound by latency, not bandwidth: the sweep fills the GPU
  // in a wave or two and lasts as long as its longest walk. Such layouts cut the long tail of
  // their degrees into hubs (layout.hpp), fuse a sweep into one launch and replay long graphs.
  std::uint32_t latency_bound_vertices;
  std::uint32_t graph_steps_latency_bound;  // steps per captured CUDA graph below that size (even)
  std::uint32_t graph_steps;                // and above it (even: the buffers end where they began)

  constexpr std::uint32_t vertices_per_block() const { return block_threads * vertices_per_thread; }
};

// Hopper (sm_90), measured on an H100: two vertices a thread rather than one, +9% on a mesh and
// +5% on a grid; copter2 (degrees 3 to 44) with hubs from degree 25 and one launch a sweep, +29%.
inline constexpr SweepTuning kHopperSweepTuning{256, 2, 8, 1u << 20, 64, 2};

// The policy the kernels are compiled with. Only Hopper's has been measured; other
// architectures run it too until one of their own is added here (and selected by __CUDA_ARCH__
// for the kernels and by sweep_tuning() for the host).
inline constexpr SweepTuning kSweepTuning = kHopperSweepTuning;

// The policy of a device of compute capability major * 10 + minor (90: Hopper).
constexpr const SweepTuning& sweep_tuning(int /*compute_capability*/) { return kSweepTuning; }

}  // namespace cellgraph
