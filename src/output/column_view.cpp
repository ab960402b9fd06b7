#include "cellgraph/output/column_view.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "cellgraph/error.hpp"

namespace cellgraph {
namespace {

constexpr Rgb kSky{70, 130, 200}, kCloud{255, 255, 255};
constexpr double kCellCover = 1.0 / 8;

// A column of `count` cells (out of `columns` columns, for block means) not in state 0.
std::uint8_t shade(std::uint64_t count, std::uint64_t columns = 1) {
  return column_shade(double(count) / double(columns));
}

}  // namespace

// Such a column hides 1 - (7/8)^count of the sky, as if each cell scattered an eighth of the light.
std::uint8_t column_shade(double count) {
  return std::uint8_t(std::lround(255.0 * (1.0 - std::pow(1.0 - kCellCover, count))));
}

std::vector<std::uint32_t> column_counts(const std::vector<std::uint32_t>& states, const GridSpec& grid) {
  if (grid.dims != 3 || states.size() != grid.cell_count())
    throw Error("top view: needs a 3D grid and one state per cell (" + std::to_string(states.size()) + " states for " +
                std::to_string(grid.cell_count()) + " cells)");
  const std::size_t columns = std::size_t(grid.size[0] * grid.size[1]);
  std::vector<std::uint32_t> counts(columns, 0);
  for (std::int64_t z = 0; z < grid.size[2]; ++z) {
    const std::uint32_t* layer = states.data() + std::size_t(z) * columns;
    for (std::size_t c = 0; c < columns; ++c) counts[c] += layer[c] != 0;
  }
  return counts;
}

const std::vector<Rgb>& column_palette() {
  static const std::vector<Rgb> palette = [] {
    std::vector<Rgb> p(256);
    auto mix = [](std::uint8_t from, std::uint8_t to, int i) {
      return std::uint8_t((from * (255 - i) + to * i + 127) / 255);
    };
    for (int i = 0; i < 256; ++i)
      p[std::size_t(i)] = {mix(kSky.r, kCloud.r, i), mix(kSky.g, kCloud.g, i), mix(kSky.b, kCloud.b, i)};
    return p;
  }();
  return palette;
}

IndexedImage column_picture(const std::vector<std::uint32_t>& states, const GridSpec& grid, int scale,
                            std::int64_t max_side) {
  if (scale < 1 || max_side < 1) throw Error("top view: scale and size must be positive");
  const std::vector<std::uint32_t> counts = column_counts(states, grid);
  const std::int64_t width = grid.size[0], height = grid.size[1], longer = std::max(width, height);
  if (longer <= max_side) {
    const std::int64_t s = std::min<std::int64_t>(scale, max_side / longer);
    IndexedImage image{width * s, height * s, std::vector<std::uint8_t>(std::size_t(width * s * height * s))};
    for (std::int64_t y = 0; y < image.height; ++y)
      for (std::int64_t x = 0; x < image.width; ++x)
        image.pixels[std::size_t(y * image.width + x)] = shade(counts[std::size_t(y / s * width + x / s)]);
    return image;
  }
  // Blocks of f x f columns (fewer at the right and bottom edges): the mean count.
  const std::int64_t f = (longer + max_side - 1) / max_side;
  IndexedImage image{(width + f - 1) / f, (height + f - 1) / f, {}};
  std::vector<std::uint64_t> sum(std::size_t(image.width * image.height), 0), columns(sum.size(), 0);
  for (std::int64_t y = 0; y < height; ++y)
    for (std::int64_t x = 0; x < width; ++x) {
      const std::size_t p = std::size_t(y / f * image.width + x / f);
      sum[p] += counts[std::size_t(y * width + x)];
      ++columns[p];
    }
  image.pixels.resize(sum.size());
  for (std::size_t p = 0; p < sum.size(); ++p) image.pixels[p] = shade(sum[p], columns[p]);
  return image;
}

}  // namespace cellgraph
