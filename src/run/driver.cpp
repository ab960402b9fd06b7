#include "cellgraph/run/driver.hpp"

#include <algorithm>
#include <chrono>

#include "cellgraph/error.hpp"
#include "cellgraph/interrupt.hpp"

namespace cellgraph {
namespace {

// Simulation, MovableSimulation and Ensemble step alike but share no base class.
template <class Simulated>
class StepperOf final : public Stepper {
 public:
  explicit StepperOf(Simulated& sim) : sim_(sim) {}
  std::uint64_t step() const override { return sim_.step(); }
  void advance(std::uint64_t steps) override { sim_.advance(steps); }

 private:
  Simulated& sim_;
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

RunDriver::RunDriver(Simulation& sim, const RunRanks& ranks)
    : RunDriver(std::make_unique<StepperOf<Simulation>>(sim), ranks) {}

RunDriver::RunDriver(MovableSimulation& sim, const RunRanks& ranks)
    : RunDriver(std::make_unique<StepperOf<MovableSimulation>>(sim), ranks) {}

RunDriver::RunDriver(Ensemble& ensemble, const RunRanks& ranks)
    : RunDriver(std::make_unique<StepperOf<Ensemble>>(ensemble), ranks) {}

RunDriver::RunDriver(std::unique_ptr<Stepper> stepper, const RunRanks& ranks)
    : stepper_(std::move(stepper)), ranks_(ranks) {
  if (!stepper_) throw Error("a run driver needs something to step");
}

RunWriter& RunDriver::add(std::unique_ptr<RunWriter> writer) {
  if (!writer) throw Error("a run driver was given no writer");
  writers_.push_back({std::move(writer), {}});
  return *writers_.back().writer;
}

RunResult RunDriver::run(std::uint64_t last_step) {
  RunResult result;
  result.first_step = stepper_->step();
  if (last_step < result.first_step)
    throw Error("a run at step " + std::to_string(result.first_step) + " cannot run to step " +
                std::to_string(last_step));
  const RunSpan span{result.first_step, last_step};
  cache_ = StepCache();  // the simulation may have changed since an earlier run
  for (Scheduled& s : writers_) {
    s.writer->begin(span);
    s.trigger = s.writer->trigger();
  }
  write_at_start(result.first_step);

  const auto start = std::chrono::steady_clock::now();
  int stopped_by = 0;
  {
    StopListener listening;  // the first SIGINT or SIGTERM ends the run after its chunk
    while (stepper_->step() < last_step && !stopped_by) {
      const auto chunk_start = std::chrono::steady_clock::now();
      stepper_->advance(next_stop(last_step) - stepper_->step());
      const double chunk_seconds = seconds_since(chunk_start);
      write_due(stepper_->step(), last_step);
      if (progress_) progress_->update(stepper_->step());
      stopped_by = pacer_.stop_after(chunk_seconds, ranks_);
    }
  }
  result.seconds = seconds_since(start);
  result.step = stepper_->step();
  if (progress_) progress_->finish();
  if (stopped_by && result.step < last_step) {  // a stop asked for in the last chunk comes too late
    result.stop_signal = stopped_by;
    result.stopped_outputs = finish_stopped(result.step);
  } else {
    result.outputs = finish(result.step);
  }
  return result;
}

// The next step at which some writer is due, at most a chunk ahead.
std::uint64_t RunDriver::next_stop(std::uint64_t last_step) const {
  const std::uint64_t step = stepper_->step();
  std::uint64_t stop = std::min(last_step, step + pacer_.chunk());
  for (const Scheduled& s : writers_)
    if (s.trigger.every) stop = std::min(stop, (step / s.trigger.every + 1) * s.trigger.every);
  return stop;
}

void RunDriver::write(Scheduled& scheduled, std::uint64_t step) {
  scheduled.writer->write(step, cache_);
  scheduled.written_at = step;
}

void RunDriver::write_at_start(std::uint64_t step) {
  cache_.move_to(step);
  for (Scheduled& s : writers_)
    if (s.trigger.at_start) write(s, step);
}

void RunDriver::write_due(std::uint64_t step, std::uint64_t last_step) {
  cache_.move_to(step);
  for (Scheduled& s : writers_)
    if (s.trigger.periodic_at(step) || (s.trigger.at_end && step == last_step)) write(s, step);
}

std::vector<WrittenOutput> RunDriver::finish(std::uint64_t step) {
  cache_.move_to(step);
  // A run with no step to take never reached its last step by a chunk: writers due there write now.
  for (Scheduled& s : writers_)
    if (s.trigger.at_end && s.written_at != step) write(s, step);
  for (Scheduled& s : writers_) s.writer->finish(step, cache_);
  std::vector<WrittenOutput> outputs;
  if (ranks_.writes_files())
    for (const Scheduled& s : writers_) s.writer->report(outputs);
  return outputs;
}

StoppedOutputs RunDriver::finish_stopped(std::uint64_t step) {
  cache_.move_to(step);
  StoppedOutputs outputs;
  for (Scheduled& s : writers_) s.writer->finish_stopped(step, cache_, outputs);
  return outputs;
}

}  // namespace cellgraph
