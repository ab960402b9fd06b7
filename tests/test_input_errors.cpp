// Errors caused by a file's content name the file and the line ("file:line: what is wrong"),
// show at most a short, printable part of it, and sizes that a file or an option implies are
// refused before they are allocated.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cellgraph/error.hpp"
#include "cellgraph/memory_budget.hpp"
#include "cellgraph/partition.hpp"
#include "cellgraph/source/graph_file.hpp"
#include "cellgraph/source/mesh.hpp"
#include "cellgraph/source/pattern.hpp"
#include "cellgraph/source/source.hpp"
#include "cli_run.hpp"
#include "data_path.hpp"
#include "models/params.hpp"
#include "models/rule_use.hpp"
#include "scratch.hpp"
#include "src/source/line_reader.hpp"

using namespace cellgraph;
using namespace cellgraph::test;
using cellgraph::models::check_rule;
using cellgraph::models::RuleUse;

namespace {

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;

// A memory limit for one test; the machine's again after it.
struct MemoryLimit {
  explicit MemoryLimit(std::uint64_t bytes) { set_memory_limit(bytes); }
  ~MemoryLimit() { set_memory_limit(0); }
};

// The message of the Error `act` throws, with `dir`'s path taken out: "f.txt:2: ...".
template <class Act>
std::string error_of(const ScratchDir& dir, Act act) {
  try {
    act();
  } catch (const Error& e) {
    std::string message = e.what();
    const std::string folder = dir.path().string() + "/";
    for (std::size_t at; (at = message.find(folder)) != std::string::npos;) message.erase(at, folder.size());
    return message;
  }
  return "(no error)";
}

bool starts_with(const std::string& text, const std::string& start) { return text.rfind(start, 0) == 0; }
bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

Source load_grid_pattern(const std::string& pattern, RuleUse use, const std::string& grid = "8x8") {
  SourceSpec spec;
  spec.grid = grid;
  spec.pattern_file = pattern;
  if (use != RuleUse::ignored)
    spec.check_pattern_rule = [use](const std::string& rule, const std::string& dirs) { check_rule(rule, use, dirs); };
  return load_source(spec);
}

}  // namespace

TEST_CASE("input errors: untrusted text is quoted short and printable") {
  CHECK(quoted_text("B3/S23") == "'B3/S23'");
  CHECK(quoted_text(std::string("a\x01\xff", 3)) == "'a\\x01\\xff'");
  CHECK(printable_text(std::string(100, 'x')) == std::string(60, 'x') + "...");
  CHECK(printable_text(std::string(30, '\0')).size() <= 63);
}

TEST_CASE("input errors: a state beyond the model's states is reported at its line") {
  ScratchDir dir;
  const std::string states = dir.write("s.txt", "0\n# a comment\n7\n1\n");
  CHECK(error_of(dir, [&] { read_state_file(states, 3, 3); }) ==
        "s.txt:3: state 7 is out of range: the model's states are 0..2");
  CHECK(read_state_file(states, 3, 8) == std::vector<std::uint32_t>{0, 7, 1});
  // Too few states: the last line, not the file as a whole.
  CHECK(error_of(dir, [&] { read_state_file(dir.write("short.txt", "1\n2\n"), 3, 3); }) ==
        "short.txt:2: the file ends after 2 states; expected one per vertex (3)");
}

TEST_CASE("input errors: a .part file that ends early is reported at its last line") {
  ScratchDir dir;
  CHECK(error_of(dir, [&] { read_partition(dir.write("g.part", "0\n% c\n1\n"), 4, 2); }) ==
        "g.part:3: the file ends after 2 part ids; expected one per vertex (4)");
}

TEST_CASE("input errors: a pattern's own rule is refused at its line") {
  ScratchDir dir;
  const auto error_of_pattern = [&](const std::string& name, const std::string& text, RuleUse use) {
    return error_of(dir, [&] { load_grid_pattern(dir.write(name, text), use); });
  };
  constexpr auto either = RuleUse::lifelike_or_golly;
  CHECK(starts_with(error_of_pattern("p.rle", "#C a\nx = 3, y = 1, rule = B3/S2x\nooo!\n", either),
                    "p.rle:2: unknown rule 'B3/S2x': neighbor counts are digits"));
  CHECK(starts_with(error_of_pattern("p.lif", "#Life 1.05\n#R 23/3x\n#P 0 0\n*\n", either),
                    "p.lif:2: unknown rule '23/3x'"));
  CHECK(starts_with(error_of_pattern("p.rle", "#r Bogus\nx = 1, y = 1\no!\n", RuleUse::lifelike),
                    "p.rle:1: unknown rule 'Bogus'"));
  const std::string unknown = error_of_pattern("p.rle", "x = 1, y = 1, rule = NoSuchRule\no!\n", either);
  CHECK(starts_with(unknown, "p.rle:1: unknown rule 'NoSuchRule'"));
  CHECK(contains(unknown, "; nor is there a Golly rule file of that name in "));
  // Binary bytes in the rule are escaped, never echoed.
  const std::string binary =
      error_of_pattern("p.rle", "x = 1, y = 1, rule = " + std::string("\x01\x7f\xfe") + "\no!\n", either);
  CHECK(starts_with(binary, "p.rle:1: unknown rule '\\x01\\x7f\\xfe'"));
  CHECK(std::none_of(binary.begin(), binary.end(), [](char c) { return c < ' ' || c > '~'; }));
  // Rules the run can take, and a rule --rule overrides, pass.
  CHECK(error_of_pattern("p.rle", "x = 1, y = 1, rule = highlife\no!\n", either) == "(no error)");
  CHECK(error_of_pattern("p.rle", "x = 1, y = 1, rule = WireWorld\no!\n", either) == "(no error)");
  CHECK(error_of_pattern("p.rle", "x = 1, y = 1, rule = B3/S2x\no!\n", RuleUse::ignored) == "(no error)");
}

TEST_CASE("input errors: a pattern's rule is refused by cellgraph run at its line") {
  ScratchDir dir;
  const CommandResult r = run_cli("run --backend cpu --steps 1 --grid 8x8 --pattern " +
                                  dir.write("p.rle", "x = 1, y = 1, rule = B3/S2x\no!\n"));
  CHECK(r.status != 0);
  CHECK(contains(r.out, dir / "p.rle" + ":1: unknown rule 'B3/S2x'"));
}

TEST_CASE("input errors: a mesh with no elements names the file and the line") {
  ScratchDir dir;
  const auto error_of_mesh = [&](const std::string& name, const std::string& text) {
    return error_of(dir, [&] { read_mesh_file(dir.write(name, text)); });
  };
  CHECK(error_of_mesh("t.msh",
                      "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n1\n1 0 0 0\n$EndNodes\n"
                      "$Elements\n0\n$EndElements\n") == "t.msh:8: the mesh has no elements: $Elements is empty");
  CHECK(error_of_mesh("t.vtk",
                      "# vtk DataFile Version 3.0\nt\nASCII\nDATASET UNSTRUCTURED_GRID\n"
                      "POINTS 1 float\n0 0 0\nCELLS 0 0\nCELL_TYPES 0\n") ==
        "t.vtk:8: the mesh has no elements: CELL_TYPES is empty");
  CHECK(error_of_mesh("t.vtu",
                      "<VTKFile type=\"UnstructuredGrid\">\n<UnstructuredGrid>\n"
                      "<Piece NumberOfPoints=\"1\" NumberOfCells=\"0\">\n<Points>\n"
                      "<DataArray type=\"Float64\" NumberOfComponents=\"3\" format=\"ascii\">0 0 0</DataArray>\n"
                      "</Points>\n</Piece>\n</UnstructuredGrid>\n</VTKFile>\n") ==
        "t.vtu:3: the mesh has no elements: NumberOfCells is 0");
  // None of the dimension asked for: the file as a whole.
  SourceSpec spec;
  spec.mesh_file = data_path("meshes/t5_3d_tet_v41.msh");
  spec.mesh_options.element_dim = 2;
  CHECK_THROWS_WITH_AS(load_source(spec), (spec.mesh_file + ":0: the mesh has no elements of dimension 2").c_str(),
                       ParseError);
}

TEST_CASE("input errors: binary Gmsh errors give the byte offset") {
  ScratchDir dir;
  const auto bytes = [](const auto& values) {
    return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(values[0]));
  };
  // $Nodes: a node in one block, the file ending inside its coordinates.
  const std::string binary = "$MeshFormat\n4.1 1 8\n" + bytes(std::vector<std::int32_t>{1}) +
                             "\n$EndMeshFormat\n$Nodes\n" + bytes(std::vector<std::uint64_t>{1, 1, 1, 1}) +
                             bytes(std::vector<std::int32_t>{2, 1, 0}) + bytes(std::vector<std::uint64_t>{1}) +
                             bytes(std::vector<std::uint64_t>{1}) + bytes(std::vector<double>{0, 0});
  CHECK(error_of(dir, [&] { read_mesh_file(dir.write("b.msh", binary)); }) ==
        "b.msh:6: the file ends inside $Nodes (at byte " + std::to_string(binary.size()) + ")");
  // A node tag 0 in the records: the offset of its record.
  const std::string zero_tag =
      "$MeshFormat\n2.2 1 8\n" + bytes(std::vector<std::int32_t>{1}) + "\n$EndMeshFormat\n$Nodes\n2\n";
  const std::string records = bytes(std::vector<std::int32_t>{1}) + bytes(std::vector<double>{0, 0, 0}) +
                              bytes(std::vector<std::int32_t>{0}) + bytes(std::vector<double>{1, 0, 0});
  CHECK(error_of(dir, [&] { read_mesh_file(dir.write("z.msh", zero_tag + records + "\n$EndNodes\n")); }) ==
        "z.msh:7: node tags must be positive (at byte " + std::to_string(zero_tag.size() + 28) + ")");
}

TEST_CASE("input errors: headers that claim more than the file holds are refused at the header") {
  ScratchDir dir;
  CHECK(error_of(dir,
                 [&] {
                   read_graph_file(
                       dir.write("m.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 2000000000\n1 2\n"));
                 }) ==
        "m.mtx:2: the size line gives 2000000000 entries, but the rest of the file (4 bytes) holds at most 1 "
        "(each takes at least 4 bytes)");
  CHECK(error_of(dir, [&] { read_graph_file(dir.write("g.graph", "2000000000 1\n2\n1\n")); }) ==
        "g.graph:1: the header gives 2000000000 vertices, one line each, but the rest of the file (4 bytes) holds "
        "at most 5 (each takes at least 1 byte)");
  CHECK(error_of(dir, [&] { read_graph_file(dir.write("h.graph", "2 2000000000\n2\n1\n")); }) ==
        "h.graph:1: the header gives 2000000000 edges, 4000000000 neighbor entries, but the rest of the file "
        "(4 bytes) holds at most 2 (each takes at least 2 bytes)");
  CHECK(error_of(dir, [&] { read_mesh_file(dir.write("t.mesh", "2000000000\n1 2 3\n")); }) ==
        "t.mesh:1: the header gives 2000000000 elements, one line each, but the rest of the file (6 bytes) holds "
        "at most 3 (each takes at least 2 bytes)");
  CHECK(starts_with(error_of(dir,
                             [&] {
                               read_mesh_file(dir.write("t.msh",
                                                        "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n2000000000\n"
                                                        "1 0 0 0\n$EndNodes\n"));
                             }),
                    "t.msh:5: $Nodes gives 2000000000 nodes, but the rest of the file"));
  CHECK(starts_with(error_of(dir,
                             [&] {
                               read_mesh_file(dir.write("t.vtk",
                                                        "# vtk DataFile Version 3.0\nt\nASCII\n"
                                                        "DATASET UNSTRUCTURED_GRID\nPOINTS 2000000000 float\n0 0 0\n"));
                             }),
                    "t.vtk:5: POINTS gives 2000000000 points, 6000000000 numbers, but the rest of the file"));
}

TEST_CASE("input errors: sizes a file implies past the memory limit are refused before allocation") {
  ScratchDir dir;
  const MemoryLimit limit(64 * kMiB);
  const std::string over = ", more than --max-memory 64.0 MiB";
  const std::string edges = error_of(dir, [&] { read_graph_file(dir.write("e.txt", "0 300000000\n")); });
  CHECK(starts_with(edges, "e.txt:1: vertex ids up to 300000000 and 1 edge imply a graph that needs about 13.4 GiB"));
  CHECK(contains(edges, over));
  const std::string matrix = error_of(dir, [&] {
    read_graph_file(
        dir.write("m.mtx", "%%MatrixMarket matrix coordinate pattern general\n4000000000 4000000000 1\n1 2\n"));
  });
  CHECK(starts_with(matrix,
                    "m.mtx:2: the size line's 4000000000 x 4000000000 matrix with 1 entries implies a graph "
                    "that needs about"));
  CHECK(contains(matrix, over));
  const std::string mesh = error_of(dir, [&] { read_mesh_file(dir.write("t.mesh", "1\n1 2 300000000\n")); });
  CHECK(starts_with(mesh, "t.mesh:2: node ids up to 300000000 and 1 element imply a mesh that needs about"));
  CHECK(contains(mesh, over));
  const std::string cells =
      error_of(dir, [&] { read_pattern_file(dir.write("p.rle", "x = 0, y = 0\n268435455o!\n")); });
  CHECK(starts_with(cells, "p.rle:2: a pattern of 268435455 live cells by this line needs about 12.0 GiB"));
  CHECK(contains(cells, over));
}

TEST_CASE("input errors: grids and generators past the memory limit are refused before they are built") {
  ScratchDir dir;
  const MemoryLimit limit(1024 * kMiB);
  SourceSpec grid;
  grid.grid = "20000x20000";
  CHECK_THROWS_WITH_AS(load_source(grid),
                       "--grid 20000x20000 (400000000 cells, 8 neighbors each) needs about 40.2 GiB, more than "
                       "--max-memory 1.0 GiB",
                       Error);
  // A grid a pattern's rule implies: reported at the rule's line.
  SourceSpec bounded;
  bounded.pattern_file = dir.write("p.rle", "#C a\nx = 1, y = 1, rule = B3/S23:T60000,60000\no!\n");
  CHECK(starts_with(error_of(dir, [&] { load_source(bounded); }),
                    "p.rle:2: the rule's bounded grid 60000x60000 (3600000000 cells, 8 neighbors each) needs about"));
  for (const std::string generator : {"er:4000000000", "rmat:31", "rgg:100000000:8"}) {
    SourceSpec generated;
    generated.generator = generator;
    CHECK(starts_with(error_of(dir, [&] { load_source(generated); }), "--generate " + generator + " ("));
  }
  // Not absurd: the largest grids the tests run fit in a few GiB.
  GridSpec large;
  large.size = {4096, 4096, 1};
  large.stencil = moore_stencil(2, 1);
  CHECK(estimated_grid_bytes(large) < 2 * 1024 * kMiB);
}

TEST_CASE("input errors: --max-memory refuses a source before it is built") {
  const CommandResult r = run_cli("compile --grid 4096x4096 --max-memory 64M");
  CHECK(r.status != 0);
  CHECK(contains(r.out,
                 "--grid 4096x4096 (16777216 cells, 8 neighbors each) needs about 1.7 GiB, more than "
                 "--max-memory 64.0 MiB"));
  CHECK(contains(run_cli("compile --grid 8x8 --max-memory lots").out, "--max-memory takes a size"));
}

TEST_CASE("input errors: out of memory while reading names the file and the line") {
  ScratchDir dir;
  std::istringstream text("1 2\n2 3\n");
  detail::LineReader reader(text, "g.txt");
  reader.next("#");
  reader.next("#");
  CHECK_THROWS_WITH_AS(detail::naming_file_when_out_of_memory(reader, []() -> int { throw std::bad_alloc(); }),
                       "g.txt:2: out of memory at this line: the file needs more memory than there is", ParseError);
  // A graph of 2*10^8 vertices in a process allowed 1 GiB of address space, past --max-memory's
  // check; where the program cannot start so confined (sanitizers reserve terabytes), not.
  const std::string confined = "ulimit -v 1048576; " + cli_path() + " compile --max-memory 1T --vertex-ids index ";
  if (run_command(confined + "--grid 8x8").status != 0) return;
  const std::string graph = dir.write("big.txt", "0 1\n1 200000000\n");
  const CommandResult r = run_command(confined + "--graph " + graph);
  CHECK(r.status != 0);
  CHECK(contains(r.out, graph + ":2: out of memory at this line"));
}

TEST_CASE("input errors: parameter ranges are stated as the check makes them") {
  const std::vector<models::ParamInfo> known = {{"T", "2", ""}, {"eta", "0", ""}};
  const models::Params params = {{"T", "0"}, {"eta", "7"}};
  const models::ParamReader read("ising", params, known);
  CHECK_THROWS_WITH_AS(read.positive("T", 1e9), "model ising: T must be a number above 0, at most 1e+09, not '0'",
                       Error);
  CHECK(read.positive("eta", 10) == 7);
  CHECK_THROWS_WITH_AS(read.number("eta", 0, 2 * 3.141592653589793),
                       "model ising: eta must be a number from 0 to 6.283185307179586, not '7'", Error);
  CHECK(models::number_text(0.5) == "0.5");
}

TEST_CASE("input errors: config file values are reported at their line") {
  ScratchDir dir;
  const auto error_of_config = [&](const std::string& name, const std::string& text, const std::string& flags = "") {
    const CommandResult r = run_cli("run --config " + dir.write(name, text) + " " + flags);
    CHECK(r.status != 0);
    const std::string folder = dir.path().string() + "/";
    return r.out.substr(0, r.out.find('\n')).substr(std::min(r.out.find(folder) + folder.size(), r.out.size()));
  };
  const std::string grid = "grid = 8x8\nsteps = 1\n";
  CHECK(error_of_config("a.ini", grid + "boundary = weird\n", "--backend cpu") ==
        "a.ini:3: unknown boundary 'weird' (periodic, fixed[:state], open, reflective)");
  CHECK(error_of_config("b.ini", grid + "backend = gpu\n") ==
        "b.ini:3: --backend must be cpu, reference, cuda or auto, not 'gpu'");
  CHECK(error_of_config("c.ini", grid + "order = foo\n", "--backend cpu") ==
        "c.ini:3: --order must be input, hilbert or rcm, not 'foo'");
  CHECK(error_of_config("d.ini", "steps = -3\n" + grid) == "d.ini:1: '-3' is not a value steps takes (see --help)");
  CHECK(error_of_config("e.ini", grid + "max-memory = lots\n") ==
        "e.ini:3: --max-memory takes a size in bytes with "
        "an optional unit K, M, G or T (powers of 1024): "
        "512M, 8G, 1.5T; not 'lots'");
  CHECK(error_of_config("f.ini", "[run]\n" + grid + "[compare]\nsteps = 2\n") ==
        "f.ini:5: 'steps' is given twice: on line 3 and here");
  CHECK(error_of_config("g.ini", grid + "param = T=1\nparam = T=2\n", "--model ising") ==
        "g.ini:4: 'param T' is given twice: on line 3 and here");
  CHECK(error_of_config("h.ini", grid + "speed = 3\n") ==
        "h.ini:3: unknown key 'speed' (keys are the command's options without dashes; see --help)");
  CHECK(starts_with(error_of_config("i.ini", grid + "rule = B3/S2x\n"), "i.ini:3: unknown rule 'B3/S2x': "));
  CHECK(starts_with(error_of_config("j.ini", "steps = 1\ngrid = 100000x100000\n"),
                    "j.ini:2: grid of 10000000000 cells is too large"));
  CHECK(starts_with(error_of_config("k.ini", "steps = 1\ngrid = 50000x50000\nmax-memory = 1G\n"),
                    "k.ini:2: --grid 50000x50000 (2500000000 cells, 8 neighbors each) needs about"));
  // The command line's value wins, with the command line's message.
  CHECK(contains(run_cli("run --config " + dir.write("i.ini", grid) + " --boundary weird").out,
                 "error: unknown boundary 'weird'"));
}

TEST_CASE("input errors: --param may repeat in a config file for different names") {
  ScratchDir dir;
  const CommandResult r = run_cli("run --backend cpu --model ising --config " +
                                  dir.write("p.ini", "grid = 8x8\nsteps = 1\nparam = T=1\nparam = J=1\n"));
  CHECK(r.status == 0);
}

TEST_CASE("input errors: run's own checks of a config file's values, and a state file's states, name the line") {
  ScratchDir dir;
  const auto first_line = [&](const std::string& args) {
    const CommandResult r = run_cli(args);
    CHECK(r.status == 1);
    std::string line = r.out.substr(0, r.out.find('\n'));
    const std::string folder = dir.path().string() + "/";
    for (std::size_t at; (at = line.find(folder)) != std::string::npos;) line.erase(at, folder.size());
    return line;
  };
  CHECK(first_line("run --backend cpu --config " + dir.write("a.ini", "grid = 8x8\nsteps = 4294967296\n")) ==
        "cellgraph run: error: a.ini:2: --steps 4294967296 is more than a run can take (4294967295: random numbers "
        "are keyed by a 32-bit step)");
  CHECK(first_line("run --backend cpu --model ising --config " + dir.write("b.ini", "grid = 8x8\nparam = T=0\n")) ==
        "cellgraph run: error: b.ini:2: model ising: T must be a number above 0, at most 1e+09, not '0'");
  CHECK(first_line("run --backend cpu --config " + dir.write("c.ini", "grid = 8x8\nstats-every = 0\n")) ==
        "cellgraph run: error: c.ini:2: --stats-every must be at least 1");
  std::string states;
  for (int v = 0; v < 16; ++v) states += v == 9 ? "5\n" : "0\n";
  CHECK(first_line("run --backend cpu --grid 4x4 --model sir --states " + dir.write("s.txt", states)) ==
        "cellgraph run: error: s.txt:10: state 5 is out of range: the model's states are 0..2");
}
