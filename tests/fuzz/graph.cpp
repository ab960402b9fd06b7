// Fuzz targets graph_metis, graph_mtx and graph_edges: the graph-file readers
// (src/source/metis_graph.cpp, matrix_market.cpp, edge_list.cpp) on any bytes, through their
// std::istream entry points. A graph they return must pass check_graph (symmetric, sorted rows,
// no self loops, ids in range, weights aligned). The target's format (cellgraph_fuzz_format)
// picks the reader: 0 METIS, 1 Matrix Market, 2 edge list.
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>

#include "cellgraph/source/graph_file.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cellgraph;
  static const std::string name = cellgraph_fuzz_format == 0   ? "/fuzz/input.graph"
                                  : cellgraph_fuzz_format == 1 ? "/fuzz/input.mtx"
                                                               : "/fuzz/input.edges";
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  std::optional<Graph> graph;
  fuzz::guarded("the graph reader", name, [&] {
    switch (cellgraph_fuzz_format) {
      case 0:
        graph = read_metis_graph(in, name);
        break;
      case 1:
        graph = read_matrix_market(in, name);
        break;
      default:
        graph = read_edge_list(in, name, -1);
        break;
    }
  });
  if (graph) fuzz::invariant("check_graph", [&] { check_graph(*graph, name); });
  return 0;
}
