// 3D grids seen from above: each (x, y) column's count of cells not in state 0 along z, as a
// shaded picture. For the cloud model, whose variable 0 is cld, a top view of the clouds (the
// sum of cld along z).
#pragma once
#include <cstdint>
#include <vector>

#include "cellgraph/output/palette.hpp"
#include "cellgraph/source/grid.hpp"

namespace cellgraph {

// Per column, row-major (x fastest, W x H): how many of its D cells are not in state 0.
// Throws Error unless `states` holds one state per cell of the 3D grid.
std::vector<std::uint32_t> column_counts(const std::vector<std::uint32_t>& states, const GridSpec& grid);

// 256 shades from sky blue (index 0: an empty column) to white (255), linear in each channel.
const std::vector<Rgb>& column_palette();

// The shade of a column with `count` cells not in state 0 (a block's mean count), as the top
// view draws it: round(255 x (1 - (7/8)^count)).
std::uint8_t column_shade(double count);

// The top view: pixel (x, y) shows column (x, y), y = 0 on top as in pictures of 2D grids, in
// shade round(255 x (1 - (7/8)^count)): as if each cell not in state 0 hid an eighth of the
// sky behind it (eight cells hide two thirds, twenty 93%). `scale` pixels per column, or the largest scale that fits
// `max_side`; when even one pixel per column does not fit, each pixel stands for a block of
// f x f columns, f the smallest whole factor that fits, and shows the shade of their mean
// count.
IndexedImage column_picture(const std::vector<std::uint32_t>& states, const GridSpec& grid, int scale,
                            std::int64_t max_side);

}  // namespace cellgraph
