// The run driver (cellgraph/run/driver.hpp) and its writers: the same files as `cellgraph run`,
// writers called exactly at their trigger steps, chunks as the pacer takes them, and a stop
// request ending the run after its chunk with a report of what was written.
#include <doctest/doctest.h>

#include <csignal>
#include <filesystem>

#include "cellgraph/error.hpp"
#include "cellgraph/interrupt.hpp"
#include "cellgraph/output/checkpoint.hpp"
#include "cellgraph/run/driver.hpp"
#include "cellgraph/run/movable_writers.hpp"
#include "cellgraph/run/writers.hpp"
#include "cellgraph/source/source.hpp"
#include "cli_run.hpp"
#include "models/movable_registry.hpp"
#include "models/registry.hpp"
#include "scratch.hpp"

using namespace cellgraph;

namespace {

// Steps a counter, remembering every chunk it was asked for.
struct CountingStepper final : Stepper {
  std::uint64_t at = 0;
  std::vector<std::uint64_t>* chunks;
  explicit CountingStepper(std::vector<std::uint64_t>& record, std::uint64_t start = 0) : at(start), chunks(&record) {}
  std::uint64_t step() const override { return at; }
  void advance(std::uint64_t steps) override { at += steps, chunks->push_back(steps); }
};

// Records the steps it writes at and whether it finished; may ask the run to stop at a step.
struct RecordingWriter final : RunWriter {
  Trigger when;
  std::vector<std::uint64_t> written;
  int finished = 0, finished_stopped = 0;
  std::uint64_t stop_at = ~std::uint64_t(0);
  explicit RecordingWriter(Trigger t) : when(t) {}
  Trigger trigger() const override { return when; }
  void write(std::uint64_t step, StepCache&) override {
    written.push_back(step);
    if (step == stop_at) request_stop(SIGINT);
  }
  void finish(std::uint64_t, StepCache&) override { ++finished; }
  void finish_stopped(std::uint64_t, StepCache&, StoppedOutputs&) override { ++finished_stopped; }
};

RecordingWriter& add_recorder(RunDriver& driver, Trigger trigger) {
  return static_cast<RecordingWriter&>(driver.add(std::make_unique<RecordingWriter>(trigger)));
}

// A stop request is forgotten at the end of the test, whatever happens.
struct ForgetStop {
  ~ForgetStop() { request_stop(0); }
};

// A ranks group in which this process gathers but another writes.
struct NotWritingRank final : RunRanks {
  bool writes_files() const override { return false; }
  double slowest(double seconds) const override { return seconds; }
  int any_stop_signal(int mine) const override { return mine; }
};

struct LifeRun {
  Source source;
  const models::ModelInfo& life = models::find_model("lifelike");
  models::Params params{{"rule", "B3/S23"}};
  std::unique_ptr<Simulation> sim;
  LifeRun(const std::string& grid, std::uint64_t seed) {
    SourceSpec spec;
    spec.grid = grid;
    source = load_source(spec);
    SimulationOptions options;
    options.seed = seed;
    sim = life.make(params, std::make_shared<const Layout>(compile(source.graph, {})), options);
    sim->set_states(random_fill(source.graph.num_vertices(), 0.4, seed));
  }
};

}  // namespace

TEST_CASE("run driver: writers are called at their trigger steps, chunks double up to the longest") {
  std::vector<std::uint64_t> chunks;
  RunDriver driver(std::make_unique<CountingStepper>(chunks));
  RecordingWriter& every7 = add_recorder(driver, {7, true, true});
  RecordingWriter& at_end = add_recorder(driver, {0, false, true});
  RecordingWriter& final_only = add_recorder(driver, {});
  const RunResult r = driver.run(30);
  CHECK(every7.written == std::vector<std::uint64_t>{0, 7, 14, 21, 28, 30});
  CHECK(at_end.written == std::vector<std::uint64_t>{30});
  CHECK(final_only.written.empty());
  CHECK((every7.finished == 1 && at_end.finished == 1 && final_only.finished == 1));
  CHECK((r.first_step == 0 && r.step == 30 && !r.stopped()));
  CHECK(chunks == std::vector<std::uint64_t>{1, 2, 4, 7, 7, 7, 2});  // doubling, cut at each writer's step

  std::vector<std::uint64_t> free_chunks;
  RunDriver unwatched(std::make_unique<CountingStepper>(free_chunks));
  unwatched.run(1000);
  CHECK(free_chunks == std::vector<std::uint64_t>{1, 2, 4, 8, 16, 32, 64, 128, 256, 256, 233});
}

TEST_CASE("run driver: a run from a later step, and one with no step to take, write where due") {
  std::vector<std::uint64_t> chunks;
  RunDriver later(std::make_unique<CountingStepper>(chunks, 5));
  RecordingWriter& every4 = add_recorder(later, {4, true, true});
  later.run(13);
  CHECK(every4.written == std::vector<std::uint64_t>{5, 8, 12, 13});

  RunDriver none(std::make_unique<CountingStepper>(chunks, 9));
  RecordingWriter& start_and_end = add_recorder(none, {3, true, true});
  RecordingWriter& end_only = add_recorder(none, {3, false, true});
  const RunResult r = none.run(9);
  CHECK(start_and_end.written == std::vector<std::uint64_t>{9});  // once, not again at the end
  CHECK(end_only.written == std::vector<std::uint64_t>{9});
  CHECK((r.step == 9 && end_only.finished == 1));
  CHECK_THROWS_AS(none.run(4), Error);
}

TEST_CASE("run driver: statistics and final-state files are the bytes cellgraph run writes") {
  ScratchDir dir;
  const test::CommandResult cli =
      test::run_cli("run --grid 24x16 --rule B3/S23 --fill 0.4 --seed 3 --steps 23 --backend cpu --stats " +
                    dir / "cli.csv" + " --stats-every 5 --rle " + dir / "cli.rle" + " --states-out " + dir / "cli.txt");
  REQUIRE_MESSAGE(cli.status == 0, cli.out);

  LifeRun run("24x16", 3);
  RunDriver driver(*run.sim);
  driver.add(std::make_unique<CensusStatsWriter>(dir / "lib.csv", *run.sim, 5, run.life.state_names));
  driver.add(std::make_unique<RleWriter>(dir / "lib.rle", *run.source.grid, run.life.rule_text(run.params), *run.sim));
  driver.add(std::make_unique<StateFileWriter>(dir / "lib.txt", *run.sim));
  const RunResult r = driver.run(23);
  CHECK((r.step == 23 && !r.stopped()));
  const std::string csv = read_file(dir / "lib.csv");
  CHECK(csv.rfind("step,state_0,state_1\n0,", 0) == 0);
  CHECK(csv == read_file(dir / "cli.csv"));
  CHECK(read_file(dir / "lib.rle") == read_file(dir / "cli.rle"));
  CHECK(read_file(dir / "lib.txt") == read_file(dir / "cli.txt"));
}

TEST_CASE("run driver: a movable run's statistics are the bytes cellgraph run writes") {
  ScratchDir dir;
  const test::CommandResult cli = test::run_cli(
      "run --model vicsek --particles 60 --box 8 --steps 13 --seed 2 --backend cpu --stats-every 4 --stats " +
      dir / "cli.csv");
  REQUIRE_MESSAGE(cli.status == 0, cli.out);

  const models::MovableModelInfo& vicsek = *models::find_movable_model("vicsek");
  Box box;
  box.length[0] = box.length[1] = 8;
  MovableOptions movable;
  movable.skin = vicsek.radius({}) / 4;
  SimulationOptions options;
  options.seed = 2;
  auto sim = vicsek.make({}, box, 60, movable, options);
  sim->import_state(vicsek.initial_state({}, box, 60, options.seed), 0);
  RunDriver driver(*sim);
  driver.add(std::make_unique<ObservablesStatsWriter>(dir / "lib.csv", *sim, 4));
  driver.run(13);
  CHECK(read_file(dir / "lib.csv") == read_file(dir / "cli.csv"));
}

TEST_CASE("run driver: a stop request ends the run after its chunk, and the writers report what they wrote") {
  ForgetStop forget;
  ScratchDir dir;
  LifeRun run("16x16", 1);
  RunDriver driver(*run.sim);
  driver.add(std::make_unique<CheckpointWriter>(dir / "c.ckpt", *run.sim,
                                                Checkpoint{0, 1, "lifelike", "rule=B3/S23", "grid", 256, {}, {}}, 10));
  driver.add(std::make_unique<CensusStatsWriter>(dir / "s.csv", *run.sim, 7));
  PictureOptions pictures;
  pictures.png = dir / "p.png";
  driver.add(std::make_unique<PicturesWriter>(pictures, run.source, *run.sim));
  driver.add(std::make_unique<StateFileWriter>(dir / "s.txt", *run.sim));
  RecordingWriter& stopper = add_recorder(driver, {4, false, false});
  stopper.stop_at = 12;
  const RunResult r = driver.run(1000);
  CHECK((r.stopped() && r.stop_signal == SIGINT && r.step == 12));
  CHECK(stopper.written == std::vector<std::uint64_t>{4, 8, 12});
  CHECK((stopper.finished == 0 && stopper.finished_stopped == 1));
  REQUIRE(r.stopped_outputs.written.size() == 2);
  CHECK((r.stopped_outputs.written[0].kind == RunOutput::checkpoint &&
         r.stopped_outputs.written[0].path == dir / "c.ckpt"));
  CHECK(r.stopped_outputs.written[1].kind == RunOutput::statistics);
  REQUIRE(r.stopped_outputs.not_written.size() == 2);
  CHECK(r.stopped_outputs.not_written[0].kind == RunOutput::picture);
  CHECK(r.stopped_outputs.not_written[1].kind == RunOutput::state_file);
  CHECK(read_checkpoint(dir / "c.ckpt").step == 12);
  const std::string csv = read_file(dir / "s.csv");
  CHECK(csv.substr(csv.rfind("\n", csv.size() - 2) + 1, 3) == "12,");  // a row where it stopped
  CHECK(csv.find("\n7,") != std::string::npos);
  CHECK(dir.files() == std::set<std::string>{"c.ckpt", "s.csv"});

  // A request in the last chunk comes too late: the run is whole.
  request_stop(0);
  LifeRun whole("8x8", 1);
  RunDriver last(*whole.sim);
  RecordingWriter& late = add_recorder(last, {0, false, true});
  late.stop_at = 6;
  const RunResult done = last.run(6);
  CHECK((!done.stopped() && late.finished == 1));
}

TEST_CASE("run driver: a rank that does not write files gathers but leaves nothing behind") {
  ScratchDir dir;
  LifeRun run("8x8", 2);
  const NotWritingRank other;
  RunDriver driver(*run.sim, other);
  driver.add(std::make_unique<CensusStatsWriter>(dir / "s.csv", *run.sim, 2, std::vector<std::string>{}, other));
  driver.add(std::make_unique<StateFileWriter>(dir / "s.txt", *run.sim, other));
  CHECK(driver.run(5).step == 5);
  CHECK(dir.empty());
  CHECK_THROWS_AS(CensusStatsWriter(dir / "z.csv", *run.sim, 0), Error);
}
