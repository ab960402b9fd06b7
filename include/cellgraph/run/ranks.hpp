// The processes a run is spread over, as the run driver and its writers see them: one process
// (the default), or the ranks of an MPI job (partition/run_ranks.hpp). Every rank takes the same
// chunks and stops after the same step, and one rank writes the files; the collectives behind
// that live with the MPI transport, so that the library's run loop needs no MPI.
#pragma once

namespace cellgraph {

class RunRanks {
 public:
  virtual ~RunRanks() = default;
  // Whether this rank writes the files (rank 0). Every rank still gathers: census, states and
  // export_state are collective in a partitioned run.
  virtual bool writes_files() const = 0;
  // The slowest rank's time for a chunk, on every rank (collective).
  virtual double slowest(double seconds) const = 0;
  // The signal that asked any rank to stop (SIGINT, SIGTERM), or 0, on every rank (collective).
  virtual int any_stop_signal(int mine) const = 0;
};

// One process: it writes, and its own time and signal are the run's.
class SingleProcess final : public RunRanks {
 public:
  bool writes_files() const override { return true; }
  double slowest(double seconds) const override { return seconds; }
  int any_stop_signal(int mine) const override { return mine; }
};

const RunRanks& single_process();

}  // namespace cellgraph
