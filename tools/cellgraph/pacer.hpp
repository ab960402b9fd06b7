// How many steps a run advances before it looks up to write statistics, show progress and see
// whether a signal asked it to stop: chunks double while they take under a quarter of a second
// and halve when they take over one, so that both are seen within about a second while fast
// backends still run long chunks (the CUDA backend replays captured graphs of many steps).
// Under mpirun every rank takes the same chunks and stops after the same step: the slowest
// rank's time and any rank's stop request are shared (a collective after every chunk).
#pragma once
#include <cstdint>

namespace cellgraph::cli {

class RunPacer {
 public:
  explicit RunPacer(std::uint64_t longest = 256) : longest_(longest) {}
  std::uint64_t chunk() const { return chunk_; }
  // After a chunk that took `seconds` on this rank: the signal that asked any rank to stop
  // (SIGINT, SIGTERM), or 0 to go on. Collective under mpirun.
  int stop_after(double seconds);

 private:
  std::uint64_t chunk_ = 1, longest_;
};

}  // namespace cellgraph::cli
