// cellgraph.Graph: every source the CLI reads or generates, and graphs from NumPy edge arrays
// (networkx and SciPy graphs reach it through them: cellgraph/__init__.py).
#include <pybind11/stl.h>

#include <set>
#include <sstream>

#include "cellgraph/error.hpp"
#include "python/src/bindings.hpp"

namespace cellgraph::python {
namespace {

GraphHandle load(const SourceSpec& spec) {
  py::gil_scoped_release released;  // a large file or generator takes seconds
  return {std::make_shared<const Source>(load_source(spec))};
}

// "512x512" from "512x512" or (512, 512).
std::string grid_text(const py::object& shape) {
  if (py::isinstance<py::str>(shape)) return shape.cast<std::string>();
  std::string text;
  for (const py::handle& size : shape) text += (text.empty() ? "" : "x") + std::to_string(size.cast<std::int64_t>());
  if (text.empty()) throw Error("a grid's shape needs 1 to 3 sizes, as (512, 512) or \"512x512\"");
  return text;
}

GraphHandle grid(const py::object& shape, const std::string& neighborhood, const std::string& boundary) {
  SourceSpec spec;
  spec.grid = grid_text(shape);
  spec.neighborhood = neighborhood;
  spec.boundary = boundary;
  return load(spec);
}

GraphHandle pattern(const Path& path, const py::object& shape, const std::string& neighborhood,
                    const std::string& boundary) {
  SourceSpec spec;
  spec.pattern_file = path.string();
  if (!shape.is_none()) spec.grid = grid_text(shape);
  spec.neighborhood = neighborhood;
  spec.boundary = boundary;
  return load(spec);
}

GraphHandle read(const Path& path, const std::string& format, const std::string& vertex_ids, int base) {
  SourceSpec spec;
  spec.graph_file = path.string();
  spec.graph_options.format =
      GraphFormat(keyword_choice("format", format, {"auto", "metis", "mtx", "edges", "graphml"}));
  spec.graph_options.vertex_ids =
      keyword_choice("vertex_ids", vertex_ids, {"compact", "index"}) == 0 ? VertexIds::compact : VertexIds::index;
  if (base < -1 || base > 1) throw Error("base must be 0, 1 or -1 (detected)");
  if (base != -1 && spec.graph_options.vertex_ids == VertexIds::compact)
    throw Error("base numbers vertices by their ids: it needs vertex_ids=\"index\"");
  spec.graph_options.edge_list_base = base;
  return load(spec);
}

GraphHandle read_mesh(const Path& path, const std::string& graph, int element_dim, int ncommon) {
  SourceSpec spec;
  spec.mesh_file = path.string();
  spec.mesh_options.kind =
      keyword_choice("graph", graph, {"dual", "nodal"}) == 0 ? MeshGraphKind::dual : MeshGraphKind::nodal;
  if (element_dim < -1 || element_dim > 3) throw Error("element_dim must be -1, 0, 1, 2 or 3");
  if (ncommon < 0 || ncommon > 64) throw Error("ncommon must be from 0 to 64");
  spec.mesh_options.element_dim = element_dim;
  spec.mesh_options.ncommon = ncommon;
  return load(spec);
}

GraphHandle generate(const std::string& generator, std::uint64_t seed) {
  SourceSpec spec;
  spec.generator = generator;
  spec.generator_seed = seed;
  return load(spec);
}

// Undirected edges (two columns of vertex numbers) -> the canonical graph, as an edge-list file
// would give it: both directions, self loops dropped, duplicates merged.
GraphHandle from_edges(const py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>& edges,
                       std::uint64_t num_vertices, const std::vector<std::string>& labels, const py::object& coords,
                       const std::string& description) {
  if (edges.ndim() != 2 || (edges.shape(1) != 2 && edges.shape(0) != 0))
    throw Error("edges must be an array of shape (E, 2), not of " + std::to_string(edges.ndim()) + " dimensions");
  if (num_vertices >= kBoundaryVertex) throw Error("a graph holds fewer than 2^32 - 1 vertices");
  const auto e = edges.unchecked<2>();
  std::vector<std::pair<VertexId, VertexId>> pairs(std::size_t(edges.shape(0)));
  for (py::ssize_t i = 0; i < edges.shape(0); ++i) {
    for (int end = 0; end < 2; ++end)
      if (e(i, end) < 0 || std::uint64_t(e(i, end)) >= num_vertices)
        throw Error("edge " + std::to_string(i) + " names vertex " + std::to_string(e(i, end)) + ", not one of 0.." +
                    std::to_string(std::int64_t(num_vertices) - 1));
    pairs[std::size_t(i)] = {VertexId(e(i, 0)), VertexId(e(i, 1))};
  }
  if (!labels.empty()) {
    if (labels.size() != num_vertices)
      throw Error(std::to_string(labels.size()) + " labels for " + std::to_string(num_vertices) + " vertices");
    std::set<std::string> seen;
    for (const std::string& label : labels)
      if (!seen.insert(label).second) throw Error("two vertices are labelled " + quoted_text(label));
  }
  auto source = std::make_shared<Source>();
  {
    py::gil_scoped_release released;
    source->graph = graph_from_edges(VertexId(num_vertices), pairs);
  }
  if (!coords.is_none()) {
    const auto xy = coords.cast<py::array_t<double, py::array::c_style | py::array::forcecast>>();
    if (xy.ndim() != 2 || std::uint64_t(xy.shape(0)) != num_vertices || (xy.shape(1) != 2 && xy.shape(1) != 3))
      throw Error("coordinates must be an array of shape (" + std::to_string(num_vertices) + ", 2) or (" +
                  std::to_string(num_vertices) + ", 3)");
    source->graph.coord_dim = int(xy.shape(1));
    source->graph.coords.assign(xy.data(), xy.data() + xy.size());
  }
  source->vertex_labels = labels;
  source->description = description;
  check_graph(source->graph, description);
  return {std::move(source)};
}

py::object labels_of(const GraphHandle& g) {
  if (g.source->vertex_labels.empty()) return py::none();
  return py::cast(g.source->vertex_labels);
}

py::object grid_shape(const GraphHandle& g) {
  if (!g.source->grid) return py::none();
  py::tuple shape(g.source->grid->dims);
  for (int d = 0; d < g.source->grid->dims; ++d) shape[d] = g.source->grid->size[d];
  return std::move(shape);
}

py::object coords_of(const GraphHandle& g) {
  const Graph& graph = g.source->graph;
  if (graph.coord_dim == 0) return py::none();
  py::array_t<double> xy({py::ssize_t(graph.num_vertices()), py::ssize_t(graph.coord_dim)});
  std::copy(graph.coords.begin(), graph.coords.end(), xy.mutable_data());
  return std::move(xy);
}

py::tuple csr_of(const GraphHandle& g) {
  const Graph& graph = g.source->graph;
  auto offsets = empty_array<std::int64_t>(graph.offsets.size());
  std::copy(graph.offsets.begin(), graph.offsets.end(), offsets.mutable_data());
  auto neighbors = empty_array<std::uint32_t>(graph.neighbors.size());
  std::copy(graph.neighbors.begin(), graph.neighbors.end(), neighbors.mutable_data());
  return py::make_tuple(offsets, neighbors);
}

}  // namespace

void bind_graph(py::module_& m) {
  py::class_<GraphHandle>(m, "Graph", py::dynamic_attr(), R"(A source compiled into the engine's graph.

Its vertex order is the user order: every state array of a simulation on it is indexed by it.
Build one with Graph.grid, Graph.read, Graph.read_mesh, Graph.generate, Graph.pattern,
Graph.from_edges, Graph.from_scipy or Graph.from_networkx.)")
      .def_static("grid", &grid, py::arg("shape"), py::arg("neighborhood") = "moore", py::arg("boundary") = "periodic",
                  "A 1D, 2D or 3D grid: shape (512, 512) or \"512x512\"; neighborhood moore, vonneumann, hex, "
                  "cloud or custom offsets (\"-1,0;1,0\"); boundary periodic, fixed:V, reflective or open.")
      .def_static("pattern", &pattern, py::arg("path"), py::arg("shape") = py::none(),
                  py::arg("neighborhood") = "moore", py::arg("boundary") = "periodic",
                  "A Golly pattern (RLE, plaintext, Life 1.06) placed in the middle of a 2D grid: the pattern's "
                  "own bounded grid, or shape.")
      .def_static("read", &read, py::arg("path"), py::arg("format") = "auto", py::arg("vertex_ids") = "compact",
                  py::arg("base") = -1,
                  "A graph file: METIS, Matrix Market, GraphML or an edge list (format auto, metis, mtx, graphml, "
                  "edges). An edge list's ids or names become the labels unless vertex_ids=\"index\".")
      .def_static("read_mesh", &read_mesh, py::arg("path"), py::arg("graph") = "dual", py::arg("element_dim") = -1,
                  py::arg("ncommon") = 0,
                  "A mesh (Gmsh, METIS .mesh, VTK): its elements (graph=\"dual\") or nodes (\"nodal\").")
      .def_static("generate", &generate, py::arg("generator"), py::arg("seed") = 1,
                  "A generated graph: \"rgg:N[:degree]\", \"rmat:SCALE[:edge_factor]\" or \"er:N[:degree]\".")
      .def_static("_from_edges", &from_edges, py::arg("edges"), py::arg("num_vertices"),
                  py::arg("labels") = std::vector<std::string>{}, py::arg("coords") = py::none(),
                  py::arg("description") = "graph from Python")
      .def_property_readonly("num_vertices", [](const GraphHandle& g) { return g.source->graph.num_vertices(); })
      .def_property_readonly(
          "num_entries", [](const GraphHandle& g) { return g.source->graph.num_entries(); },
          "Neighbor-list entries: twice the edges of a graph, the slots of a grid.")
      .def_property_readonly("description", [](const GraphHandle& g) { return g.source->description; })
      .def_property_readonly("labels", &labels_of, "The names the source gives its vertices, or None.")
      .def_property_readonly("grid_shape", &grid_shape, "A grid's sizes, or None.")
      .def_property_readonly("coords", &coords_of, "Coordinates, shape (num_vertices, 2 or 3), or None.")
      .def("csr", &csr_of, "(offsets, neighbors): row v is neighbors[offsets[v]:offsets[v + 1]].")
      .def("__len__", [](const GraphHandle& g) { return g.source->graph.num_vertices(); })
      .def("__repr__", [](const GraphHandle& g) {
        return "<cellgraph.Graph " + g.source->description + ", " + std::to_string(g.source->graph.num_vertices()) +
               " vertices>";
      });
}

}  // namespace cellgraph::python
