#include "cellgraph/run/pacer.hpp"

#include <algorithm>

#include "cellgraph/interrupt.hpp"

namespace cellgraph {

int ChunkPacer::stop_after(double seconds, const RunRanks& ranks) {
  seconds = ranks.slowest(seconds);
  const int signal = ranks.any_stop_signal(stop_signal());
  if (seconds < 0.25) chunk_ = std::min(longest_, chunk_ * 2);
  else if (seconds > 1.0) chunk_ = std::max<std::uint64_t>(1, chunk_ / 2);
  return signal;
}

}  // namespace cellgraph
