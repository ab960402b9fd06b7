// cellgraph: cellular automata on graphs and grids. Library errors and bad options become a
// message on stderr and exit status 1; an unknown command exits with 2.
#include <cstdio>
#include <exception>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <sstream>

#include "cellgraph/build_info.hpp"
#include "cellgraph/digest.hpp"
#include "cellgraph/error.hpp"
#include "cellgraph/interrupt.hpp"
#include "partition/mpi.hpp"
#include "tools/cellgraph/cli.hpp"

namespace {

constexpr const char* kUsage =
    "usage: cellgraph COMMAND [options]   (cellgraph COMMAND --help for its options)\n"
    "       cellgraph --version               (version, commit, CUDA, MPI and METIS versions)\n"
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

// The option (with its value) that token i of `words` belongs to, quoted: "'--steps 200'".
std::string option_at(const std::vector<std::string>& words, std::size_t i) {
  if (i >= words.size()) return "nothing there";
  const bool is_value = words[i].rfind("--", 0) != 0 && i > 0 && words[i - 1].rfind("--", 0) == 0;
  const std::size_t first = is_value ? i - 1 : i;
  std::string text = words[first];
  if (first + 1 < words.size() && words[first + 1].rfind("--", 0) != 0 && words[first].find('=') == std::string::npos)
    text += " " + words[first + 1];
  return cellgraph::quoted_text(text);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Ranks started with other arguments (or another --config file) would run different jobs and
// wait for each other forever: they agree on the command line first.
void agree_on_arguments(const std::string& command, const cellgraph::cli::Args& args) {
  std::string text = command;
  for (std::size_t i = 0; i < args.size(); ++i) {
    text += "\n" + args[i];
    const bool config = args[i] == "--config" && i + 1 < args.size();
    if (config || args[i].rfind("--config=", 0) == 0) {
      std::ifstream in(config ? args[i + 1] : args[i].substr(9), std::ios::binary);
      const std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      text += "\n(--config content: " + std::to_string(content.size()) + " bytes, CRC-32 " +
              cellgraph::hex32(cellgraph::crc32_of(content)) + ")";
    }
  }
  cellgraph::mpi::agree("the command line", text, [](const std::string& theirs, const std::string& ours) {
    const std::vector<std::string> a = lines_of(theirs), b = lines_of(ours);
    std::size_t i = 0;
    while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
    return "was started with " + option_at(a, i) + " where rank 0 has " + option_at(b, i);
  });
}

// The version, the commit and the libraries this build has.
void print_version() {
  const cellgraph::BuildInfo b = cellgraph::build_info();
  std::cout << "cellgraph " << b.version << (b.commit.empty() ? "" : " (commit " + b.commit + ")") << "\n"
            << "  CUDA backend: "
            << (b.cuda_runtime.empty() ? "not built"
                                       : "CUDA runtime " + b.cuda_runtime + ", kernels for sm_" + b.cuda_architectures)
            << "\n"
            << "  MPI: " << (b.mpi.empty() ? "unknown" : b.mpi) << "\n"
            << "  METIS: " << b.metis << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  using namespace cellgraph::cli;
  // Every line goes out when it is printed, to a terminal, a pipe or a file alike: a log of a run
  // that was killed keeps what it had said.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  const std::map<std::string, int (*)(const Args&)> commands = {{"run", run_command},
                                                                {"compile", compile_command},
                                                                {"bench", bench_command},
                                                                {"models", models_command},
                                                                {"compare", compare_command},
                                                                {"partition", partition_command},
                                                                {"perfmodel", perfmodel_command}};
  if (argc < 2) {
    std::cerr << kUsage;
    return 2;
  }
  const std::string command = argv[1];
  if (command == "--help" || command == "-h" || command == "help") {
    std::cout << kUsage;
    return 0;
  }
  if (command == "--version" || command == "version") {
    print_version();
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
    cellgraph::install_interrupt_handlers();  // after MPI's own
    if (mpi::size() > 1) who += " (rank " + std::to_string(mpi::rank()) + " of " + std::to_string(mpi::size()) + ")";
    try {
      const Args args(argv + 2, argv + argc);
      agree_on_arguments(command, args);
      return it->second(args);
    } catch (const mpi::RanksDisagree& e) {  // every rank throws it: rank 0 speaks, all end cleanly
      if (mpi::rank() == 0) report(std::string("error: ") + e.what());
      return 1;
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
