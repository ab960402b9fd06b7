#include "cellgraph/output/progress.hpp"

#include <unistd.h>

#include <string>

namespace cellgraph {
namespace {

// "42 s", "3 min 20 s", "2 h 05 min".
std::string duration_text(double seconds) {
  const long long s = (long long)(seconds + 0.5);
  char text[32];
  if (s < 60) std::snprintf(text, sizeof text, "%lld s", s);
  else if (s < 3600) std::snprintf(text, sizeof text, "%lld min %02lld s", s / 60, s % 60);
  else std::snprintf(text, sizeof text, "%lld h %02lld min", s / 3600, s / 60 % 60);
  return text;
}

}  // namespace

Progress::Progress(Mode mode, std::uint64_t total_steps, std::uint64_t cells, std::string unit, std::string item)
    : mode_(mode), redraw_(mode == Mode::automatic && ::isatty(STDERR_FILENO)),
      interval_(mode == Mode::automatic && !redraw_ ? 10000 : 1000), total_(total_steps), cells_(cells),
      unit_(std::move(unit)), item_(std::move(item)), start_(std::chrono::steady_clock::now()), last_(start_) {}

void Progress::update(std::uint64_t step) {
  if (mode_ == Mode::off) return;
  const auto now = std::chrono::steady_clock::now();
  // Lines asked for: the first at once, as a sign of life. Otherwise by the clock, and not at the
  // end, which the run's summary tells.
  const bool first_line = mode_ == Mode::lines && !drawn_;
  if (!first_line && (step >= total_ || now - last_ < interval_)) return;
  last_ = now;
  show(step, std::chrono::duration<double>(now - start_).count());
}

void Progress::show(std::uint64_t step, double seconds) {
  char rate[64] = "";
  if (cells_ && seconds > 0)
    std::snprintf(rate, sizeof rate, ", %.3g %s", double(step) * double(cells_) / seconds, unit_.c_str());
  const std::string left = step > 0 ? duration_text(seconds * double(total_ - step) / double(step)) : "?";
  std::fprintf(stderr, "%s%s %llu of %llu (%.0f%%)%s, %s left%s", redraw_ ? "\r" : "", item_.c_str(),
               static_cast<unsigned long long>(step), static_cast<unsigned long long>(total_),
               total_ ? 100.0 * double(step) / double(total_) : 100.0, rate, left.c_str(), redraw_ ? "   " : "\n");
  std::fflush(stderr);
  drawn_ = true;
}

void Progress::finish() {
  if (redraw_ && drawn_) std::fprintf(stderr, "\n");
}

}  // namespace cellgraph
