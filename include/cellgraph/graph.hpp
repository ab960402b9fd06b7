// The canonical graph every source is turned into: CSR with 64-bit offsets and 32-bit ids.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cellgraph {

using VertexId = std::uint32_t;
using EdgeOffset = std::uint64_t;

// A neighbor slot of a non-periodic grid that falls outside it. The compiler maps it to the
// read-only boundary cell, which holds the boundary value.
inline constexpr VertexId kBoundaryVertex = 0xFFFFFFFFu;

struct Graph {
  std::vector<EdgeOffset> offsets{0};  // n + 1 entries; row v is [offsets[v], offsets[v+1])
  std::vector<VertexId> neighbors;     // ids < n, or kBoundaryVertex (grids only)
  // Grids: neighbor k of a row is the cell at stencil offset k ("slot" k). Graph files: the
  // order carries no meaning and rows are sorted.
  bool slotted = false;
  // u is in v's row exactly when v is in u's (boundary slots aside). Graph files, meshes and
  // generators are symmetric by construction; a grid is when its stencil holds the opposite
  // of every offset (the cloud neighborhood reaches z-2 but not z+2). Colorings of an
  // asymmetric graph must also keep apart a vertex and the vertices that read it.
  bool symmetric = true;

  // Optional data kept from the source; empty when the source had none.
  int coord_dim = 0;                         // 0, 2 or 3
  std::vector<double> coords;                // n * coord_dim
  int vertex_weight_count = 0;               // METIS ncon
  std::vector<std::int64_t> vertex_weights;  // n * vertex_weight_count
  std::vector<std::int64_t> vertex_sizes;    // n (METIS fmt 1xx)
  std::vector<double> edge_weights;          // aligned with neighbors

  VertexId num_vertices() const { return static_cast<VertexId>(offsets.size() - 1); }
  EdgeOffset num_entries() const { return offsets.back(); }  // directed entries, slots included
  std::uint32_t degree(VertexId v) const { return static_cast<std::uint32_t>(offsets[v + 1] - offsets[v]); }
};

// Undirected edges -> symmetric CSR: self loops dropped, duplicates merged (first weight
// kept), rows sorted. `weights` is empty or one per edge.
Graph graph_from_edges(VertexId num_vertices, const std::vector<std::pair<VertexId, VertexId>>& edges,
                       const std::vector<double>& weights = {});

// Checks the invariants above; throws Error naming `what` (a file name, say) when broken.
void check_graph(const Graph& g, const std::string& what);

// Undirected edge count of a symmetric graph with no boundary slots: entries / 2.
std::uint64_t undirected_edge_count(const Graph& g);
// Entries per vertex (0 for an empty graph).
double mean_degree(const Graph& g);

}  // namespace cellgraph
