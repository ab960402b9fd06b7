// Running a shell command (the cellgraph binary, a tool) from a test: its exit status and what
// it printed on stdout and stderr together.
#pragma once
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace cellgraph::test {

struct CommandResult {
  int status;
  std::string out;  // stdout and stderr together
};

inline CommandResult run_command(const std::string& command) {
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  REQUIRE(pipe);
  std::string out;
  char buffer[4096];
  while (std::size_t n = fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

// The binary this build made, and mpirun: build-time paths, which CELLGRAPH_CLI and
// CELLGRAPH_MPIEXEC in the environment override (the GPU machine runs a copy of the tree
// elsewhere).
inline std::string path_from_env(const char* name, const char* built) {
  const char* set = std::getenv(name);
  return set && *set ? set : built;
}
inline std::string cli_path() { return path_from_env("CELLGRAPH_CLI", CELLGRAPH_CLI); }
inline std::string mpiexec_path() { return path_from_env("CELLGRAPH_MPIEXEC", CELLGRAPH_MPIEXEC); }

// `cellgraph ARGS`.
inline CommandResult run_cli(const std::string& args) { return run_command(cli_path() + " " + args); }

// mpirun, ready for "-np N PROGRAM ARGS [: -np M ...]": oversubscribed (CI has two cores),
// allowed to run as root, ended by `timeout` rather than hanging. Under the sanitizers,
// OpenMPI's own allocations kept until exit are no leaks of ours: its components stay loaded
// and stacks are unwound fully, so that the suppressions can name its libraries.
inline std::string mpirun_prefix() {
  return "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_mca_base_component_disable_dlclose=1 "
         "ASAN_OPTIONS=\"${ASAN_OPTIONS:-}:fast_unwind_on_malloc=0\" "
         "LSAN_OPTIONS=\"suppressions=" CELLGRAPH_LSAN_SUPPRESSIONS ":${LSAN_OPTIONS:-}\" timeout 300 " +
         mpiexec_path() + " --oversubscribe --bind-to none";
}

// `mpirun -np RANKS cellgraph ARGS`.
inline CommandResult run_cli_ranks(int ranks, const std::string& args) {
  return run_command(mpirun_prefix() + " -np " + std::to_string(ranks) + " " + cli_path() + " " + args);
}

}  // namespace cellgraph::test
