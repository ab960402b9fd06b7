// Golly's rule files (.rule, @TABLE or @TREE) on grids: each cell walks the rule's decision
// tree (models/golly_tree.hpp) one level per neighbor, its own state last. The tree is a
// table in memory the backends provide (model.hpp: TableRef); grid slots are mapped to the
// tree's inputs by their offsets.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cellgraph/layout.hpp"
#include "cellgraph/model.hpp"
#include "models/golly_tree.hpp"
#include "models/params.hpp"

namespace cellgraph::models {

inline constexpr std::uint32_t kGollyMaxSlots = 8;  // the Moore neighborhood
inline constexpr std::uint8_t kGollyUnread = 0xFF;  // a slot the rule does not read

struct GollyRule {
  using Vars = Variables<std::uint8_t>;
  // Byte k: the state of the tree's input k. Each slot fills its own byte, so partial folds
  // combine by OR.
  using Acc = std::uint64_t;
  using TableEntry = std::uint32_t;

  TableRef<std::uint32_t> table;  // RuleTree::nodes
  std::uint32_t root = 0;
  std::uint32_t inputs = 0;  // levels before the cell's own
  std::uint32_t states = 2;
  std::uint8_t input_of_slot[kGollyMaxSlots] = {kGollyUnread, kGollyUnread, kGollyUnread, kGollyUnread,
                                                kGollyUnread, kGollyUnread, kGollyUnread, kGollyUnread};

  std::uint32_t num_states() const { return states; }

  CG_HD Acc init() const { return 0; }
  CG_HD void gather(Acc& acc, const CellRead<Vars>& neighbor, std::uint32_t slot) const {
    const std::uint32_t input = slot < kGollyMaxSlots ? input_of_slot[slot] : kGollyUnread;
    if (input != kGollyUnread) acc |= Acc(get<0>(neighbor)) << (8 * input);
  }
  CG_HD void combine(Acc& acc, const Acc& more) const { acc |= more; }
  CG_HD void apply(const CellRead<Vars>& self, const Acc& acc, CellWrite<Vars>& out, const CellContext&) const {
    std::uint32_t row = root;
    for (std::uint32_t k = 0; k < inputs; ++k) row = table[row + (acc >> (8 * k) & 0xFF)];
    set<0>(out, std::uint8_t(table[row + get<0>(self)]));
  }
};

// The model for `tree` on this layout: a grid whose neighbor slots include every neighbor the
// rule reads (Moore grids run every Golly neighborhood, as Golly does; von Neumann, hexagonal
// and 1D grids their own). The model points into tree.nodes, which must outlive it.
GollyRule golly_rule_model(const RuleTree& tree, const Layout& layout);

// The model's parameters (rule, file, dir), and the tree of the rule file they name, read and,
// for a @TABLE, compiled (Error when the rule asked for is not the file's).
const std::vector<ParamInfo>& golly_params();
RuleTree load_golly_rule_tree(const Params& params);

// Where RULE.rule files are looked for, in order: the folders of `dir` (':' between them), then
// data/rules under the current folder, $CELLGRAPH_DATA_DIR/rules, the installed rules (where
// the build was configured to install, then share/cellgraph/rules beside the program's bin/)
// and the source tree's (so that a build runs from any folder).
std::vector<std::string> golly_rule_folders(const Params& params);
// The same folders as a message lists them: "a, b, c", each past 60 characters cut to its
// end, the list past 160 characters ending "and N more folders".
std::string golly_rule_folders_text(const Params& params);
// The rule file the parameters name: `file`, or `rule` looked up as RULE.rule in those
// folders. Throws Error saying where it looked.
std::string golly_rule_path(const Params& params);

// True when the parameters suit this model and `rule` names a rule file, not a Life-like rule:
// the CLI then runs golly where no model is named.
bool names_golly_rule_file(const Params& params);

}  // namespace cellgraph::models
