// Ctrl-C (SIGINT) and kill (SIGTERM). While a run listens (a StopListener is alive), the first
// signal asks it to stop after the step it is in, write what it has and exit non-zero; a second
// signal, or a first one while nothing listens, ends the process at once, removing the
// temporaries of the outputs being written. SIGKILL cannot be caught: its temporaries,
// "<output>.tmp.<pid>", stay beside their outputs.
#pragma once

namespace cellgraph {

// Installs the handlers (once per process; the CLI calls it first thing).
void install_interrupt_handlers();

// For programs with handlers of their own (Python's): installs the handlers while alive and
// puts back the ones before when it ends, forgetting a stop request made meanwhile.
class InterruptHandlersInstalled {
 public:
  InterruptHandlersInstalled();
  ~InterruptHandlersInstalled();
  InterruptHandlersInstalled(const InterruptHandlersInstalled&) = delete;
  InterruptHandlersInstalled& operator=(const InterruptHandlersInstalled&) = delete;

 private:
  struct Saved;
  Saved* saved_;
};

// While alive, the first SIGINT or SIGTERM only asks to stop: stop_requested() turns true.
class StopListener {
 public:
  StopListener();
  ~StopListener();
  StopListener(const StopListener&) = delete;
  StopListener& operator=(const StopListener&) = delete;
};

// The signal that asked to stop (SIGINT, SIGTERM), or 0.
int stop_signal();
inline bool stop_requested() { return stop_signal() != 0; }
// "SIGINT" or "SIGTERM".
const char* signal_name(int signal);
// Asks to stop as the signal would (tests), or forgets the request (0).
void request_stop(int signal);

// The temporaries a signal that ends the process removes. `path` must stay valid until it is
// forgotten; AtomicFile tracks its own.
void track_temporary(const char* path);
void forget_temporary(const char* path);

}  // namespace cellgraph
