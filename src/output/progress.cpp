#include "cellgraph/output/progress.hpp"

#include <unistd.h>

namespace cellgraph {

Progress::Progress(bool enabled, std::uint64_t total_steps, std::uint64_t cells)
    : shown_(enabled || ::isatty(STDERR_FILENO)), total_(total_steps), cells_(cells),
      start_(std::chrono::steady_clock::now()), last_(start_) {}

void Progress::update(std::uint64_t step) {
  if (!shown_) return;
  auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::milliseconds(250) && step < total_) return;
  last_ = now;
  const double seconds = std::chrono::duration<double>(now - start_).count();
  const double rate = seconds > 0 ? double(step) * double(cells_) / seconds : 0.0;
  const double eta = step > 0 ? seconds * double(total_ - step) / double(step) : 0.0;
  std::fprintf(stderr, "\rstep %llu/%llu (%3.0f%%)  %.3g cell updates/s  ETA %.0f s   ",
               static_cast<unsigned long long>(step), static_cast<unsigned long long>(total_),
               total_ ? 100.0 * double(step) / double(total_) : 100.0, rate, eta);
  std::fflush(stderr);
}

void Progress::finish() {
  if (shown_) std::fprintf(stderr, "\n");
}

}  // namespace cellgraph
