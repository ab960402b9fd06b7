#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cellgraph/error.hpp"
#include "cellgraph/output/checkpoint.hpp"
#include "cellgraph/source/generators.hpp"
#include "cellgraph/source/source.hpp"
#include "cli_run.hpp"
#include "models/registry.hpp"
#include "scratch.hpp"

namespace fs = std::filesystem;
using namespace cellgraph;

namespace {

int cli(const std::string& args) { return test::run_cli(args).status; }

}  // namespace

TEST_CASE("checkpoint: round trip, and damaged files refused") {
  ScratchDir s;
  Checkpoint c{123,
               7,
               "lifelike",
               "rule=B3/S23",
               "grid 4x4",
               3,
               {{1, 0, 2}, {1, 2, 3, 4, 5, 6}},
               {},
               std::string("--grid\0"
                           "4x4\0",
                           11)};
  write_checkpoint(s / "a.ckpt", c);
  const Checkpoint back = read_checkpoint(s / "a.ckpt");
  CHECK(back.step == 123);
  CHECK(back.seed == 7);
  CHECK(back.parameters == "rule=B3/S23");
  CHECK(back.run_options == c.run_options);
  CHECK(back.variables == c.variables);

  const std::string good = read_file(s / "a.ckpt");
  auto damaged = [&](std::string bytes) {
    std::ofstream(s / "d.ckpt", std::ios::binary) << bytes;
    return s / "d.ckpt";
  };
  CHECK_THROWS_WITH_AS(read_checkpoint(damaged(good.substr(0, good.size() - 9))),
                       doctest::Contains("is corrupt (checksum mismatch) or truncated"), Error);
  for (std::size_t at : {std::size_t(12), std::size_t(40), good.size() - 6}) {
    std::string flipped = good;
    flipped[at] ^= 0x10;
    CHECK_THROWS_WITH_AS(read_checkpoint(damaged(flipped)), doctest::Contains("checkpoint"), Error);
  }
  CHECK_THROWS_WITH_AS(read_checkpoint(damaged("hello world, not a checkpoint")),
                       doctest::Contains("is not a cellgraph checkpoint"), Error);
  std::string other_version = good;
  other_version[8] = 9;
  CHECK_THROWS_WITH_AS(read_checkpoint(damaged(other_version)), doctest::Contains("has version 9"), Error);
  CHECK_THROWS_AS(read_checkpoint(s / "missing.ckpt"), Error);
  Checkpoint ragged = c;
  ragged.variables[1].pop_back();
  CHECK_THROWS_AS(write_checkpoint(s / "r.ckpt", ragged), Error);
}

TEST_CASE("checkpoint: export and import continue a run bit-identically") {
  Graph g = rmat_graph(12, 8, 4);
  CompileOptions hubs;
  hubs.hub_degree = 40;
  hubs.giant_degree = 100;
  auto layout = std::make_shared<const Layout>(compile(g, hubs));
  const auto& life = models::find_model("lifelike");
  auto straight = life.make({{"rule", "B2/S23"}}, layout, {});
  auto first = life.make({{"rule", "B2/S23"}}, layout, {});
  auto second = life.make({{"rule", "B2/S23"}}, layout, {});
  const auto start = random_fill(g.num_vertices(), 0.4, 5);
  straight->set_states(start);
  first->set_states(start);
  straight->advance(20);
  first->advance(9);
  second->import_state(first->export_state(), first->step());
  second->advance(11);
  CHECK(second->step() == 20);
  CHECK(second->states() == straight->states());
  CHECK_THROWS_AS(second->import_state({}, 0), Error);
}

TEST_CASE("checkpoint: the CLI restarts bit-identically and refuses a different run") {
  ScratchDir s;
  const std::string common = "run --backend cpu --grid 64x48 --rule B36/S23 ";
  REQUIRE(cli(common + "--fill 0.5 --seed 3 --steps 60 --stats " + s / "a.csv" + " --stats-every 10 --states-out " +
              s / "a.txt") == 0);
  REQUIRE(cli(common + "--fill 0.5 --seed 3 --steps 30 --checkpoint " + s / "c.ckpt" + " --checkpoint-every 10") == 0);
  REQUIRE(cli(common + "--restart " + s / "c.ckpt" + " --steps 60 --stats " + s / "b.csv" +
              " --stats-every 10 --states-out " + s / "b.txt") == 0);
  CHECK(read_file(s / "a.txt") == read_file(s / "b.txt"));
  const std::string a = read_file(s / "a.csv"), b = read_file(s / "b.csv");
  CHECK(b.substr(b.find('\n') + 1) == a.substr(a.find("\n30,") + 1));  // rows 30..60 equal
  // A different rule, grid or seed is refused, and so is an initial state.
  CHECK(cli("run --backend cpu --grid 64x48 --rule B3/S23 --restart " + s / "c.ckpt") != 0);
  CHECK(cli("run --backend cpu --grid 64x40 --rule B36/S23 --restart " + s / "c.ckpt") != 0);
  CHECK(cli(common + "--seed 4 --restart " + s / "c.ckpt") != 0);
  CHECK(cli(common + "--checkpoint-every 5") != 0);  // no --checkpoint FILE
  CHECK(fs::exists(s / "c.ckpt"));
  CHECK(std::distance(fs::directory_iterator(s.path()), fs::directory_iterator{}) == 5);  // no temporaries left
}

TEST_CASE("checkpoint: a checkpoint alone continues its run, from any folder") {
  ScratchDir s;
  const std::string sir = "run --backend cpu --model sir --param beta=0.2 --param tau=3 --generate er:5000:5 --seed 9 ";
  REQUIRE(cli(sir + "--fill-count 20 --steps 40 --states-out " + s / "a.txt") == 0);
  REQUIRE(cli(sir + "--fill-count 20 --steps 17 --checkpoint " + s / "c.ckpt") == 0);
  REQUIRE(cli("run --backend cpu --restart " + s / "c.ckpt" + " --steps 40 --states-out " + s / "b.txt") == 0);
  CHECK(read_file(s / "a.txt") == read_file(s / "b.txt"));
  // The original command plus --restart: the checkpoint's state replaces --fill-count.
  const auto again =
      test::run_cli(sir + "--fill-count 20 --restart " + s / "c.ckpt" + " --steps 40 --states-out " + s / "c.txt");
  REQUIRE(again.status == 0);
  CHECK(again.out.find("the checkpoint's state replaces --fill-count") != std::string::npos);
  CHECK(read_file(s / "a.txt") == read_file(s / "c.txt"));
  // What the command line gives differently is refused with the reason.
  const auto other = test::run_cli("run --backend cpu --restart " + s / "c.ckpt" + " --param beta=0.3 --steps 40");
  CHECK(other.status != 0);
  CHECK(other.out.find("the checkpoint's parameters are") != std::string::npos);
  CHECK(cli("run --backend cpu --restart " + s / "c.ckpt" + " --graph-seed 2 --steps 40") != 0);

  // A pattern named by a relative path restarts from another folder.
  const std::string life = std::string(CELLGRAPH_DATA_DIR) + "/patterns/life";
  const std::string in_life = "cd " + life + " && " + test::cli_path() + " run --backend cpu --pattern acorn.rle ";
  REQUIRE(test::run_command(in_life + "--steps 30 --rle " + s / "a.rle").status == 0);
  REQUIRE(test::run_command(in_life + "--steps 12 --checkpoint " + s / "p.ckpt").status == 0);
  REQUIRE(test::run_command("cd " + s.path().string() + " && " + test::cli_path() +
                            " run --backend cpu --restart p.ckpt --steps 30 --rle b.rle")
              .status == 0);
  CHECK(read_file(s / "a.rle") == read_file(s / "b.rle"));
}

TEST_CASE("checkpoint: one without recorded options asks for the source") {
  ScratchDir s;
  Checkpoint c;
  c.step = 5;
  c.model = "lifelike";
  c.parameters = "rule=B3/S23";
  c.source = "grid 8x8 moore periodic";
  c.vertices = 64;
  c.variables = {std::vector<std::uint8_t>(64, 0)};
  write_checkpoint(s / "old.ckpt", c);
  const auto alone = test::run_cli("run --backend cpu --restart " + s / "old.ckpt" + " --steps 10");
  CHECK(alone.status != 0);
  CHECK(alone.out.find("does not record its source") != std::string::npos);
  CHECK(cli("run --backend cpu --grid 8x8 --rule B3/S23 --restart " + s / "old.ckpt" + " --steps 10") == 0);
}

TEST_CASE("checkpoint: random models restart bit-identically, statistics and observables included") {
  ScratchDir s;
  struct Run {
    std::string model, update;
  };
  for (const Run& r : {Run{"--model sir --param beta=0.2 --param tau=3 --generate er:5000:5 --fill-count 20", "sync"},
                       Run{"--model ising --param T=2.3 --grid 40x30 --neighborhood vonneumann --fill 0.5", "colored"},
                       Run{"--model forestfire --param p=0.05 --param f=0.001 --grid 40x30 --fill 0.5", "alpha:0.7"}}) {
    INFO(r.model, " ", r.update);
    const std::string common = "run --backend cpu --seed 9 --update " + r.update + " " + r.model + " ";
    REQUIRE(cli(common + "--steps 40 --stats " + s / "a.csv" + " --states-out " + s / "a.txt") == 0);
    REQUIRE(cli(common + "--steps 17 --checkpoint " + s / "c.ckpt") == 0);
    const std::string restart = common.substr(0, common.find(" --fill")) + " ";  // no initial state
    REQUIRE(cli(restart + "--restart " + s / "c.ckpt" + " --steps 40 --stats " + s / "b.csv" + " --states-out " +
                s / "b.txt") == 0);
    CHECK(read_file(s / "a.txt") == read_file(s / "b.txt"));
    const std::string a = read_file(s / "a.csv"), b = read_file(s / "b.csv");
    CHECK(b.substr(b.find('\n') + 1) == a.substr(a.find("\n17,") + 1));
    // Another update rule is another run.
    CHECK(cli(restart + "--update alpha:0.5 --restart " + s / "c.ckpt" + " --steps 40") != 0);
  }
}
