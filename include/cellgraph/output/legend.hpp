// Legends drawn under pictures: a swatch and a name per state, a colour bar with its end values
// for what varies continuously, and lines of notes; drawn in the picture's own palette, so that
// PNGs and GIF frames keep one palette.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cellgraph/output/palette.hpp"

namespace cellgraph {

struct LegendEntry {
  std::string name;
  std::uint8_t index;  // the swatch's palette index
};

// Palette indices from the low end (left) to the high end (right), stretched over the bar.
struct ColourBar {
  std::vector<std::uint8_t> ramp;
  std::string low, high;  // the values at the ends
  std::string caption;    // what the values are
};

struct Legend {
  std::vector<LegendEntry> entries;
  std::optional<ColourBar> bar;
  std::vector<std::string> notes;  // a line each, after the rest
  bool empty() const { return entries.empty() && !bar && notes.empty(); }
};

struct LegendStyle {
  std::uint8_t text, strip;  // palette indices of the letters and frames, and of the strip
  int scale = 1;             // pixels per font pixel
};

struct PixelRect {
  std::int64_t x = 0, y = 0, width = 0, height = 0;
};

struct LegendStrip {
  IndexedImage image;
  std::vector<PixelRect> swatches;  // per entry: its colour, inside the frame
  std::optional<PixelRect> bar;     // the bar's colours, inside the frame
};

// The legend in a strip `width` pixels wide, or wider where one entry, the bar or a note would
// not fit: entries, then the bar and its caption, left to right, wrapping to new lines.
LegendStrip draw_legend(const Legend& legend, std::int64_t width, const LegendStyle& style);

// The text scale for a legend under a picture `width` pixels wide: 1 below 480 pixels, one
// more for each further 480, at most 4.
int legend_scale(std::int64_t width);

}  // namespace cellgraph
