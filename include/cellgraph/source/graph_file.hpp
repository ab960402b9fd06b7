// Graph files as a source: METIS .graph, Matrix Market coordinate files, edge lists (plain, CSV,
// TSV; numbered or named vertices) and GraphML. Every reader returns a symmetric, sorted CSR
// with no self loops; malformed input throws ParseError ("file:line: what is wrong").
#pragma once
#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "cellgraph/graph.hpp"

namespace cellgraph {

enum class GraphFormat { automatic, metis, matrix_market, edge_list, graphml };

// What an edge list's vertex ids are.
enum class VertexIds {
  // The ids and names the file holds, and no others, numbered 0..n-1: numeric ids in
  // increasing order, or, where any vertex is named (a token that is not a non-negative
  // integer), every token a name, in the order of first appearance. The ids or names are kept
  // as the vertices' labels.
  compact,
  // Numeric ids are vertex numbers, 0- or 1-based (edge_list_base): ids the file skips are
  // isolated vertices. No labels.
  index,
};

struct GraphReadOptions {
  GraphFormat format = GraphFormat::automatic;
  // The library numbers an edge list's vertices by their ids unless asked (older programs
  // expect it); `cellgraph run` compacts them unless --vertex-ids index.
  VertexIds vertex_ids = VertexIds::index;
  int edge_list_base = -1;  // index: 0 or 1; -1: detected (0 if any id is 0, else 1)
};

// A graph with its vertices' names in the file: the ids or names of an edge list, GraphML's
// node ids. Label v names vertex v; empty when the file numbers its vertices 0..n-1.
struct LabelledGraph {
  Graph graph;
  std::vector<std::string> vertex_labels;
};

// METIS graph format (manual section 4.1.1): header "n m [fmt [ncon]]", '%' comments, all fmt
// flags (vertex sizes, vertex weights, edge weights). Weights are kept in the Graph.
Graph read_metis_graph(std::istream& in, const std::string& name);
// Matrix Market "coordinate" matrices: pattern/integer/real, general/symmetric (square only;
// the diagonal is dropped; a general matrix is symmetrised). Real/integer values kept as
// edge weights.
Graph read_matrix_market(std::istream& in, const std::string& name);
// Edge lists: "u v [weight]" lines, '#' and '%' comments, fields separated by commas, tabs or
// blanks (the first line that is not a comment decides) and quoted as CSV quotes them. A first
// line of column names, such as "source,target,weight" or "from to", is a header: it names the
// endpoint and weight columns (by default the first two and the third), and every line then
// has its number of fields. Vertices as `options.vertex_ids` says (options.format is ignored).
LabelledGraph read_labelled_edge_list(std::istream& in, const std::string& name, const GraphReadOptions& options);
// The same with numeric ids as vertex numbers (VertexIds::index), 0- or 1-based.
Graph read_edge_list(std::istream& in, const std::string& name, int base = -1);

// GraphML (Gephi, networkx, igraph), read by Boost.Graph's reader: the first <graph> and those
// nested in it, directed or undirected edges alike made symmetric. Node ids become the labels,
// numbered in the order nodes are declared (then undeclared edge ends, in edge order); a
// numeric edge attribute named "weight" is kept (an edge without one weighs 1), and node
// attributes x, y (and z) become coordinates where every node has them.
LabelledGraph read_graphml(std::istream& in, const std::string& name);

// By content and extension: a "%%MatrixMarket" banner -> Matrix Market; an XML file or
// .graphml -> GraphML; .graph/.mgraph -> METIS; anything else -> edge list. Throws Error when
// the file cannot be opened.
LabelledGraph read_labelled_graph_file(const std::string& path, const GraphReadOptions& options = {});
// The same without the labels.
Graph read_graph_file(const std::string& path, const GraphReadOptions& options = {});

// Per-vertex state files (for graphs), '#' comments. Without labels: one non-negative integer
// per line, line i for user vertex i. With `vertex_labels` (a labelled graph's), "LABEL STATE"
// lines in any order (labels with blanks or quotes quoted as CSV quotes them, as
// write_state_file writes them). Exactly one state per vertex is required, each below
// `num_states` (the model's number of states, Simulation::num_states(); 0: any 32-bit value).
std::vector<std::uint32_t> read_state_file(const std::string& path, std::uint32_t num_vertices,
                                           std::uint32_t num_states = 0,
                                           const std::vector<std::string>& vertex_labels = {});

}  // namespace cellgraph
