// ParaView outputs: one VTK XML file per written step, tied together by a ParaView collection
// (.pvd) that gives each file its step as time. Every file is written atomically.
//
// Geometry never changes within a series, so it is encoded once, when the series is made;
// each snapshot then only encodes its states. Files use VTK XML version 1.0 with inline
// DataArrays, by default zlib-compressed (compressor="vtkZLibDataCompressor", UInt64 headers),
// as ParaView and VTK read them. Every array takes the smallest type that holds its values
// exactly: states UInt8, UInt16 or UInt32 by the model's number of states; points Float32
// when every coordinate is a float, else Float64; connectivity and offsets Int32 unless a
// value needs Int64; cell types UInt8.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cellgraph/graph.hpp"
#include "cellgraph/source/grid.hpp"
#include "cellgraph/source/mesh.hpp"

namespace cellgraph {

// How DataArrays are stored. zlib: base64 of the values in zlib-compressed blocks of 32 KiB,
// after a header of UInt64 sizes (VTK's vtkZLibDataCompressor layout). binary: base64 of a
// UInt64 byte count followed by the little-endian values, for readers without zlib. ascii:
// decimal text, for tests and diffs.
enum class VtkEncoding { zlib, binary, ascii };

// A series' encoding, and the model's number of states (Simulation::num_states()), which
// fixes the states' type: UInt8 up to 256 states, UInt16 up to 65536, else, or for 0 (not
// known), UInt32. A snapshot holding a larger state gets a type wide enough for it.
struct VtkFormat {
  VtkEncoding encoding = VtkEncoding::zlib;
  std::uint32_t num_states = 0;
};

// The encoding a compression name asks for: "zlib", or "none" (VtkEncoding::binary); nullopt
// for any other name.
std::optional<VtkEncoding> vtk_encoding_for_compression(std::string_view name);

// Whether a graph's snapshots draw its edges as lines. automatic: only up to
// kVtkAutomaticEdgeLimit edges, since lines can dwarf the states in every file.
enum class VtkEdges { automatic, lines, none };
inline constexpr std::uint64_t kVtkAutomaticEdgeLimit = 1'000'000;

// A further per-cell (or per-vertex) array of a snapshot, beside "state": a model's other
// state variables (cloud: hum, act), UInt8.
struct VtkNamedArray {
  std::string name;
  std::vector<std::uint8_t> values;
};

class VtkSeries {
 public:
  // A regular 1-3D grid as ImageData (.vti): the state is CellData, one pixel or voxel per
  // cell, in the grid's cell_id order (x fastest). Cell (x, y, z) spans [x, x+1] x [y, y+1] x
  // [z, z+1]; ParaView's y points up, so 2D grids show upside down relative to the PNG
  // output. Throws Error for a grid with no cells.
  static VtkSeries for_grid(std::string base, const GridSpec& grid, VtkFormat format = {});

  // A graph with coordinates as an UnstructuredGrid (.vtu): one VTK_VERTEX cell per vertex
  // so ParaView shows points, then one VTK_LINE per undirected edge (u < v) unless `edges`
  // says otherwise; the state is PointData. Throws Error "... needs coordinates" for a graph
  // without them.
  static VtkSeries for_graph(std::string base, const Graph& graph, VtkEdges edges = VtkEdges::automatic,
                             VtkFormat format = {});

  // Mesh elements as cells of an UnstructuredGrid (.vtu) over all the mesh's nodes, for runs
  // on a mesh's dual graph: states[i] belongs to element elements[i] (MeshGraph::elements).
  // The state is CellData. Throws Error for an element or node index out of range and for
  // polyhedra (which need face lists this writer does not produce).
  static VtkSeries for_mesh_elements(std::string base, const Mesh& mesh, const std::vector<std::uint32_t>& elements,
                                     VtkFormat format = {});

  // Writes snapshot_path(step): "state", then the `more` arrays in order. Throws Error if
  // `states` or an array does not hold one value per vertex, cell or element, if an array's
  // name is empty, "state" or repeated, if steps do not increase, or if the file cannot be
  // written (then nothing is left behind and the step is not listed).
  void write(std::uint64_t step, const std::vector<std::uint32_t>& states, const std::vector<VtkNamedArray>& more = {});

  // Writes collection_path(), listing every snapshot written so far in step order, with
  // file names relative to its folder. May be called again after more writes. Throws Error
  // if the file cannot be written.
  void finish();

  // "<base>_<step, zero-padded to at least 6 digits>.vtu" (or .vti).
  std::string snapshot_path(std::uint64_t step) const;
  // "<base>.pvd".
  std::string collection_path() const { return base_ + ".pvd"; }

 private:
  // A snapshot's XML with a hole where the state array goes.
  struct SnapshotTemplate {
    std::string extension;      // "vtu" or "vti"
    std::string before_states;  // up to and including the opening of Point/CellData
    std::string after_states;   // from its closing to the end of the file
    int states_depth = 0;       // nesting depth of the state DataArray (indentation)
    std::uint64_t state_count = 0;
    const char* counted = "";          // what the states belong to, for messages
    std::size_t states_per_line = 16;  // ascii layout; grids: one row per line
  };

  VtkSeries(std::string base, VtkFormat format, SnapshotTemplate snapshot);

  std::string base_;
  VtkFormat format_;
  SnapshotTemplate template_;
  std::vector<std::uint64_t> steps_;  // written, increasing
};

// Moving points (movable cells): the points change every step, so each snapshot is a whole
// UnstructuredGrid (.vtu) with its own points, one VTK_VERTEX cell per point, and point data:
// "id" (the particle id, the point's index; UInt8, UInt16 or UInt32 by the particle count)
// and the given arrays (Float32 when every value is a float, else Float64), vectors widened
// to three components (z = 0 in 2D). A .pvd collection ties them together.
class VtkPointSeries {
 public:
  struct Array {
    std::string name;
    int components = 1;          // 1 (scalars) to 3 (vectors)
    std::vector<double> values;  // components per point, point by point
  };

  // dims: 2 or 3 coordinates per point. Throws Error for a base path that names a folder.
  VtkPointSeries(std::string base, int dims, VtkEncoding encoding = VtkEncoding::zlib);

  // Writes snapshot_path(step) from positions (dims per point, point by point). Throws Error
  // for arrays of the wrong size, empty, repeated or "id" names, steps that do not increase,
  // or a failed write (then nothing is left behind).
  void write(std::uint64_t step, const std::vector<double>& positions, const std::vector<Array>& arrays = {});
  // Writes collection_path() listing every snapshot so far.
  void finish();

  std::string snapshot_path(std::uint64_t step) const;  // "<base>_<step, 6 digits or more>.vtu"
  std::string collection_path() const { return base_ + ".pvd"; }

 private:
  std::string base_;
  int dims_;
  VtkEncoding encoding_;
  std::vector<std::uint64_t> steps_;
};

}  // namespace cellgraph
