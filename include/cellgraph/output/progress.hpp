// A one-line progress report on long runs, redrawn in place on a terminal.
#pragma once
#include <chrono>
#include <cstdint>
#include <cstdio>

namespace cellgraph {

class Progress {
 public:
  // Shown when `enabled` (--progress) or when stderr is a terminal.
  Progress(bool enabled, std::uint64_t total_steps, std::uint64_t cells);
  void update(std::uint64_t step);  // redraws at most a few times a second
  void finish();

 private:
  bool shown_;
  std::uint64_t total_, cells_;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace cellgraph
