#include "cellgraph/output/particle_picture.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "cellgraph/error.hpp"
#include "cellgraph/graph.hpp"
#include "cellgraph/output/legend.hpp"
#include "cellgraph/output/png.hpp"
#include "cellgraph/output/quicklook.hpp"

namespace cellgraph {
namespace {

constexpr double kPi = 3.14159265358979323846;

// Hue h in [0, 1) at fixed saturation and value.
Rgb hue_colour(double h) {
  const double s = 0.8, v = 0.95, sector = h * 6.0;
  const int i = int(sector) % 6;
  const double f = sector - std::floor(sector), p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
  const double rgb[6][3] = {{v, t, p}, {q, v, p}, {p, v, t}, {p, q, v}, {t, p, v}, {v, p, q}};
  auto byte = [](double c) { return std::uint8_t(std::lround(c * 255)); };
  return {byte(rgb[i][0]), byte(rgb[i][1]), byte(rgb[i][2])};
}

constexpr std::uint8_t kWhite = kDirectionColours, kBackground = 255;

// The colour wheel as a bar under the picture, so that hues read as headings.
IndexedImage heading_legend(std::int64_t width) {
  ColourBar bar;
  for (int k = 0; k < kDirectionColours; ++k) bar.ramp.push_back(std::uint8_t(k));
  bar.low = "-180";
  bar.high = "180";
  bar.caption = "heading, degrees from +x";
  Legend legend;
  legend.bar = bar;
  return draw_legend(legend, width, LegendStyle{kWhite, kBackground, legend_scale(width)}).image;
}

// `picture` with `strip` under it, both on the background, as wide as the wider.
IndexedImage stacked(const IndexedImage& picture, const IndexedImage& strip) {
  IndexedImage both;
  both.width = std::max(picture.width, strip.width);
  both.height = picture.height + strip.height;
  both.pixels.assign(std::size_t(both.width * both.height), kBackground);
  for (const auto& [part, top] : {std::pair{&picture, std::int64_t(0)}, std::pair{&strip, picture.height}})
    for (std::int64_t y = 0; y < part->height; ++y)
      std::copy_n(part->pixels.begin() + std::ptrdiff_t(y * part->width), part->width,
                  both.pixels.begin() + std::ptrdiff_t((top + y) * both.width));
  return both;
}

}  // namespace

ParticlePicture particle_picture(const std::vector<double>& positions, int dims, const std::vector<double>& directions,
                                 int size) {
  if (dims != 2 && dims != 3) throw Error("a particle picture needs 2 or 3 coordinates per particle");
  if (positions.size() % dims != 0) throw Error("particle picture: coordinates do not make whole points");
  const std::size_t n = positions.size() / dims;
  if (!directions.empty() && directions.size() != positions.size())
    throw Error("particle picture: " + std::to_string(directions.size() / dims) + " directions for " +
                std::to_string(n) + " particles");
  Graph points;  // no edges: the quick look of a graph with coordinates draws its vertices
  points.offsets.assign(n + 1, 0);
  points.coord_dim = dims;
  points.coords = positions;
  const CellRaster raster = CellRaster::for_points(points, size);

  ParticlePicture picture;
  picture.colours.assign(256, kBackgroundColour);
  for (int k = 0; k < kDirectionColours; ++k) picture.colours[k] = hue_colour(double(k) / kDirectionColours);
  picture.colours[kWhite] = {255, 255, 255};
  std::vector<std::uint8_t> colour_of(n, kWhite);
  if (!directions.empty())
    for (std::size_t p = 0; p < n; ++p) {
      const double angle = std::atan2(directions[p * dims + 1], directions[p * dims]);  // (-pi, pi]
      colour_of[p] = std::uint8_t(int(std::floor((angle + kPi) / (2 * kPi) * kDirectionColours)) % kDirectionColours);
    }
  IndexedImage& image = picture.image;
  image.width = raster.width();
  image.height = raster.height();
  image.pixels.resize(std::size_t(image.width * image.height));
  for (std::int64_t y = 0; y < image.height; ++y)
    for (std::int64_t x = 0; x < image.width; ++x) {
      const std::uint32_t cell = raster.cell_at(x, y);
      image.pixels[std::size_t(y * image.width + x)] = cell == CellRaster::kNoCell ? kBackground : colour_of[cell];
    }
  return picture;
}

void write_particle_png(const std::string& path, const std::vector<double>& positions, int dims,
                        const std::vector<double>& directions, int size) {
  const ParticlePicture picture = particle_picture(positions, dims, directions, size);
  if (directions.empty()) return write_indexed_png(path, picture.image, picture.colours);
  write_indexed_png(path, stacked(picture.image, heading_legend(picture.image.width)), picture.colours);
}

}  // namespace cellgraph
