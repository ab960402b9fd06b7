// Graph files as a source: METIS .graph, Matrix Market coordinate files, plain edge lists.
// Every reader returns a symmetric, sorted CSR with no self loops; malformed input throws
// ParseError ("file:line: what is wrong").
#pragma once
#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "cellgraph/graph.hpp"

namespace cellgraph {

enum class GraphFormat { automatic, metis, matrix_market, edge_list };

struct GraphReadOptions {
  GraphFormat format = GraphFormat::automatic;
  int edge_list_base = -1;  // 0 or 1; -1: detected (0 if any id is 0, else 1)
};

// METIS graph format (manual section 4.1.1): header "n m [fmt [ncon]]", '%' comments, all fmt
// flags (vertex sizes, vertex weights, edge weights). Weights are kept in the Graph.
Graph read_metis_graph(std::istream& in, const std::string& name);
// Matrix Market "coordinate" matrices: pattern/integer/real, general/symmetric (square only;
// the diagonal is dropped; a general matrix is symmetrised). Real/integer values kept as
// edge weights.
Graph read_matrix_market(std::istream& in, const std::string& name);
// Whitespace-separated "u v [weight]" lines, '#' and '%' comments.
Graph read_edge_list(std::istream& in, const std::string& name, int base = -1);

// By content and extension: a "%%MatrixMarket" banner -> Matrix Market; .graph/.mgraph ->
// METIS; anything else -> edge list. Throws Error when the file cannot be opened.
Graph read_graph_file(const std::string& path, const GraphReadOptions& options = {});

// Per-vertex state files (for graphs): one non-negative integer per line, line i for user
// vertex i, '#' comments. Exactly `num_vertices` values are required, each below `num_states`
// (the model's number of states, Simulation::num_states(); 0: any 32-bit value).
std::vector<std::uint32_t> read_state_file(const std::string& path, std::uint32_t num_vertices,
                                           std::uint32_t num_states = 0);

}  // namespace cellgraph
