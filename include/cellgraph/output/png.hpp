// PNG images of 2D grids through libpng.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace cellgraph {

// One pixel per cell (row-major, `width` x `height`), scaled up by `scale`. State 0 black,
// state 1 white, dying states of Generations rules fading from orange to dark red; written
// atomically. Throws Error on failure.
void write_grid_png(const std::string& path, const std::vector<std::uint32_t>& states,
                    std::int64_t width, std::int64_t height, std::uint32_t num_states,
                    int scale = 1);

// Reads an 8-bit RGB PNG back (for tests): width, height and rgb bytes.
struct RgbImage {
  std::int64_t width = 0, height = 0;
  std::vector<std::uint8_t> rgb;
};
RgbImage read_png(const std::string& path);

}  // namespace cellgraph
