// Partitioned runs under mpirun, through the CLI: on 1 to 4 ranks the outputs (statistics,
// states, RLE, checkpoints) of the fast CPU backend are the bytes the reference writes in one
// process; .part files drive runs; bad partitions and failing ranks end the job with a message,
// not a hang, and leave no output.
// Movable (Vicsek, MCA) runs split into regions write the same statistics, VTK and pictures too,
// and ensembles the same long statistics, summaries and member outputs.
#include <doctest/doctest.h>

#include <filesystem>
#include <initializer_list>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli_run.hpp"
#include "data_path.hpp"
#include "scratch.hpp"

using namespace cellgraph::test;

namespace {

bool have_mpirun() { return std::filesystem::exists(mpiexec_path()); }

// The run on one process and on `ranks` ranks write the same bytes into each named output.
void check_same_outputs(const std::string& args, const std::vector<std::string>& outputs,
                        std::initializer_list<int> ranks) {
  ScratchDir dir;
  auto with_outputs = [&](const std::string& tag) {
    std::string a = args;
    for (const std::string& o : outputs) a += " --" + o + " " + dir / (tag + "." + o);
    return a;
  };
  // The reference on one process; the fast CPU backend on the ranks.
  const CommandResult one = run_cli("run " + with_outputs("one") + " --backend reference");
  REQUIRE_MESSAGE(one.status == 0, one.out);
  for (int n : ranks) {
    INFO(args, " on ", n, " ranks");
    const CommandResult many = run_cli_ranks(n, "run " + with_outputs(std::to_string(n)) + " --backend cpu");
    REQUIRE_MESSAGE(many.status == 0, many.out);
    if (n > 1) CHECK(many.out.find("x " + std::to_string(n) + " ranks") != std::string::npos);
    for (const std::string& o : outputs) {
      INFO("--", o);
      CHECK(read_file(dir / (std::to_string(n) + "." + o)) == read_file(dir / ("one." + o)));
    }
  }
}

}  // namespace

TEST_SUITE("mpi") {
  TEST_CASE("mpirun: grids, graph files and every model on 1 to 4 ranks write what one process writes" *
            doctest::skip(!have_mpirun())) {
    const std::vector<std::string> both = {"stats", "states-out"};
    check_same_outputs("--grid 61x45 --rule B3/S23 --fill 0.4 --steps 40", {"stats", "states-out", "rle"},
                       {1, 2, 3, 4});
    check_same_outputs("--graph " + data_path("graphs/metis/github-KarypisLab-METIS/4elt.graph") +
                           " --model sir --param beta=0.3 --param tau=3 --fill-count 30 --steps 25",
                       both, {2, 4});
    check_same_outputs(
        "--model ising --param T=2.2 --grid 40x30 --neighborhood vonneumann --fill 1 --steps 20 "
        "--method metis",
        both, {3});
    check_same_outputs(
        "--model forestfire --param p=0.05 --param f=0.001 --grid 50x50 --boundary fixed:0 --fill 0.5 "
        "--steps 20 --update alpha:0.5",
        both, {2, 3});
    check_same_outputs("--generate rmat:11 --rule /2/3 --fill 0.2 --steps 15 --update colored --stats-every 5", both,
                       {3});
    check_same_outputs("--rule WireWorld --param dir=" + data_path("rules") + " --pattern " +
                           data_path("patterns/golly-rules/wireworld-circuit.rle") + " --grid 80x80 --steps 60",
                       both, {3});
    // One-way stencil (z-2, not z+2), colored across parts, three variables.
    check_same_outputs(
        "--model cloud --grid 24x20x16 --param p_ext=0.05 --param p_hum=0.01 --update colored --steps 12", both, {3});
    check_same_outputs(
        "--model rulenumber --param kind=moore --param rule=0x1234567890abcdef1234567890abcdef "
        "--grid 33x29 --boundary reflective --fill 0.5 --steps 12",
        both, {4});
  }

  TEST_CASE("mpirun: ensembles on 1 to 4 ranks write what one process writes, member by member" *
            doctest::skip(!have_mpirun())) {
    check_same_outputs("--graph " + data_path("graphs/metis/github-KarypisLab-METIS/4elt.graph") +
                           " --model sir --param tau=3 --sweep beta=0.2,0.5 --replicas 3 --fill-count 20 --steps 25 "
                           "--member 4",
                       {"stats", "summary", "states-out"}, {1, 2, 4});
    check_same_outputs(
        "--model ising --grid 30x24 --neighborhood vonneumann --fill 1 --sweep T=2.0,2.6 --replicas 2 --steps 15 "
        "--stats-every 5 --member 3",
        {"stats", "summary", "states-out"}, {3});
    check_same_outputs(
        "--model forestfire --param p=0.05 --param f=0.001 --grid 40x40 --boundary fixed:0 --fill 0.5 --replicas 4 "
        "--steps 20 --update alpha:0.5 --member 2",
        {"stats", "states-out", "png"}, {2});
    // Every member's checkpoint, written on 2 ranks, continued on 3.
    ScratchDir dir;
    const std::string ising =
        "run --model ising --grid 30x24 --neighborhood vonneumann --fill 1 --sweep T=2.0,2.6 "
        "--replicas 2 --member 3 --backend cpu";
    REQUIRE(run_cli(ising + " --steps 20 --states-out " + dir / "whole.txt").status == 0);
    const CommandResult first = run_cli_ranks(2, ising + " --steps 8 --checkpoint " + dir / "at8.ckpt");
    REQUIRE_MESSAGE(first.status == 0, first.out);
    const CommandResult rest =
        run_cli_ranks(3, "run --restart " + dir / "at8.ckpt" + " --steps 20 --member 3 --backend cpu --states-out " +
                             dir / "rest.txt");
    REQUIRE_MESSAGE(rest.status == 0, rest.out);
    CHECK(read_file(dir / "rest.txt") == read_file(dir / "whole.txt"));
  }

  TEST_CASE("mpirun: a checkpoint written on 3 ranks restarts on 2 ranks or one, as if never stopped" *
            doctest::skip(!have_mpirun())) {
    ScratchDir dir;
    const std::string run = "run --model sis --param beta=0.4 --param gamma=0.2 --grid 40x40 --backend cpu ";
    REQUIRE(run_cli(run + "--fill 0.1 --steps 30 --states-out " + dir / "whole.txt").status == 0);
    const CommandResult first = run_cli_ranks(3, run + "--fill 0.1 --steps 12 --checkpoint " + dir / "c.ckpt");
    REQUIRE_MESSAGE(first.status == 0, first.out);
    const CommandResult on_two =
        run_cli_ranks(2, run + "--steps 30 --restart " + dir / "c.ckpt" + " --states-out " + dir / "two.txt");
    REQUIRE_MESSAGE(on_two.status == 0, on_two.out);
    CHECK(on_two.out.find("ran 18 steps (from step 12)") != std::string::npos);
    REQUIRE(run_cli(run + "--steps 30 --restart " + dir / "c.ckpt" + " --states-out " + dir / "one.txt").status == 0);
    CHECK(read_file(dir / "two.txt") == read_file(dir / "whole.txt"));
    CHECK(read_file(dir / "one.txt") == read_file(dir / "whole.txt"));
  }

  TEST_CASE("mpirun: cellgraph partition writes a .part file that a run on as many ranks follows" *
            doctest::skip(!have_mpirun())) {
    ScratchDir dir;
    const std::string graph = "--graph " + data_path("graphs/metis/github-KarypisLab-METIS/4elt.graph");
    const CommandResult split =
        run_cli("partition " + graph + " --parts 3 --objective volume --out " + dir / "4elt.part");
    REQUIRE_MESSAGE(split.status == 0, split.out);
    CHECK(split.out.find("METIS k-way") != std::string::npos);
    CHECK(split.out.find("parts 3, edge cut ") != std::string::npos);
    const std::string run = "run " + graph + " --rule B2/S23 --fill 0.3 --steps 20 --backend cpu --states-out ";
    REQUIRE(run_cli(run + dir / "one.txt").status == 0);
    const CommandResult three = run_cli_ranks(3, run + dir / "three.txt" + " --partition " + dir / "4elt.part");
    REQUIRE_MESSAGE(three.status == 0, three.out);
    CHECK(read_file(dir / "three.txt") == read_file(dir / "one.txt"));
  }

  TEST_CASE("mpirun: bad partitions end every rank with a message naming the file, line and rank" *
            doctest::skip(!have_mpirun())) {
    ScratchDir dir;
    const std::string run = "run --grid 6x4 --steps 3 --backend cpu --stats " + dir / "s.csv" + " --partition ";
    std::string lines;
    for (int v = 0; v < 24; ++v) lines += std::to_string(v % 3) + "\n";
    const std::string three_parts = dir.write("three.part", lines);
    const CommandResult too_many = run_cli_ranks(2, run + three_parts);
    CHECK(too_many.status != 0);
    CHECK(too_many.out.find("three.part:3: part id 2 is out of range 0..1 (2 parts)") != std::string::npos);
    // Every rank reads the file and fails; the first to report ends the job, whichever it is.
    CHECK((too_many.out.find("(rank 0 of 2)") != std::string::npos ||
           too_many.out.find("(rank 1 of 2)") != std::string::npos));
    const CommandResult short_file = run_cli_ranks(3, run + dir.write("short.part", "0\n1\n2\n"));
    CHECK(short_file.status != 0);
    CHECK(short_file.out.find("the file ends after 3 part ids; expected one per vertex (24)") != std::string::npos);
    std::string two_of_three;
    for (int v = 0; v < 24; ++v) two_of_three += std::to_string(v % 2) + "\n";
    const CommandResult empty_part = run_cli_ranks(3, run + dir.write("empty.part", two_of_three));
    CHECK(empty_part.status != 0);
    CHECK(empty_part.out.find("part 2 of 3 is empty") != std::string::npos);
    CHECK(!std::filesystem::exists(dir / "s.csv"));
  }

  TEST_CASE("mpirun: a rank that fails ends the job, naming the rank" * doctest::skip(!have_mpirun())) {
    ScratchDir dir;
    // Only rank 1 finds the state file missing (its working folder has none): the other ranks
    // must not wait for it.
    std::string zeros;
    for (int v = 0; v < 24; ++v) zeros += "0\n";
    std::filesystem::create_directories(dir / "empty");
    dir.write("states.txt", zeros);
    const std::string run = cli_path() + " run --grid 6x4 --steps 2 --backend cpu --states states.txt";
    const CommandResult r = run_command(mpirun_prefix() + " -np 1 -wdir " + dir.path().string() + " " + run +
                                        " : -np 1 -wdir " + dir / "empty" + " " + run);
    CHECK(r.status != 0);
    CHECK(r.status != 124);  // not ended by the timeout: no hang
    CHECK(r.out.find("(rank 1 of 2): error:") != std::string::npos);
  }
}

namespace {

// A Vicsek run on one process and on each rank count writes the same bytes: statistics, every
// VTK snapshot and its index, the picture. Each run writes into a folder of its own, under the
// same names, so that the .pvd index (which names the snapshots) compares too.
void check_same_movable_outputs(const std::string& args, std::initializer_list<int> ranks) {
  ScratchDir dir;
  auto run_in = [&](const std::string& tag, int n) {
    std::filesystem::create_directories(dir / tag);
    const std::string a = "run " + args + " --backend cpu --stats " + dir / (tag + "/s.csv") + " --vtk " +
                          dir / (tag + "/v") + " --vtk-every 20 --png " + dir / (tag + "/p.png");
    return n == 0 ? run_cli(a) : run_cli_ranks(n, a);
  };
  const CommandResult one = run_in("one", 0);
  REQUIRE_MESSAGE(one.status == 0, one.out);
  const std::set<std::string> names = [&] {
    std::set<std::string> s;
    for (const auto& e : std::filesystem::directory_iterator(dir / "one")) s.insert(e.path().filename().string());
    return s;
  }();
  CHECK(names.size() == 6);  // s.csv, p.png, v.pvd and three snapshots
  for (int n : ranks) {
    INFO(args, " on ", n, " ranks");
    const CommandResult many = run_in(std::to_string(n), n);
    REQUIRE_MESSAGE(many.status == 0, many.out);
    if (n > 1) CHECK(many.out.find("on cpu x " + std::to_string(n) + " ranks") != std::string::npos);
    for (const std::string& name : names) {
      INFO(name);
      CHECK(read_file(dir / (std::to_string(n) + "/" + name)) == read_file(dir / ("one/" + name)));
    }
  }
}

}  // namespace

TEST_SUITE("mpi") {
  TEST_CASE("mpirun: Vicsek runs on 2 to 4 ranks write what one process writes (2D, 3D, periodic, closed)" *
            doctest::skip(!have_mpirun())) {
    check_same_movable_outputs(
        "--model vicsek --particles 900 --box 15 --param v0=0.3 --param eta=1.5 --seed 4 "
        "--steps 40 --stats-every 5",
        {1, 2, 3, 4});
    check_same_movable_outputs(
        "--model vicsek --particles 1200 --box 7x6x6.5 --boundary closed --param v0=0.2 "
        "--param eta=1 --skin 0.6 --steps 40",
        {2, 3});
  }

  // Bonds are state variables of their particles, so they migrate with them like any other.
  TEST_CASE("mpirun: an MCA plate cracking on 2 and 3 ranks writes what one process writes" *
            doctest::skip(!have_mpirun())) {
    const std::string plate =
        "--model mca --particles 600 --box 50x30 --boundary closed --param pull=0.1 "
        "--param break=0.02 --steps 40 --stats-every 5";
    check_same_movable_outputs(plate, {2, 3});
    ScratchDir dir;  // and it does crack: bonds break within the run
    REQUIRE(run_cli("run " + plate + " --backend cpu --stats " + dir / "s.csv").status == 0);
    std::istringstream rows(read_file(dir / "s.csv"));
    std::string header, first, row, last;
    std::getline(rows, header);
    std::getline(rows, first);
    for (last = first; std::getline(rows, row);) last = row;
    const auto bonds = [](const std::string& line) { return std::stol(line.substr(line.rfind(',') + 1)); };
    CHECK(header.substr(header.rfind(',') + 1) == "bonds");
    CHECK(bonds(last) < bonds(first));
  }

  TEST_CASE("mpirun: a box too small for the ranks ends every rank with a message, leaving no output" *
            doctest::skip(!have_mpirun())) {
    ScratchDir dir;
    const CommandResult r =
        run_cli_ranks(5, "run --model vicsek --particles 50 --box 3 --steps 5 --backend cpu --stats " + dir / "s.csv");
    CHECK(r.status != 0);
    CHECK(r.status != 124);
    CHECK(r.out.find("cannot split the box into 5 parts") != std::string::npos);
    CHECK(r.out.find("(at most 4 parts)") != std::string::npos);
    CHECK(r.out.find("(rank ") != std::string::npos);
    CHECK(!std::filesystem::exists(dir / "s.csv"));
    const CommandResult gpu = run_cli_ranks(2, "run --model vicsek --particles 50 --box 6 --steps 5 --backend cuda");
    CHECK(gpu.status != 0);
    CHECK(gpu.out.find("run on the CPU backend only: give --backend cpu") != std::string::npos);
  }
}
