// Meshes as a source: finite-element meshes read from Gmsh, METIS and VTK files, turned into
// the graph of their elements (dual graph) or of their nodes (nodal graph).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "cellgraph/graph.hpp"

namespace cellgraph {

struct Mesh {
  std::vector<double> nodes;                      // x, y, z per node (z = 0 in 2D files)
  bool has_coordinates = true;                    // false for METIS .mesh files: nodes are zeros
  std::vector<std::uint8_t> element_type;         // VTK cell type (5 triangle, 10 tetra, ...)
  std::vector<std::uint8_t> element_dim;          // 0 point, 1 line, 2 surface, 3 volume
  std::vector<std::uint64_t> element_offsets{0};  // element e's nodes: [offsets[e], offsets[e+1])
  std::vector<std::uint32_t> element_nodes;       // 0-based node indices

  std::uint32_t num_nodes() const { return std::uint32_t(nodes.size() / 3); }
  std::uint32_t num_elements() const { return std::uint32_t(element_type.size()); }
};

// By content and extension: Gmsh .msh (2.2 and 4.1, ASCII and binary), METIS .mesh, legacy
// VTK .vtk (ASCII unstructured grid) and .vtu (ASCII or base64 inline, uncompressed).
// Malformed input throws ParseError ("file:line: what is wrong"); an unopenable file, Error.
// Nodes are numbered in file order; second-order elements keep VTK's node order.
Mesh read_mesh_file(const std::string& path);

enum class MeshGraphKind { dual, nodal };

struct MeshGraphOptions {
  MeshGraphKind kind = MeshGraphKind::dual;
  int element_dim = -1;  // elements of this dimension only; -1: the highest present
  int ncommon = 0;       // dual: elements sharing at least this many nodes are neighbors;
                         // 0: a face (3 for tetrahedra, 2 for triangles, ...)
};

struct MeshGraph {
  // Coordinates: element centroids (dual) or node positions (nodal), 3 per vertex; none when
  // the mesh has none. The nodal graph has a vertex for every node, used by a selected
  // element or not (those are isolated), so that vertex v is node v.
  Graph graph;
  std::vector<std::uint32_t> elements;  // dual: graph vertex -> mesh element index
};

// Through METIS's METIS_MeshToDual / METIS_MeshToNodal. Throws Error when no element has the
// requested dimension.
MeshGraph mesh_to_graph(const Mesh& mesh, const MeshGraphOptions& options = {});

}  // namespace cellgraph
