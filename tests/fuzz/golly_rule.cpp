// Fuzz target golly_rule: Golly .rule files (models/golly_rule_file.cpp) on any bytes, through
// read_golly_rule's std::istream entry point, then the rule tree a run would use
// (models/golly_tree.cpp: a @TABLE compiled, a @TREE checked). The tree must index only its
// own rows and states: every path from the root is walked once per shared node.
#include <cstdint>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <utility>

#include "models/golly_rule_file.hpp"
#include "models/golly_tree.hpp"
#include "tests/fuzz/fuzz_support.hpp"

namespace {

using cellgraph::models::RuleTree;

void check_tree(const RuleTree& tree) {
  const auto fail = [](const std::string& what) {
    cellgraph::fuzz::finding("the rule tree indexes outside itself", what);
  };
  const std::uint32_t n = tree.num_states;
  if (n == 0 || tree.nodes.size() % n != 0) fail("rows of num_states entries do not fill the node array");
  if (tree.root % n != 0 || tree.root >= tree.nodes.size()) fail("the root is not a row");
  std::set<std::pair<std::uint32_t, std::size_t>> seen;  // (row, level)
  std::vector<std::pair<std::uint32_t, std::size_t>> stack{{tree.root, 0}};
  while (!stack.empty()) {
    const auto [row, level] = stack.back();
    stack.pop_back();
    if (!seen.insert({row, level}).second) continue;
    for (std::uint32_t s = 0; s < n; ++s) {
      const std::uint32_t entry = tree.nodes[row + s];
      if (level == tree.inputs.size()) {  // the cell's level: next states
        if (entry >= n) fail("next state " + std::to_string(entry) + " of " + std::to_string(n) + " states");
      } else {
        if (entry % n != 0 || entry >= tree.nodes.size()) fail("child " + std::to_string(entry) + " is not a row");
        stack.push_back({entry, level + 1});
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cellgraph;
  static const std::string name = "/fuzz/input.rule";
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  std::optional<models::GollyRuleFile> file;
  fuzz::guarded("read_golly_rule", name, [&] { file = models::read_golly_rule(in, name); });
  if (!file) return 0;
  std::optional<models::RuleTree> tree;
  fuzz::guarded("golly_rule_tree", "", [&] { tree = models::golly_rule_tree(*file); });
  if (tree) check_tree(*tree);
  return 0;
}
