// How many steps a run advances before it looks up to write, show progress and see whether a
// signal asked it to stop: chunks double while they take under a quarter of a second and halve
// when they take over one, so that both are seen within about a second while fast backends
// still run long chunks (the CUDA backend replays captured graphs of many steps). Across ranks
// every rank takes the same chunks and stops after the same step: the slowest rank's time and
// any rank's stop request are shared (RunRanks: a collective after every chunk).
#pragma once
#include <cstdint>

#include "cellgraph/run/ranks.hpp"

namespace cellgraph {

class ChunkPacer {
 public:
  explicit ChunkPacer(std::uint64_t longest = 256) : longest_(longest) {}
  std::uint64_t chunk() const { return chunk_; }
  // After a chunk that took `seconds` on this rank: the signal that asked any rank to stop
  // (SIGINT, SIGTERM), or 0 to go on. Collective across `ranks`.
  int stop_after(double seconds, const RunRanks& ranks);

 private:
  std::uint64_t chunk_ = 1, longest_;
};

}  // namespace cellgraph
