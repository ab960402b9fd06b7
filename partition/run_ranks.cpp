#include "partition/run_ranks.hpp"

#include "partition/mpi.hpp"

namespace cellgraph::mpi {

bool RunRanksOfJob::writes_files() const { return rank() == 0; }

double RunRanksOfJob::slowest(double seconds) const { return max(seconds); }

int RunRanksOfJob::any_stop_signal(int mine) const { return int(max(double(mine))); }

const RunRanks& run_ranks() {
  static const RunRanksOfJob job;
  return job;
}

}  // namespace cellgraph::mpi
