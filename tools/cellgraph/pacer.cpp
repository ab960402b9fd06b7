#include "tools/cellgraph/pacer.hpp"

#include <algorithm>

#include "cellgraph/interrupt.hpp"
#include "partition/mpi.hpp"

namespace cellgraph::cli {

int RunPacer::stop_after(double seconds) {
  seconds = mpi::max(seconds);
  const int signal = int(mpi::max(double(stop_signal())));
  if (seconds < 0.25) chunk_ = std::min(longest_, chunk_ * 2);
  else if (seconds > 1.0) chunk_ = std::max<std::uint64_t>(1, chunk_ / 2);
  return signal;
}

}  // namespace cellgraph::cli
