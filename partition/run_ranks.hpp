// The ranks of an MPI job as a run driver sees them (include/cellgraph/run/ranks.hpp): rank 0
// writes the files, chunk times and stop requests are shared by collectives. Without mpirun it
// is one process.
#pragma once
#include "cellgraph/run/ranks.hpp"

namespace cellgraph::mpi {

class RunRanksOfJob final : public RunRanks {
 public:
  bool writes_files() const override;
  double slowest(double seconds) const override;
  int any_stop_signal(int mine) const override;
};

// This job's ranks.
const RunRanks& run_ranks();

}  // namespace cellgraph::mpi
