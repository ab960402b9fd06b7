#include "cellgraph/output/quicklook.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "cellgraph/error.hpp"

namespace cellgraph {
namespace {

constexpr int kMinSize = 16, kMaxSize = 4096;

struct Point {
  double x, y;
};

double cross(Point o, Point a, Point b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); }

// Andrew's monotone chain: the hull with positive orientation, collinear points dropped.
std::vector<Point> convex_hull(std::vector<Point> points) {
  std::sort(points.begin(), points.end(), [](Point a, Point b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
  if (points.size() < 3) return points;
  std::vector<Point> hull(2 * points.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {  // lower chain
    while (k >= 2 && cross(hull[k - 2], hull[k - 1], points[i]) <= 0) --k;
    hull[k++] = points[i];
  }
  for (std::size_t i = points.size() - 1, lower = k + 1; i-- > 0;) {  // upper chain
    while (k >= lower && cross(hull[k - 2], hull[k - 1], points[i]) <= 0) --k;
    hull[k++] = points[i];
  }
  hull.resize(k - 1);  // the last point repeats the first
  return hull;
}

struct Bounds {
  double x0 = std::numeric_limits<double>::infinity(), y0 = x0, x1 = -x0, y1 = -x0;
  bool finite = true;  // min and max would skip a NaN silently
  void add(double x, double y) {
    finite &= std::isfinite(x) && std::isfinite(y);
    x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
  }
};

void check_size(int size) {
  if (size < kMinSize || size > kMaxSize)
    throw Error("picture size " + std::to_string(size) + " is outside " + std::to_string(kMinSize) + ".." +
                std::to_string(kMaxSize));
}

}  // namespace

// Draws cells into the raster, keeping per pixel the cell nearest the viewer (largest z), and
// among equally near ones the first drawn, or for discs the one whose centre is nearest.
class RasterBuilder {
 public:
  // Fits `bounds` (world x-y) into a picture whose longer side is `size`, `margin` pixels
  // kept free on each side.
  RasterBuilder(const Bounds& bounds, int size, int margin, std::uint32_t num_cells) {
    if (!bounds.finite) throw Error("a picture needs finite coordinates");
    const double extent = std::max(bounds.x1 - bounds.x0, bounds.y1 - bounds.y0);
    const int drawable = std::max(1, size - 2 * margin);
    scale_ = extent > 0 ? drawable / extent : 1.0;
    x0_ = bounds.x0, y1_ = bounds.y1, margin_ = margin;
    raster_.width_ = std::max<std::int64_t>(1, std::llround((bounds.x1 - bounds.x0) * scale_)) + 2 * margin;
    raster_.height_ = std::max<std::int64_t>(1, std::llround((bounds.y1 - bounds.y0) * scale_)) + 2 * margin;
    raster_.num_cells_ = num_cells;
    const std::size_t pixels = std::size_t(raster_.width_ * raster_.height_);
    raster_.cells_.assign(pixels, CellRaster::kNoCell);
    depth_.assign(pixels, -std::numeric_limits<float>::infinity());
    distance_.assign(pixels, std::numeric_limits<float>::infinity());
  }

  double scale() const { return scale_; }
  Point to_pixels(double x, double y) const { return {margin_ + (x - x0_) * scale_, margin_ + (y1_ - y) * scale_}; }

  // A convex polygon (positive orientation in pixel space) covers the pixels whose centres lie
  // inside it or on its edges.
  void fill_polygon(const std::vector<Point>& hull, float z, std::uint32_t cell) {
    Bounds box;
    for (Point p : hull) box.add(p.x, p.y);
    for_pixels_in(box, [&](std::int64_t x, std::int64_t y, Point centre) {
      for (std::size_t i = 0; i < hull.size(); ++i)
        if (cross(hull[i], hull[(i + 1) % hull.size()], centre) < 0) return;
      offer(x, y, z, 0, cell);
    });
  }

  void disc(Point centre, double radius, float z, std::uint32_t cell) {
    Bounds box;
    box.add(centre.x - radius, centre.y - radius);
    box.add(centre.x + radius, centre.y + radius);
    const double r2 = radius * radius;
    for_pixels_in(box, [&](std::int64_t x, std::int64_t y, Point p) {
      const double d2 = (p.x - centre.x) * (p.x - centre.x) + (p.y - centre.y) * (p.y - centre.y);
      if (d2 <= r2) offer(x, y, z, float(d2), cell);
    });
    dot(centre, z, cell);  // a disc always covers its own pixel
  }

  void dot(Point p, float z, std::uint32_t cell) {
    const auto x = std::int64_t(std::floor(p.x)), y = std::int64_t(std::floor(p.y));
    if (x >= 0 && y >= 0 && x < raster_.width_ && y < raster_.height_) offer(x, y, z, 0, cell);
  }

  CellRaster finish() { return std::move(raster_); }

 private:
  template <class Visit>
  void for_pixels_in(const Bounds& box, Visit visit) {
    // Pixel (x, y) has its centre at (x + 0.5, y + 0.5).
    const auto first_x = std::max<std::int64_t>(0, std::int64_t(std::ceil(box.x0 - 0.5)));
    const auto last_x = std::min<std::int64_t>(raster_.width_ - 1, std::int64_t(std::floor(box.x1 - 0.5)));
    const auto first_y = std::max<std::int64_t>(0, std::int64_t(std::ceil(box.y0 - 0.5)));
    const auto last_y = std::min<std::int64_t>(raster_.height_ - 1, std::int64_t(std::floor(box.y1 - 0.5)));
    for (std::int64_t y = first_y; y <= last_y; ++y)
      for (std::int64_t x = first_x; x <= last_x; ++x) visit(x, y, Point{x + 0.5, y + 0.5});
  }

  void offer(std::int64_t x, std::int64_t y, float z, float distance, std::uint32_t cell) {
    const std::size_t p = std::size_t(y * raster_.width_ + x);
    if (z > depth_[p] || (z == depth_[p] && distance < distance_[p])) {
      depth_[p] = z, distance_[p] = distance;
      raster_.cells_[p] = cell;
    }
  }

  CellRaster raster_;
  double scale_ = 1, x0_ = 0, y1_ = 0;
  int margin_ = 0;
  std::vector<float> depth_, distance_;
};

CellRaster CellRaster::for_mesh_elements(const Mesh& mesh, const std::vector<std::uint32_t>& elements, int size) {
  check_size(size);
  if (!mesh.has_coordinates) throw Error("a picture of a mesh needs node coordinates (METIS .mesh files have none)");
  auto nodes_of = [&](std::uint32_t element) {
    if (element >= mesh.num_elements())
      throw Error("picture: element " + std::to_string(element) + " is not in the mesh");
    const auto first = mesh.element_nodes.begin() + std::ptrdiff_t(mesh.element_offsets[element]);
    const auto last = mesh.element_nodes.begin() + std::ptrdiff_t(mesh.element_offsets[element + 1]);
    for (auto node = first; node != last; ++node)
      if (*node >= mesh.num_nodes()) throw Error("picture: node " + std::to_string(*node) + " is not in the mesh");
    return std::pair(first, last);
  };
  Bounds bounds;
  for (std::uint32_t element : elements) {
    auto [first, last] = nodes_of(element);
    for (auto node = first; node != last; ++node) {
      bounds.add(mesh.nodes[3 * *node], mesh.nodes[3 * *node + 1]);
      bounds.finite &= std::isfinite(mesh.nodes[3 * *node + 2]);
    }
  }
  if (elements.empty()) bounds.add(0, 0);
  RasterBuilder builder(bounds, size, 2, std::uint32_t(elements.size()));
  std::vector<Point> corners;
  for (std::uint32_t cell = 0; cell < elements.size(); ++cell) {
    auto [first, last] = nodes_of(elements[cell]);
    corners.clear();
    double x = 0, y = 0, z = 0;
    for (auto node = first; node != last; ++node) {
      const double* xyz = &mesh.nodes[3 * *node];
      corners.push_back(builder.to_pixels(xyz[0], xyz[1]));
      x += xyz[0], y += xyz[1], z += xyz[2];
    }
    const double count = std::max<double>(1, double(corners.size()));
    const auto depth = float(z / count);
    const std::vector<Point> hull = convex_hull(corners);
    if (hull.size() >= 3) builder.fill_polygon(hull, depth, cell);
    else builder.dot(builder.to_pixels(x / count, y / count), depth, cell);
  }
  return builder.finish();
}

CellRaster CellRaster::for_points(const Graph& graph, int size) {
  check_size(size);
  if (graph.coord_dim < 2) throw Error("a picture of a graph needs vertex coordinates");
  const int dim = graph.coord_dim;
  const std::uint32_t n = graph.num_vertices();
  if (graph.coords.size() != std::size_t(n) * dim)
    throw Error("picture: " + std::to_string(graph.coords.size()) + " coordinates for " + std::to_string(n) +
                " vertices in " + std::to_string(dim) + "D");
  Bounds bounds;
  for (std::uint32_t v = 0; v < n; ++v) {
    const double* xyz = &graph.coords[std::size_t(v) * dim];
    bounds.add(xyz[0], xyz[1]);
    if (dim == 3) bounds.finite &= std::isfinite(xyz[2]);
  }
  if (n == 0) bounds.add(0, 0);
  // Half the spacing of n points spread evenly over the whole picture; a margin keeps the
  // discs of the outermost vertices whole.
  const double longer = std::max(bounds.x1 - bounds.x0, bounds.y1 - bounds.y0);
  const double shorter = std::min(bounds.x1 - bounds.x0, bounds.y1 - bounds.y0);
  const double area = double(size) * std::max(1.0, longer > 0 ? size * shorter / longer : size);
  const double radius = std::clamp(0.5 * std::sqrt(area / std::max<std::uint32_t>(n, 1)), 1.0, 32.0);
  RasterBuilder builder(bounds, size, int(std::ceil(radius)) + 1, n);
  for (std::uint32_t v = 0; v < n; ++v) {
    const double* xyz = &graph.coords[std::size_t(v) * dim];
    builder.disc(builder.to_pixels(xyz[0], xyz[1]), radius, dim == 3 ? float(xyz[2]) : 0.0f, v);
  }
  return builder.finish();
}

IndexedImage CellRaster::render(const std::vector<std::uint32_t>& states, const StatePalette& palette) const {
  if (states.size() != num_cells_)
    throw Error("picture: " + std::to_string(states.size()) + " states for " + std::to_string(num_cells_) + " cells");
  IndexedImage image{width_, height_, std::vector<std::uint8_t>(cells_.size())};
  for (std::size_t p = 0; p < cells_.size(); ++p)
    image.pixels[p] = cells_[p] == kNoCell ? StatePalette::kBackground : palette.index(states[cells_[p]]);
  return image;
}

namespace {

// Cells (width x height, palette index index_at(x, y)) in a picture no larger than `max_side`
// either way, as grid_picture() describes.
template <class IndexAt>
IndexedImage fit_cells(std::int64_t width, std::int64_t height, IndexAt index_at, int scale, std::int64_t max_side) {
  if (scale < 1 || max_side < 1) throw Error("picture: scale and size must be positive");
  const std::int64_t longer = std::max(width, height);
  if (longer <= max_side) {
    const std::int64_t s = std::min<std::int64_t>(scale, max_side / longer);
    IndexedImage image{width * s, height * s, std::vector<std::uint8_t>(std::size_t(width * s * height * s))};
    for (std::int64_t y = 0; y < image.height; ++y)
      for (std::int64_t x = 0; x < image.width; ++x)
        image.pixels[std::size_t(y * image.width + x)] = index_at(x / s, y / s);
    return image;
  }
  const std::int64_t f = (longer + max_side - 1) / max_side;
  IndexedImage image{(width + f - 1) / f, (height + f - 1) / f, {}};
  image.pixels.assign(std::size_t(image.width * image.height), 0);
  std::vector<bool> found(image.pixels.size(), false);
  for (std::int64_t y = 0; y < height; ++y)  // cells in raster order: the first not 0 wins
    for (std::int64_t x = 0; x < width; ++x) {
      const std::size_t p = std::size_t(y / f * image.width + x / f);
      if (found[p]) continue;
      const std::uint8_t index = index_at(x, y);
      if (index != 0) image.pixels[p] = index, found[p] = true;
    }
  return image;
}

}  // namespace

IndexedImage grid_picture(const std::vector<std::uint32_t>& states, std::int64_t width, std::int64_t height,
                          const StatePalette& palette, int scale, int max_side) {
  if (width < 1 || height < 1 || states.size() != std::size_t(width * height))
    throw Error("picture: a " + std::to_string(width) + "x" + std::to_string(height) + " grid does not match its " +
                std::to_string(states.size()) + " states");
  // State 0 has index 0 and no other state has: "not index 0" is "not state 0".
  return fit_cells(
      width, height, [&](std::int64_t x, std::int64_t y) { return palette.index(states[std::size_t(y * width + x)]); },
      scale, max_side);
}

IndexedImage fit_picture(const IndexedImage& cells, int scale, int max_side) {
  if (cells.width < 1 || cells.height < 1 || cells.pixels.size() != std::size_t(cells.width * cells.height))
    throw Error("picture: a " + std::to_string(cells.width) + "x" + std::to_string(cells.height) +
                " image does not match its " + std::to_string(cells.pixels.size()) + " pixels");
  return fit_cells(
      cells.width, cells.height,
      [&](std::int64_t x, std::int64_t y) { return cells.pixels[std::size_t(y * cells.width + x)]; }, scale, max_side);
}

}  // namespace cellgraph
