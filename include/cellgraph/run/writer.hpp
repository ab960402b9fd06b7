// What a run driver (driver.hpp) calls as a run goes: writers, each with one job (statistics,
// snapshots, checkpoints, pictures, final-state files), written at the steps their trigger names
// and finished at the end. In a run spread over ranks every rank runs the same writers in the
// same order, since their gathering calls are collective; only RunRanks::writes_files() writes.
#pragma once
#include <any>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace cellgraph {

// The steps a run goes from and to.
struct RunSpan {
  std::uint64_t first_step = 0, last_step = 0;
};

// When a writer writes: at multiples of `every` (0: none), at the run's first step, at its last.
struct Trigger {
  std::uint64_t every = 0;
  bool at_start = false, at_end = false;
  bool periodic_at(std::uint64_t step) const { return every && step % every == 0; }
};

// Values that several writers want at one step (the states of every cell, gathered from every
// rank), computed by the first writer that asks and shared with the others. The driver clears
// it when the run moves on.
class StepCache {
 public:
  template <class T, class Compute>
  const T& get(const std::string& key, Compute compute) {
    auto found = values_.find(key);
    if (found == values_.end()) found = values_.emplace(key, std::any(T(compute()))).first;
    return std::any_cast<const T&>(found->second);
  }
  // Forgets every value when `step` is not the step they were taken at.
  void move_to(std::uint64_t step) {
    if (step != step_) values_.clear();
    step_ = step;
  }

 private:
  std::uint64_t step_ = 0;
  std::map<std::string, std::any> values_;
};

// The files a run writes, as a stopped run reports them.
enum class RunOutput {
  checkpoint,
  statistics,
  vtk_series,
  animation,         // the GIF
  picture,           // the final PNG of the states
  rle,               // Golly RLE of the final state
  state_file,        // the final state per vertex
  particle_picture,  // the final PNG of a movable run's particles
  frames,            // PNG frames BASE_<step>.png
};

struct RunOutputFile {
  RunOutput kind;
  std::string path;
};

// What a finished run wrote: an output's path (a series' index file, or the base of its frames)
// and every file of it, the index included.
struct WrittenOutput {
  RunOutput kind;
  std::string path;
  std::vector<std::string> files;
};

// A run stopped before its last step: what its writers finished (statistics so far, the
// checkpoint, the snapshots taken), and the outputs of a final state it never reached.
struct StoppedOutputs {
  std::vector<RunOutputFile> written, not_written;
};

class RunWriter {
 public:
  virtual ~RunWriter() = default;
  // Before the run, once: a writer whose trigger depends on the span (frames every hundredth
  // of the run) sets it here.
  virtual void begin(const RunSpan&) {}
  virtual Trigger trigger() const { return {}; }
  // At a step the trigger names.
  virtual void write(std::uint64_t /*step*/, StepCache&) {}
  // The run reached its last step: final outputs written, files moved into place.
  virtual void finish(std::uint64_t /*step*/, StepCache&) {}
  // The run stopped early at `step`: what the writer has so far, listed in `outputs`.
  virtual void finish_stopped(std::uint64_t /*step*/, StepCache&, StoppedOutputs& /*outputs*/) {}
  // After finish(), on the rank that writes files: what the writer wrote.
  virtual void report(std::vector<WrittenOutput>& /*outputs*/) const {}
};

}  // namespace cellgraph
