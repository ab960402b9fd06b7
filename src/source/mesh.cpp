// Meshes by path (format detection), and their dual and nodal graphs through METIS.
#include "cellgraph/source/mesh.hpp"

#include <metis.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <string_view>

#include "cellgraph/error.hpp"
#include "cellgraph/memory_budget.hpp"
#include "src/source/line_reader.hpp"
#include "src/source/mesh_formats.hpp"

namespace cellgraph {
namespace detail {

const VtkCellType* find_vtk_cell_type(int type) {
  // face_nodes counts mid-side nodes too: tet10 neighbors share 6 nodes, tet10s that only
  // share an edge share 3.
  static constexpr VtkCellType kTypes[] = {
      {1, 0, 1, 1, "vertex"},
      {2, 0, 0, 1, "poly-vertex"},
      {3, 1, 2, 1, "line"},
      {4, 1, 0, 1, "poly-line"},
      {5, 2, 3, 2, "triangle"},
      {7, 2, 0, 2, "polygon"},
      {8, 2, 4, 2, "pixel"},
      {9, 2, 4, 2, "quad"},
      {10, 3, 4, 3, "tetrahedron"},
      {11, 3, 8, 4, "voxel"},
      {12, 3, 8, 4, "hexahedron"},
      {13, 3, 6, 3, "wedge"},
      {14, 3, 5, 3, "pyramid"},
      {21, 1, 3, 1, "quadratic edge"},
      {22, 2, 6, 3, "quadratic triangle"},
      {23, 2, 8, 3, "quadratic quad"},
      {24, 3, 10, 6, "quadratic tetrahedron"},
      {25, 3, 20, 8, "quadratic hexahedron"},
      {26, 3, 15, 6, "quadratic wedge"},
      {27, 3, 13, 6, "quadratic pyramid"},
      {28, 2, 9, 3, "biquadratic quad"},
      {29, 3, 27, 9, "triquadratic hexahedron"},
  };
  for (const VtkCellType& t : kTypes)
    if (t.type == type) return &t;
  return nullptr;
}

std::uint64_t estimated_mesh_bytes(std::uint64_t nodes, std::uint64_t elements, std::uint64_t node_refs) {
  const std::uint64_t mesh =
      3 * sizeof(double) * nodes + (2 + sizeof(std::uint64_t)) * elements + sizeof(std::uint32_t) * node_refs;
  const std::uint64_t metis_input = sizeof(idx_t) * (elements + node_refs + nodes);
  // A dual graph has about a neighbor per node reference, a nodal one a few: four, generously.
  return mesh + metis_input + estimated_run_bytes(std::max(nodes, elements), 4 * node_refs);
}

}  // namespace detail

namespace {

static_assert(IDXTYPEWIDTH == 32 || IDXTYPEWIDTH == 64, "unexpected METIS idx_t width");

enum class MeshFormat { gmsh, metis, legacy_vtk, vtu };

// Gmsh, legacy VTK and VTU files say what they are in their first bytes; METIS meshes do not,
// so they are what is left. A known extension picks its reader even without the magic, so
// that a damaged file gets that format's message.
MeshFormat detect_format(std::istream& in, const std::string& path) {
  char head[64] = {};
  in >> std::ws;
  in.read(head, sizeof head);
  const std::string_view start(head, static_cast<std::size_t>(in.gcount()));
  in.clear();
  in.seekg(0);
  if (start.starts_with("$MeshFormat")) return MeshFormat::gmsh;
  if (start.starts_with("# vtk DataFile")) return MeshFormat::legacy_vtk;
  if (start.starts_with("<?xml") || start.starts_with("<VTKFile")) return MeshFormat::vtu;
  const std::string extension = std::filesystem::path(path).extension().string();
  if (extension == ".msh") return MeshFormat::gmsh;
  if (extension == ".vtk") return MeshFormat::legacy_vtk;
  if (extension == ".vtu") return MeshFormat::vtu;
  return MeshFormat::metis;
}

struct MetisFree {
  void operator()(idx_t* p) const { METIS_Free(p); }
};
using MetisArray = std::unique_ptr<idx_t[], MetisFree>;

idx_t to_idx(std::uint64_t value, const char* what) {
  if (value > static_cast<std::uint64_t>(std::numeric_limits<idx_t>::max()))
    throw Error(std::string("mesh too large for METIS: ") + what + " " + std::to_string(value) + " exceeds its " +
                std::to_string(IDXTYPEWIDTH) + "-bit indices");
  return static_cast<idx_t>(value);
}

// The elements of one dimension, as METIS takes them.
struct MetisMesh {
  std::vector<std::uint32_t> elements;  // mesh element of each METIS element
  std::vector<idx_t> eptr{0}, eind;
  int face_nodes = std::numeric_limits<int>::max();  // the smallest among the elements' types
};

MetisMesh select_elements(const Mesh& mesh, int dim) {
  MetisMesh selected;
  for (std::uint32_t e = 0; e < mesh.num_elements(); ++e) {
    if (mesh.element_dim[e] != dim) continue;
    selected.elements.push_back(e);
    for (auto k = mesh.element_offsets[e]; k < mesh.element_offsets[e + 1]; ++k)
      selected.eind.push_back(static_cast<idx_t>(mesh.element_nodes[k]));
    selected.eptr.push_back(to_idx(selected.eind.size(), "node references"));
    const detail::VtkCellType* type = detail::find_vtk_cell_type(mesh.element_type[e]);
    selected.face_nodes = std::min(selected.face_nodes, type ? int{type->face_nodes} : 1);
  }
  return selected;
}

// METIS's adjacency (symmetric, no self loops, rows unsorted) as a Graph with sorted rows.
Graph graph_from_metis(idx_t n, const idx_t* xadj, const idx_t* adjncy) {
  Graph g;
  g.offsets.resize(static_cast<std::size_t>(n) + 1);
  for (idx_t v = 0; v <= n; ++v) g.offsets[v] = static_cast<EdgeOffset>(xadj[v]);
  g.neighbors.assign(adjncy, adjncy + xadj[n]);
  for (idx_t v = 0; v < n; ++v)
    std::sort(g.neighbors.begin() + static_cast<std::ptrdiff_t>(g.offsets[v]),
              g.neighbors.begin() + static_cast<std::ptrdiff_t>(g.offsets[v + 1]));
  return g;
}

std::vector<double> centroids(const Mesh& mesh, const std::vector<std::uint32_t>& elements) {
  std::vector<double> coords;
  coords.reserve(3 * elements.size());
  for (std::uint32_t e : elements) {
    double sum[3] = {0, 0, 0};
    const auto first = mesh.element_offsets[e], last = mesh.element_offsets[e + 1];
    for (auto k = first; k < last; ++k)
      for (int c = 0; c < 3; ++c) sum[c] += mesh.nodes[3 * std::size_t{mesh.element_nodes[k]} + c];
    for (double s : sum) coords.push_back(s / static_cast<double>(last - first));
  }
  return coords;
}

}  // namespace

Mesh read_mesh_file(const std::string& path) {
  std::ifstream in = detail::open_input(path);
  switch (detect_format(in, path)) {
    case MeshFormat::gmsh:
      return detail::read_gmsh_mesh(in, path);
    case MeshFormat::legacy_vtk:
      return detail::read_legacy_vtk_mesh(in, path);
    case MeshFormat::vtu:
      return detail::read_vtu_mesh(in, path);
    case MeshFormat::metis:
      break;
  }
  return detail::read_metis_mesh(in, path);
}

MeshGraph mesh_to_graph(const Mesh& mesh, const MeshGraphOptions& options) {
  int dim = options.element_dim;
  if (dim < 0)
    for (std::uint8_t d : mesh.element_dim) dim = std::max(dim, int{d});
  MetisMesh selected = select_elements(mesh, dim);
  if (selected.elements.empty())
    throw Error(options.element_dim < 0 ? std::string("the mesh has no elements")
                                        : "the mesh has no elements of dimension " + std::to_string(dim));

  idx_t ne = to_idx(selected.elements.size(), "element count");
  idx_t nn = to_idx(mesh.num_nodes(), "node count");
  idx_t numflag = 0;
  idx_t* xadj = nullptr;
  idx_t* adjncy = nullptr;
  int status = METIS_OK;
  MeshGraph result;
  if (options.kind == MeshGraphKind::dual) {
    idx_t ncommon = options.ncommon > 0 ? options.ncommon : selected.face_nodes;
    status = METIS_MeshToDual(&ne, &nn, selected.eptr.data(), selected.eind.data(), &ncommon, &numflag, &xadj, &adjncy);
  } else {
    status = METIS_MeshToNodal(&ne, &nn, selected.eptr.data(), selected.eind.data(), &numflag, &xadj, &adjncy);
  }
  const MetisArray owned_xadj(xadj), owned_adjncy(adjncy);
  if (status != METIS_OK)
    throw Error(status == METIS_ERROR_MEMORY ? "METIS ran out of memory building the mesh graph"
                                             : "METIS failed to build the mesh graph");

  const bool dual = options.kind == MeshGraphKind::dual;
  result.graph = graph_from_metis(dual ? ne : nn, xadj, adjncy);
  if (mesh.has_coordinates) {
    result.graph.coord_dim = 3;
    result.graph.coords = dual ? centroids(mesh, selected.elements) : mesh.nodes;
  }
  if (dual) result.elements = std::move(selected.elements);
  return result;
}

}  // namespace cellgraph
