// What the program promises when it meets a hostile world (docs/RELIABILITY.md): outputs that
// write into devices and through links and never replace an input or each other, checkpoints
// checked like any input, ranks that disagree ending at once, runs stopped by a signal keeping
// what they have, rule files found from any folder.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cellgraph/error.hpp"
#include "cellgraph/interrupt.hpp"
#include "cellgraph/output/atomic_file.hpp"
#include "cellgraph/output/checkpoint.hpp"
#include "cellgraph/output/file_plan.hpp"
#include "cli_run.hpp"
#include "data_path.hpp"
#include "scratch.hpp"

namespace fs = std::filesystem;
using namespace cellgraph;
using test::run_cli;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A character device of this machine's kind made in a scratch folder (never under /dev); false
// where mknod is not allowed (not root).
bool make_device(const std::string& path, unsigned major, unsigned minor) {
  return ::mknod(path.c_str(), S_IFCHR | 0666, makedev(major, minor)) == 0;
}

std::string lines_of(const std::string& text, std::size_t first, std::size_t count) {
  std::istringstream in(text);
  std::string line, out;
  for (std::size_t i = 0; std::getline(in, line); ++i)
    if (i >= first && i < first + count) out += line + "\n";
  return out;
}

// The step of the last line of a statistics CSV.
std::uint64_t last_step(const std::string& csv) {
  std::istringstream in(csv);
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty()) last = line;
  return std::stoull(last.substr(0, last.find(',')));
}

bool has_temporaries(const ScratchDir& dir) {
  for (const std::string& name : dir.files())
    if (contains(name, ".tmp.")) return true;
  return false;
}

const std::string kRun = "run --grid 16x16 --fill 0.4 --steps 20 --backend cpu";

}  // namespace

TEST_CASE("outputs: a device is written through, and its write errors name it") {
  ScratchDir dir;
  if (!make_device(dir / "full", 1, 7) || !make_device(dir / "null", 1, 3)) {
    MESSAGE("mknod is not allowed here: devices untested");
    return;
  }
  const test::CommandResult full = run_cli(kRun + " --stats " + dir / "full");
  CHECK(full.status == 1);
  CHECK(contains(full.out, "cannot write " + dir / "full" + ": No space left on device"));
  CHECK(fs::is_character_file(dir / "full"));
  const test::CommandResult null = run_cli(kRun + " --stats " + dir / "null" + " --states-out " + dir / "null");
  CHECK_MESSAGE(null.status == 0, null.out);  // two outputs into one device are fine
  CHECK(fs::is_character_file(dir / "null"));
  CHECK(!has_temporaries(dir));
}

TEST_CASE("outputs: a FIFO is written through, not replaced") {
  ScratchDir dir;
  REQUIRE(::mkfifo((dir / "pipe").c_str(), 0600) == 0);
  // Held open for reading and writing, the FIFO neither blocks the writer's open nor ends; the
  // run's few hundred bytes wait in its buffer.
  const int fd = ::open((dir / "pipe").c_str(), O_RDWR | O_NONBLOCK);
  REQUIRE(fd >= 0);
  const test::CommandResult r = run_cli(kRun + " --stats " + dir / "pipe");
  std::string received(1 << 16, '\0');
  const ssize_t n = ::read(fd, received.data(), received.size());
  ::close(fd);
  received.resize(n > 0 ? std::size_t(n) : 0);
  CHECK_MESSAGE(r.status == 0, r.out);
  CHECK(lines_of(received, 0, 1) == "step,state_0,state_1\n");
  CHECK(fs::is_fifo(dir / "pipe"));
}

TEST_CASE("outputs: a symbolic link is followed: its target is replaced, the link stays") {
  ScratchDir dir;
  fs::create_directories(dir / "real");
  std::ofstream(dir / "real/s.csv") << "old\n";
  fs::create_symlink("real/s.csv", dir / "s.csv");
  fs::create_symlink(dir / "real/new.txt", dir / "dangling.txt");  // names a file not yet there
  const test::CommandResult r = run_cli(kRun + " --stats " + dir / "s.csv" + " --states-out " + dir / "dangling.txt");
  REQUIRE_MESSAGE(r.status == 0, r.out);
  CHECK(fs::is_symlink(dir / "s.csv"));
  CHECK(lines_of(read_file(dir / "real/s.csv"), 0, 1) == "step,state_0,state_1\n");
  CHECK(fs::is_symlink(dir / "dangling.txt"));
  CHECK(contains(read_file(dir / "real/new.txt"), "# cellgraph states, 256 vertices"));
  CHECK(fs::directory_iterator(dir / "real") != fs::directory_iterator());
}

TEST_CASE("outputs: an output that is an input, or another output, is refused before the run") {
  ScratchDir dir;
  const std::string graph = dir.write("g.txt", "0 1\n1 2\n2 0\n");
  fs::create_hard_link(graph, dir / "same.txt");
  const std::string source = "run --graph " + graph + " --fill 0.5 --steps 3 --backend cpu";
  for (const auto& [arguments, message] : std::initializer_list<std::pair<std::string, std::string>>{
           {source + " --stats " + graph, "--stats " + graph + " would replace the input of --graph " + graph},
           {source + " --states-out " + dir.path().string() + "/./g.txt", "would replace the input of --graph"},
           {source + " --stats " + dir / "same.txt", "would replace the input of --graph"},
           {source + " --stats " + dir / "a.csv" + " --states-out " + dir / "a.csv",
            "would replace the output of --stats"},
           {kRun + " --frames " + dir / "f" + " --png " + dir / "f_000010.png", "--png " + dir / "f_000010.png"},
           {kRun + " --vtk " + dir / "v" + " --stats " + dir / "v.pvd", "would replace the output of --stats"},
           {"partition --graph " + graph + " --parts 2 --out " + graph, "--out " + graph + " would replace the input"},
           {"perfmodel fit " + graph + " --out " + dir / "same.txt", "would replace the input of --timings"}}) {
    const std::string& args = arguments;  // INFO captures it: clang 14 cannot capture a binding
    INFO(args);
    const test::CommandResult r = run_cli(args);
    CHECK(r.status == 1);
    CHECK_MESSAGE(contains(r.out, message), r.out);
  }
  CHECK(read_file(graph) == "0 1\n1 2\n2 0\n");
  CHECK(dir.files() == std::set<std::string>{"g.txt", "same.txt"});
}

TEST_CASE("outputs: FilePlan lets a checkpoint replace the one it restarts from, and nothing else") {
  ScratchDir dir;
  const std::string ckpt = dir.write("run.ckpt", "x");
  FilePlan plan;
  plan.reads(ckpt, "--restart");
  plan.writes(ckpt, "--checkpoint");
  const std::string replaces = "--checkpoint " + ckpt + " would replace the input of --restart";
  CHECK_THROWS_WITH_AS(plan.check(), doctest::Contains(replaces.c_str()), Error);
  plan.may_replace("--checkpoint", "--restart");
  CHECK_NOTHROW(plan.check());
  plan.writes(dir / "./run.ckpt", "--stats");
  const std::string both = "(both are " + ckpt + ")";
  CHECK_THROWS_WITH_AS(plan.check(), doctest::Contains(both.c_str()), Error);
}

TEST_CASE("outputs: a signal while nothing listens removes the temporaries being written") {
  ScratchDir dir;
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    install_interrupt_handlers();
    AtomicFile file(dir / "out.csv");
    file.stream() << "half" << std::flush;
    std::raise(SIGTERM);
    ::_exit(0);  // not reached: the signal ends the process
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGTERM);
  CHECK(dir.empty());
}

TEST_CASE("run: SIGINT mid-run stops after the step, keeps the statistics so far and a checkpoint") {
  ScratchDir dir;
  const std::string stats = dir / "s.csv", ckpt = dir / "c.ckpt", log = dir / "log.txt";
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {  // the CLI, its output into the log
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ::dup2(fd, 1), ::dup2(fd, 2);
    const std::string cli = test::cli_path();
    const std::vector<std::string> args = {cli,
                                           "run",
                                           "--grid",
                                           "256x256",
                                           "--fill",
                                           "0.4",
                                           "--steps",
                                           "4000000000",
                                           "--backend",
                                           "cpu",
                                           "--threads",
                                           "1",
                                           "--stats",
                                           stats,
                                           "--stats-every",
                                           "7",
                                           "--checkpoint",
                                           ckpt,
                                           "--checkpoint-every",
                                           "10",
                                           "--png",
                                           dir / "p.png"};
    std::vector<char*> argv;
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    std::signal(SIGINT, SIG_DFL);
    ::execv(cli.c_str(), argv.data());
    ::_exit(127);
  }
  // Interrupted once the loop runs: the first checkpoint is there.
  for (int i = 0; i < 1200 && !fs::exists(ckpt); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ::kill(child, SIGINT);
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  const std::string out = read_file(log);
  fs::remove(log);
  REQUIRE_MESSAGE(WIFEXITED(status), out);
  CHECK(WEXITSTATUS(status) == 130);
  CHECK_MESSAGE(contains(out, "cellgraph run: stopped by SIGINT after step"), out);
  const test::CommandResult r{0, out};
  CHECK(contains(r.out, "not written (final state): --png"));
  CHECK(!has_temporaries(dir));
  CHECK(!fs::exists(dir / "p.png"));
  const std::string csv = read_file(stats);
  REQUIRE(lines_of(csv, 0, 1) == "step,state_0,state_1\n");
  const Checkpoint c = read_checkpoint(ckpt);
  CHECK(c.step >= 10);
  CHECK(last_step(csv) == c.step);  // statistics to the step the checkpoint continues from
  // ... and the run continues from it, as if never stopped.
  const test::CommandResult more =
      run_cli("run --grid 256x256 --steps " + std::to_string(c.step + 3) + " --backend cpu --restart " + ckpt);
  CHECK_MESSAGE(more.status == 0, more.out);
}

TEST_CASE("checkpoints: content is checked like any input, and a restart past --steps says so") {
  ScratchDir dir;
  const std::string base = "run --grid 4x4 --backend cpu --seed 1 --restart ";
  const std::string identity = "rule=B3/S23";
  auto crafted = [&](const std::string& name, std::uint64_t step, std::vector<std::vector<std::uint8_t>> variables) {
    write_checkpoint(dir / name,
                     Checkpoint{step, 1, "lifelike", identity, "grid 4x4 moore periodic", 16, variables, {}});
    return dir / name;
  };
  std::vector<std::uint8_t> states(16, 0);
  states[5] = 7;
  const test::CommandResult bad_state = run_cli(base + crafted("state.ckpt", 3, {states}) + " --steps 5");
  CHECK(bad_state.status == 1);
  CHECK_MESSAGE(contains(bad_state.out, "state.ckpt: byte "), bad_state.out);
  CHECK(contains(bad_state.out, "vertex 5 has state 7, outside model lifelike's states 0..1"));

  const test::CommandResult two_variables = run_cli(
      base + crafted("vars.ckpt", 3, {std::vector<std::uint8_t>(16), std::vector<std::uint8_t>(16)}) + " --steps 5");
  CHECK(two_variables.status == 1);
  CHECK(contains(two_variables.out, "holds 2 state variables, model lifelike has 1"));

  const test::CommandResult far = run_cli(base + crafted("far.ckpt", ~std::uint64_t(0) - 5, {states}) + " --steps 5");
  CHECK(far.status == 1);
  CHECK(contains(far.out, "far.ckpt: byte 12: step 18446744073709551610 is past the last step a run can reach"));

  const test::CommandResult past =
      run_cli(base + crafted("past.ckpt", 9, {std::vector<std::uint8_t>(16)}) + " --steps 5");
  CHECK(past.status == 1);
  CHECK(contains(past.out, "is at step 9, past --steps 5"));
  CHECK(contains(past.out, "nothing to run"));

  CHECK(run_cli("run --grid 4x4 --steps 4294967296 --backend cpu").out.find("more than a run can take") !=
        std::string::npos);
}

TEST_CASE("rules: a pattern's Golly rule file is found from any folder, beside the pattern or installed") {
  ScratchDir dir;
  const std::string pattern = data_path("patterns/golly-rules/wireworld-circuit.rle");
  // From another working folder: the installed (here: the source tree's) rules.
  const test::CommandResult elsewhere = test::run_command("cd " + dir.path().string() + " && " + test::cli_path() +
                                                          " run --pattern " + pattern + " --steps 5 --backend cpu");
  CHECK_MESSAGE(elsewhere.status == 0, elsewhere.out);
  CHECK(contains(elsewhere.out, "of golly WireWorld"));
  // A rule of the user's own, beside the pattern.
  std::string rule = read_file(data_path("rules/WireWorld.rule"));
  rule.replace(rule.find("@RULE WireWorld"), 15, "@RULE MyWires");
  dir.write("MyWires.rule", rule);
  std::string rle = read_file(pattern);
  rle.replace(rle.find("rule = WireWorld"), 16, "rule = MyWires");
  dir.write("mine.rle", rle);
  const test::CommandResult beside = test::run_command("cd / && " + test::cli_path() + " run --pattern " +
                                                       dir / "mine.rle" + " --steps 5 --backend cpu");
  CHECK_MESSAGE(beside.status == 0, beside.out);
  CHECK(contains(beside.out, "of golly MyWires"));
  // A rule found nowhere: the message says where it looked.
  rle.replace(rle.find("rule = MyWires"), 14, "rule = NoWires");
  dir.write("none.rle", rle);
  const test::CommandResult none = run_cli("run --pattern " + dir / "none.rle" + " --steps 5 --backend cpu");
  CHECK(none.status == 1);
  CHECK_MESSAGE(contains(none.out, "none.rle:1: "), none.out);
  CHECK(contains(none.out, "unknown rule 'NoWires'"));
  CHECK(contains(none.out, "nor is there a Golly rule file of that name in " + dir.path().string() + ", data/rules"));
  CHECK(contains(none.out, "data/rules"));
}

TEST_SUITE("mpi") {
  TEST_CASE("mpirun: ranks started with different options or reading different files end at once, naming both" *
            doctest::skip(!fs::exists(test::mpiexec_path()))) {
    ScratchDir dir;
    std::string mpirun = test::mpirun_prefix() + " ";
    mpirun.replace(mpirun.find("timeout 300"), 11, "timeout 60");  // a hang fails within a minute
    const std::string cli = test::cli_path();
    auto two_ranks = [&](const std::string& rank0, const std::string& rank1) {
      return test::run_command(mpirun + "-np 1 " + rank0 + " : -np 1 " + rank1);
    };
    const std::string run = cli + " run --grid 8x8 --fill 0.5 --backend cpu";
    const test::CommandResult steps = two_ranks(run + " --steps 5", run + " --steps 6");
    CHECK(steps.status == 1);
    CHECK_MESSAGE(contains(steps.out,
                           "ranks disagree on the command line: rank 1 was started with '--steps 6' where "
                           "rank 0 has '--steps 5'"),
                  steps.out);
    const test::CommandResult stats = two_ranks(run + " --steps 5", run + " --steps 5 --stats " + dir / "s.csv");
    CHECK(stats.status == 1);
    CHECK(
        contains(stats.out, "rank 1 was started with '--stats " + dir / "s.csv" + "' where rank 0 has nothing there"));
    // The same command line in two folders that hold different files of one name.
    for (const char* folder : {"a", "b"}) fs::create_directories(dir / folder);
    auto in_both_folders = [&](const std::string& args) {
      const std::string run_here = cli + " run " + args + " --steps 3 --backend cpu";
      return two_ranks("-wdir " + dir / "a" + " " + run_here, "-wdir " + dir / "b" + " " + run_here);
    };
    std::ofstream(dir / "a/g.txt") << "0 1\n1 2\n2 3\n";
    std::ofstream(dir / "b/g.txt") << "0 1\n1 2\n2 0\n";
    const test::CommandResult graphs = in_both_folders("--graph g.txt --fill 0.5");
    CHECK(graphs.status == 1);
    CHECK_MESSAGE(contains(graphs.out, "ranks disagree on the source: rank 1 has graph g.txt (3 vertices, 6 neighbor"),
                  graphs.out);
    std::ofstream(dir / "a/s.txt") << "1\n0\n1\n0\n";
    std::ofstream(dir / "b/s.txt") << "0\n0\n1\n0\n";
    std::ofstream(dir / "b/g.txt") << "0 1\n1 2\n2 3\n";
    const test::CommandResult states = in_both_folders("--graph g.txt --states s.txt");
    CHECK(states.status == 1);
    CHECK_MESSAGE(contains(states.out, "ranks disagree on the initial state: rank 1 has CRC-32"), states.out);
    for (const auto& r : {steps, stats, graphs, states}) {
      CHECK(r.status != 124);                    // ended, not timed out
      CHECK(!contains(r.out, "(rank 1 of 2)"));  // one message, rank 0's
    }
  }
}
