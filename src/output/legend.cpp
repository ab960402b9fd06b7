#include "cellgraph/output/legend.hpp"

#include <algorithm>

#include "cellgraph/error.hpp"
#include "cellgraph/output/font.hpp"

namespace cellgraph {
namespace {

// Sizes in font pixels, multiplied by the style's scale; frames are one pixel whatever the scale.
constexpr int kPadding = 4, kLineHeight = font::kGlyphHeight + 3, kSwatchGap = 3, kItemGap = 2 * font::kAdvance;
constexpr int kBarLength = 96;

// One thing drawn on a line: a swatch and name, the bar with its end values, or text.
struct Item {
  enum Kind { entry, bar, text } kind;
  std::size_t entry_index = 0;
  std::string text_value;
  std::int64_t width = 0;
  bool own_line = false;
};

class StripPainter {
 public:
  StripPainter(LegendStrip& strip, const LegendStyle& style) : strip_(strip), style_(style) {}

  void fill(PixelRect box, std::uint8_t index) {
    for (std::int64_t y = box.y; y < box.y + box.height; ++y)
      std::fill_n(strip_.image.pixels.begin() + std::ptrdiff_t(y * strip_.image.width + box.x), box.width, index);
  }
  // A one-pixel frame in the text colour around `inside`.
  void frame(PixelRect inside) {
    fill({inside.x - 1, inside.y - 1, inside.width + 2, 1}, style_.text);
    fill({inside.x - 1, inside.y + inside.height, inside.width + 2, 1}, style_.text);
    fill({inside.x - 1, inside.y, 1, inside.height}, style_.text);
    fill({inside.x + inside.width, inside.y, 1, inside.height}, style_.text);
  }
  void text(std::int64_t x, std::int64_t y, const std::string& value) {
    font::draw_text(strip_.image, x, y, value, style_.text, style_.scale);
  }

 private:
  LegendStrip& strip_;
  const LegendStyle& style_;
};

}  // namespace

LegendStrip draw_legend(const Legend& legend, std::int64_t width, const LegendStyle& style) {
  if (style.scale < 1) throw Error("legend: the text scale must be positive");
  const int s = style.scale;
  const std::int64_t swatch = std::int64_t(font::kCapHeight) * s;
  const std::int64_t bar_length = std::int64_t(kBarLength) * s;

  std::vector<Item> items;
  for (std::size_t i = 0; i < legend.entries.size(); ++i)
    items.push_back({Item::entry, i, {}, 2 + swatch + kSwatchGap * s + font::text_width(legend.entries[i].name, s)});
  if (legend.bar) {
    const ColourBar& bar = *legend.bar;
    items.push_back(
        {Item::bar,
         0,
         {},
         font::text_width(bar.low, s) + 2 * kSwatchGap * s + 2 + bar_length + font::text_width(bar.high, s)});
    if (!bar.caption.empty()) items.push_back({Item::text, 0, bar.caption, font::text_width(bar.caption, s)});
  }
  for (const std::string& note : legend.notes) items.push_back({Item::text, 0, note, font::text_width(note, s), true});

  // Lines: an item goes on the current line unless it would cross the right margin.
  const std::int64_t padding = std::int64_t(kPadding) * s, gap = std::int64_t(kItemGap) * s;
  std::int64_t strip_width = width;
  for (const Item& item : items) strip_width = std::max(strip_width, item.width + 2 * padding);
  struct Place {
    std::int64_t x, line;
  };
  std::vector<Place> places;
  std::int64_t x = padding, line = 0;
  for (const Item& item : items) {
    if (!places.empty() && (item.own_line || x + item.width > strip_width - padding)) x = padding, ++line;
    places.push_back({x, line});
    x += item.width + gap;
  }
  const std::int64_t lines = items.empty() ? 0 : line + 1;

  LegendStrip strip;
  strip.image.width = strip_width;
  strip.image.height = lines ? 2 * padding + lines * kLineHeight * s - (kLineHeight - font::kGlyphHeight) * s : 0;
  strip.image.pixels.assign(std::size_t(strip.image.width * strip.image.height), style.strip);
  StripPainter paint(strip, style);
  for (std::size_t i = 0; i < items.size(); ++i) {
    const Item& item = items[i];
    const std::int64_t left = places[i].x, top = padding + places[i].line * kLineHeight * s;
    switch (item.kind) {
      case Item::entry: {
        const LegendEntry& entry = legend.entries[item.entry_index];
        const PixelRect inside{left + 1, top, swatch, swatch};
        paint.fill(inside, entry.index);
        paint.frame(inside);
        strip.swatches.push_back(inside);
        paint.text(left + 2 + swatch + kSwatchGap * s, top, entry.name);
        break;
      }
      case Item::bar: {
        const ColourBar& bar = *legend.bar;
        paint.text(left, top, bar.low);
        const PixelRect inside{left + font::text_width(bar.low, s) + kSwatchGap * s + 1, top, bar_length, swatch};
        for (std::int64_t b = 0; b < bar_length && !bar.ramp.empty(); ++b)
          paint.fill({inside.x + b, top, 1, swatch},
                     bar.ramp[std::size_t(b) * bar.ramp.size() / std::size_t(bar_length)]);
        paint.frame(inside);
        strip.bar = inside;
        paint.text(inside.x + bar_length + 1 + kSwatchGap * s, top, bar.high);
        break;
      }
      case Item::text:
        paint.text(left, top, item.text_value);
        break;
    }
  }
  return strip;
}

int legend_scale(std::int64_t width) { return int(std::clamp<std::int64_t>(width / 480 + 1, 1, 4)); }

}  // namespace cellgraph
