// A small bitmap font for the words in pictures (legends, colour bars): printable ASCII, each
// glyph 5 x 8 pixels (7 above the baseline, 1 for descenders), drawn into palette images.
#pragma once
#include <array>
#include <cstdint>
#include <string_view>

#include "cellgraph/output/palette.hpp"

namespace cellgraph::font {

inline constexpr int kGlyphWidth = 5, kGlyphHeight = 8;
inline constexpr int kAdvance = kGlyphWidth + 1;  // a column of space between letters
inline constexpr int kCapHeight = 7;              // rows above the baseline

// The glyph of `c`, top row first, the leftmost pixel in bit 4 of each row. Characters outside
// ' '..'~' are drawn as '?'.
const std::array<std::uint8_t, kGlyphHeight>& glyph(char c);

// The width in pixels of `text` drawn at `scale` (each font pixel a scale x scale square), from
// its first pixel column to its last; 0 for no text.
std::int64_t text_width(std::string_view text, int scale);

// Draws `text` in palette index `index` with the glyphs' top-left corner at (x, y); pixels
// outside the image are dropped.
void draw_text(IndexedImage& image, std::int64_t x, std::int64_t y, std::string_view text, std::uint8_t index,
               int scale);

}  // namespace cellgraph::font
