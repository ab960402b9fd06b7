#include "cellgraph/output/vtk.hpp"

#include <array>
#include <cstddef>
#include <filesystem>
#include <limits>
#include <ostream>
#include <span>
#include <sstream>
#include <string_view>
#include <utility>

#include "cellgraph/error.hpp"
#include "cellgraph/output/atomic_file.hpp"
#include "src/output/vtk_arrays.hpp"

namespace cellgraph {
namespace {

using detail::attr;
using detail::VtkXml;

constexpr std::uint8_t kVtkVertex = 1;
constexpr std::uint8_t kVtkLine = 3;
constexpr std::uint8_t kVtkPolyhedron = 42;

std::string error_prefix(const std::string& base) { return "VTK output " + base + ": "; }

// A snapshot's XML split where its state array goes.
struct Skeleton {
  std::string before_states, after_states;
  int states_depth = 0;
};

// The one Piece of a `dataset` (ImageData or UnstructuredGrid): the state array in
// `state_data` (PointData or CellData) first, as VTK writes it, then the geometry.
template <class WriteGeometry>
Skeleton render_skeleton(VtkEncoding encoding, std::string_view dataset, const std::string& dataset_attributes,
                         const std::string& piece_attributes, std::string_view state_data,
                         WriteGeometry write_geometry) {
  std::ostringstream text;
  VtkXml xml(text, encoding);
  text << "<?xml version=\"1.0\"?>\n";
  xml.open("VTKFile", detail::vtk_file_attributes(dataset, encoding));
  xml.open(dataset, dataset_attributes);
  xml.open("Piece", piece_attributes);
  xml.open(state_data, attr("Scalars", "state"));
  Skeleton skeleton;
  skeleton.before_states = text.str();
  skeleton.states_depth = xml.depth();
  xml.close(state_data);
  write_geometry(xml);
  xml.close("Piece");
  xml.close(dataset);
  xml.close("VTKFile");
  skeleton.after_states = text.str().substr(skeleton.before_states.size());
  return skeleton;
}

// UnstructuredGrid cells as VTK stores them: offsets mark where each cell's nodes end.
struct CellList {
  std::vector<std::int64_t> connectivity, offsets;
  std::vector<std::uint8_t> types;

  void add(std::uint8_t type, std::span<const std::uint32_t> nodes) {
    connectivity.insert(connectivity.end(), nodes.begin(), nodes.end());
    offsets.push_back(std::int64_t(connectivity.size()));
    types.push_back(type);
  }
};

// The geometry of an UnstructuredGrid piece: its points (x, y, z each) and cells.
void write_points_and_cells(VtkXml& xml, const std::vector<double>& points_xyz, const CellList& cells) {
  xml.open("Points");
  xml.data_array({"Points", 3, 3}, detail::narrowest_real(points_xyz));
  xml.close("Points");
  xml.open("Cells");
  xml.data_array({"connectivity"}, detail::narrowest_index(cells.connectivity));
  xml.data_array({"offsets"}, detail::narrowest_index(cells.offsets));
  xml.data_array({"types"}, cells.types);
  xml.close("Cells");
}

Skeleton render_unstructured(VtkEncoding encoding, const std::vector<double>& points_xyz, const CellList& cells,
                             std::string_view state_data) {
  const std::string piece = attr("NumberOfPoints", points_xyz.size() / 3) + attr("NumberOfCells", cells.types.size());
  return render_skeleton(encoding, "UnstructuredGrid", {}, piece, state_data,
                         [&](VtkXml& xml) { write_points_and_cells(xml, points_xyz, cells); });
}

// Calls f(u, v) once per undirected edge, from the row of its smaller end.
template <class F>
void for_each_undirected_edge(const Graph& graph, F f) {
  for (VertexId u = 0; u < graph.num_vertices(); ++u)
    for (EdgeOffset e = graph.offsets[u]; e < graph.offsets[u + 1]; ++e)
      if (const VertexId v = graph.neighbors[e]; v != kBoundaryVertex && u < v) f(u, v);
}

std::vector<double> points_xyz(const Graph& graph) {
  if (graph.coord_dim == 3) return graph.coords;
  std::vector<double> xyz(std::size_t(graph.num_vertices()) * 3, 0.0);  // z = 0
  for (std::size_t v = 0; v < graph.num_vertices(); ++v) {
    xyz[3 * v] = graph.coords[2 * v];
    xyz[3 * v + 1] = graph.coords[2 * v + 1];
  }
  return xyz;
}

bool shows_edges(const Graph& graph, VtkEdges edges) {
  if (edges != VtkEdges::automatic) return edges == VtkEdges::lines;
  std::uint64_t count = 0;
  for_each_undirected_edge(graph, [&](VertexId, VertexId) { ++count; });
  return count <= kVtkAutomaticEdgeLimit;
}

void check_mesh_elements(const std::string& base, const Mesh& mesh, const std::vector<std::uint32_t>& elements) {
  const std::string where = error_prefix(base);
  if (mesh.nodes.size() % 3 != 0 || mesh.element_offsets.size() != mesh.num_elements() + 1 ||
      mesh.element_offsets.back() != mesh.element_nodes.size())
    throw Error(where + "the mesh's node or element arrays are inconsistent");
  for (std::uint32_t element : elements) {
    if (element >= mesh.num_elements())
      throw Error(where + "element " + std::to_string(element) + " is not in the mesh (" +
                  std::to_string(mesh.num_elements()) + " elements)");
    if (mesh.element_type[element] == kVtkPolyhedron)
      throw Error(where + "element " + std::to_string(element) +
                  " is a polyhedron, which this writer does not support");
    const std::uint64_t end = mesh.element_offsets[element + 1];
    for (std::uint64_t k = mesh.element_offsets[element]; k < end; ++k)
      if (mesh.element_nodes[k] >= mesh.num_nodes())
        throw Error(where + "element " + std::to_string(element) + " uses node " +
                    std::to_string(mesh.element_nodes[k]) + " of " + std::to_string(mesh.num_nodes()));
  }
}

// "0 X 0 Y 0 Z" in points; axes the grid does not have stay flat (0 0).
std::string grid_extent(const GridSpec& grid) {
  std::string extent;
  for (int axis = 0; axis < 3; ++axis)
    extent += (axis ? " 0 " : "0 ") + std::to_string(axis < grid.dims ? grid.size[axis] : 0);
  return extent;
}

void check_grid_shape(const std::string& base, const GridSpec& grid) {
  bool ok = grid.dims >= 1 && grid.dims <= 3;
  for (int axis = 0; axis < 3 && ok; ++axis) ok = axis < grid.dims ? grid.size[axis] >= 1 : grid.size[axis] == 1;
  if (!ok) throw Error(error_prefix(base) + "the grid has no cells or sizes beyond its dimensions");
}

// The ParaView collection (.pvd) of the snapshots written at `steps`, each named by its file
// name alone (snapshots sit beside the collection).
template <class SnapshotPath>
void write_collection(const std::string& path, const std::vector<std::uint64_t>& steps, SnapshotPath snapshot_path) {
  AtomicFile file(path);
  std::ostream& out = file.stream();
  VtkXml xml(out, VtkEncoding::ascii);  // elements only, no arrays
  out << "<?xml version=\"1.0\"?>\n";
  xml.open("VTKFile", attr("type", "Collection") + attr("version", "1.0") + attr("byte_order", "LittleEndian"));
  xml.open("Collection");
  for (std::uint64_t step : steps) {
    const std::string file_name = std::filesystem::path(snapshot_path(step)).filename().string();
    xml.empty("DataSet", attr("timestep", step) + attr("part", 0) + attr("file", file_name));
  }
  xml.close("Collection");
  xml.close("VTKFile");
  file.commit();
}

std::string zero_padded_path(const std::string& base, std::uint64_t step, const std::string& extension) {
  const std::string digits = std::to_string(step);
  const std::string zeros(digits.size() < 6 ? 6 - digits.size() : 0, '0');
  return base + "_" + zeros + digits + "." + extension;
}

}  // namespace

std::optional<VtkEncoding> vtk_encoding_for_compression(std::string_view name) {
  if (name == "zlib") return VtkEncoding::zlib;
  if (name == "none") return VtkEncoding::binary;
  return std::nullopt;
}

VtkSeries::VtkSeries(std::string base, VtkFormat format, SnapshotTemplate snapshot)
    : base_(std::move(base)), format_(format), template_(std::move(snapshot)) {
  // Snapshots sit beside the collection, which lists them by file name alone.
  if (std::filesystem::path(base_).filename().empty())
    throw Error(error_prefix(base_) + "the base path names a folder; give a name prefix (out/run)");
}

VtkSeries VtkSeries::for_grid(std::string base, const GridSpec& grid, VtkFormat format) {
  check_grid_shape(base, grid);
  const std::string extent = grid_extent(grid);
  const std::string image = attr("WholeExtent", extent) + attr("Origin", "0 0 0") + attr("Spacing", "1 1 1");
  Skeleton skeleton =
      render_skeleton(format.encoding, "ImageData", image, attr("Extent", extent), "CellData", [](VtkXml&) {});
  return VtkSeries(std::move(base), format,
                   {.extension = "vti",
                    .before_states = std::move(skeleton.before_states),
                    .after_states = std::move(skeleton.after_states),
                    .states_depth = skeleton.states_depth,
                    .state_count = grid.cell_count(),
                    .counted = "grid cells",
                    .states_per_line = std::size_t(grid.size[0])});
}

VtkSeries VtkSeries::for_graph(std::string base, const Graph& graph, VtkEdges edges, VtkFormat format) {
  const VertexId n = graph.num_vertices();
  const bool has_coords =
      (graph.coord_dim == 2 || graph.coord_dim == 3) && graph.coords.size() == std::size_t(n) * graph.coord_dim;
  if (!has_coords) throw Error(error_prefix(base) + "the graph needs coordinates, 2 or 3 per vertex");
  CellList cells;
  for (VertexId v = 0; v < n; ++v) cells.add(kVtkVertex, std::span(&v, 1));
  if (shows_edges(graph, edges))
    for_each_undirected_edge(graph, [&](VertexId u, VertexId v) {
      const std::array<std::uint32_t, 2> line{u, v};
      cells.add(kVtkLine, line);
    });
  Skeleton skeleton = render_unstructured(format.encoding, points_xyz(graph), cells, "PointData");
  return VtkSeries(std::move(base), format,
                   {.extension = "vtu",
                    .before_states = std::move(skeleton.before_states),
                    .after_states = std::move(skeleton.after_states),
                    .states_depth = skeleton.states_depth,
                    .state_count = n,
                    .counted = "vertices"});
}

VtkSeries VtkSeries::for_mesh_elements(std::string base, const Mesh& mesh, const std::vector<std::uint32_t>& elements,
                                       VtkFormat format) {
  check_mesh_elements(base, mesh, elements);
  const std::span<const std::uint32_t> nodes(mesh.element_nodes);
  CellList cells;
  for (std::uint32_t element : elements) {
    const std::uint64_t first = mesh.element_offsets[element];
    cells.add(mesh.element_type[element], nodes.subspan(first, mesh.element_offsets[element + 1] - first));
  }
  Skeleton skeleton = render_unstructured(format.encoding, mesh.nodes, cells, "CellData");
  return VtkSeries(std::move(base), format,
                   {.extension = "vtu",
                    .before_states = std::move(skeleton.before_states),
                    .after_states = std::move(skeleton.after_states),
                    .states_depth = skeleton.states_depth,
                    .state_count = elements.size(),
                    .counted = "elements"});
}

std::string VtkSeries::snapshot_path(std::uint64_t step) const {
  return zero_padded_path(base_, step, template_.extension);
}

void VtkSeries::write(std::uint64_t step, const std::vector<std::uint32_t>& states,
                      const std::vector<VtkNamedArray>& more) {
  if (states.size() != template_.state_count)
    throw Error(error_prefix(base_) + "step " + std::to_string(step) + " has " + std::to_string(states.size()) +
                " states for " + std::to_string(template_.state_count) + " " + template_.counted);
  for (std::size_t i = 0; i < more.size(); ++i) {
    const VtkNamedArray& array = more[i];
    bool repeated = array.name == "state";
    for (std::size_t j = 0; j < i; ++j) repeated |= more[j].name == array.name;
    if (array.name.empty() || repeated)
      throw Error(error_prefix(base_) + "array name " + quoted_text(array.name) + " is empty, 'state' or repeated");
    if (array.values.size() != template_.state_count)
      throw Error(error_prefix(base_) + "step " + std::to_string(step) + " has " + std::to_string(array.values.size()) +
                  " values of " + array.name + " for " + std::to_string(template_.state_count) + " " +
                  template_.counted);
  }
  if (!steps_.empty() && step <= steps_.back())
    throw Error(error_prefix(base_) + "step " + std::to_string(step) + " written after step " +
                std::to_string(steps_.back()) + "; steps must increase");
  AtomicFile file(snapshot_path(step));
  std::ostream& out = file.stream();
  out << template_.before_states;
  VtkXml xml(out, format_.encoding, template_.states_depth);
  // The type the model's states need; 0 states (not known) keeps UInt32.
  const std::uint64_t largest_state =
      format_.num_states ? format_.num_states - 1 : std::numeric_limits<std::uint32_t>::max();
  xml.data_array({"state", 1, template_.states_per_line}, detail::narrowest_unsigned(states, largest_state));
  for (const VtkNamedArray& array : more) xml.data_array({array.name, 1, template_.states_per_line}, array.values);
  out << template_.after_states;
  file.commit();
  steps_.push_back(step);
}

void VtkSeries::finish() {
  write_collection(collection_path(), steps_, [&](std::uint64_t step) { return snapshot_path(step); });
}

VtkPointSeries::VtkPointSeries(std::string base, int dims, VtkEncoding encoding)
    : base_(std::move(base)), dims_(dims), encoding_(encoding) {
  if (std::filesystem::path(base_).filename().empty())
    throw Error(error_prefix(base_) + "the base path names a folder; give a name prefix (out/run)");
  if (dims_ != 2 && dims_ != 3) throw Error(error_prefix(base_) + "points have 2 or 3 coordinates");
}

std::string VtkPointSeries::snapshot_path(std::uint64_t step) const { return zero_padded_path(base_, step, "vtu"); }

void VtkPointSeries::write(std::uint64_t step, const std::vector<double>& positions, const std::vector<Array>& arrays) {
  const std::string where = error_prefix(base_);
  if (positions.size() % dims_ != 0)
    throw Error(where + std::to_string(positions.size()) + " coordinates are not points of " + std::to_string(dims_));
  const std::size_t n = positions.size() / dims_;
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    const Array& a = arrays[i];
    bool repeated = a.name == "id";
    for (std::size_t j = 0; j < i; ++j) repeated |= arrays[j].name == a.name;
    if (a.name.empty() || repeated)
      throw Error(where + "array name " + quoted_text(a.name) + " is empty, 'id' or repeated");
    if (a.components < 1 || a.components > 3 || a.values.size() != n * a.components)
      throw Error(where + "array " + a.name + " has " + std::to_string(a.values.size()) + " values for " +
                  std::to_string(n) + " points of " + std::to_string(a.components) + " components");
  }
  if (!steps_.empty() && step <= steps_.back())
    throw Error(where + "step " + std::to_string(step) + " written after step " + std::to_string(steps_.back()) +
                "; steps must increase");
  // Vectors get three components (z = 0 in 2D), as ParaView's glyphs want them.
  auto as_xyz = [&](const std::vector<double>& values, int components) {
    std::vector<double> xyz(n * 3, 0.0);
    for (std::size_t p = 0; p < n; ++p)
      for (int c = 0; c < components; ++c) xyz[3 * p + c] = values[p * components + c];
    return xyz;
  };
  CellList cells;
  cells.connectivity.resize(n);
  cells.offsets.resize(n);
  cells.types.assign(n, kVtkVertex);
  for (std::size_t p = 0; p < n; ++p) cells.connectivity[p] = std::int64_t(p), cells.offsets[p] = std::int64_t(p + 1);
  std::vector<std::uint32_t> ids(n);
  for (std::size_t p = 0; p < n; ++p) ids[p] = std::uint32_t(p);

  AtomicFile file(snapshot_path(step));
  std::ostream& out = file.stream();
  VtkXml xml(out, encoding_);
  out << "<?xml version=\"1.0\"?>\n";
  xml.open("VTKFile", detail::vtk_file_attributes("UnstructuredGrid", encoding_));
  xml.open("UnstructuredGrid");
  xml.open("Piece", attr("NumberOfPoints", n) + attr("NumberOfCells", n));
  xml.open("PointData", attr("Scalars", "id"));
  xml.data_array({"id"}, detail::narrowest_unsigned(ids, 0));
  for (const Array& a : arrays) {
    if (a.components == 1) xml.data_array({a.name}, detail::narrowest_real(a.values));
    else xml.data_array({a.name, 3, 3}, detail::narrowest_real(as_xyz(a.values, a.components)));
  }
  xml.close("PointData");
  write_points_and_cells(xml, as_xyz(positions, dims_), cells);
  xml.close("Piece");
  xml.close("UnstructuredGrid");
  xml.close("VTKFile");
  file.commit();
  steps_.push_back(step);
}

void VtkPointSeries::finish() {
  write_collection(collection_path(), steps_, [&](std::uint64_t step) { return snapshot_path(step); });
}

}  // namespace cellgraph
