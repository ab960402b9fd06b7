// The colours of cell states, shared by every picture (PNG, GIF, quick looks), and images of
// palette indices, the form GIF frames and palette PNGs take.
#pragma once
#include <cstdint>
#include <vector>

namespace cellgraph {

struct Rgb {
  std::uint8_t r = 0, g = 0, b = 0;
  bool operator==(const Rgb&) const = default;
};

// State 0 black, state 1 white, dying states of Generations rules 2..num_states-1 fading
// linearly from orange (255,160,0) to dark red (96,0,0); states >= num_states magenta.
Rgb state_colour(std::uint32_t state, std::uint32_t num_states);

// Pixels that show no cell (around and between the cells of a mesh or graph picture).
inline constexpr Rgb kBackgroundColour{40, 56, 88};
inline constexpr Rgb kInvalidStateColour{255, 0, 255};

// State -> palette index, for at most 256 colours: states 0..253 keep their own index while
// the rule has at most 254 states; rules with more share entries among their dying states
// (each entry shows the first state mapped to it). Index 254 shows invalid states, 255 the
// background.
class StatePalette {
 public:
  static constexpr std::uint8_t kInvalid = 254, kBackground = 255;

  // Throws Error for fewer than 2 states.
  explicit StatePalette(std::uint32_t num_states);

  std::uint8_t index(std::uint32_t state) const { return state < lookup_.size() ? lookup_[state] : kInvalid; }
  const std::vector<Rgb>& colours() const { return colours_; }  // always 256 entries
  std::uint32_t num_states() const { return std::uint32_t(lookup_.size()); }

 private:
  std::vector<std::uint8_t> lookup_;  // per state
  std::vector<Rgb> colours_;
};

// Row-major palette indices.
struct IndexedImage {
  std::int64_t width = 0, height = 0;
  std::vector<std::uint8_t> pixels;
};

}  // namespace cellgraph
