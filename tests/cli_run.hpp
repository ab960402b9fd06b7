// Running a shell command (the cellgraph binary, a tool) from a test: its exit status and what
// it printed on stdout and stderr together.
#pragma once
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <cstdio>
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

// `cellgraph ARGS`, the binary this build made.
inline CommandResult run_cli(const std::string& args) { return run_command(std::string(CELLGRAPH_CLI) + " " + args); }

}  // namespace cellgraph::test
