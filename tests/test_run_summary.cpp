// The end of a run as a user and a script see it: the census by state name, every file written
// with its size, the same in --summary-json (read back by Python's json module), and --version.
#include <doctest/doctest.h>

#include <filesystem>

#include "cli_run.hpp"
#include "scratch.hpp"

using cellgraph::test::run_cli;
using cellgraph::test::run_command;

namespace {

std::string size_of(const std::string& path) { return std::to_string(std::filesystem::file_size(path)); }

// Python's verdict on a JSON file: `check` is a Python expression over the parsed object `d`
// that must be true; prints what it found otherwise.
void check_json(const std::string& path, const std::string& check) {
  const auto r = run_command("python3 -c \"import json,sys; d=json.load(open('" + path + "')); ok=(" + check +
                             "); print(d if not ok else 'ok'); sys.exit(0 if ok else 1)\"");
  CHECK_MESSAGE(r.status == 0, check, "\n", r.out);
}

}  // namespace

TEST_CASE("run summary: the census by state name and every file written with its size") {
  ScratchDir dir;
  const auto r = run_cli("run --backend cpu --model sir --generate er:2000:3 --fill-count 10 --steps 30 --stats " +
                         dir / "sir.csv" + " --states-out " + dir / "final.txt");
  REQUIRE(r.status == 0);
  CHECK(r.out.find("ran 30 steps of sir on generated er:2000:3 (2000 cells) on cpu") == 0);
  CHECK(r.out.find("\n  census at step 30: S ") != std::string::npos);
  CHECK(r.out.find(", I ") != std::string::npos);
  CHECK(r.out.find(", R ") != std::string::npos);
  CHECK(r.out.find("  wrote " + dir / "sir.csv" + " (" + size_of(dir / "sir.csv") + " bytes), " + dir / "final.txt" +
                   " (") != std::string::npos);

  const auto series = run_cli("run --grid 32x32 --fill 0.4 --steps 20 --vtk " + dir / "life" + " --vtk-every 5");
  REQUIRE(series.status == 0);
  CHECK(series.out.find("  census at step 20: state 0 ") != std::string::npos);
  CHECK(series.out.find("  wrote " + dir / "life.pvd" + " and 5 snapshots (") != std::string::npos);
}

TEST_CASE("run summary: --summary-json says the same to a script") {
  ScratchDir dir;
  const std::string json = dir / "summary.json";
  const auto r = run_cli("run --model sir --param beta=0.3 --generate er:2000:3 --fill-count 10 --steps 30 --stats " +
                         dir / "sir.csv" + " --summary-json " + json);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("  summary in " + json) != std::string::npos);
  check_json(json, "d['model'] == 'sir' and d['cells'] == 2000 and d['first_step'] == 0 and d['last_step'] == 30");
  check_json(json, "d['parameters']['beta'] == '0.3' and d['parameters']['tau'] != ''");  // given, and defaults
  check_json(json, "sorted(d['census']) == ['I', 'R', 'S'] and sum(d['census'].values()) == 2000");
  check_json(json, "d['rate'] > 0 and d['rate_unit'] == 'cell updates/s' and d['cellgraph']['version'] != ''");
  check_json(json, "d['outputs'] == [{'kind': 'statistics', 'path': '" + dir / "sir.csv" +
                       "', 'files': 1, 'bytes': " + size_of(dir / "sir.csv") + "}]");

  // Movable runs too, with their observables.
  const std::string vicsek = dir / "vicsek.json";
  const auto v = run_cli("run --model vicsek --particles 200 --box 8 --steps 10 --stats " + dir / "v.csv" +
                         " --summary-json " + vicsek);
  REQUIRE(v.status == 0);
  CHECK(v.out.find("  wrote " + dir / "v.csv" + " (") != std::string::npos);
  check_json(vicsek, "d['model'] == 'vicsek' and d['rate_unit'] == 'steps/s' and 'order' in d['observables']");

  // The summary is an output like any other: it may not replace an input or another output.
  const auto clash = run_cli("run --grid 8x8 --steps 1 --stats " + json + " --summary-json " + json);
  CHECK(clash.status != 0);
  CHECK(clash.out.find("--summary-json") != std::string::npos);
}

TEST_CASE("--version names the version and the libraries") {
  const auto r = run_cli("--version");
  REQUIRE(r.status == 0);
  CHECK(r.out.rfind("cellgraph 0.", 0) == 0);
  CHECK(r.out.find("\n  CUDA backend: ") != std::string::npos);
  CHECK(r.out.find("\n  MPI: ") != std::string::npos);
  CHECK(r.out.find("\n  METIS: 5.") != std::string::npos);
}

TEST_CASE("run summary: a run that started empty and stayed empty is warned about") {
  const std::string warning = "warning: every cell was in state 0 at the start and still is: nothing happened";
  const auto empty = run_cli("run --backend cpu --grid 16x16 --steps 5");
  REQUIRE(empty.status == 0);
  CHECK(empty.out.find(warning) != std::string::npos);
  const auto sir = run_cli("run --backend cpu --model sir --generate er:1000:3 --steps 5");
  CHECK(sir.out.find(warning) != std::string::npos);
  // A state to evolve, or a rule that fills an empty grid (B0): no warning.
  for (const char* args : {"--fill 0.3", "--rule B0/S8"}) {
    const auto r = run_cli(std::string("run --backend cpu --grid 16x16 --steps 5 ") + args);
    CHECK(r.status == 0);
    CHECK(r.out.find(warning) == std::string::npos);
  }
}
