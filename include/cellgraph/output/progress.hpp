// A progress report on long work: steps done, rate and time left. On a terminal one line is
// redrawn in place about once a second; elsewhere (a pipe, a log file) a line is written every
// ten seconds, or, when asked for, at the first update and then every second, so that a log
// shows the work is alive.
#pragma once
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace cellgraph {

class Progress {
 public:
  enum class Mode {
    off,        // nothing (ranks other than the first)
    automatic,  // a terminal: redrawn each second; otherwise a line every ten seconds
    lines,      // a line every second, wherever stderr goes (--progress)
  };
  // `unit` names what the rate counts per step ("cell updates/s": cells per step; "steps/s": 1);
  // with no cells, no rate is shown. `item` names a step ("case": "case 3 of 12").
  Progress(Mode mode, std::uint64_t total_steps, std::uint64_t cells, std::string unit = "cell updates/s",
           std::string item = "step");
  void update(std::uint64_t step);  // shows the state where the interval has passed
  void finish();

 private:
  void show(std::uint64_t step, double seconds);

  Mode mode_;
  bool redraw_;
  std::chrono::milliseconds interval_;
  std::uint64_t total_, cells_;
  std::string unit_, item_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace cellgraph
