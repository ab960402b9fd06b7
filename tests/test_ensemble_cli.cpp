// `cellgraph run --replicas --sweep` as users meet it: the long statistics, the summary, a
// member reproduced by a plain run with its seed, and bad input refused before any work.
#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cellgraph/run/ensemble_writers.hpp"
#include "cellgraph/simulation.hpp"
#include "cli_run.hpp"
#include "data_path.hpp"
#include "scratch.hpp"

namespace {

using cellgraph::test::run_cli;
using Result = cellgraph::test::CommandResult;

// A CSV file as rows of named fields.
std::vector<std::map<std::string, std::string>> read_csv(const std::string& path) {
  std::istringstream in(read_file(path));
  std::string line;
  std::vector<std::string> names;
  std::vector<std::map<std::string, std::string>> rows;
  auto split = [](const std::string& text) {
    std::vector<std::string> fields;
    std::stringstream s(text);
    for (std::string field; std::getline(s, field, ',');) fields.push_back(field);
    return fields;
  };
  if (std::getline(in, line)) names = split(line);
  while (std::getline(in, line)) {
    const auto fields = split(line);
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < names.size() && i < fields.size(); ++i) row[names[i]] = fields[i];
    rows.push_back(row);
  }
  return rows;
}

const std::string kSir = "run --model sir --param tau=3 --generate er:2000:3 --fill-count 5 --steps 30 ";

}  // namespace

TEST_CASE("cli: an ensemble writes every member's statistics and a summary per sweep point and step") {
  ScratchDir dir;
  const Result r = run_cli(kSir + "--sweep beta=0.1,0.3 --replicas 4 --stats-every 10 --stats " + dir / "all.csv" +
                           " --summary " + dir / "summary.csv");
  REQUIRE_MESSAGE(r.status == 0, r.out);
  CHECK(r.out.find("for 8 members (2 sweep points x 4 replicas)") != std::string::npos);
  const auto all = read_csv(dir / "all.csv");
  const auto summary = read_csv(dir / "summary.csv");
  REQUIRE(all.size() == 2 * 4 * 4);  // points x replicas x steps 0, 10, 20, 30
  REQUIRE(summary.size() == 2 * 4);
  for (const auto& row : summary) {
    std::vector<double> infected;
    for (const auto& member : all)
      if (member.at("beta") == row.at("beta") && member.at("step") == row.at("step"))
        infected.push_back(std::stod(member.at("R")));
    REQUIRE(infected.size() == 4);
    const cellgraph::SampleSummary s = cellgraph::summarize(infected);
    CHECK(std::stod(row.at("R_mean")) == doctest::Approx(s.mean));
    CHECK(std::stod(row.at("R_sd")) == doctest::Approx(s.sd));
    // Student's t for 3 degrees of freedom: 3.182.
    if (s.se > 0) CHECK((std::stod(row.at("R_high95")) - s.mean) / s.se == doctest::Approx(3.182).epsilon(1e-3));
  }
}

TEST_CASE("cli: a member of an ensemble is the plain run with its seed and parameters") {
  ScratchDir dir;
  Result r = run_cli(kSir + "--sweep beta=0.2:0.4:3 --replicas 2 --stats " + dir / "all.csv");
  REQUIRE_MESSAGE(r.status == 0, r.out);
  const auto all = read_csv(dir / "all.csv");
  const auto& last = all.back();  // beta 0.4, replica 1
  CHECK(last.at("beta") == "0.4");
  CHECK(last.at("replica") == "1");
  r = run_cli(kSir + "--param beta=0.4 --seed " + last.at("seed") + " --stats " + dir / "one.csv");
  REQUIRE_MESSAGE(r.status == 0, r.out);
  std::vector<std::string> member, plain;
  for (const auto& row : all)
    if (row.at("beta") == "0.4" && row.at("replica") == "1")
      member.push_back(row.at("step") + " " + row.at("S") + " " + row.at("I") + " " + row.at("R"));
  for (const auto& row : read_csv(dir / "one.csv"))
    plain.push_back(row.at("step") + " " + row.at("S") + " " + row.at("I") + " " + row.at("R"));
  CHECK(member == plain);
  // --member chooses whose final state the per-realization outputs write.
  r = run_cli(kSir + "--sweep beta=0.2:0.4:3 --replicas 2 --member 5 --states-out " + dir / "member.txt");
  REQUIRE_MESSAGE(r.status == 0, r.out);
  r = run_cli(kSir + "--param beta=0.4 --seed " + last.at("seed") + " --states-out " + dir / "plain.txt");
  REQUIRE_MESSAGE(r.status == 0, r.out);
  CHECK(read_file(dir / "member.txt") == read_file(dir / "plain.txt"));
}

TEST_CASE("cli: a sweep's range runs the values it names, written as they read") {
  ScratchDir dir;
  const Result r = run_cli(
      "run --model ising --grid 8x8 --fill 1 --steps 1 --sweep T=2.15:2.39:9 --sweep h=0:0:1 "
      "--summary " +
      dir / "s.csv");
  REQUIRE_MESSAGE(r.status == 0, r.out);
  std::vector<std::string> temperatures;
  for (const auto& row : read_csv(dir / "s.csv"))
    if (row.at("step") == "0") temperatures.push_back(row.at("T") + "/" + row.at("h"));
  CHECK(temperatures == std::vector<std::string>{"2.15/0", "2.18/0", "2.21/0", "2.24/0", "2.27/0", "2.3/0", "2.33/0",
                                                 "2.36/0", "2.39/0"});
}

TEST_CASE("cli: a swept parameter named like a state is written param_NAME") {
  ScratchDir dir;
  const Result r = run_cli(
      "run --model greenberghastings --grid 16x16 --fill 0.2 --steps 2 --sweep refractory=1,2 "
      "--stats " +
      dir / "s.csv");
  REQUIRE_MESSAGE(r.status == 0, r.out);
  CHECK(read_file(dir / "s.csv").rfind("param_refractory,replica,seed,step,resting,excited,refractory\n", 0) == 0);
}

TEST_CASE("cli: an ensemble's checkpoint holds every member and restarts as if never stopped") {
  ScratchDir dir;
  const std::string ensemble =
      "run --model sir --param tau=3 --generate er:2000:3 --fill-count 5 --sweep beta=0.3,0.6 --replicas 3 "
      "--stats-every 4 --member 4";
  const Result whole =
      run_cli(ensemble + " --steps 30 --summary " + dir / "whole.csv" + " --states-out " + dir / "whole.txt");
  REQUIRE_MESSAGE(whole.status == 0, whole.out);
  const Result first = run_cli(ensemble + " --steps 12 --checkpoint " + dir / "at12.ckpt");
  REQUIRE_MESSAGE(first.status == 0, first.out);
  // The checkpoint alone names the source, model, sweep and replicas.
  const Result rest =
      run_cli("run --restart " + dir / "at12.ckpt" + " --steps 30 --member 4 --stats-every 4 --summary " +
              dir / "rest.csv" + " --states-out " + dir / "rest.txt");
  REQUIRE_MESSAGE(rest.status == 0, rest.out);
  CHECK(rest.out.find("ran 18 steps (from step 12)") != std::string::npos);
  CHECK(read_file(dir / "rest.txt") == read_file(dir / "whole.txt"));
  std::vector<std::map<std::string, std::string>> later;
  for (const auto& row : read_csv(dir / "whole.csv"))
    if (std::stoi(row.at("step")) >= 12) later.push_back(row);
  CHECK(read_csv(dir / "rest.csv") == later);
  const Result other = run_cli("run --restart " + dir / "at12.ckpt" + " --steps 30 --replicas 4");
  CHECK(other.status == 1);
  CHECK(other.out.find("the checkpoint's parameters are") != std::string::npos);
  CHECK(other.out.find("replicas=3") != std::string::npos);
}

TEST_CASE("cli: bad ensembles are refused before any work, and write nothing") {
  ScratchDir dir;
  const std::string out = " --stats " + dir / "s.csv";
  std::vector<std::pair<std::string, std::string>> cases = {
      {"--replicas 0", "--replicas must be at least 1"},
      {"--sweep speed=1,2", "speed"},
      {"--sweep beta=0.5,1.5", "beta"},
      {"--sweep beta=0.1:0.2", "a range needs a:b:n"},
      {"--sweep beta=0:1:100000 --sweep tau=1:9:100000", "more than 2^32 members"},
      {"--member 1", "--member 1: the ensemble has 1 members"},
      {"--sweep beta=0.1:x:3", "a, b and n must be numbers"},
      {"--sweep beta=0.1:0.2x:3", "b is not a number"},
      {"--sweep beta=0.1,,0.2", "an empty value"},
      {"--sweep beta=0.1,0.2 --sweep beta=0.3", "names beta twice"},
      {"--sweep tau=1,2", "both set tau"},
      {"--replicas 2 --member 2", "--member 2: the ensemble has 2 members"},
      {"--replicas 2 --summary-json " + dir / "s.json", "--summary-json is not available for ensembles"},
  };
  if (!cellgraph::cuda_device_available())
    cases.push_back({"--replicas 2 --backend cuda", "CUDA"});  // this build's or device's
  const Result movable = run_cli("run --model vicsek --replicas 4 --steps 1");
  CHECK(movable.status == 1);
  CHECK(movable.out.find("model vicsek moves its cells") != std::string::npos);
  for (const auto& refused : cases) {
    const std::string& flags = refused.first;
    const std::string& message = refused.second;
    const Result r = run_cli(kSir + flags + out);
    INFO(flags, ": ", r.out);
    CHECK(r.status == 1);
    CHECK(r.out.find(message) != std::string::npos);
    CHECK(dir.empty());
  }
}

TEST_CASE("cli: bench --suite ensemble times ensembles against a plain run, member 0 equal to it") {
  const auto r =
      cellgraph::test::run_command("CELLGRAPH_DATA_DIR=" + data_path(".") + " " + cellgraph::test::cli_path() +
                                   " bench --suite ensemble --backend cpu --repeats 1");
  REQUIRE_MESSAGE(r.status == 0, r.out);
  for (const char* row : {"| life, rgg 2^18 | sync | 16 |", "| life, grid 1024^2 Moore | sync | 16 |",
                          "| sir, 4elt (METIS) | sync | 64 |", "| ising 64^2, 8 T x 16 | colored | 128 |"}) {
    INFO(row);
    CHECK(r.out.find(row) != std::string::npos);
  }
  std::size_t equal = 0;
  for (std::size_t at = r.out.find("equals its plain run"); at != std::string::npos;
       at = r.out.find("equals its plain run", at + 1))
    ++equal;
  CHECK(equal == 4);
}
