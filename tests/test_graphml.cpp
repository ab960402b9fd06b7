// GraphML through Boost.Graph's reader: node ids as labels, weights and Gephi's coordinates
// kept, directed files made symmetric, malformed files refused naming the file.
#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <vector>

#include "cellgraph/error.hpp"
#include "cellgraph/source/graph_file.hpp"
#include "cli_run.hpp"
#include "data_path.hpp"
#include "scratch.hpp"

using namespace cellgraph;
using namespace cellgraph::test;

namespace {

const std::string kFlorentine = data_path("graphs/graphml/florentine_families.graphml");
const std::string kGephi = data_path("graphs/graphml/gephi-square.graphml");

using Labels = std::vector<std::string>;

LabelledGraph graphml(const std::string& text) {
  std::istringstream in(text);
  LabelledGraph g = read_graphml(in, "t.graphml");
  check_graph(g.graph, "t.graphml");
  return g;
}

std::string graphml_error(const std::string& text) {
  try {
    graphml(text);
  } catch (const ParseError& e) {
    return e.what();
  }
  return "(no error)";
}

std::string document(const std::string& graph) {
  return "<?xml version='1.0' encoding='utf-8'?>\n<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n" + graph +
         "</graphml>\n";
}

double weight(const Graph& g, VertexId u, VertexId v) {
  for (EdgeOffset e = g.offsets[u]; e < g.offsets[u + 1]; ++e)
    if (g.neighbors[e] == v) return g.edge_weights.at(e);
  return -1;
}

}  // namespace

TEST_CASE("graphml: networkx's Florentine families, node ids as labels in declared order") {
  const LabelledGraph g = read_labelled_graph_file(kFlorentine);
  check_graph(g.graph, kFlorentine);
  CHECK(g.graph.num_vertices() == 15);
  CHECK(undirected_edge_count(g.graph) == 20);
  REQUIRE(g.vertex_labels.size() == 15);
  CHECK(g.vertex_labels[0] == "Acciaiuoli");
  CHECK(g.vertex_labels[1] == "Medici");
  CHECK(g.vertex_labels[14] == "Lamberteschi");
  CHECK(g.graph.degree(1) == 6);
  CHECK(g.graph.edge_weights.empty());
  CHECK(g.graph.coord_dim == 0);
}

TEST_CASE("graphml: Gephi's coordinates and weights, the directed file made symmetric") {
  const LabelledGraph g = read_labelled_graph_file(kGephi);
  check_graph(g.graph, kGephi);
  CHECK(g.vertex_labels.empty());  // ids 0..3
  CHECK(g.graph.num_vertices() == 4);
  CHECK(undirected_edge_count(g.graph) == 5);  // 1 -> 0 repeats 0 -> 1; the loop 2 -> 2 is dropped
  REQUIRE(g.graph.coord_dim == 2);
  CHECK(g.graph.coords == std::vector<double>{-50, -50, 50, -50, 50, 50, -50, 50});
  CHECK(weight(g.graph, 1, 0) == 2);  // the first of 0 -> 1 (2.0) and 1 -> 0 (9.0)
  CHECK(weight(g.graph, 2, 1) == 3);
  CHECK(weight(g.graph, 3, 2) == 0.5);
  CHECK(weight(g.graph, 0, 3) == 1);
  CHECK(weight(g.graph, 2, 0) == 1);  // no weight given: 1
}

TEST_CASE("graphml: undeclared edge ends, nested graphs and z coordinates") {
  const LabelledGraph g = graphml(document(
      "<key id=\"x\" for=\"node\" attr.name=\"x\" attr.type=\"double\"/>"
      "<key id=\"y\" for=\"node\" attr.name=\"y\" attr.type=\"double\"/>"
      "<key id=\"z\" for=\"node\" attr.name=\"z\" attr.type=\"double\"><default>7</default></key>\n"
      "<graph edgedefault=\"undirected\">\n"
      "<node id=\"b\"><data key=\"x\">1</data><data key=\"y\">2</data></node>\n"
      "<edge source=\"b\" target=\"c\"/>\n"
      "<graph edgedefault=\"undirected\"><node id=\"a\"><data key=\"x\">3</data><data key=\"y\">4</data></node>"
      "<edge source=\"a\" target=\"b\"/></graph>\n"
      "</graph>\n"));
  CHECK(g.vertex_labels == Labels{"b", "a", "c"});  // declared nodes first, nested ones included
  CHECK(undirected_edge_count(g.graph) == 2);
  CHECK(g.graph.coord_dim == 0);  // "c" has no x and y
}

TEST_CASE("graphml: malformed files are a ParseError naming the file") {
  CHECK(graphml_error("<graphml>\n<graph edgedefault=\"undirected\">\n<node id=\"a\" label>\n</graph></graphml>\n")
            .rfind("t.graphml:3: not well-formed XML: ", 0) == 0);
  CHECK(graphml_error("<gexf/>\n") == "t.graphml:0: not GraphML: no <graphml> element at the top");
  CHECK(graphml_error(document("<graph edgedefault=\"undirected\"><node/></graph>")) ==
        "t.graphml:0: <node> 1 has no id attribute");
  CHECK(graphml_error(document("<graph><node id=\"a\"/></graph>")) ==
        "t.graphml:0: a <graph> has no edgedefault attribute");
  CHECK(graphml_error(document("<graph edgedefault=\"undirected\"><edge source=\"a\"/></graph>")) ==
        "t.graphml:0: <edge> 1 has no target attribute");
  CHECK(graphml_error(document("<key id=\"w\" for=\"edge\" attr.name=\"weight\" attr.type=\"double\"/>"
                               "<graph edgedefault=\"directed\"><edge source=\"a\" target=\"b\">"
                               "<data key=\"w\">heavy</data></edge></graph>")) ==
        "t.graphml:0: edge 1: weight 'heavy' is not a finite number");
  CHECK(graphml_error(document("<graph edgedefault=\"directed\"><edge source=\"a\" target=\"b\"/>"
                               "<edge source=\"b\" target=\"c\" directed=\"false\"/></graph>"))
            .rfind("t.graphml:0: edges 1 and 2 are one directed and one undirected", 0) == 0);
  CHECK(graphml_error(document("<key id=\"k\" for=\"nodes\"/><graph edgedefault=\"directed\"/>")) ==
        "t.graphml:0: Attribute for is not valid: nodes");
  // Through read_graph_file the message names the path.
  ScratchDir dir;
  const std::string path = dir.write("broken.graphml", "<graphml><graph>");
  const std::string message = path + ":1: not well-formed XML";
  CHECK_THROWS_WITH_AS(read_graph_file(path), doctest::Contains(message.c_str()), ParseError);
}

TEST_CASE("graphml: a run names the families in --cells and --states-out") {
  ScratchDir dir;
  // Any extension with --format graphml; .graphml or XML content without.
  const std::string copy = dir.write("families.xml", read_file(kFlorentine));
  const std::string run = "run --graph " + copy + " --rule B1/S --cells Medici ";
  const CommandResult r = run_cli(run + "--format graphml --steps 1 --states-out " + dir / "s.txt");
  REQUIRE(r.status == 0);
  CHECK(r.out.find("(15 cells)") != std::string::npos);
  const std::string states = read_file(dir / "s.txt");
  CHECK(states.rfind("# cellgraph states, 15 vertices: label state\nAcciaiuoli 1\nMedici 0\n", 0) == 0);
  CHECK(states.find("\nPazzi 0\n") != std::string::npos);
  CHECK(states.find("\nSalviati 1\n") != std::string::npos);
  CHECK(run_cli(run + "--steps 0").status == 0);
}
