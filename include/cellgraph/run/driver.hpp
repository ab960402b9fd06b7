// The run loop, for programs that embed the library as for the cellgraph command: a driver
// steps a simulation in chunks up to the next step some writer is due (writer.hpp), calls the
// writers due there, shows progress, and ends early, after its chunk, when SIGINT or SIGTERM
// asks (interrupt.hpp: a program that wants that calls install_interrupt_handlers() first, as
// the CLI does), reporting what the writers wrote. In the style of HOOMD-blue's operations:
// the loop is the library's, the writers and their triggers the caller's.
//
//   RunDriver driver(*sim);
//   driver.add(std::make_unique<CensusStatsWriter>("stats.csv", *sim, 10));
//   const RunResult result = driver.run(1000);
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "cellgraph/ensemble.hpp"
#include "cellgraph/movable/movable_simulation.hpp"
#include "cellgraph/output/progress.hpp"
#include "cellgraph/run/pacer.hpp"
#include "cellgraph/run/ranks.hpp"
#include "cellgraph/run/writer.hpp"
#include "cellgraph/simulation.hpp"

namespace cellgraph {

// What the driver steps: a Simulation (partitioned ones too), a MovableSimulation, or anything
// else that advances by steps.
class Stepper {
 public:
  virtual ~Stepper() = default;
  virtual std::uint64_t step() const = 0;
  virtual void advance(std::uint64_t steps) = 0;
};

struct RunResult {
  std::uint64_t first_step = 0, step = 0;  // where the run started and where it ended
  double seconds = 0;                      // the stepping, outputs at the start and end left out
  int stop_signal = 0;                     // SIGINT or SIGTERM, when one ended the run early
  StoppedOutputs stopped_outputs;          // then: what the writers wrote and what they could not
  std::vector<WrittenOutput> outputs;      // otherwise, on the rank that writes files: what was written
  bool stopped() const { return stop_signal != 0; }
};

class RunDriver {
 public:
  explicit RunDriver(Simulation& sim, const RunRanks& ranks = single_process());
  explicit RunDriver(MovableSimulation& sim, const RunRanks& ranks = single_process());
  explicit RunDriver(Ensemble& ensemble, const RunRanks& ranks = single_process());
  explicit RunDriver(std::unique_ptr<Stepper> stepper, const RunRanks& ranks = single_process());

  // Writers run in the order added: at each step, and in a stopped run's report.
  RunWriter& add(std::unique_ptr<RunWriter> writer);
  // Updated after every chunk and finished when the stepping ends; must outlive run().
  void show_progress(Progress& progress) { progress_ = &progress; }
  // The longest chunk, in steps (256 by default).
  void set_longest_chunk(std::uint64_t steps) { pacer_ = ChunkPacer(steps); }

  // Steps to `last_step`: writers due at the first step write, then chunk by chunk those due at
  // each step reached, then every writer finishes. A first SIGINT or SIGTERM ends the run after
  // its chunk: writers then finish with what they have (RunResult::stopped_outputs). Every rank
  // of a partitioned run calls it; the same steps are run and written everywhere.
  RunResult run(std::uint64_t last_step);

 private:
  struct Scheduled {
    std::unique_ptr<RunWriter> writer;
    Trigger trigger;
    std::uint64_t written_at = ~std::uint64_t(0);  // the step last written (none yet)
  };

  std::uint64_t next_stop(std::uint64_t last_step) const;
  void write_at_start(std::uint64_t step);
  void write_due(std::uint64_t step, std::uint64_t last_step);
  void write(Scheduled& scheduled, std::uint64_t step);
  std::vector<WrittenOutput> finish(std::uint64_t step);
  StoppedOutputs finish_stopped(std::uint64_t step);

  std::unique_ptr<Stepper> stepper_;
  const RunRanks& ranks_;
  std::vector<Scheduled> writers_;
  Progress* progress_ = nullptr;
  ChunkPacer pacer_;
  StepCache cache_;
};

}  // namespace cellgraph
