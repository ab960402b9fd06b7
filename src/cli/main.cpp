// cellgraph: cellular automata on graphs and grids. Library errors and bad options become a
// message on stderr and exit status 1; an unknown command exits with 2.
#include <exception>
#include <iostream>
#include <map>

#include "cellgraph/error.hpp"
#include "partition/mpi.hpp"
#include "src/cli/cli.hpp"

namespace {

constexpr const char* kUsage =
    "usage: cellgraph COMMAND [options]   (cellgraph COMMAND --help for its options)\n"
    "\n"
    "commands:\n"
    "  run       run a model on a grid, pattern or graph file (or particles in a box: --model vicsek or mca)\n"
    "            and write statistics and pictures\n"
    "  compile   compile a source to the sliced neighbor-list layout and report on it\n"
    "  bench     measure cell updates per second on standard grids and graphs\n"
    "  compare   one automaton through the graph engine and the dense grid kernels: checked, timed\n"
    "  models    list the registered models and their parameters\n"
    "  partition split a source into parts (METIS k-way or blocks) for partitioned runs: mpirun -np N cellgraph run\n"
    "  perfmodel the performance model: measure timings, fit them, validate, predict a run's time and GPU count\n";

}  // namespace

int main(int argc, char** argv) {
  using namespace cellgraph::cli;
  const std::map<std::string, int (*)(const Args&)> commands = {
      {"run", run_command}, {"compile", compile_command}, {"bench", bench_command}, {"models", models_command},
      {"compare", compare_command}, {"partition", partition_command}, {"perfmodel", perfmodel_command}};
  if (argc < 2) {
    std::cerr << kUsage;
    return 2;
  }
  const std::string command = argv[1];
  if (command == "--help" || command == "-h" || command == "help") {
    std::cout << kUsage;
    return 0;
  }
  auto it = commands.find(command);
  if (it == commands.end()) {
    std::cerr << "cellgraph: unknown command '" << command << "'\n\n" << kUsage;
    return 2;
  }
  // Under mpirun every rank runs this; an error on one rank ends the whole job (the others
  // would wait for it forever), naming the rank. Each message is one write, so that the
  // ranks' lines do not interleave.
  namespace mpi = cellgraph::mpi;
  std::string who = "cellgraph " + command;
  auto report = [&](const std::string& what) { std::cerr << (who + ": " + what + "\n") << std::flush; };
  try {
    mpi::Session session(&argc, &argv);
    if (mpi::size() > 1) who += " (rank " + std::to_string(mpi::rank()) + " of " + std::to_string(mpi::size()) + ")";
    try {
      return it->second(Args(argv + 2, argv + argc));
    } catch (const cellgraph::Error& e) {
      report(std::string("error: ") + e.what());
    } catch (const std::bad_alloc&) {
      report("error: out of memory");
    } catch (const std::exception& e) {
      report(std::string("internal error: ") + e.what());
    }
    if (mpi::size() > 1) mpi::abort_job(1);
  } catch (const cellgraph::Error& e) {  // MPI could not start
    report(std::string("error: ") + e.what());
  }
  return 1;
}
