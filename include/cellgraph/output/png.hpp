// PNG images through libpng: 2D grids cell by cell, and palette images (quick looks).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cellgraph/output/palette.hpp"

namespace cellgraph {

// One pixel per cell (row-major, `width` x `height`), scaled up by `scale`, coloured by
// state_colour (palette.hpp); written atomically. Throws Error on failure.
void write_grid_png(const std::string& path, const std::vector<std::uint32_t>& states, std::int64_t width,
                    std::int64_t height, std::uint32_t num_states, int scale = 1);

// An 8-bit palette PNG of `image` (indices into `colours`, at most 256), written atomically.
// Throws Error for an empty image, an index outside the palette, or a failed write.
void write_indexed_png(const std::string& path, const IndexedImage& image, const std::vector<Rgb>& colours);

// The same, `width` x `height` pixels whose rows `fill_row(y, row)` writes one at a time, top
// first (`width` indices each), so that a large picture is never held whole in memory.
using RowFiller = std::function<void(std::int64_t y, std::uint8_t* row)>;
void write_indexed_png(const std::string& path, std::int64_t width, std::int64_t height,
                       const std::vector<Rgb>& colours, const RowFiller& fill_row);

// Reads an 8-bit RGB PNG back (for tests): width, height and rgb bytes.
struct RgbImage {
  std::int64_t width = 0, height = 0;
  std::vector<std::uint8_t> rgb;
};
RgbImage read_png(const std::string& path);

}  // namespace cellgraph
