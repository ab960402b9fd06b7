// Graph-file readers: sample graphs against their published counts, and one inline case per
// kind of malformed input, each checking the exact "file:line: what is wrong" message.
#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "cellgraph/error.hpp"
#include "cellgraph/source/graph_file.hpp"

using namespace cellgraph;

namespace {

const std::string kGraphs = CELLGRAPH_DATA_DIR "/graphs/";

// Rows sorted without repeats or self loops; every u-v entry has a v-u entry, same weight.
bool is_symmetric(const Graph& g) {
  for (VertexId u = 0; u < g.num_vertices(); ++u)
    for (EdgeOffset e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
      const VertexId v = g.neighbors[e];
      if (v == u || (e > g.offsets[u] && g.neighbors[e - 1] >= v)) return false;
      const auto first = g.neighbors.begin() + static_cast<std::ptrdiff_t>(g.offsets[v]);
      const auto last = g.neighbors.begin() + static_cast<std::ptrdiff_t>(g.offsets[v + 1]);
      const auto back = std::lower_bound(first, last, u);
      if (back == last || *back != u) return false;
      const auto back_index = static_cast<std::size_t>(back - g.neighbors.begin());
      if (!g.edge_weights.empty() && g.edge_weights[back_index] != g.edge_weights[e]) return false;
    }
  return true;
}

Graph checked(Graph g) {
  check_graph(g, "test graph");
  CHECK(is_symmetric(g));
  return g;
}

Graph read_sample(const std::string& relative, const GraphReadOptions& options = {}) {
  return checked(read_graph_file(kGraphs + relative, options));
}

// The weight of edge u-v (0-based); -1 when there is no such edge.
double weight(const Graph& g, VertexId u, VertexId v) {
  for (EdgeOffset e = g.offsets[u]; e < g.offsets[u + 1]; ++e)
    if (g.neighbors[e] == v) return g.edge_weights.at(e);
  return -1;
}

Graph metis(const std::string& text) {
  std::istringstream in(text);
  return checked(read_metis_graph(in, "t.graph"));
}
Graph matrix_market(const std::string& text) {
  std::istringstream in(text);
  return checked(read_matrix_market(in, "t.mtx"));
}
Graph edge_list(const std::string& text, int base = -1) {
  std::istringstream in(text);
  return checked(read_edge_list(in, "t.txt", base));
}

// The message of the ParseError that `read` throws on `text`; "(no error)" when none.
template <class Read>
std::string error_of(Read read, const std::string& text) {
  try {
    read(text);
  } catch (const ParseError& e) {
    return e.what();
  }
  return "(no error)";
}
std::string metis_error(const std::string& text) { return error_of(metis, text); }
std::string matrix_market_error(const std::string& text) { return error_of(matrix_market, text); }
std::string edge_list_error(const std::string& text, int base = -1) {
  return error_of([base](const std::string& t) { return edge_list(t, base); }, text);
}

// A file in the temp directory, removed on destruction.
class TempFile {
 public:
  TempFile(const std::string& name, const std::string& text)
      : path_(std::filesystem::temp_directory_path() / ("cellgraph-test-" + std::to_string(::getpid()) + "-" + name)) {
    std::ofstream(path_) << text;
  }
  ~TempFile() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace

// ---------------------------------------------------------------------------------------------
// Sample graphs (counts from data/graphs/PROVENANCE.md)

TEST_CASE("graph files: METIS 4elt.graph") {
  const Graph g = read_sample("metis/github-KarypisLab-METIS/4elt.graph");
  CHECK(g.num_vertices() == 15606);
  CHECK(undirected_edge_count(g) == 45878);
  CHECK(g.edge_weights.empty());
  CHECK(g.vertex_weight_count == 0);
}

TEST_CASE("graph files: METIS test.mgraph keeps its two vertex weights") {
  const Graph g = read_sample("metis/github-KarypisLab-METIS/test.mgraph");
  CHECK(g.num_vertices() == 766);
  CHECK(undirected_edge_count(g) == 1314);
  REQUIRE(g.vertex_weight_count == 2);
  REQUIRE(g.vertex_weights.size() == 2 * 766);
  // Line 5 "1 1 479 389 571 2" is vertex 1; line 12 "24 8 152 733 638 746" is vertex 8.
  CHECK(g.vertex_weights[0] == 1);
  CHECK(g.vertex_weights[1] == 1);
  CHECK(g.vertex_weights[2 * 7] == 24);
  CHECK(g.vertex_weights[2 * 7 + 1] == 8);
  CHECK(std::vector<VertexId>(g.neighbors.begin(), g.neighbors.begin() + 4) == std::vector<VertexId>{1, 388, 478, 570});
}

TEST_CASE("graph files: Matrix Market pattern graphs") {
  const Graph jagmesh = read_sample("mtx/LAGraph/jagmesh7.mtx");
  CHECK(jagmesh.num_vertices() == 1138);
  CHECK(undirected_edge_count(jagmesh) == 3156);
  const Graph karate = read_sample("mtx/LAGraph/karate.mtx");
  CHECK(karate.num_vertices() == 34);
  CHECK(undirected_edge_count(karate) == 78);
  CHECK(karate.edge_weights.empty());
}

TEST_CASE("graph files: a general Matrix Market matrix is symmetrised") {
  const Graph g = read_sample("mtx/LAGraph/west0067.mtx");
  CHECK(g.num_vertices() == 67);
  CHECK(undirected_edge_count(g) == 287);
  CHECK(weight(g, 4, 0) == doctest::Approx(-.2788416));  // entry "5 1 -.2788416"
}

TEST_CASE("graph files: integer Matrix Market values become edge weights") {
  const Graph g = read_sample("mtx/NWGraph/football.mtx");
  CHECK(g.num_vertices() == 115);
  CHECK(undirected_edge_count(g) == 613);
  CHECK(weight(g, 84, 3) == 2);  // entry "85 4 2"
  CHECK(weight(g, 3, 84) == 2);
  CHECK(weight(g, 1, 0) == 1);  // entry "2 1 1"
}

TEST_CASE("graph files: the Matrix Market diagonal is dropped") {
  const Graph g = read_sample("mtx/NWGraph/dwt___66.mtx");
  CHECK(g.num_vertices() == 66);
  CHECK(undirected_edge_count(g) == 127);
}

TEST_CASE("graph files: a headerless .mtx file reads as an edge list") {
  const Graph g = read_sample("mtx/fahaizhong-graphdata/3elt.mtx");
  CHECK(g.num_vertices() == 4720);
  CHECK(undirected_edge_count(g) == 13722);
  GraphReadOptions zero_based;
  zero_based.edge_list_base = 0;  // ids kept as written: vertex 0 is then isolated
  const Graph shifted = read_sample("mtx/fahaizhong-graphdata/3elt.mtx", zero_based);
  CHECK(shifted.num_vertices() == 4721);
  CHECK(shifted.degree(0) == 0);
}

TEST_CASE("graph files: every LAGraph malformed file is a ParseError naming file and line") {
  // What each file's comment (or content) says is wrong, as the reader reports it.
  const std::map<std::string, std::string> expected = {
      {"complex.mtx", "1: dense 'array' matrices are not supported; a graph needs 'coordinate'"},
      {"empty.mtx", "4: the matrix is 3 x 4; a graph needs a square matrix"},
      {"full_noheader.mtx", "1: missing the banner"},
      {"mangled1.mtx", "1: unsupported object 'mangled' (expected 'matrix')"},
      {"mangled2.mtx", "1: unknown format 'mangled' (expected 'coordinate')"},
      {"mangled3.mtx", "1: unknown field 'mangled' (expected pattern, integer or real)"},
      {"mangled4.mtx", "1: unknown symmetry 'mangled'"},
      {"mangled5.mtx", "1: hermitian matrices are not supported"},
      {"mangled6.mtx", "1: hermitian matrices are not supported"},
      {"mangled7.mtx", "5: an entry must be 'row column value', found 2 fields"},
      {"mangled8.mtx", "4: the size line must be 'rows cols entries', found 1 field"},
      {"mangled9.mtx", "4: a symmetric matrix must be square, found 3 x 4"},
      {"mangled10.mtx", "4: the size line gives 3 entries, but the file has 2"},
      {"mangled11.mtx", "5: column 'zero' is not a non-negative integer"},
      {"mangled12.mtx", "5: an entry must be 'row column value', found 2 fields"},
      {"mangled13.mtx", "7: column 9999 is out of range 1..4"},
      {"mangled14.mtx", "8: duplicate entry (2, 2), first given on line 7"},
      {"mangled15.mtx", "1: dense 'array' matrices are not supported"},
      {"mangled16.mtx", "1: dense 'array' matrices are not supported"},
      {"west0067_noheader.mtx", "1: missing the banner"},
  };
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kGraphs + "mtx/LAGraph/malformed")) {
    const std::string path = entry.path().string();
    CAPTURE(path);
    ++files;
    std::ifstream in(path);
    std::string message = "(no error)";
    std::size_t line = 0;
    try {
      read_matrix_market(in, path);
    } catch (const ParseError& e) {
      message = e.what();
      line = e.line();
    }
    CHECK(line > 0);
    CHECK(message.starts_with(path + ":" + std::to_string(line) + ": "));
    const auto want = expected.find(entry.path().filename().string());
    REQUIRE(want != expected.end());
    CHECK(message.starts_with(path + ":" + want->second));
  }
  CHECK(files == expected.size());
}

// ---------------------------------------------------------------------------------------------
// METIS

TEST_CASE("graph files: METIS sizes, vertex weights and edge weights") {
  const Graph g = metis(
      "% fmt 111: size, 2 weights, neighbors with edge weights\n"
      "3 2 111 2\n"
      "5 1 2  2 7\n"
      "6 3 4  1 7  3 9\n"
      "7 5 6  2 9\n");
  CHECK(g.vertex_sizes == std::vector<std::int64_t>{5, 6, 7});
  CHECK(g.vertex_weight_count == 2);
  CHECK(g.vertex_weights == std::vector<std::int64_t>{1, 2, 3, 4, 5, 6});
  CHECK(g.neighbors == std::vector<VertexId>{1, 0, 2, 1});
  CHECK(g.edge_weights == std::vector<double>{7, 7, 9, 9});
  // fmt "10" (leading zero dropped) without ncon: one weight per vertex.
  const Graph one = metis("2 1 10\n4 2\n5 1\n");
  CHECK(one.vertex_weight_count == 1);
  CHECK(one.vertex_weights == std::vector<std::int64_t>{4, 5});
  CHECK(one.vertex_sizes.empty());
  CHECK(one.edge_weights.empty());
}

TEST_CASE("graph files: METIS blank lines are vertices, comment lines are not") {
  // The header has a trailing space (as mdual.graph's has); a CR ends vertex 2's line.
  const Graph g = metis("4 2 \n2\n% a comment between vertex lines\n1 4\r\n\n2\n\n\n");
  CHECK(g.num_vertices() == 4);
  CHECK(g.degree(2) == 0);
  CHECK(g.neighbors == std::vector<VertexId>{1, 0, 3, 1});
  CHECK(metis("3 1\n2\n1\n\n").degree(2) == 0);  // vertex 3 isolated
}

TEST_CASE("graph files: METIS header errors") {
  CHECK(metis_error("") == "t.graph:0: empty file; expected the header 'n m [fmt [ncon]]'");
  CHECK(metis_error("% only a comment\n") == "t.graph:0: empty file; expected the header 'n m [fmt [ncon]]'");
  CHECK(metis_error("3\n") == "t.graph:1: the header must be 'n m [fmt [ncon]]', found 1 field");
  CHECK(metis_error("3 2 0 1 9\n") == "t.graph:1: the header must be 'n m [fmt [ncon]]', found 5 fields");
  CHECK(metis_error("0 0\n") == "t.graph:1: the vertex count must be positive");
  CHECK(metis_error("-3 2\n") == "t.graph:1: vertex count '-3' is not a non-negative integer");
  CHECK(metis_error("4294967295 1\n") == "t.graph:1: vertex count 4294967295 is too large (at most 4294967294)");
  CHECK(metis_error("3 x\n") == "t.graph:1: edge count 'x' is not a non-negative integer");
  CHECK(metis_error("3 99999999999999999999\n") ==
        "t.graph:1: edge count 99999999999999999999 is too large (at most 9223372036854775807)");
  CHECK(metis_error("3 2 2\n") == "t.graph:1: fmt '2' must be up to three 0/1 digits");
  CHECK(metis_error("3 2 0011\n") == "t.graph:1: fmt '0011' must be up to three 0/1 digits");
  CHECK(metis_error("3 2 1 2\n") == "t.graph:1: ncon is given, but fmt '1' has no vertex weights");
}

TEST_CASE("graph files: METIS vertex line errors") {
  CHECK(metis_error("3 1\n2\n1 4\n\n") == "t.graph:3: neighbor 4 is out of range 1..3");
  CHECK(metis_error("3 1\n2\n1 0\n\n") == "t.graph:3: neighbor 0 is out of range 1..3");
  CHECK(metis_error("2 1\n2x\n1\n") == "t.graph:2: neighbor '2x' is not a non-negative integer");
  CHECK(metis_error("2 1\n-2\n1\n") == "t.graph:2: neighbor '-2' is not a non-negative integer");
  CHECK(metis_error("2 1\n1 2\n1\n") == "t.graph:2: vertex 1 lists itself");
  CHECK(metis_error("2 1\n2 2\n1\n") == "t.graph:2: vertex 1 lists vertex 2 twice");
  CHECK(metis_error("2 1 1\n2 5\n1\n") == "t.graph:3: neighbor 1 of vertex 2 has no edge weight");
  CHECK(metis_error("2 1 1\n2 0\n1 0\n") == "t.graph:2: edge weights must be positive, found 0");
  CHECK(metis_error("2 1 11 2\n1 1 2 7\n\n") == "t.graph:3: vertex 2 needs 2 weights before its neighbors");
  CHECK(metis_error("2 1 110\n1 1 2\n\n") == "t.graph:3: vertex 2 needs a size and 1 weight before its neighbors");
  CHECK(metis_error("2 1 10\n-1 2\n1 1\n") == "t.graph:2: vertex weight '-1' is not a non-negative integer");
}

TEST_CASE("graph files: METIS structure errors") {
  CHECK(metis_error("3 1\n2\n\n\n") == "t.graph:2: vertex 1 lists vertex 2, but vertex 2 does not list it");
  CHECK(metis_error("3 1\n\n1\n\n") == "t.graph:3: vertex 2 lists vertex 1, but vertex 1 does not list it");
  CHECK(metis_error("2 1 1\n2 5\n1 6\n") == "t.graph:3: edge 1-2 weighs 6 here but 5 on line 2");
  CHECK(metis_error("3 3\n2\n1\n\n") ==
        "t.graph:1: the header gives 3 edges, but the adjacency lists hold 1 (each edge is "
        "listed from both ends)");
  CHECK(metis_error("% c\n3 1\n2\n1\n") == "t.graph:2: the header gives 3 vertices, but the file has 2 vertex lines");
  CHECK(metis_error("2 1\n2\n1\n1\n") == "t.graph:4: more than the 2 vertex lines the header gives");
  CHECK(metis_error("2 1\n2\n1\n\n% trailing comment\n\n") == "(no error)");
}

// ---------------------------------------------------------------------------------------------
// Matrix Market

const std::string kPatternBanner = "%%MatrixMarket matrix coordinate pattern general\n";

TEST_CASE("graph files: Matrix Market values, symmetry and the diagonal") {
  // General: 1-2 and 2-1 merge, the first value kept; the diagonal entry is dropped.
  const Graph general = matrix_market(
      "%%MatrixMarket matrix coordinate real general\n"
      "% comment\n3 3 4\n1 2 5\n2 1 7.5\n3 3 1\n3 1 -2e-1\n");
  CHECK(general.num_vertices() == 3);
  CHECK(undirected_edge_count(general) == 2);
  CHECK(weight(general, 1, 0) == 5);
  CHECK(weight(general, 0, 2) == doctest::Approx(-0.2));
  // Keywords are case-insensitive; a skew-symmetric matrix reads as its pattern.
  const Graph skew = matrix_market(
      "%%MatrixMarket Matrix Coordinate Real Skew-Symmetric\n"
      "3 3 2\n2 1 4\n3 2 -4\n");
  CHECK(undirected_edge_count(skew) == 2);
  CHECK(skew.edge_weights.empty());
}

TEST_CASE("graph files: Matrix Market banner errors") {
  const std::string shape = "'%%MatrixMarket matrix coordinate <field> <symmetry>'";
  CHECK(matrix_market_error("") == "t.mtx:0: empty file; expected the banner " + shape);
  CHECK(matrix_market_error("3 3 1\n1 2\n") == "t.mtx:1: missing the banner " + shape);
  CHECK(matrix_market_error("%%MatrixMarket matrix coordinate real\n") == "t.mtx:1: the banner must read " + shape);
  CHECK(matrix_market_error("%%MatrixMarket vector coordinate real general\n") ==
        "t.mtx:1: unsupported object 'vector' (expected 'matrix')");
  CHECK(matrix_market_error("%%MatrixMarket matrix array real general\n") ==
        "t.mtx:1: dense 'array' matrices are not supported; a graph needs 'coordinate'");
  CHECK(matrix_market_error("%%MatrixMarket matrix coordinate complex general\n") ==
        "t.mtx:1: complex matrices are not supported");
  CHECK(matrix_market_error("%%MatrixMarket matrix coordinate real hermitian\n") ==
        "t.mtx:1: hermitian matrices are not supported");
}

TEST_CASE("graph files: Matrix Market size line and entry errors") {
  CHECK(matrix_market_error(kPatternBanner) == "t.mtx:0: missing the size line 'rows cols entries'");
  CHECK(matrix_market_error(kPatternBanner + "% c\n3 3\n") ==
        "t.mtx:3: the size line must be 'rows cols entries', found 2 fields");
  CHECK(matrix_market_error(kPatternBanner + "3 3 1\n4 1\n") == "t.mtx:3: row 4 is out of range 1..3");
  CHECK(matrix_market_error(kPatternBanner + "3 3 1\n1 0\n") == "t.mtx:3: column 0 is out of range 1..3");
  CHECK(matrix_market_error(kPatternBanner + "3 3 1\n1 2 1\n") ==
        "t.mtx:3: an entry must be 'row column', found 3 fields");
  CHECK(matrix_market_error(kPatternBanner + "3 3 1\n1 2\n2 3\n") ==
        "t.mtx:4: more entries than the 1 the size line gives");
  CHECK(matrix_market_error(kPatternBanner + "3 3 2\n1 2\n") ==
        "t.mtx:2: the size line gives 2 entries, but the file has 1");
  CHECK(matrix_market_error(kPatternBanner + "3 3 3\n1 2\n2 3\n1 2\n") ==
        "t.mtx:5: duplicate entry (1, 2), first given on line 3");
  CHECK(matrix_market_error("%%MatrixMarket matrix coordinate pattern symmetric\n"
                            "3 3 2\n2 1\n1 2\n") == "t.mtx:4: duplicate entry (1, 2), first given on line 3");
  CHECK(matrix_market_error(kPatternBanner + "2 3 1\n1 2\n") ==
        "t.mtx:2: the matrix is 2 x 3; a graph needs a square matrix");
  CHECK(matrix_market_error("%%MatrixMarket matrix coordinate integer general\n"
                            "2 2 1\n1 2 1.5\n") == "t.mtx:3: value '1.5' is not an integer");
  CHECK(matrix_market_error("%%MatrixMarket matrix coordinate real general\n"
                            "2 2 1\n1 2 nan\n") == "t.mtx:3: value 'nan' is not a finite number");
}

// ---------------------------------------------------------------------------------------------
// Edge lists

TEST_CASE("graph files: edge list base, comments and weights") {
  const Graph zero_based = edge_list("# a comment\n0 1\n\n% another\n1 2\n");
  CHECK(zero_based.num_vertices() == 3);
  const Graph one_based = edge_list("1 2\n2 3\n");
  CHECK(one_based.num_vertices() == 3);
  CHECK(one_based.neighbors == std::vector<VertexId>{1, 0, 2, 1});
  CHECK(edge_list("1 2\n2 3\n", 0).num_vertices() == 4);
  const Graph weighted = edge_list("1 2 0.5\n2 3 -3\n2 1 9\n");
  CHECK(weight(weighted, 0, 1) == 0.5);
  CHECK(weight(weighted, 2, 1) == -3);
}

TEST_CASE("graph files: edge list errors") {
  CHECK(edge_list_error("1\n") == "t.txt:1: expected 'u v' or 'u v weight', found 1 field");
  CHECK(edge_list_error("1 2\n1 2 3 4\n") == "t.txt:2: expected 'u v' or 'u v weight', found 4 fields");
  CHECK(edge_list_error("1 -2\n") == "t.txt:1: vertex id '-2' is not a non-negative integer");
  CHECK(edge_list_error("a b\n") == "t.txt:1: vertex id 'a' is not a non-negative integer");
  CHECK(edge_list_error("4294967294 1\n") == "t.txt:1: vertex id 4294967294 is too large (at most 4294967293)");
  CHECK(edge_list_error("1 2 x\n") == "t.txt:1: weight 'x' is not a finite number");
  CHECK(edge_list_error("1 2 0.5\n2 3\n") == "t.txt:2: this edge has no weight, but the first edge (line 1) has one");
  CHECK(edge_list_error("1 2\n2 3 0.5\n") == "t.txt:2: this edge has a weight, but the first edge (line 1) has none");
  CHECK(edge_list_error("# nothing\n\n") == "t.txt:0: no edges");
  CHECK(edge_list_error("1 2\n0 1\n", 1) == "t.txt:2: vertex id 0 in a 1-based edge list");
  std::istringstream in("1 2\n");
  CHECK_THROWS_WITH_AS(read_edge_list(in, "t.txt", 5), "edge list base must be 0, 1 or -1 (detect), not 5", Error);
}

// ---------------------------------------------------------------------------------------------
// Files by path

TEST_CASE("graph files: read_graph_file picks the reader by content, then extension") {
  const TempFile banner("banner.txt",
                        "\n  %%MatrixMarket matrix coordinate pattern symmetric\n"
                        "3 3 1\n2 1\n");
  CHECK(checked(read_graph_file(banner.path())).num_vertices() == 3);
  const std::string metis_text = "3 1\n2\n1\n\n";  // not an edge list: "2" is one field
  for (const char* name : {"g.graph", "g.mgraph"}) {
    const TempFile file(name, metis_text);
    CHECK(checked(read_graph_file(file.path())).num_vertices() == 3);
  }
  const TempFile headerless("g.mtx", "1 2\n2 3\n");
  CHECK(checked(read_graph_file(headerless.path())).num_vertices() == 3);
  // The format option overrides detection.
  const TempFile text("g.txt", metis_text);
  CHECK_THROWS_AS(read_graph_file(text.path()), ParseError);
  GraphReadOptions as_metis;
  as_metis.format = GraphFormat::metis;
  CHECK(checked(read_graph_file(text.path(), as_metis)).num_vertices() == 3);
}

TEST_CASE("graph files: unopenable paths are an Error naming the path and the reason") {
  CHECK_THROWS_WITH_AS(read_graph_file("/nonexistent/g.graph"),
                       "cannot open /nonexistent/g.graph: No such file or directory", Error);
  CHECK_THROWS_WITH_AS(read_graph_file(kGraphs), ("cannot open " + kGraphs + ": Is a directory").c_str(), Error);
  CHECK_THROWS_WITH_AS(read_state_file("/nonexistent/s.txt", 1),
                       "cannot open /nonexistent/s.txt: No such file or directory", Error);
}

TEST_CASE("graph files: state files") {
  // A METIS partition of test.mgraph into 5 parts: one part number per vertex.
  const auto parts = read_state_file(kGraphs + "metis/debian-libmetis-doc/test.mgraph.part.5", 766);
  CHECK(parts.size() == 766);
  CHECK(std::vector<std::uint32_t>(parts.begin(), parts.begin() + 3) == std::vector<std::uint32_t>{0, 1, 2});
  CHECK(*std::max_element(parts.begin(), parts.end()) == 4);

  const TempFile file("states.txt", "# states\n1\n\n  2 \n4294967295\n");
  CHECK(read_state_file(file.path(), 3) == std::vector<std::uint32_t>{1, 2, 4294967295u});
  const auto error_of_states = [](const std::string& text, std::uint32_t n) {
    const TempFile states("bad-states.txt", text);
    try {
      read_state_file(states.path(), n);
    } catch (const ParseError& e) {
      return std::string(e.what()).substr(states.path().size());
    }
    return std::string("(no error)");
  };
  CHECK(error_of_states("1\n2\n", 3) == ":2: the file ends after 2 states; expected one per vertex (3)");
  CHECK(error_of_states("1\n# c\n2\n3\n", 2) == ":4: more states than vertices (2)");
  CHECK(error_of_states("1\nx\n", 2) == ":2: state 'x' is not a non-negative integer");
  CHECK(error_of_states("-1\n", 1) == ":1: state '-1' is not a non-negative integer");
  CHECK(error_of_states("1 2\n", 1) == ":1: expected one state per line, found 2 fields");
  CHECK(error_of_states("4294967296\n", 1) == ":1: state 4294967296 is too large (at most 4294967295)");
}
