#include "cellgraph/interrupt.hpp"

#include <unistd.h>

#include <atomic>
#include <csignal>

namespace cellgraph {
namespace {

// Everything the handler touches is lock-free atomic or a fixed array: it runs between any
// two instructions of the program.
std::atomic<int> requested{0};
std::atomic<int> listeners{0};
constexpr int kSlots = 256;  // outputs open at once; past that a temporary is not removed
std::atomic<const char*> temporaries[kSlots];

void remove_temporaries() {
  for (auto& slot : temporaries)
    if (const char* path = slot.load()) ::unlink(path);
}

extern "C" void on_signal(int signal) {
  int none = 0;
  if (listeners.load() > 0 && requested.compare_exchange_strong(none, signal)) return;  // the run stops
  remove_temporaries();
  std::signal(signal, SIG_DFL);  // ended by the signal, as the shell expects (status 128 + signal)
  std::raise(signal);
}

// Installs on_signal for SIGINT and SIGTERM, keeping the actions before in `old` (when given).
void install_on_signal(struct sigaction* old) {
  for (int i = 0; int signal : {SIGINT, SIGTERM}) {
    struct sigaction before {};
    sigaction(signal, nullptr, &before);
    if (old) old[i++] = before;
    // A background job of a script ignores Ctrl-C of its terminal: it keeps doing so.
    if (signal == SIGINT && before.sa_handler == SIG_IGN) continue;
    struct sigaction action {};
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    sigaction(signal, &action, nullptr);
  }
}

}  // namespace

void install_interrupt_handlers() {
  static const bool installed = [] {
    install_on_signal(nullptr);
    return true;
  }();
  (void)installed;
}

struct InterruptHandlersInstalled::Saved {
  struct sigaction actions[2];
};

InterruptHandlersInstalled::InterruptHandlersInstalled() : saved_(new Saved{}) { install_on_signal(saved_->actions); }

InterruptHandlersInstalled::~InterruptHandlersInstalled() {
  sigaction(SIGINT, &saved_->actions[0], nullptr);
  sigaction(SIGTERM, &saved_->actions[1], nullptr);
  delete saved_;
  requested.store(0);
}

StopListener::StopListener() { listeners.fetch_add(1); }
StopListener::~StopListener() { listeners.fetch_sub(1); }

int stop_signal() { return requested.load(); }

const char* signal_name(int signal) {
  switch (signal) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    default:
      return "a signal";
  }
}

void request_stop(int signal) { requested.store(signal); }

void track_temporary(const char* path) {
  for (auto& slot : temporaries) {
    const char* empty = nullptr;
    if (slot.compare_exchange_strong(empty, path)) return;
  }
}

void forget_temporary(const char* path) {
  for (auto& slot : temporaries) {
    const char* mine = path;
    if (slot.compare_exchange_strong(mine, nullptr)) return;
  }
}

}  // namespace cellgraph
