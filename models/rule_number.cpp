#include "models/rule_number.hpp"

#include <algorithm>

#include "cellgraph/error.hpp"

namespace cellgraph::models {
namespace {

enum Kind { elementary, moore, vonneumann, totalistic, outer };  // the order of kKinds
const std::vector<std::string> kKinds = {"elementary", "moore", "vonneumann", "totalistic", "outer"};

}  // namespace

const std::vector<ParamInfo>& rule_number_params() {
  static const std::vector<ParamInfo> params = {
      {"kind", "elementary",
       "how `rule` numbers the neighborhoods: elementary (1D, the 2r+1 cells read as a binary number, "
       "leftmost = most significant: Wolfram's codes), moore (2D, 9 cells NW N NE W C E SW S SE, NW = "
       "bit 8 of the index: 512 entries), vonneumann (2D, 5 cells N W C E S: 32 entries), totalistic "
       "(bit s: the next state when s cells of the neighborhood, the cell included, are live), outer "
       "(bit 2s + own state, s = live neighbors). Only totalistic and outer work on graph files"},
      {"rule", "30",
       "the rule number, decimal or hex (0x...), below 2^entries (at most 2^512 - 1); "
       "bit i is the next state of neighborhood i"},
      {"radius", "1", "elementary only: cells on each side, 1 to 4 (the 1D grid needs --neighborhood moore:r)"},
  };
  return params;
}

void parse_rule_number(const std::string& text, RuleNumberWords& bits) {
  const bool hex = text.size() > 1 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  const std::uint64_t base = hex ? 16 : 10;
  auto digit_value = [](char c) -> std::uint64_t {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return 99;
  };
  const std::size_t first = hex ? 2 : 0;
  bool malformed = text.size() == first;
  // 32-bit limbs multiplied in 64-bit arithmetic: exact, no floating point.
  std::uint32_t limb[kRuleNumberBits / 32] = {};
  for (std::size_t at = first; at < text.size() && !malformed; ++at) {
    std::uint64_t carry = digit_value(text[at]);
    malformed = carry >= base;
    for (std::uint32_t& l : limb) {
      const std::uint64_t x = l * base + carry;
      l = std::uint32_t(x);
      carry = x >> 32;
    }
    if (carry && !malformed)
      throw Error("model rulenumber: rule " + printable_text(text) + " is too large (at most 2^512 - 1)");
  }
  if (malformed)
    throw Error("model rulenumber: rule must be a whole number, decimal or hex (0x...), not " + quoted_text(text));
  for (std::uint32_t w = 0; w < kRuleNumberBits / 64; ++w) bits[w] = limb[2 * w] | std::uint64_t(limb[2 * w + 1]) << 32;
}

RuleNumber read_rule_number(const Params& params, const Layout& layout) {
  const ParamReader read("rulenumber", params, rule_number_params());
  const auto kind = Kind(read.choice("kind", kKinds));
  const std::string kind_text = "kind=" + kKinds[kind];
  const std::uint32_t radius = read.whole("radius", 1, 4);
  if (kind != elementary && params.count("radius"))
    throw Error("model rulenumber: radius applies to kind=elementary only, not " + kind_text);

  RuleNumber model;
  parse_rule_number(read.text("rule"), model.table);
  const auto [low, high] = std::minmax_element(layout.degree.begin(), layout.degree.end());
  const std::uint32_t max_degree = layout.degree.empty() ? 0 : *high;
  std::uint64_t entries = 0;
  std::string counted;  // what the entries are, for the range error
  if (kind == elementary || kind == moore || kind == vonneumann) {
    const std::uint32_t wanted = kind == elementary ? 2 * radius : kind == moore ? 8 : 4;
    const std::string grid =
        kind == elementary ? "a 1D grid with --neighborhood moore:r" : "a 2D grid with --neighborhood " + kKinds[kind];
    if (!layout.slotted)
      throw Error("model rulenumber: " + kind_text + " tells neighbors apart by position, which needs " + grid +
                  "; on graphs use kind=totalistic or kind=outer");
    if (layout.degree.empty() || *low != wanted || *high != wanted)
      throw Error("model rulenumber: " + kind_text + (kind == elementary ? " radius=" + std::to_string(radius) : "") +
                  " needs " + std::to_string(wanted) + " neighbor slots (" + grid + "), but this grid's cells have " +
                  std::to_string(max_degree));
    model.index = RuleIndex::configuration;
    model.slots = wanted;
    entries = std::uint64_t(1) << (wanted + 1);
    counted = std::to_string(entries) + " neighborhoods of " + std::to_string(wanted + 1) + " cells";
  } else {
    model.index = kind == totalistic ? RuleIndex::sum : RuleIndex::outer_sum;
    // Grids: every cell has the same slots, in every part. Graphs: any 512 bits, so that the
    // check cannot depend on which part of a partitioned graph holds the largest degree.
    const std::uint64_t slots = layout.slotted ? max_degree : kRuleNumberBits;
    entries = kind == totalistic ? slots + 2 : 2 * (slots + 1);
    counted = std::to_string(entries) + " entries for " + std::to_string(slots) + " neighbors";
  }
  for (std::uint64_t i = entries; i < kRuleNumberBits; ++i)
    if (model.entry(i))
      throw Error("model rulenumber: rule " + read.text("rule") + " is too large for " + kind_text + ": " + counted +
                  ", so it must be below 2^" + std::to_string(entries));
  return model;
}

}  // namespace cellgraph::models
