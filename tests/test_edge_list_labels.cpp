// Edge lists as people have them: CSV headers, names, sparse ids (compacted, or kept as
// indices), and the labels carried through --cells, --states and --states-out.
#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <vector>

#include "cellgraph/error.hpp"
#include "cellgraph/memory_budget.hpp"
#include "cellgraph/output/state_file.hpp"
#include "cellgraph/source/graph_file.hpp"
#include "cli_run.hpp"
#include "data_path.hpp"
#include "scratch.hpp"

using namespace cellgraph;
using namespace cellgraph::test;

namespace {

const std::string kSnap = data_path("graphs/snap/ca-GrQc.prefix.txt");

GraphReadOptions ids(VertexIds kind) {
  GraphReadOptions options;
  options.vertex_ids = kind;
  return options;
}

LabelledGraph compact(const std::string& text) {
  std::istringstream in(text);
  LabelledGraph g = read_labelled_edge_list(in, "t.csv", ids(VertexIds::compact));
  check_graph(g.graph, "t.csv");
  return g;
}

std::string compact_error(const std::string& text) {
  try {
    compact(text);
  } catch (const ParseError& e) {
    return e.what();
  }
  return "(no error)";
}

using Labels = std::vector<std::string>;

// The labels of v's neighbors, in row order.
Labels neighbors(const LabelledGraph& g, VertexId v) {
  Labels named;
  for (EdgeOffset e = g.graph.offsets[v]; e < g.graph.offsets[v + 1]; ++e)
    named.push_back(g.vertex_labels.at(g.graph.neighbors[e]));
  return named;
}

}  // namespace

TEST_CASE("edge list labels: a CSV header names the columns") {
  const LabelledGraph weighted = compact("source,target,weight\n1,2,0.5\n2,3,1.5\n");
  CHECK(weighted.vertex_labels == Labels{"1", "2", "3"});
  CHECK(weighted.graph.edge_weights == std::vector<double>{0.5, 0.5, 1.5, 1.5});
  // pandas' to_csv writes its index first, unnamed; igraph's data frames say from and to.
  const LabelledGraph pandas = compact(",source,target\n0,alice,bob\n1,bob,carol\n");
  CHECK(pandas.vertex_labels == Labels{"alice", "bob", "carol"});
  CHECK(undirected_edge_count(pandas.graph) == 2);
  const LabelledGraph tab = compact("from\tto\tweight\n7\t9\t2\n");
  CHECK(tab.vertex_labels == Labels{"7", "9"});
  CHECK(tab.graph.edge_weights == std::vector<double>{2, 2});
  // A Gephi edge table: columns named, the rest left alone.
  const LabelledGraph gephi = compact("Source,Target,Type,Id,Label,Weight\nn1,n2,Undirected,0,,3\n");
  CHECK(gephi.vertex_labels == Labels{"n1", "n2"});
  CHECK(gephi.graph.edge_weights == std::vector<double>{3, 3});
  // Two names above two names are an edge; above numbers, a header.
  CHECK(compact("alice bob\ncarol dave\n").vertex_labels == Labels{"alice", "bob", "carol", "dave"});
  CHECK(compact("u v\n1 2\n").vertex_labels == Labels{"1", "2"});
  CHECK(compact_error("source,target,weight\n1,2\n") ==
        "t.csv:2: expected 3 fields, as the header (line 1) has; found 2 fields");
}

TEST_CASE("edge list labels: names are numbered in order of first appearance") {
  const LabelledGraph g = compact("# a comment\ncarol dave\nalice carol\n\nbob alice\n");
  REQUIRE(g.vertex_labels == Labels{"carol", "dave", "alice", "bob"});
  CHECK(neighbors(g, 0) == Labels{"dave", "alice"});
  // Once a vertex is named, every token is a name, numbers included ("007" is 7).
  CHECK(compact("1 alice\n007 2\n").vertex_labels == Labels{"1", "alice", "7", "2"});
  // Fields with spaces: a tab or a comma separates them, CSV quotes them.
  CHECK(compact("Jean Valjean\tMyriel\n").vertex_labels == Labels{"Jean Valjean", "Myriel"});
  CHECK(compact("\"Smith, J.\" , \"O\"\"Brien\"\nJones,\"Smith, J.\"\n").vertex_labels ==
        Labels{"Smith, J.", "O\"Brien", "Jones"});
  CHECK(compact_error("a,\"b\n") == "t.csv:1: field 2 opens a quote that the line does not close");
  CHECK(compact_error("a,\"b\"c\n") == "t.csv:1: text after the closing quote of field 2");
  CHECK(compact_error("a,,b\n") == "t.csv:1: an empty field where a vertex id or name belongs");
}

TEST_CASE("edge list labels: sparse ids are compacted in increasing order, or kept as indices") {
  const std::string sparse = "26196 5\n1000 26196\n";
  const LabelledGraph g = compact(sparse);
  CHECK(g.graph.num_vertices() == 3);
  CHECK(g.vertex_labels == Labels{"5", "1000", "26196"});
  CHECK(neighbors(g, 2) == Labels{"5", "1000"});
  std::istringstream in(sparse);
  CHECK(read_labelled_edge_list(in, "t.txt", ids(VertexIds::index)).graph.num_vertices() == 26196);
  // A contiguous file is the graph it always was; only 0..n-1 goes unlabelled.
  const LabelledGraph zero = compact("0 1\n1 2\n");
  CHECK(zero.vertex_labels.empty());
  const LabelledGraph one = compact("1 2\n2 3\n");
  CHECK(one.graph.neighbors == std::vector<VertexId>{1, 0, 2, 1});
  CHECK(one.vertex_labels == Labels{"1", "2", "3"});
}

TEST_CASE("edge list labels: the memory guard counts what the file has read") {
  set_memory_limit(std::uint64_t{1} << 10);
  const std::string error = compact_error("1 2\n2 3\n3 4\n4 5\n5 6\n");
  set_memory_limit(0);
  CHECK(error.rfind("t.csv:", 0) == 0);
  CHECK(error.find(" vertices and ") != std::string::npos);
  CHECK(error.find("edges read by this line imply a graph that needs about") != std::string::npos);
}

TEST_CASE("edge list labels: the SNAP collaboration network's authors") {
  const LabelledGraph g = read_labelled_graph_file(kSnap, ids(VertexIds::compact));
  check_graph(g.graph, kSnap);
  CHECK(g.graph.num_vertices() == 433);
  CHECK(undirected_edge_count(g.graph) == 554);
  CHECK(g.vertex_labels.front() == "26");
  CHECK(g.vertex_labels.back() == "26196");
  CHECK(read_graph_file(kSnap).num_vertices() == 26196);  // ids as indices, 1-based
}

TEST_CASE("edge list labels: state files name labelled vertices, quoted where they must be") {
  ScratchDir dir;
  const Labels labels = {"alice", "Jean Valjean", "#7", "", "say \"hi\""};
  const std::string path = dir / "s.txt";
  write_state_file(path, {1, 0, 2, 3, 4}, labels);
  CHECK(read_file(path) ==
        "# cellgraph states, 5 vertices: label state\nalice 1\n\"Jean Valjean\" 0\n\"#7\" 2\n\"\" 3\n"
        "\"say \"\"hi\"\"\" 4\n");
  CHECK(read_state_file(path, 5, 5, labels) == std::vector<std::uint32_t>{1, 0, 2, 3, 4});
  const auto error_of = [&](const std::string& text) {
    try {
      read_state_file(dir.write("bad.txt", text), 2, 2, {"a", "b"});
    } catch (const ParseError& e) {
      return std::string(e.what()).substr((dir / "bad.txt").size());
    }
    return std::string("(no error)");
  };
  CHECK(error_of("b 1\na 0\n") == "(no error)");
  CHECK(error_of("a 1\nzed 0\n") == ":2: no vertex is named 'zed'");
  CHECK(error_of("a 1\na 0\n") == ":2: vertex 'a' was given a state on line 1 already");
  CHECK(error_of("a 1\n") == ":1: the file ends without a state for vertex 'b'; expected one per vertex (2)");
  CHECK(error_of("1\n0\n") == ":1: expected 'label state' (the graph's vertices are named), found 1 field");
}

TEST_CASE("edge list labels: a run on the SNAP network reports its authors and names them") {
  ScratchDir dir;
  const std::string run = "run --graph " + kSnap + " --rule B2/S --steps 0 ";
  const CommandResult r = run_cli(run + "--cells 26196,24833 --states-out " + dir / "s.txt");
  REQUIRE(r.status == 0);
  CHECK(r.out.find("(433 cells)") != std::string::npos);
  const std::string states = read_file(dir / "s.txt");
  CHECK(states.rfind("# cellgraph states, 433 vertices: label state\n26 0\n", 0) == 0);
  CHECK(states.find("\n24833 1\n") != std::string::npos);
  CHECK(states.find("\n26196 1\n") != std::string::npos);
  // What --states-out wrote, --states reads back.
  REQUIRE(run_cli(run + "--states " + dir / "s.txt" + " --states-out " + dir / "again.txt").status == 0);
  CHECK(read_file(dir / "again.txt") == states);
  // The ids as indices, as every file was read before: 26196 cells, most of them isolated.
  const CommandResult indexed = run_cli(run + "--vertex-ids index --cells 0");
  CHECK(indexed.status == 0);
  CHECK(indexed.out.find("(26196 cells)") != std::string::npos);
  const CommandResult unknown = run_cli(run + "--cells 26197");
  CHECK(unknown.status == 1);
  CHECK(unknown.out.find("--cells: no vertex is named '26197'") != std::string::npos);
  const CommandResult base = run_cli(run + "--vertex-ids compact --base 1");
  CHECK(base.status == 1);
  CHECK(base.out.find("--base numbers vertices by their ids: it needs --vertex-ids index") != std::string::npos);
}
