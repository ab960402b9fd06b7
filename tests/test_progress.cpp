// Long work shows it is alive: progress lines by the clock wherever stderr goes, and results
// flushed line by line, so that the log of a command killed midway keeps what it said.
#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "cellgraph/output/progress.hpp"
#include "cli_run.hpp"
#include "scratch.hpp"

using namespace cellgraph;

namespace {

// What `work` writes to stderr (file descriptor 2), read back from a file.
template <class Work>
std::string stderr_of(const ScratchDir& dir, Work work) {
  const std::string path = dir / "stderr.txt";
  std::fflush(stderr);
  const int saved = ::dup(STDERR_FILENO), file = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  REQUIRE(saved >= 0);
  REQUIRE(file >= 0);
  ::dup2(file, STDERR_FILENO);
  ::close(file);
  work();
  std::fflush(stderr);
  ::dup2(saved, STDERR_FILENO);
  ::close(saved);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("progress: lines by the clock, with the rate and the time left") {
  ScratchDir dir;
  const std::string lines = stderr_of(dir, [] {
    Progress progress(Progress::Mode::lines, 100, 10);
    progress.update(10);  // the first at once
    progress.update(20);  // then not within the second
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));
    progress.update(40);
    progress.update(41);   // within the second: nothing
    progress.update(100);  // the end is the summary's
    progress.finish();
  });
  CHECK(lines.find("step 10 of 100 (10%), ") == 0);
  CHECK(lines.find("\nstep 40 of 100 (40%), ") != std::string::npos);
  CHECK(lines.find(" cell updates/s, ") != std::string::npos);
  CHECK(lines.find(" s left\n") != std::string::npos);
  CHECK(lines.find("step 41") == std::string::npos);
  CHECK(lines.find("step 20 ") == std::string::npos);

  // A pipe or a file gets a line every ten seconds: none in the first second.
  const std::string quiet = stderr_of(dir, [] {
    Progress progress(Progress::Mode::automatic, 100, 10, "steps/s");
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));
    progress.update(50);
    progress.finish();
  });
  CHECK(quiet.empty());
  // Items other than steps (bench's cases): named so, with no rate.
  const std::string cases = stderr_of(dir, [] {
    Progress progress(Progress::Mode::lines, 7, 0, "", "case");
    progress.update(2);
    progress.finish();
  });
  CHECK(cases.find("case 2 of 7 (29%), ") == 0);
  CHECK(cases.find("/s") == std::string::npos);
  CHECK(stderr_of(dir, [] {
          Progress progress(Progress::Mode::off, 100, 10);
          std::this_thread::sleep_for(std::chrono::milliseconds(1100));
          progress.update(50);
        }).empty());
}

TEST_CASE("progress: a killed compare's log keeps the lines it printed") {
  ScratchDir dir;
  const std::string log = dir / "compare.log";
  // Runs until killed; the header line must reach the file before then.
  const auto r = test::run_command(
      "(" + test::cli_path() +
      " compare --grid 256x256 --fill 0.5 --steps 100000000 --check-every 100000000 --kernels graph,byte > " + log +
      " & pid=$!; for i in $(seq 120); do sleep 0.5; grep -q '^compare ' " + log +
      " && break; done; kill -9 $pid; wait $pid; true)");
  CHECK(r.status == 0);
  std::ifstream in(log);
  std::string first;
  std::getline(in, first);
  CHECK(first.rfind("compare B3/S23 on 256x256 moore periodic (65536 cells)", 0) == 0);
}
