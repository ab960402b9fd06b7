// Fuzz targets mesh_gmsh, mesh_metis, mesh_vtk and mesh_vtu: the mesh readers
// (src/source/mesh_gmsh.cpp, mesh_metis.cpp, mesh_vtk.cpp) on any bytes, through the
// per-format std::istream readers that read_mesh_file dispatches to. A mesh they return must
// be consistent (sizes, offsets, node indices in range, known cell types, finite coordinates);
// a small one is then turned into its dual and nodal graphs through METIS, which must give a
// graph check_graph accepts (mesh_to_graph may refuse with cellgraph::Error).
// The target's format (cellgraph_fuzz_format) picks the reader: 0 Gmsh, 1 METIS, 2 legacy VTK,
// 3 VTU.
#include <cmath>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>

#include "cellgraph/source/mesh.hpp"
#include "src/source/mesh_formats.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

using cellgraph::Mesh;
using cellgraph::fuzz::finding;

void check_mesh(const Mesh& mesh) {
  const auto fail = [](const std::string& what) { finding("the mesh reader returned an inconsistent mesh", what); };
  if (mesh.nodes.size() % 3 != 0)
    fail("nodes hold " + std::to_string(mesh.nodes.size()) + " numbers, not x, y, z per node");
  if (mesh.element_dim.size() != mesh.element_type.size()) fail("element_dim and element_type differ in length");
  if (mesh.element_offsets.size() != mesh.element_type.size() + 1)
    fail("element_offsets is not one per element plus one");
  if (mesh.element_offsets.front() != 0 || mesh.element_offsets.back() != mesh.element_nodes.size())
    fail("element_offsets do not span element_nodes");
  for (std::size_t e = 0; e + 1 < mesh.element_offsets.size(); ++e)
    if (mesh.element_offsets[e] > mesh.element_offsets[e + 1])
      fail("element_offsets decrease at element " + std::to_string(e));
  for (std::uint32_t node : mesh.element_nodes)
    if (node >= mesh.num_nodes())
      fail("an element refers to node " + std::to_string(node) + " of " + std::to_string(mesh.num_nodes()));
  for (std::size_t e = 0; e < mesh.element_type.size(); ++e) {
    const cellgraph::detail::VtkCellType* type = cellgraph::detail::find_vtk_cell_type(mesh.element_type[e]);
    if (!type) fail("element " + std::to_string(e) + " has unknown VTK type " + std::to_string(mesh.element_type[e]));
    if (type->dim != mesh.element_dim[e]) fail("element " + std::to_string(e) + " has the wrong dimension");
    const auto nodes = mesh.element_offsets[e + 1] - mesh.element_offsets[e];
    if (type->nodes != 0 && nodes != type->nodes)
      fail("element " + std::to_string(e) + ", a " + type->name + ", has " + std::to_string(nodes) + " nodes");
  }
  for (double x : mesh.nodes)
    if (!std::isfinite(x)) fail("a node coordinate is not finite");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cellgraph;
  static const std::string name = cellgraph_fuzz_format == 0   ? "/fuzz/input.msh"
                                  : cellgraph_fuzz_format == 1 ? "/fuzz/input.mesh"
                                  : cellgraph_fuzz_format == 2 ? "/fuzz/input.vtk"
                                                               : "/fuzz/input.vtu";
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  std::optional<Mesh> mesh;
  fuzz::guarded("the mesh reader", name, [&] {
    switch (cellgraph_fuzz_format) {
      case 0:
        mesh = detail::read_gmsh_mesh(in, name);
        break;
      case 1:
        mesh = detail::read_metis_mesh(in, name);
        break;
      case 2:
        mesh = detail::read_legacy_vtk_mesh(in, name);
        break;
      default:
        mesh = detail::read_vtu_mesh(in, name);
        break;
    }
  });
  if (!mesh) return 0;
  check_mesh(*mesh);
  // METIS's graphs of a small mesh (a large one adds time, not coverage of our code).
  if (mesh->num_elements() > 2000 || mesh->element_nodes.size() > 20000) return 0;
  for (const MeshGraphKind kind : {MeshGraphKind::dual, MeshGraphKind::nodal}) {
    std::optional<MeshGraph> graph;
    fuzz::guarded("mesh_to_graph", "", [&] { graph = mesh_to_graph(*mesh, {.kind = kind}); });
    if (graph) fuzz::invariant("check_graph of the mesh's graph", [&] { check_graph(graph->graph, name); });
  }
  return 0;
}
