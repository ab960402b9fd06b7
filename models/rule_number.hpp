// Binary rules given by a rule number (Wolfram codes): bit i of the number is the next state
// for neighborhood configuration i. Three ways to number the configurations:
//   configuration: the cell and its neighbor slots read as a binary number, cells in raster
//                  order (the stencil's slot order with the cell itself in the middle), the
//                  first the most significant bit: 1D elementary (left, centre, right: 4, 2,
//                  1), 2D Moore (NW N NE W C E SW S SE: 256 ... 1), 2D von Neumann (N W C E S);
//   sum:           the live cells of the neighborhood, the cell included (totalistic);
//   outer_sum:     2 x live neighbors + the cell's own state (outer-totalistic).
// Live means state 1, as in lifelike. The rule number has at most 512 bits; configurations
// past them (sums over very large neighborhoods) give 0, as the number's missing bits would.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "cellgraph/layout.hpp"
#include "cellgraph/model.hpp"
#include "models/params.hpp"

namespace cellgraph::models {

enum class RuleIndex : std::uint8_t { configuration, sum, outer_sum };

inline constexpr std::uint32_t kRuleNumberBits = 512;  // 2^9: the Moore neighborhood's table
using RuleNumberWords = std::uint64_t[kRuleNumberBits / 64];

struct RuleNumber {
  using Vars = Variables<std::uint8_t>;
  // configuration: the neighbors' bits of the index (disjoint, so partial folds add);
  // sum, outer_sum: live neighbors.
  using Acc = std::uint32_t;

  RuleNumberWords table = {};  // entry i: bit i % 64 of word i / 64, the rule number's bit i
  RuleIndex index = RuleIndex::configuration;
  std::uint32_t slots = 2;  // configuration: neighbor slots of every cell

  std::uint32_t num_states() const { return 2; }

  // Bit of the configuration index read from `slot` (the cell itself sits after slots / 2).
  CG_HD std::uint32_t slot_bit(std::uint32_t slot) const { return slot < slots / 2 ? slots - slot : slots - 1 - slot; }
  CG_HD bool entry(std::uint64_t i) const { return i < kRuleNumberBits && (table[i / 64] >> (i % 64) & 1); }

  CG_HD Acc init() const { return 0; }
  // Sums count live neighbors; a configuration's bits are no count.
  bool outer_totalistic() const { return index != RuleIndex::configuration; }
  CG_HD void gather(Acc& acc, const CellRead<Vars>& neighbor, std::uint32_t slot) const {
    const Acc live = get<0>(neighbor) == 1;
    acc += index == RuleIndex::configuration ? live << slot_bit(slot) : live;
  }
  CG_HD void combine(Acc& acc, const Acc& more) const { acc += more; }
  CG_HD void apply(const CellRead<Vars>& self, const Acc& acc, CellWrite<Vars>& out, const CellContext&) const {
    const std::uint64_t live = get<0>(self) == 1;
    std::uint64_t i;
    switch (index) {
      case RuleIndex::configuration:
        i = acc | live << (slots - slots / 2);
        break;
      case RuleIndex::sum:
        i = acc + live;
        break;
      default:
        i = 2 * std::uint64_t(acc) + live;
        break;
    }
    set<0>(out, std::uint8_t(entry(i)));
  }
};

// The rule number in decimal or hex ("0x..."), exactly, into 512 bits (little-endian words).
// Throws Error naming the parameter `rule` for malformed text and numbers >= 2^512.
void parse_rule_number(const std::string& text, RuleNumberWords& bits);

// The parameters: kind, rule, radius (what `cellgraph models` lists).
const std::vector<ParamInfo>& rule_number_params();

// The model from its parameters (kind, rule, radius), checked against the layout's
// neighborhood: table kinds need a grid with the right number of slots.
RuleNumber read_rule_number(const Params& params, const Layout& layout);

}  // namespace cellgraph::models
