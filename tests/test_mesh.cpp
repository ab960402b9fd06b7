// Mesh readers and mesh graphs: the sample meshes against the counts in
// data/meshes/PROVENANCE.md, METIS's own dual graph of metis.mesh, hand-written VTK files,
// and one case per kind of malformed input, each checking the "file:line: what" message.
#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "cellgraph/error.hpp"
#include "cellgraph/source/graph_file.hpp"
#include "cellgraph/source/mesh.hpp"
#include "tests/data_path.hpp"

using namespace cellgraph;

#include "scratch.hpp"

namespace {

// VTK cell types, as Mesh::element_type holds them.
constexpr int kVertex = 1, kLine = 3, kTriangle = 5, kQuad = 9, kTetra = 10, kWedge = 13, kQuadraticTetra = 24;

Mesh sample(const std::string& name) { return read_mesh_file(data_path("meshes/" + name)); }

std::map<int, std::uint32_t> count_by_type(const Mesh& mesh) {
  std::map<int, std::uint32_t> counts;
  for (std::uint8_t type : mesh.element_type) ++counts[type];
  return counts;
}

// Element e's nodes.
std::vector<std::uint32_t> nodes_of(const Mesh& mesh, std::uint32_t e) {
  return {mesh.element_nodes.begin() + std::ptrdiff_t(mesh.element_offsets[e]),
          mesh.element_nodes.begin() + std::ptrdiff_t(mesh.element_offsets[e + 1])};
}

std::uint32_t max_degree(const Graph& g) {
  std::uint32_t most = 0;
  for (VertexId v = 0; v < g.num_vertices(); ++v) most = std::max(most, g.degree(v));
  return most;
}

void check_consistent(const Mesh& mesh) {
  REQUIRE(mesh.nodes.size() % 3 == 0);
  REQUIRE(mesh.element_dim.size() == mesh.element_type.size());
  REQUIRE(mesh.element_offsets.size() == mesh.num_elements() + std::size_t{1});
  REQUIRE(mesh.element_offsets.back() == mesh.element_nodes.size());
  CHECK(std::all_of(mesh.element_nodes.begin(), mesh.element_nodes.end(),
                    [&](std::uint32_t node) { return node < mesh.num_nodes(); }));
}

void check_same(const Mesh& a, const Mesh& b) {
  CHECK(a.nodes == b.nodes);
  CHECK(a.element_type == b.element_type);
  CHECK(a.element_dim == b.element_dim);
  CHECK(a.element_offsets == b.element_offsets);
  CHECK(a.element_nodes == b.element_nodes);
}

// Files written by the tests, in a folder of their own; errors are shown relative to it.
const ScratchDir& temp_dir() {
  static const ScratchDir dir;
  return dir;
}

Mesh read_text(const std::string& name, const std::string& bytes) {
  const Mesh mesh = read_mesh_file(temp_dir().write(name, bytes));
  check_consistent(mesh);
  return mesh;
}

// The ParseError message for `bytes` read as file `name`; "(no error)" when none.
std::string error_of(const std::string& name, const std::string& bytes) {
  try {
    read_mesh_file(temp_dir().write(name, bytes));
  } catch (const ParseError& e) {
    std::string what = e.what();
    if (what.starts_with((temp_dir().path() / "").string())) what.erase(0, (temp_dir().path() / "").string().size());
    return what;
  }
  return "(no error)";
}

template <class T>
std::string bytes_of(const std::vector<T>& values) {
  return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
}

std::string base64(const std::string& bytes) {
  static constexpr char kDigits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    std::uint32_t bits = 0;
    const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
    for (std::size_t k = 0; k < 3; ++k) bits = bits << 8 | (k < n ? static_cast<unsigned char>(bytes[i + k]) : 0u);
    for (std::size_t k = 0; k < 4; ++k) out += k <= n ? kDigits[(bits >> (18 - 6 * k)) & 63] : '=';
  }
  return out;
}

// Two tetrahedra sharing the face 1-2-3, and a triangle on the first one's face 0-1-2.
const std::vector<double> kPoints = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1};
const std::vector<std::uint32_t> kConnectivity = {0, 1, 2, 3, 1, 2, 3, 4, 0, 1, 2};
const std::vector<std::uint64_t> kOffsets = {0, 4, 8, 11};
const std::vector<std::uint8_t> kTypes = {kTetra, kTetra, kTriangle};

void check_two_tets_and_a_triangle(const Mesh& mesh) {
  CHECK(mesh.nodes == kPoints);
  CHECK(mesh.element_nodes == kConnectivity);
  CHECK(mesh.element_offsets == kOffsets);
  CHECK(mesh.element_type == kTypes);
  CHECK(mesh.element_dim == std::vector<std::uint8_t>{3, 3, 2});
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Gmsh samples (counts from /work/shared/data/MANIFEST.md section 3)

TEST_CASE("mesh: Gmsh samples have their published node and element counts") {
  struct Expected {
    const char* file;
    std::uint32_t nodes;
    std::map<int, std::uint32_t> elements;
  };
  const Expected samples[] = {
      {"t1_2d_tri_v41.msh", 5774, {{kTriangle, 11226}, {kLine, 280}}},
      {"t1_2d_tri_v22.msh", 5774, {{kTriangle, 11226}, {kLine, 280}}},
      {"t11_2d_quad_v41.msh", 3519, {{kQuad, 3485}, {kLine, 66}, {kVertex, 4}}},
      {"t5_3d_tet_v41.msh", 2857, {{kTetra, 13391}}},
      {"t5_3d_tet_v41_binary.msh", 2857, {{kTetra, 13391}}},
      {"t3_3d_tet_prism_v41.msh", 11284, {{kTetra, 21720}, {kWedge, 12308}, {kTriangle, 724}, {kLine, 70}}},
  };
  for (const Expected& expected : samples) {
    CAPTURE(expected.file);
    const Mesh mesh = sample(expected.file);
    check_consistent(mesh);
    CHECK(mesh.has_coordinates);
    CHECK(mesh.num_nodes() == expected.nodes);
    CHECK(count_by_type(mesh) == expected.elements);
  }
}

TEST_CASE("mesh: MSH 2.2 and 4.1 of t1 hold the same nodes and elements") {
  check_same(sample("t1_2d_tri_v22.msh"), sample("t1_2d_tri_v41.msh"));
}

TEST_CASE("mesh: binary MSH 4.1 of t5 equals the ASCII file") {
  const Mesh binary = sample("t5_3d_tet_v41_binary.msh"), ascii = sample("t5_3d_tet_v41.msh");
  // Gmsh prints 16 significant digits, which may lose the last bit of a double.
  REQUIRE(binary.nodes.size() == ascii.nodes.size());
  double largest_difference = 0;
  for (std::size_t i = 0; i < ascii.nodes.size(); ++i)
    largest_difference = std::max(largest_difference, std::abs(binary.nodes[i] - ascii.nodes[i]));
  CHECK(largest_difference < 1e-15);
  Mesh binary_exact = binary;
  binary_exact.nodes = ascii.nodes;
  check_same(binary_exact, ascii);
}

TEST_CASE("mesh: Gmsh node tags with gaps, parametric nodes and second-order tetrahedra") {
  // Tags 10, 20, ... and 1000000 (sparse enough for the hash map); the tet10's last two
  // nodes come out swapped, in VTK's order.
  const std::string text =
      "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n"
      "$Nodes\n2 11 10 1000000\n"
      "3 1 0 10\n10\n20\n30\n40\n50\n60\n70\n80\n90\n100\n"
      "0 0 0\n1 0 0\n0 1 0\n0 0 1\n0.5 0 0\n0.5 0.5 0\n0 0.5 0\n0 0 0.5\n0 0.5 0.5\n0.5 0 0.5\n"
      "1 7 1 1\n1000000\n0.25 0.25 0.25 0.5\n"  // parametric: x y z u
      "$EndNodes\n"
      "$Elements\n2 2 1 2\n3 1 11 1\n1 10 20 30 40 50 60 70 80 90 100\n"
      "0 7 15 1\n2 1000000\n$EndElements\n";
  const Mesh mesh = read_text("sparse.msh", text);
  REQUIRE(mesh.num_nodes() == 11);
  CHECK(mesh.nodes[30] == 0.25);
  CHECK(mesh.element_type == std::vector<std::uint8_t>{kQuadraticTetra, kVertex});
  CHECK(mesh.element_dim == std::vector<std::uint8_t>{3, 0});
  CHECK(nodes_of(mesh, 0) == std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5, 6, 7, 9, 8});
  CHECK(nodes_of(mesh, 1) == std::vector<std::uint32_t>{10});
}

TEST_CASE("mesh: binary MSH 2.2 equals its ASCII twin") {
  const std::string ascii =
      "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n"
      "$Nodes\n4\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 1 1 0\n$EndNodes\n"
      "$Elements\n3\n1 2 2 0 1 1 2 3\n2 2 2 0 1 2 4 3\n3 1 1 7 1 2\n$EndElements\n";
  std::string binary =
      "$MeshFormat\n2.2 1 8\n" + bytes_of(std::vector<std::int32_t>{1}) + "\n$EndMeshFormat\n$Nodes\n4\n";
  const double xy[4][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};
  for (int i = 0; i < 4; ++i)
    binary += bytes_of(std::vector<std::int32_t>{i + 1}) + bytes_of(std::vector<double>{xy[i][0], xy[i][1], 0});
  binary += "\n$EndNodes\n$Elements\n3\n";
  // Blocks: (type, count, tags), then per element its tag, tags and nodes.
  binary += bytes_of(std::vector<std::int32_t>{2, 2, 2, 1, 0, 1, 1, 2, 3, 2, 0, 1, 2, 4, 3});
  binary += bytes_of(std::vector<std::int32_t>{1, 1, 1, 3, 7, 1, 2});
  binary += "\n$EndElements\n";
  check_same(read_text("binary22.msh", binary), read_text("ascii22.msh", ascii));
}

// ---------------------------------------------------------------------------------------------
// METIS meshes and mesh graphs

TEST_CASE("mesh: METIS metis.mesh, its dual graph equals m2gmetis's, and its nodal graph") {
  const Mesh mesh = sample("metis.mesh");
  check_consistent(mesh);
  CHECK_FALSE(mesh.has_coordinates);
  CHECK(mesh.num_nodes() == 4038);
  CHECK(count_by_type(mesh) == std::map<int, std::uint32_t>{{kTriangle, 7434}});

  // metis.mesh.dual.graph is byte-identical to `m2gmetis metis.mesh` (ncommon 1).
  const MeshGraph dual = mesh_to_graph(mesh, {.kind = MeshGraphKind::dual, .ncommon = 1});
  const Graph expected = read_graph_file(data_path("meshes/metis.mesh.dual.graph"));
  CHECK(dual.graph.num_vertices() == 7434);
  CHECK(undirected_edge_count(dual.graph) == 43031);
  CHECK(dual.graph.offsets == expected.offsets);
  CHECK(dual.graph.neighbors == expected.neighbors);
  CHECK(dual.graph.coord_dim == 0);  // METIS meshes have no coordinates

  const MeshGraph nodal = mesh_to_graph(mesh, {.kind = MeshGraphKind::nodal});
  check_graph(nodal.graph, "nodal graph");
  CHECK(nodal.graph.num_vertices() == 4038);
  CHECK(undirected_edge_count(nodal.graph) == 11476);
}

TEST_CASE("mesh: dual graphs join elements across faces by default") {
  SUBCASE("triangles share edges") {
    const Mesh mesh = sample("t1_2d_tri_v41.msh");
    const MeshGraph dual = mesh_to_graph(mesh);
    check_graph(dual.graph, "dual graph");
    REQUIRE(dual.graph.num_vertices() == 11226);
    CHECK(max_degree(dual.graph) == 3);
    // The centroid of the first triangle.
    REQUIRE(dual.graph.coord_dim == 3);
    const std::uint32_t e = dual.elements[0];
    CHECK(mesh.element_type[e] == kTriangle);
    for (int c = 0; c < 3; ++c) {
      double sum = 0;
      for (std::uint32_t node : nodes_of(mesh, e)) sum += mesh.nodes[3 * node + c];
      CHECK(dual.graph.coords[c] == doctest::Approx(sum / 3));
    }
  }
  SUBCASE("tetrahedra and prisms share triangles") {
    const MeshGraph dual = mesh_to_graph(sample("t3_3d_tet_prism_v41.msh"));
    check_graph(dual.graph, "dual graph");
    CHECK(dual.graph.num_vertices() == 21720 + 12308);
    CHECK(max_degree(dual.graph) == 5);  // a prism's two triangles and three quads
  }
  SUBCASE("tetrahedra, binary or not") {
    const MeshGraph ascii = mesh_to_graph(sample("t5_3d_tet_v41.msh"));
    const MeshGraph binary = mesh_to_graph(sample("t5_3d_tet_v41_binary.msh"));
    CHECK(ascii.graph.offsets == binary.graph.offsets);
    CHECK(ascii.graph.neighbors == binary.graph.neighbors);
    CHECK(max_degree(ascii.graph) == 4);
  }
  SUBCASE("lines, chosen by dimension, share nodes") {
    const MeshGraph dual = mesh_to_graph(sample("t1_2d_tri_v41.msh"), {.element_dim = 1});
    CHECK(dual.graph.num_vertices() == 280);
    CHECK(max_degree(dual.graph) == 2);
  }
  SUBCASE("no elements of the dimension asked for") {
    CHECK_THROWS_WITH_AS(mesh_to_graph(sample("t5_3d_tet_v41.msh"), {.element_dim = 2}),
                         "the mesh has no elements of dimension 2", Error);
  }
}

TEST_CASE("mesh: nodal graphs keep every node as a vertex") {
  const Mesh mesh = sample("t11_2d_quad_v41.msh");
  const MeshGraph nodal = mesh_to_graph(mesh, {.kind = MeshGraphKind::nodal});
  check_graph(nodal.graph, "nodal graph");
  CHECK(nodal.graph.num_vertices() == mesh.num_nodes());
  CHECK(nodal.graph.coords == mesh.nodes);
  CHECK(nodal.elements.empty());
}

// ---------------------------------------------------------------------------------------------
// VTK files written by hand

TEST_CASE("mesh: legacy VTK, classic and 5.x cell layouts") {
  const std::string points = "POINTS 5 float\n0 0 0 1 0 0 0 1\n0 0 0 1\n1 1 1\n";
  const std::string classic =
      "# vtk DataFile Version 3.0\ntwo tets\nASCII\n"
      "DATASET UNSTRUCTURED_GRID\n" +
      points +
      "CELLS 3 14\n4 0 1 2 3\n4 1 2 3 4\n3 0 1 2\n"
      "CELL_TYPES 3\n10\n10\n5\nCELL_DATA 3\nSCALARS s int 1\n";
  check_two_tets_and_a_triangle(read_text("classic.vtk", classic));

  const std::string v5 = "# vtk DataFile Version 5.1\n\nASCII\nDATASET UNSTRUCTURED_GRID\n" + points +
                         "METADATA\nINFORMATION 0\n\nCELLS 4 11\n"
                         "OFFSETS vtktypeint64\n0 4 8 11\n"
                         "CONNECTIVITY vtktypeint64\n0 1 2 3 1 2 3 4\n0 1 2\n"
                         "CELL_TYPES 3\n10 10 5\n";
  check_two_tets_and_a_triangle(read_text("v5.vtk", v5));
}

TEST_CASE("mesh: VTU with ascii and base64 arrays") {
  const auto vtu = [](const std::string& header_type, const std::string& points, const std::string& connectivity,
                      const std::string& offsets, const std::string& types, const std::string& format) {
    return "<?xml version=\"1.0\"?>\n<!-- written by hand -->\n"
           "<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\" "
           "header_type=\"" +
           header_type +
           "\">\n<UnstructuredGrid>\n"
           "<Piece NumberOfPoints=\"5\" NumberOfCells=\"3\">\n<PointData/>\n<Points>\n"
           "<DataArray type=\"Float64\" Name=\"Points\" NumberOfComponents=\"3\" format=\"" +
           format + "\">\n" + points +
           "\n</DataArray>\n</Points>\n<Cells>\n"
           "<DataArray type=\"Int64\" Name=\"connectivity\" format=\"" +
           format + "\">" + connectivity +
           "</DataArray>\n"
           "<DataArray type=\"Int64\" Name=\"offsets\" format=\"" +
           format + "\">" + offsets +
           "</DataArray>\n"
           "<DataArray type=\"UInt8\" Name=\"types\" format=\"" +
           format + "\">" + types + "</DataArray>\n</Cells>\n</Piece>\n</UnstructuredGrid>\n</VTKFile>\n";
  };
  SUBCASE("ascii") {
    check_two_tets_and_a_triangle(read_text("ascii.vtu", vtu("UInt32", "0 0 0 1 0 0\n0 1 0 0 0 1\n1 1 1",
                                                             "0 1 2 3 1 2 3 4 0 1 2", "4 8 11", "10 10 5", "ascii")));
  }
  // VTK encodes the size header apart from the data; meshio encodes them together.
  const auto encoded = [](auto header, const std::string& data, bool apart) {
    const std::string size = bytes_of(std::vector<decltype(header)>{decltype(header)(data.size())});
    return apart ? base64(size) + base64(data) : base64(size + data);
  };
  const std::vector<std::int64_t> connectivity(kConnectivity.begin(), kConnectivity.end());
  const std::vector<std::int64_t> offsets = {4, 8, 11};
  for (const bool apart : {true, false}) {
    CAPTURE(apart);
    SUBCASE("base64, UInt32 header") {
      const std::uint32_t h = 0;
      check_two_tets_and_a_triangle(read_text(
          "b32.vtu", vtu("UInt32", encoded(h, bytes_of(kPoints), apart), encoded(h, bytes_of(connectivity), apart),
                         encoded(h, bytes_of(offsets), apart), encoded(h, bytes_of(kTypes), apart), "binary")));
    }
    SUBCASE("base64, UInt64 header") {
      const std::uint64_t h = 0;
      check_two_tets_and_a_triangle(read_text(
          "b64.vtu", vtu("UInt64", encoded(h, bytes_of(kPoints), apart), encoded(h, bytes_of(connectivity), apart),
                         encoded(h, bytes_of(offsets), apart), encoded(h, bytes_of(kTypes), apart), "binary")));
    }
  }
  SUBCASE("faults") {
    CHECK(error_of("bad.vtu", vtu("UInt32", "0 0 0 1 0 0\n0 1 0 0 0 1\n1 1 1", "0 1 2 3 1 2 3 9 0 1 2", "4 8 11",
                                  "10 10 5", "ascii")) == "bad.vtu:15: cell 1 refers to point 9, but there are 5");
    CHECK(error_of("bad.vtu", vtu("UInt32", "0 0 0 1 0 0\n0 1 0 0 0 1\n1 1 1", "0 1 2 3 1 2 3 4 0 1 2", "4 8 11",
                                  "10 42 5", "ascii")) == "bad.vtu:17: cell 1 has VTK type 42, which is not supported");
    CHECK(error_of("bad.vtu", vtu("UInt32", "0 0 0 1 0 0\n0 1 0 0 0 x\n1 1 1", "0 1 2 3 1 2 3 4 0 1 2", "4 8 11",
                                  "10 10 5", "ascii")) == "bad.vtu:10: coordinate 'x' is not a finite number");
  }
}

// ---------------------------------------------------------------------------------------------
// Malformed input

TEST_CASE("mesh: malformed Gmsh files") {
  const std::string format = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n";
  const std::string nodes = "$Nodes\n3\n1 0 0 0\n2 1 0 0\n3 0 1 0\n$EndNodes\n";
  CHECK(error_of("t.msh", format + "$Nodes\n3\n1 0 0 0\n2 1 0 0\n$EndNodes\n") ==
        "t.msh:8: $Nodes holds 2 nodes, but its header gives 3");
  CHECK(error_of("t.msh", format + "$Nodes\n3\n1 0 0 0\n2 1 0 0\n") ==
        "t.msh:7: $Nodes holds 2 nodes, but its header gives 3");
  CHECK(error_of("t.msh", format + "$Nodes\n2\n1 0 0 0\n2 1 0 0\n3 0 1 0\n$EndNodes\n") ==
        "t.msh:8: expected $EndNodes, found '3'");
  CHECK(error_of("t.msh", format + "$Nodes\n2\n1 0 0 0\n1 1 0 0\n$EndNodes\n") ==
        "t.msh:4: node tag 1 appears twice in $Nodes");
  CHECK(error_of("t.msh", format + nodes + "$Elements\n1\n1 2 0 1 2 4\n$EndElements\n") ==
        "t.msh:12: element 1 refers to node 4, which $Nodes lacks");
  CHECK(error_of("t.msh", format + nodes + "$Elements\n1\n1 19 0 1 2 3\n$EndElements\n") ==
        "t.msh:12: element type 19 is not supported (1-11, 15 and 16 are)");
  CHECK(error_of("t.msh", format + nodes + "$Elements\n1\n1 2 0 1 2\n$EndElements\n") ==
        "t.msh:12: a triangle with 0 tags needs 6 fields, found 5 fields");
  CHECK(error_of("t.msh", format + nodes + "$Elements\n2\n1 2 0 1 2 3\n$EndElements\n") ==
        "t.msh:13: $Elements holds 1 elements, but its header gives 2");
  CHECK(error_of("t.msh", format + "$Elements\n0\n$EndElements\n") == "t.msh:4: $Elements comes before $Nodes");
  CHECK(error_of("t.msh", format + "$PhysicalNames\n1\n2 1 \"s\"\n") ==
        "t.msh:4: $PhysicalNames has no $EndPhysicalNames");
  CHECK(error_of("t.msh", "$MeshFormat\n4.0 0 8\n$EndMeshFormat\n") ==
        "t.msh:2: MSH version 4.0 is not supported (2.2 and 4.1 are)");
  CHECK(error_of("t.msh", "$MeshFormat\n2.2 0 8\n") == "t.msh:2: the file ends before $EndMeshFormat");

  const std::string format41 = "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n";
  CHECK(error_of("t.msh", format41 + "$Nodes\n1 2 1 2\n2 1 0 3\n1\n2\n3\n0 0 0\n1 1 1\n2 2 2\n$EndNodes\n") ==
        "t.msh:6: $Nodes holds 3 nodes, but its header gives 2");
  CHECK(error_of("t.msh", format41 + "$Nodes\n1 2 1 2\n2 1 0 2\n1\n2\n0 0 0\n$EndNodes\n") ==
        "t.msh:10: $Nodes holds 1 nodes, but its header gives 2");
  CHECK(error_of("t.msh", format41 + "$Nodes\n1 2 1 2\n2 1 0 2\n1\n2\n0 0 0\n1 1\n$EndNodes\n") ==
        "t.msh:10: expected 3 coordinates, found 2 fields");

  // Binary: the error names the line that the bytes are on.
  std::string binary = "$MeshFormat\n4.1 1 8\n" + bytes_of(std::vector<std::int32_t>{1}) +
                       "\n$EndMeshFormat\n$Nodes\n" + bytes_of(std::vector<std::uint64_t>{1, 5, 1, 5}) +
                       bytes_of(std::vector<std::int32_t>{2, 1, 0}) + bytes_of(std::vector<std::uint64_t>{5}) +
                       bytes_of(std::vector<std::uint64_t>{1, 2});
  CHECK(error_of("b.msh", binary) ==
        "b.msh:6: the file ends inside $Nodes (at byte " + std::to_string(binary.size()) + ")");
}

TEST_CASE("mesh: malformed METIS meshes") {
  CHECK(error_of("t.mesh", "") == "t.mesh:0: empty file; expected the header 'ne [ncon]'");
  CHECK(error_of("t.mesh", "% comment\n3\n1 2 3\n2 3 4\n") ==
        "t.mesh:2: the header gives 3 elements, but the file has 2 element lines");
  CHECK(error_of("t.mesh", "1\n1 2 3\n2 3 4\n") == "t.mesh:3: more than the 1 element lines the header gives");
  CHECK(error_of("t.mesh", "1\n1 0 3\n") == "t.mesh:2: node 0 is out of range 1..4294967294");
  CHECK(error_of("t.mesh", "1\n1 2 3 4 5 6 7\n") == "t.mesh:2: element 1 has 7 nodes; known elements have 1-6 or 8");
  CHECK(error_of("t.mesh", "1 1\n5 1 2 3\n") == "(no error)");  // weight 5, then a triangle
  CHECK(error_of("t.mesh", "1 2\n5\n") == "t.mesh:2: element 1 needs 2 weights and then its nodes, found 1 field");
}

TEST_CASE("mesh: malformed legacy VTK files") {
  const std::string head = "# vtk DataFile Version 3.0\nt\nASCII\nDATASET UNSTRUCTURED_GRID\n";
  CHECK(error_of("t.vtk", "# vtk DataFile Version 3.0\nt\nBINARY\n") ==
        "t.vtk:3: only ASCII legacy VTK files are supported");
  CHECK(error_of("t.vtk", head + "POINTS 2 float\n0 0 0 1 1\n") == "t.vtk:6: the file ends before the end of POINTS");
  CHECK(error_of("t.vtk", head + "POINTS 2 float\n0 0 0 1 1 1\nCELLS 1 3\n2 0 2\nCELL_TYPES 1\n3\n") ==
        "t.vtk:7: cell 0 refers to point 2, but there are 2");
  CHECK(error_of("t.vtk", head + "POINTS 2 float\n0 0 0 1 1 1\nCELLS 1 4\n2 0 1\nCELL_TYPES 1\n3\n") ==
        "t.vtk:7: CELLS holds 3 numbers, but its header gives 4");
  CHECK(error_of("t.vtk", head + "POINTS 2 float\n0 0 0 1 1 1\nCELLS 1 3\n2 0 1\nCELL_TYPES 1\n5\n") ==
        "t.vtk:7: cell 0, a triangle, has 2 nodes");
}
