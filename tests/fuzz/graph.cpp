// Fuzz targets graph_metis, graph_mtx, graph_edges and graph_graphml: the graph-file readers
// (src/source/metis_graph.cpp, matrix_market.cpp, edge_list.cpp, graphml.cpp) on any bytes,
// through their std::istream entry points. A graph they return must pass check_graph
// (symmetric, sorted rows, no self loops, ids in range, weights aligned), and its labels, where
// it has them, must name each vertex once. The target's format (cellgraph_fuzz_format) picks
// the reader: 0 METIS, 1 Matrix Market, 2 edge list (ids compacted into labels, then ids as
// indices), 3 GraphML.
#include <cstdint>
#include <optional>
#include <set>
#include <sstream>
#include <string>

#include "cellgraph/source/graph_file.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

void check_labels(const cellgraph::LabelledGraph& g) {
  if (g.vertex_labels.empty()) return;
  if (g.vertex_labels.size() != g.graph.num_vertices())
    cellgraph::fuzz::finding(
        "the labels do not match the vertices",
        std::to_string(g.vertex_labels.size()) + " labels for " + std::to_string(g.graph.num_vertices()));
  if (std::set<std::string>(g.vertex_labels.begin(), g.vertex_labels.end()).size() != g.vertex_labels.size())
    cellgraph::fuzz::finding("two vertices have one label", "");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cellgraph;
  static const std::string name = cellgraph_fuzz_format == 0   ? "/fuzz/input.graph"
                                  : cellgraph_fuzz_format == 1 ? "/fuzz/input.mtx"
                                  : cellgraph_fuzz_format == 2 ? "/fuzz/input.edges"
                                                               : "/fuzz/input.graphml";
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  std::optional<LabelledGraph> graph;
  const auto read = [&](auto reader) {
    std::istringstream in(bytes);
    graph.reset();
    fuzz::guarded("the graph reader", name, [&] { graph = reader(in); });
    if (!graph) return;
    fuzz::invariant("check_graph", [&] { check_graph(graph->graph, name); });
    check_labels(*graph);
  };
  switch (cellgraph_fuzz_format) {
    case 0:
      read([&](std::istream& in) { return LabelledGraph{read_metis_graph(in, name), {}}; });
      break;
    case 1:
      read([&](std::istream& in) { return LabelledGraph{read_matrix_market(in, name), {}}; });
      break;
    case 2: {
      GraphReadOptions compact;
      compact.vertex_ids = VertexIds::compact;
      read([&](std::istream& in) { return read_labelled_edge_list(in, name, compact); });
      read([&](std::istream& in) { return LabelledGraph{read_edge_list(in, name, -1), {}}; });
      break;
    }
    default:
      read([&](std::istream& in) { return read_graphml(in, name); });
      break;
  }
  return 0;
}
