#include "cellgraph/output/palette.hpp"

#include <cmath>
#include <string>

#include "cellgraph/error.hpp"

namespace cellgraph {
namespace {

constexpr Rgb kDead{0, 0, 0}, kAlive{255, 255, 255};
constexpr Rgb kDyingFirst{255, 160, 0}, kDyingLast{96, 0, 0};

std::uint8_t mix(std::uint8_t from, std::uint8_t to, double t) {
  return static_cast<std::uint8_t>(std::lround(from + (to - from) * t));
}

}  // namespace

Rgb state_colour(std::uint32_t state, std::uint32_t num_states) {
  if (state >= num_states) return kInvalidStateColour;
  if (state <= 1) return state == 0 ? kDead : kAlive;
  const std::uint32_t last_dying = num_states - 1;
  if (last_dying == 2) return kDyingFirst;
  const double t = double(state - 2) / double(last_dying - 2);
  return {mix(kDyingFirst.r, kDyingLast.r, t), mix(kDyingFirst.g, kDyingLast.g, t),
          mix(kDyingFirst.b, kDyingLast.b, t)};
}

StatePalette::StatePalette(std::uint32_t num_states) : lookup_(num_states), colours_(256) {
  if (num_states < 2) throw Error("a picture needs at least 2 states, not " + std::to_string(num_states));
  constexpr std::uint32_t kStateEntries = kInvalid;  // 0..253
  std::vector<bool> filled(256, false);
  for (std::uint32_t s = 0; s < num_states; ++s) {
    // Only rules with more states than entries squeeze their dying states 2.. onto 2..253.
    const std::uint32_t entry =
        num_states <= kStateEntries || s < 2 ? s : 2 + std::uint64_t(s - 2) * (kStateEntries - 2) / (num_states - 2);
    lookup_[s] = std::uint8_t(entry);
    if (!filled[entry]) colours_[entry] = state_colour(s, num_states), filled[entry] = true;
  }
  colours_[kInvalid] = kInvalidStateColour;
  colours_[kBackground] = kBackgroundColour;
}

}  // namespace cellgraph
