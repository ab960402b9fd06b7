// METIS mesh files (METIS 5 manual, section 4.1.2, and programs/io.c ReadMesh).
//
// Header "ne [ncon]", then one line per element: ncon weights, then its nodes, 1-based. '%'
// lines are comments. The file gives no coordinates and no element types: the node count is
// the largest node id, and the type follows from the number of nodes (below). Weights are
// checked and dropped; a Mesh has no place for them.
#include <algorithm>
#include <limits>
#include <string>

#include "src/source/line_reader.hpp"
#include "src/source/mesh_formats.hpp"

namespace cellgraph::detail {
namespace {

constexpr std::string_view kComment = "%";

// A node count says the type only up to this choice: 4 nodes are read as a tetrahedron, not
// a quadrilateral (for a quad mesh, ask mesh_to_graph for ncommon 2).
const VtkCellType* type_of_node_count(std::size_t nodes) {
  switch (nodes) {
    case 1:
      return find_vtk_cell_type(1);  // vertex
    case 2:
      return find_vtk_cell_type(3);  // line
    case 3:
      return find_vtk_cell_type(5);  // triangle
    case 4:
      return find_vtk_cell_type(10);  // tetrahedron
    case 5:
      return find_vtk_cell_type(14);  // pyramid
    case 6:
      return find_vtk_cell_type(13);  // wedge
    case 8:
      return find_vtk_cell_type(12);  // hexahedron
    default:
      return nullptr;
  }
}

// Node ids are the only node count the file gives: a one-line file naming node 3*10^8
// implies gigabytes of nodes, refused at that line.
void require_memory(const LineReader& reader, std::uint64_t node_count, std::uint64_t elements,
                    std::uint64_t node_refs) {
  reader.require_memory(estimated_mesh_bytes(node_count, elements, node_refs), [&] {
    return "node ids up to " + std::to_string(node_count) + " and " + std::to_string(elements) +
           (elements == 1 ? " element" : " elements") + " imply a mesh that";
  });
}

Mesh read_mesh(LineReader& reader) {
  if (!reader.next(kComment)) reader.fail_at(0, "empty file; expected the header 'ne [ncon]'");
  if (reader.size() > 2) reader.fail("the header must be 'ne [ncon]', " + reader.fields_found());
  const std::size_t header_line = reader.line_number();
  const auto ne = reader.parse_unsigned(reader[0], "element count", kMaxVertices);
  if (ne == 0) reader.fail("the element count must be positive");
  reader.check_count_fits(ne, 2, "the header gives " + std::to_string(ne) + " elements, one line each");
  const auto ncon = reader.size() == 2 ? reader.parse_unsigned(reader[1], "ncon", std::numeric_limits<int>::max()) : 0;

  Mesh mesh;
  mesh.has_coordinates = false;
  mesh.element_type.reserve(reserve_hint(ne));
  mesh.element_dim.reserve(reserve_hint(ne));
  mesh.element_offsets.reserve(reserve_hint(ne + 1));
  std::uint64_t node_count = 0;
  for (std::uint64_t e = 0; e < ne; ++e) {
    if (!reader.next(kComment))
      reader.fail_at(header_line, "the header gives " + std::to_string(ne) + " elements, but the file has " +
                                      std::to_string(e) + " element lines");
    if (reader.size() <= ncon)
      reader.fail("element " + std::to_string(e + 1) + " needs " + std::to_string(ncon) +
                  " weights and then its nodes, " + reader.fields_found());
    for (std::size_t k = 0; k < ncon; ++k)
      reader.parse_unsigned(reader[k], "element weight", std::numeric_limits<std::int64_t>::max());
    const std::size_t nodes = reader.size() - ncon;
    const VtkCellType* type = type_of_node_count(nodes);
    if (!type)
      reader.fail("element " + std::to_string(e + 1) + " has " + std::to_string(nodes) +
                  " nodes; known elements have 1-6 or 8");
    for (std::size_t k = ncon; k < reader.size(); ++k) {
      const auto node = reader.parse_index(reader[k], "node", kMaxVertices);
      node_count = std::max(node_count, node + 1);
      mesh.element_nodes.push_back(static_cast<std::uint32_t>(node));
    }
    mesh.element_type.push_back(type->type);
    mesh.element_dim.push_back(type->dim);
    mesh.element_offsets.push_back(mesh.element_nodes.size());
    require_memory(reader, node_count, e + 1, mesh.element_nodes.size());
  }
  if (reader.next(kComment)) reader.fail("more than the " + std::to_string(ne) + " element lines the header gives");
  mesh.nodes.assign(3 * node_count, 0.0);
  return mesh;
}

}  // namespace

Mesh read_metis_mesh(std::istream& in, const std::string& name) {
  LineReader reader(in, name);
  return naming_file_when_out_of_memory(reader, [&] { return read_mesh(reader); });
}

}  // namespace cellgraph::detail
