// ParaView outputs: exact XML for tiny cases, base64 and zlib round trips, array types, the
// collection, atomicity.
#include <doctest/doctest.h>

#include <unistd.h>

#include <zlib.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "cellgraph/error.hpp"
#include "cellgraph/output/vtk.hpp"

namespace fs = std::filesystem;
using namespace cellgraph;

#include "sample_meshes.hpp"
#include "scratch.hpp"

using cellgraph::test::two_triangles;

namespace {

GridSpec grid_of(int dims, std::int64_t x, std::int64_t y = 1, std::int64_t z = 1) {
  GridSpec grid;
  grid.dims = dims;
  grid.size = {x, y, z};
  return grid;
}

// The path 0 - 1 - 2 in the plane.
Graph bent_path() {
  Graph g;
  g.offsets = {0, 1, 3, 4};
  g.neighbors = {1, 0, 2, 1};
  g.coord_dim = 2;
  g.coords = {0, 0, 1, 0, 0.5, 1.5};
  return g;
}

// The text between the opening tag of DataArray `name` and its closing tag, trimmed.
std::string array_text(const std::string& xml, const std::string& name) {
  const std::size_t tag = xml.find("Name=\"" + name + "\"");
  REQUIRE(tag != std::string::npos);
  const std::size_t begin = xml.find('>', tag) + 1;
  const std::size_t end = xml.find("</DataArray>", begin);
  const std::size_t first = xml.find_first_not_of(" \n", begin);
  const std::size_t last = xml.find_last_not_of(" \n", end - 1);
  return first >= end ? "" : xml.substr(first, last + 1 - first);
}

std::vector<std::uint8_t> base64_decode(const std::string& text) {
  static const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::vector<std::uint8_t> bytes;
  std::uint32_t bits = 0;
  int count = 0;
  REQUIRE(text.find_first_not_of(alphabet + "=") == std::string::npos);
  for (char c : text) {
    if (c == '=') break;
    const std::size_t value = alphabet.find(c);
    bits = bits << 6 | std::uint32_t(value);
    if ((count += 6) >= 8) {
      count -= 8;
      bytes.push_back(std::uint8_t(bits >> count));
    }
  }
  return bytes;
}

// The type attribute of DataArray `name`.
std::string array_type(const std::string& xml, const std::string& name) {
  const std::size_t tag = xml.rfind("<DataArray type=\"", xml.find("Name=\"" + name + "\""));
  REQUIRE(tag != std::string::npos);
  const std::size_t begin = tag + std::strlen("<DataArray type=\"");
  return xml.substr(begin, xml.find('"', begin) - begin);
}

template <class T>
std::vector<T> values_of(const std::vector<std::uint8_t>& bytes) {
  REQUIRE(bytes.size() % sizeof(T) == 0);
  std::vector<T> values(bytes.size() / sizeof(T));
  std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

// Decodes an uncompressed binary DataArray: checks its UInt64 byte-count header and returns the values.
template <class T>
std::vector<T> binary_array(const std::string& xml, const std::string& name) {
  const std::vector<std::uint8_t> bytes = base64_decode(array_text(xml, name));
  REQUIRE(bytes.size() >= 8);
  std::uint64_t header;
  std::memcpy(&header, bytes.data(), 8);
  REQUIRE(header == bytes.size() - 8);
  return values_of<T>(std::vector<std::uint8_t>(bytes.begin() + 8, bytes.end()));
}

// A zlib DataArray's header (block count, block size, partial last block size, compressed
// sizes) and its inflated bytes. The header is base64 on its own, padded; the blocks follow.
struct ZlibArray {
  std::vector<std::uint64_t> header;
  std::vector<std::uint8_t> bytes;
};

ZlibArray zlib_array(const std::string& xml, const std::string& name) {
  const std::string text = array_text(xml, name);
  auto base64_chars = [](std::size_t bytes) { return (bytes + 2) / 3 * 4; };
  std::vector<std::uint8_t> first = base64_decode(text.substr(0, base64_chars(8)));
  first.resize(8);
  const std::uint64_t blocks = values_of<std::uint64_t>(first)[0];
  const std::size_t header_chars = base64_chars(8 * (3 + blocks));
  REQUIRE(text.size() >= header_chars);
  ZlibArray array;
  array.header = values_of<std::uint64_t>(base64_decode(text.substr(0, header_chars)));
  const std::vector<std::uint8_t> data = base64_decode(text.substr(header_chars));
  std::size_t at = 0;
  for (std::uint64_t b = 0; b < blocks; ++b) {
    const std::uint64_t size = array.header[3 + b];
    REQUIRE(at + size <= data.size());
    std::vector<std::uint8_t> block(array.header[1]);
    uLongf inflated = block.size();
    REQUIRE(uncompress(block.data(), &inflated, data.data() + at, size) == Z_OK);
    array.bytes.insert(array.bytes.end(), block.begin(), block.begin() + inflated);
    at += size;
  }
  CHECK(at == data.size());
  return array;
}

}  // namespace

TEST_CASE("vtk: a grid snapshot is ImageData with one grid row per ascii line") {
  ScratchDir s;
  VtkSeries series = VtkSeries::for_grid(s / "grid", grid_of(2, 3, 2), {VtkEncoding::ascii, 6});
  series.write(7, {0, 1, 2, 3, 4, 5});
  CHECK(series.snapshot_path(7) == s / "grid_000007.vti");
  CHECK(read_file(s / "grid_000007.vti") ==
        "<?xml version=\"1.0\"?>\n"
        "<VTKFile type=\"ImageData\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n"
        "  <ImageData WholeExtent=\"0 3 0 2 0 0\" Origin=\"0 0 0\" Spacing=\"1 1 1\">\n"
        "    <Piece Extent=\"0 3 0 2 0 0\">\n"
        "      <CellData Scalars=\"state\">\n"
        "        <DataArray type=\"UInt8\" Name=\"state\" format=\"ascii\">\n"
        "          0 1 2\n"
        "          3 4 5\n"
        "        </DataArray>\n"
        "      </CellData>\n"
        "    </Piece>\n"
        "  </ImageData>\n"
        "</VTKFile>\n");

  VtkSeries line = VtkSeries::for_grid(s / "line", grid_of(1, 4), {VtkEncoding::ascii});
  line.write(0, {1, 0, 0, 1});
  CHECK(read_file(s / "line_000000.vti").find("WholeExtent=\"0 4 0 0 0 0\"") != std::string::npos);
  VtkSeries cube = VtkSeries::for_grid(s / "cube", grid_of(3, 2, 2, 2), {VtkEncoding::ascii});
  cube.write(0, {0, 1, 2, 3, 4, 5, 6, 7});
  const std::string cube_xml = read_file(s / "cube_000000.vti");
  CHECK(cube_xml.find("WholeExtent=\"0 2 0 2 0 2\"") != std::string::npos);
  CHECK(array_text(cube_xml, "state") == "0 1\n          2 3\n          4 5\n          6 7");
}

TEST_CASE("vtk: a graph with coordinates shows vertices as points and edges as lines") {
  ScratchDir s;
  VtkSeries series = VtkSeries::for_graph(s / "g", bent_path(), VtkEdges::automatic, {VtkEncoding::ascii, 3});
  series.write(1, {1, 0, 2});
  CHECK(read_file(s / "g_000001.vtu") ==
        "<?xml version=\"1.0\"?>\n"
        "<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n"
        "  <UnstructuredGrid>\n"
        "    <Piece NumberOfPoints=\"3\" NumberOfCells=\"5\">\n"
        "      <PointData Scalars=\"state\">\n"
        "        <DataArray type=\"UInt8\" Name=\"state\" format=\"ascii\">\n"
        "          1 0 2\n"
        "        </DataArray>\n"
        "      </PointData>\n"
        "      <Points>\n"
        "        <DataArray type=\"Float32\" Name=\"Points\" NumberOfComponents=\"3\" format=\"ascii\">\n"
        "          0 0 0\n"
        "          1 0 0\n"
        "          0.5 1.5 0\n"
        "        </DataArray>\n"
        "      </Points>\n"
        "      <Cells>\n"
        "        <DataArray type=\"Int32\" Name=\"connectivity\" format=\"ascii\">\n"
        "          0 1 2 0 1 1 2\n"
        "        </DataArray>\n"
        "        <DataArray type=\"Int32\" Name=\"offsets\" format=\"ascii\">\n"
        "          1 2 3 5 7\n"
        "        </DataArray>\n"
        "        <DataArray type=\"UInt8\" Name=\"types\" format=\"ascii\">\n"
        "          1 1 1 3 3\n"
        "        </DataArray>\n"
        "      </Cells>\n"
        "    </Piece>\n"
        "  </UnstructuredGrid>\n"
        "</VTKFile>\n");

  VtkSeries points_only = VtkSeries::for_graph(s / "p", bent_path(), VtkEdges::none, {VtkEncoding::ascii});
  points_only.write(0, {0, 0, 0});
  const std::string xml = read_file(s / "p_000000.vtu");
  CHECK(xml.find("NumberOfCells=\"3\"") != std::string::npos);
  CHECK(array_text(xml, "types") == "1 1 1");
}

TEST_CASE("vtk: mesh elements become cells in graph-vertex order, carrying the state") {
  ScratchDir s;
  // No number of states: UInt32.
  VtkSeries series = VtkSeries::for_mesh_elements(s / "m", two_triangles(), {1, 0}, {VtkEncoding::ascii});
  series.write(3, {7, 9});
  CHECK(read_file(s / "m_000003.vtu") ==
        "<?xml version=\"1.0\"?>\n"
        "<VTKFile type=\"UnstructuredGrid\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n"
        "  <UnstructuredGrid>\n"
        "    <Piece NumberOfPoints=\"4\" NumberOfCells=\"2\">\n"
        "      <CellData Scalars=\"state\">\n"
        "        <DataArray type=\"UInt32\" Name=\"state\" format=\"ascii\">\n"
        "          7 9\n"
        "        </DataArray>\n"
        "      </CellData>\n"
        "      <Points>\n"
        "        <DataArray type=\"Float32\" Name=\"Points\" NumberOfComponents=\"3\" format=\"ascii\">\n"
        "          0 0 0\n"
        "          1 0 0\n"
        "          1 1 0\n"
        "          0 1 0\n"
        "        </DataArray>\n"
        "      </Points>\n"
        "      <Cells>\n"
        "        <DataArray type=\"Int32\" Name=\"connectivity\" format=\"ascii\">\n"
        "          0 2 3 0 1 2\n"
        "        </DataArray>\n"
        "        <DataArray type=\"Int32\" Name=\"offsets\" format=\"ascii\">\n"
        "          3 6\n"
        "        </DataArray>\n"
        "        <DataArray type=\"UInt8\" Name=\"types\" format=\"ascii\">\n"
        "          5 5\n"
        "        </DataArray>\n"
        "      </Cells>\n"
        "    </Piece>\n"
        "  </UnstructuredGrid>\n"
        "</VTKFile>\n");
}

TEST_CASE("vtk: uncompressed binary arrays are base64 of a UInt64 byte count and the values, as one stream") {
  ScratchDir s;
  // Header 04 00 00 00 00 00 00 00 and value 01 00 00 00 together; padded once, at the end.
  VtkSeries one = VtkSeries::for_grid(s / "one", grid_of(1, 1), {VtkEncoding::binary});
  one.write(0, {1});
  const std::string one_xml = read_file(s / "one_000000.vti");
  CHECK(array_text(one_xml, "state") == "BAAAAAAAAAABAAAA");
  CHECK(one_xml.find("format=\"binary\"") != std::string::npos);
  CHECK(one_xml.find("compressor") == std::string::npos);

  // A star in 3D: arrays of every type, with lengths hitting each base64 padding.
  Graph star;
  const std::uint32_t n = 11;
  star.offsets = {0};
  for (std::uint32_t v = 1; v < n; ++v) star.neighbors.push_back(v);
  star.offsets.push_back(star.neighbors.size());
  for (std::uint32_t v = 1; v < n; ++v) {
    star.neighbors.push_back(0);
    star.offsets.push_back(star.neighbors.size());
  }
  star.coord_dim = 3;
  for (std::uint32_t v = 0; v < n; ++v) star.coords.insert(star.coords.end(), {v * 0.25, -1.0 * v, 1e300 / (v + 1)});
  std::vector<std::uint32_t> states;
  for (std::uint32_t v = 0; v < n; ++v) states.push_back(v * 0x01010101u + 0xFFFF0000u);

  VtkSeries series = VtkSeries::for_graph(s / "star", star, VtkEdges::automatic, {VtkEncoding::binary});
  series.write(0, states);
  const std::string xml = read_file(s / "star_000000.vtu");
  CHECK(binary_array<std::uint32_t>(xml, "state") == states);
  CHECK(binary_array<double>(xml, "Points") == star.coords);
  std::vector<std::int32_t> connectivity, offsets;
  std::vector<std::uint8_t> types;
  for (std::int32_t v = 0; v < std::int32_t(n); ++v) {  // a vertex cell each
    connectivity.push_back(v);
    offsets.push_back(v + 1);
    types.push_back(1);
  }
  for (std::int32_t v = 1; v < std::int32_t(n); ++v) {  // then the edges 0 - v as lines
    connectivity.insert(connectivity.end(), {0, v});
    offsets.push_back(n + 2 * v);
    types.push_back(3);
  }
  CHECK(binary_array<std::int32_t>(xml, "connectivity") == connectivity);
  CHECK(binary_array<std::int32_t>(xml, "offsets") == offsets);
  CHECK(binary_array<std::uint8_t>(xml, "types") == types);

  VtkSeries empty = VtkSeries::for_mesh_elements(s / "empty", two_triangles(), {}, {VtkEncoding::binary});
  empty.write(0, {});
  CHECK(array_text(read_file(s / "empty_000000.vtu"), "state") == "AAAAAAAAAAA=");
}

TEST_CASE("vtk: zlib arrays are VTK's compressed blocks after a base64 header of their sizes") {
  ScratchDir s;
  // 100,000 cells of UInt8: three blocks of 32 KiB and a partial one of 1,696 bytes.
  VtkSeries series = VtkSeries::for_grid(s / "z", grid_of(2, 400, 250), {VtkEncoding::zlib, 3});
  std::vector<std::uint32_t> states(100000);
  for (std::size_t i = 0; i < states.size(); ++i) states[i] = std::uint32_t(i / 1000 % 3);
  series.write(0, states);
  const std::string xml = read_file(s / "z_000000.vti");
  CHECK(xml.find("header_type=\"UInt64\" compressor=\"vtkZLibDataCompressor\">") != std::string::npos);
  CHECK(array_type(xml, "state") == "UInt8");
  const ZlibArray state = zlib_array(xml, "state");
  REQUIRE(state.header.size() == 3 + 4);
  CHECK(state.header[0] == 4);
  CHECK(state.header[1] == 32768);
  CHECK(state.header[2] == 100000 - 3 * 32768);
  CHECK(state.bytes == std::vector<std::uint8_t>(states.begin(), states.end()));
  CHECK(xml.size() < 4000);  // long runs: a few bytes each

  // Whole blocks only: the partial size is 0. No values: no blocks.
  VtkSeries whole = VtkSeries::for_grid(s / "w", grid_of(2, 256, 128), {VtkEncoding::zlib, 2});
  whole.write(0, std::vector<std::uint32_t>(32768, 1));
  const ZlibArray one_block = zlib_array(read_file(s / "w_000000.vti"), "state");
  CHECK(one_block.header.size() == 4);
  CHECK(one_block.header[0] == 1);
  CHECK(one_block.header[2] == 0);
  CHECK(one_block.bytes == std::vector<std::uint8_t>(32768, 1));
  VtkSeries empty = VtkSeries::for_mesh_elements(s / "empty", two_triangles(), {});
  empty.write(0, {});
  const ZlibArray none = zlib_array(read_file(s / "empty_000000.vtu"), "state");
  CHECK(none.header == std::vector<std::uint64_t>{0, 32768, 0});
  CHECK(none.bytes.empty());

  // Geometry too: points, connectivity, offsets and types.
  VtkSeries graph = VtkSeries::for_graph(s / "g", bent_path());
  graph.write(0, {0, 1, 0});
  const std::string graph_xml = read_file(s / "g_000000.vtu");
  CHECK(values_of<float>(zlib_array(graph_xml, "Points").bytes) == std::vector<float>{0, 0, 0, 1, 0, 0, 0.5, 1.5, 0});
  CHECK(values_of<std::int32_t>(zlib_array(graph_xml, "connectivity").bytes) ==
        std::vector<std::int32_t>{0, 1, 2, 0, 1, 1, 2});
  CHECK(values_of<std::int32_t>(zlib_array(graph_xml, "offsets").bytes) == std::vector<std::int32_t>{1, 2, 3, 5, 7});
  CHECK(zlib_array(graph_xml, "types").bytes == std::vector<std::uint8_t>{1, 1, 1, 3, 3});
}

TEST_CASE("vtk: every array takes the smallest type that holds its values exactly") {
  ScratchDir s;
  auto state_type = [&](std::uint32_t num_states, std::uint32_t state) {
    VtkSeries series = VtkSeries::for_grid(s / "t", grid_of(1, 2), {VtkEncoding::ascii, num_states});
    series.write(0, {0, state});
    return array_type(read_file(s / "t_000000.vti"), "state");
  };
  CHECK(state_type(2, 1) == "UInt8");
  CHECK(state_type(256, 255) == "UInt8");
  CHECK(state_type(257, 1) == "UInt16");
  CHECK(state_type(65536, 65535) == "UInt16");
  CHECK(state_type(65537, 1) == "UInt32");
  CHECK(state_type(0, 1) == "UInt32");    // not known
  CHECK(state_type(2, 300) == "UInt16");  // a stray state widens the type rather than wrap
  CHECK(array_text(read_file(s / "t_000000.vti"), "state") == "0 300");

  Graph tenths = bent_path();
  tenths.coords[4] = 0.1;  // no float holds it
  VtkSeries graph = VtkSeries::for_graph(s / "g", tenths, VtkEdges::automatic, {VtkEncoding::binary});
  graph.write(0, {0, 0, 0});
  CHECK(array_type(read_file(s / "g_000000.vtu"), "Points") == "Float64");
  CHECK(binary_array<double>(read_file(s / "g_000000.vtu"), "Points") ==
        std::vector<double>{0, 0, 0, 1, 0, 0, 0.1, 1.5, 0});

  // Moving points: ids by the particle count, arrays and positions as floats where exact.
  VtkPointSeries points(s / "p", 2, VtkEncoding::binary);
  std::vector<double> positions(2 * 300, 0.25), speeds(300, 1.0 / 3);
  positions[7] = 0.1;
  points.write(0, positions, {{"speed", 1, speeds}, {"flag", 1, std::vector<double>(300, 2.0)}});
  const std::string xml = read_file(s / "p_000000.vtu");
  CHECK(array_type(xml, "id") == "UInt16");
  CHECK(binary_array<std::uint16_t>(xml, "id")[299] == 299);
  CHECK(array_type(xml, "Points") == "Float64");
  CHECK(array_type(xml, "speed") == "Float64");
  CHECK(binary_array<double>(xml, "speed") == speeds);
  CHECK(array_type(xml, "flag") == "Float32");
  CHECK(array_type(xml, "connectivity") == "Int32");
  CHECK(xml.find("compressor") == std::string::npos);
  VtkPointSeries few(s / "f", 3);
  few.write(0, {0.5, 0.5, 0.5});
  CHECK(array_type(read_file(s / "f_000000.vtu"), "id") == "UInt8");
  CHECK(array_type(read_file(s / "f_000000.vtu"), "Points") == "Float32");
  CHECK(read_file(s / "f_000000.vtu").find("compressor=\"vtkZLibDataCompressor\"") != std::string::npos);
}

TEST_CASE("vtk: compression names") {
  CHECK(vtk_encoding_for_compression("zlib") == VtkEncoding::zlib);
  CHECK(vtk_encoding_for_compression("none") == VtkEncoding::binary);
  CHECK(!vtk_encoding_for_compression("gzip"));
  CHECK(!vtk_encoding_for_compression("ascii"));
}

TEST_CASE("vtk: the collection lists every snapshot in step order, by file name") {
  ScratchDir s;
  VtkSeries series = VtkSeries::for_grid(s / "run", grid_of(1, 4), {VtkEncoding::ascii});
  for (std::uint64_t step : {0, 5, 1234567}) series.write(step, {0, 1, 2, 3});
  CHECK_THROWS_WITH_AS(series.write(5, {0, 1, 2, 3}), doctest::Contains("steps must increase"), Error);
  series.finish();
  CHECK(series.collection_path() == s / "run.pvd");
  CHECK(read_file(s / "run.pvd") ==
        "<?xml version=\"1.0\"?>\n"
        "<VTKFile type=\"Collection\" version=\"1.0\" byte_order=\"LittleEndian\">\n"
        "  <Collection>\n"
        "    <DataSet timestep=\"0\" part=\"0\" file=\"run_000000.vti\"/>\n"
        "    <DataSet timestep=\"5\" part=\"0\" file=\"run_000005.vti\"/>\n"
        "    <DataSet timestep=\"1234567\" part=\"0\" file=\"run_1234567.vti\"/>\n"
        "  </Collection>\n"
        "</VTKFile>\n");
  // Nothing else, in particular no temporary files.
  CHECK(s.files() == std::set<std::string>{"run.pvd", "run_000000.vti", "run_000005.vti", "run_1234567.vti"});

  series.write(2000000, {3, 2, 1, 0});
  series.finish();
  CHECK(read_file(s / "run.pvd").find("file=\"run_2000000.vti\"/>\n  </Collection>") != std::string::npos);
  CHECK(s.files().size() == 5);
}

TEST_CASE("vtk: an unwritable base path throws and writes nothing") {
  ScratchDir s;
  VtkSeries series = VtkSeries::for_grid(s / "missing/run", grid_of(2, 2, 2));
  CHECK_THROWS_WITH_AS(series.write(0, {0, 1, 1, 0}), doctest::Contains("cannot write"), Error);
  CHECK_THROWS_WITH_AS(series.finish(), doctest::Contains("cannot write"), Error);
  CHECK(s.files().empty());
  CHECK_THROWS_WITH_AS(VtkSeries::for_grid(s / "folder/", grid_of(1, 3)), doctest::Contains("names a folder"), Error);
}

TEST_CASE("vtk: inputs are checked") {
  ScratchDir s;
  VtkSeries grid = VtkSeries::for_grid(s / "g", grid_of(2, 2, 2));
  CHECK_THROWS_WITH_AS(grid.write(0, {0, 1, 0}), doctest::Contains("has 3 states for 4"), Error);
  CHECK_THROWS_AS(VtkSeries::for_grid(s / "g", grid_of(2, 0, 2)), Error);
  CHECK_THROWS_AS(VtkSeries::for_grid(s / "g", grid_of(2, 2, 2, 2)), Error);

  Graph no_coords = bent_path();
  no_coords.coord_dim = 0;
  no_coords.coords.clear();
  CHECK_THROWS_WITH_AS(VtkSeries::for_graph(s / "g", no_coords), doctest::Contains("needs coordinates"), Error);
  Graph short_coords = bent_path();
  short_coords.coords.pop_back();
  CHECK_THROWS_WITH_AS(VtkSeries::for_graph(s / "g", short_coords), doctest::Contains("needs coordinates"), Error);
  VtkSeries graph = VtkSeries::for_graph(s / "g", bent_path());
  CHECK_THROWS_AS(graph.write(0, {0, 1, 0, 1}), Error);

  CHECK_THROWS_WITH_AS(VtkSeries::for_mesh_elements(s / "m", two_triangles(), {0, 3}),
                       doctest::Contains("element 3 is not in the mesh (3 elements)"), Error);
  Mesh bad_node = two_triangles();
  bad_node.element_nodes[4] = 9;
  CHECK_THROWS_WITH_AS(VtkSeries::for_mesh_elements(s / "m", bad_node, {1}), doctest::Contains("uses node 9 of 4"),
                       Error);
  CHECK_NOTHROW(VtkSeries::for_mesh_elements(s / "m", bad_node, {0}));  // only selected elements matter
  Mesh polyhedron = two_triangles();
  polyhedron.element_type[0] = 42;
  CHECK_THROWS_WITH_AS(VtkSeries::for_mesh_elements(s / "m", polyhedron, {0}), doctest::Contains("polyhedron"), Error);
  CHECK(s.files().empty());
}
