// The command line as users meet it: exit codes, messages, outputs written whole or not at all.
#include <doctest/doctest.h>

#include <sys/wait.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cellgraph/source/pattern.hpp"
#include "cli_run.hpp"
#include "data_path.hpp"
#include "scratch.hpp"

namespace fs = std::filesystem;

namespace {

using cellgraph::test::run_cli;
using Result = cellgraph::test::CommandResult;

}  // namespace

TEST_CASE("cli: a grid run writes statistics, a picture, RLE and states") {
  ScratchDir dir;
  Result r =
      run_cli("run --backend cpu --grid 64x48 --rule B3/S23 --fill 0.5 --seed 7 --steps 20 --stats " + dir / "s.csv" +
              " --stats-every 5 --png " + dir / "o.png --rle " + dir / "o.rle --states-out " + dir / "o.txt");
  REQUIRE_MESSAGE(r.status == 0, r.out);
  CHECK(r.out.find("ran 20 steps of lifelike B3/S23 on grid 64x48 moore periodic (3072 cells) on cpu") == 0);
  const std::string csv = read_file(dir / "s.csv");
  CHECK(csv.rfind("step,state_0,state_1\n0,", 0) == 0);
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 6);  // header, steps 0, 5, 10, 15, 20
  std::ifstream rle(dir / "o.rle");
  const cellgraph::Pattern p = cellgraph::read_rle(rle, "o.rle");
  CHECK(p.bounded_kind == 'T');
  const std::string last = csv.substr(csv.rfind("20,"));
  CHECK(last == "20," + std::to_string(3072 - p.cells.size()) + "," + std::to_string(p.cells.size()) + "\n");
  CHECK(fs::file_size(dir / "o.png") > 0);
  CHECK(std::count(std::istreambuf_iterator<char>(std::ifstream(dir / "o.txt").rdbuf()), {}, '\n') == 3073);
}

TEST_CASE("cli: config files, flags override them, errors name file and line") {
  ScratchDir dir;
  std::ofstream(dir / "run.ini") << "# a comment\n[run]\ngrid = 32x32\nrule = B36/S23\nfill = 0.3\nsteps = 5\n";
  Result r = run_cli("run --backend cpu --config " + dir / "run.ini" + " --steps 2");
  REQUIRE_MESSAGE(r.status == 0, r.out);
  CHECK(r.out.find("ran 2 steps of lifelike B36/S23 on grid 32x32") == 0);
  std::ofstream(dir / "bad.ini") << "grid = 32x32\n\nspeed = 3\n";
  r = run_cli("run --config " + dir / "bad.ini");
  CHECK(r.status == 1);
  CHECK(r.out.find(dir / "bad.ini" + ":3: ") != std::string::npos);
  std::ofstream(dir / "flags.ini") << "grid = 8x8\nsteps = 1\nprogress = true\n";
  r = run_cli("run --backend cpu --config " + dir / "flags.ini");
  CHECK_MESSAGE(r.status == 0, r.out);
  CHECK(r.out.find("step 1 of 1 (100%)") != std::string::npos);  // the progress line, forced on
  std::ofstream(dir / "bad2.ini") << "grid 32x32\n";
  r = run_cli("run --config " + dir / "bad2.ini");
  CHECK(r.out.find(dir / "bad2.ini" + ":1: expected 'key = value'") != std::string::npos);
}

TEST_CASE("cli: bad input and contradictory options fail cleanly and write nothing") {
  ScratchDir dir;
  const std::string out = " --stats " + dir / "s.csv" + " --states-out " + dir / "x.txt";
  struct Case {
    std::string args, message;
  } cases[] = {
      {"run --grid 0x5", "bad grid size '0x5'"},
      {"run --grid 8x8 --rule B3", "unknown rule 'B3'"},
      {"run --grid 8x8 --neighborhood knight", "unknown neighborhood 'knight'"},
      {"run --grid 8x8 --boundary klein", "unknown boundary 'klein'"},
      {"run --grid 8x8 --graph x.graph", "choose one source"},
      {"run --steps 3", "no source"},
      {"run --grid 8x8 --fill 2", "--fill must be a density from 0 to 1"},
      {"run --grid 8x8 --fill 0.5 --pattern " + data_path("patterns/life/acorn.rle"), "choose one initial state"},
      {"run --grid 8x8x8 --pattern " + data_path("patterns/life/acorn.rle"), "patterns are placed on 2D grids"},
      {"run --generate er:30000:2 --png x.png", "--png: graphs without coordinates are laid out for pictures"},
      {"run --graph " + data_path("graphs/mtx/LAGraph/malformed/mangled1.mtx"), "mangled1.mtx:"},
      {"run --graph /nonexistent/g.graph", "cannot open /nonexistent/g.graph"},
      {"run --grid 8x8 --model nosuch", "unknown model 'nosuch'"},
      {"run --grid 8x8 --steps -3", "the argument ('-3') for option '--steps' is invalid"},
      {"run --grid 8x8 --seed 1e3", "for option '--seed' is invalid"},
      {"run --grid 8x8 --backend quantum", "--backend must be cpu, reference, cuda or auto"},
      {"run --grid 8x8 --signal-bits maybe", "--signal-bits must be auto, on or off"},
      {"run --grid 8x8 --l2-residency on", "--l2-residency must be auto or off"},
      {"run --grid 8x8 --fused-sweep yes", "--fused-sweep must be auto, on or off"},
      {"run --grid 8x8 --halo nvlink", "--halo must be auto, device or host"},
      {"run --grid 8x8 --order zigzag", "--order must be input, hilbert or rcm"},
      {"run --generate rmat:8 --order hilbert", "needs the vertices' coordinates"},
      {"run --grid 8x8 --boundary fixed:5", "boundary state 5 is not a state of this model"},
      {"run --grid 8x8 --frobnicate", "unrecognised option '--frobnicate'"},
      {"run --grid 8x8 --boundary reflective --rle x.rle", "Golly has no grid with this boundary"},
      {"run --grid 8x8 --steps 1 --png /nonexistent/dir/x.png", "cannot write /nonexistent/dir/x.png"},
      {"run --generate rmat:nan", "bad generator 'rmat:nan'"},
      {"run --generate rgg:100.5", "bad generator 'rgg:100.5'"},
  };
  for (const Case& c : cases) {
    Result r = run_cli(c.args + out);
    INFO(c.args, " -> ", r.out);
    CHECK(r.status == 1);
    CHECK(r.out.find(c.message) != std::string::npos);
    CHECK(dir.empty());
  }
  // A partition option out of its choices: the option named, no .part file.
  Result r = run_cli("partition --generate rmat:8 --parts 2 --balance edges --out " + dir / "p.part");
  CHECK(r.status == 1);
  CHECK(r.out.find("--balance must be work or cells, not 'edges'") != std::string::npos);
  CHECK(dir.empty());
  // An output that cannot be written: error, exit 1, no partial file anywhere.
  r = run_cli("run --grid 8x8 --steps 1 --stats /nonexistent/dir/s.csv");
  CHECK(r.status == 1);
  CHECK(r.out.find("cannot write /nonexistent/dir/s.csv") != std::string::npos);
  CHECK(run_cli("frobnicate").status == 2);
  CHECK(run_cli("").status == 2);
  CHECK(run_cli("run --help").status == 0);
}

TEST_CASE("cli: compile report, models list") {
  Result r = run_cli("compile --graph " + data_path("graphs/mtx/LAGraph/jagmesh7.mtx") + " --report");
  REQUIRE_MESSAGE(r.status == 0, r.out);
  CHECK(r.out.find("vertices          1138") != std::string::npos);
  CHECK(r.out.find("list entries      6312") != std::string::npos);
  CHECK(r.out.find("degree histogram") != std::string::npos);
  CHECK(r.out.find("gather span       ") != std::string::npos);
  r = run_cli("models");
  CHECK(r.status == 0);
  CHECK(r.out.find("\nlifelike\n  Life-like") != std::string::npos);  // listed by name (test_user_models.cpp)
}

TEST_CASE("cli: a mesh run writes a ParaView series") {
  ScratchDir dir;
  Result r = run_cli("run --backend cpu --mesh " + data_path("meshes/t1_2d_tri_v41.msh") +
                     " --rule B2/S23 --fill 0.3 --steps 10 --vtk " + dir / "tri --vtk-every 5");
  REQUIRE_MESSAGE(r.status == 0, r.out);
  CHECK(r.out.find("on dual graph of mesh t1_2d_tri_v41.msh (11226 cells)") != std::string::npos);
  for (const char* name : {"tri_000000.vtu", "tri_000005.vtu", "tri_000010.vtu", "tri.pvd"})
    CHECK_MESSAGE(fs::exists(dir / name), name);
  const std::string pvd = read_file(dir / "tri.pvd");
  CHECK(pvd.find("timestep=\"10\"") != std::string::npos);
  r = run_cli("run --backend cpu --mesh " + data_path("meshes/t5_3d_tet_v41.msh") +
              " --mesh-graph nodal --fill 0.3 --steps 2 --vtk " + dir / "nodes");
  REQUIRE_MESSAGE(r.status == 0, r.out);
  CHECK(r.out.find("(2857 cells)") != std::string::npos);
  CHECK(fs::exists(dir / "nodes_000002.vtu"));
  r = run_cli("run --grid 16x8x4 --fill 0.2 --rule B4/S5 --neighborhood vonneumann --steps 3 --vtk " + dir / "g");
  REQUIRE_MESSAGE(r.status == 0, r.out);
  CHECK(fs::exists(dir / "g_000003.vti"));
  r = run_cli("run --mesh " + data_path("meshes/metis.mesh") + " --steps 1 --vtk " + dir / "none");
  CHECK(r.status == 1);
  CHECK(r.out.find("--vtk needs") != std::string::npos);
  r = run_cli("compile --mesh " + data_path("meshes/metis.mesh") + " --ncommon 1");
  CHECK(r.out.find("vertices          7434") != std::string::npos);
  CHECK(r.out.find("list entries      86062") != std::string::npos);
}

TEST_CASE("cli: bench --suite metis times the METIS samples against the CSR loop, same states") {
  // The suites find their graph files through CELLGRAPH_DATA_DIR (or ./data).
  const auto r =
      cellgraph::test::run_command("CELLGRAPH_DATA_DIR=" + data_path(".") + " " + cellgraph::test::cli_path() +
                                   " bench --suite metis --backend cpu --repeats 1 --markdown");
  REQUIRE_MESSAGE(r.status == 0, r.out);
  CHECK(r.out.find("| 4elt.graph (METIS) | 15606 |") != std::string::npos);
  CHECK(r.out.find("| copter2.graph (METIS) | 55476 |") != std::string::npos);
  CHECK(r.out.find("DIFFER") == std::string::npos);
  CHECK(run_cli("bench --suite nonesuch --backend cpu").out.find("unknown suite 'nonesuch'") != std::string::npos);
}
