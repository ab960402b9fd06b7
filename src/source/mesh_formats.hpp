// Shared by the mesh readers and mesh_to_graph: the VTK cell types a Mesh may hold, and the
// per-format readers that read_mesh_file dispatches to.
#pragma once
#include <cstdint>
#include <istream>
#include <string>

#include "cellgraph/source/mesh.hpp"

namespace cellgraph::detail {

struct VtkCellType {
  std::uint8_t type;        // VTK's number
  std::uint8_t dim;         // 0 point, 1 line, 2 surface, 3 volume
  std::uint8_t nodes;       // 0: any number (polygons, poly-lines, poly-vertices)
  std::uint8_t face_nodes;  // the fewest nodes two conforming neighbors share
  const char* name;
};

// The cell types a Mesh may hold; null for any other (polyhedra, Lagrange and Bezier cells).
const VtkCellType* find_vtk_cell_type(int type);

// What reading a mesh of this size and running its dual or nodal graph takes: the Mesh, the
// arrays METIS builds the graph from, and the run of a graph with as many vertices as the
// larger of the two counts. An estimate, on the high side, for the readers' memory checks.
std::uint64_t estimated_mesh_bytes(std::uint64_t nodes, std::uint64_t elements, std::uint64_t node_refs);

// `name` appears in error messages.
Mesh read_gmsh_mesh(std::istream& in, const std::string& name);
Mesh read_metis_mesh(std::istream& in, const std::string& name);
Mesh read_legacy_vtk_mesh(std::istream& in, const std::string& name);
Mesh read_vtu_mesh(std::istream& in, const std::string& name);

}  // namespace cellgraph::detail
