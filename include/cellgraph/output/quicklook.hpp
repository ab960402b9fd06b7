// Pictures of cell states as palette images: quick looks of meshes and graphs drawn by their
// coordinates, and 2D grids enlarged or shrunk to fit a size (GIF frames).
#pragma once
#include <cstdint>
#include <vector>

#include "cellgraph/graph.hpp"
#include "cellgraph/output/palette.hpp"
#include "cellgraph/source/mesh.hpp"

namespace cellgraph {

// Which cell each pixel shows. Drawing is done once, when the raster is made; each picture
// then costs one lookup per pixel. The picture is the x-y plane seen from +z, with y up:
// 3D sources are projected along z, and where cells overlap the one with the largest z (the
// centroid's, for elements) is shown. The longer side of the picture is `size` pixels
// (16 to 4096), margins included; pixels no cell covers show the background.
class CellRaster {
 public:
  static constexpr std::uint32_t kNoCell = 0xFFFFFFFFu;

  // Cell i is mesh element elements[i] (MeshGraph::elements), filled as the convex hull of its
  // nodes: exact for triangles and convex quadrilaterals, the outline seen from above for
  // volume elements. An element whose hull has no area (lines, points, faces seen edge-on)
  // is drawn as the pixel under its centroid. Throws Error for a mesh without coordinates, an
  // index out of range, or coordinates that are not finite.
  static CellRaster for_mesh_elements(const Mesh& mesh, const std::vector<std::uint32_t>& elements, int size);

  // Vertex v is a disc around its coordinates (x, y, and z for depth), its radius half the mean
  // spacing the vertices would have spread evenly over the picture (at least 1 pixel, at
  // most 32); where discs overlap, the nearer centre wins. Throws Error for a graph without
  // coordinates or with coordinates that are not finite.
  static CellRaster for_points(const Graph& graph, int size);

  std::int64_t width() const { return width_; }
  std::int64_t height() const { return height_; }
  std::uint32_t num_cells() const { return num_cells_; }
  std::uint32_t cell_at(std::int64_t x, std::int64_t y) const { return cells_[std::size_t(y * width_ + x)]; }

  // Throws Error unless `states` holds one state per cell.
  IndexedImage render(const std::vector<std::uint32_t>& states, const StatePalette& palette) const;

 private:
  std::int64_t width_ = 0, height_ = 0;
  std::uint32_t num_cells_ = 0;
  std::vector<std::uint32_t> cells_;  // per pixel, row-major from the top
  friend class RasterBuilder;
};

// A 2D grid (row-major states, width x height cells) in a picture no larger than `max_side`
// pixels either way: `scale` pixels per cell, or the largest scale that fits. When even one
// pixel per cell does not fit, each pixel stands for a block of f x f cells, f the smallest
// whole factor that fits, and shows the block's first cell (in raster order) that is not in
// state 0, so that sparse patterns stay visible. Throws Error for sizes that do not match.
IndexedImage grid_picture(const std::vector<std::uint32_t>& states, std::int64_t width, std::int64_t height,
                          const StatePalette& palette, int scale, int max_side);

// The same for cells given as palette indices (a space-time diagram): a block shows its first
// pixel, in raster order, that is not index 0.
IndexedImage fit_picture(const IndexedImage& cells, int scale, int max_side);

}  // namespace cellgraph
