// Golly rules in the one form the kernels look up: a decision tree, the form of Golly's own
// rule trees. Level k reads input k (a neighbor; the cell itself is read last); a node is a
// row of num_states entries, the offsets of child rows at every level but the last and next
// states at the last; identical nodes are shared. A @TREE section is this form already; a
// @TABLE section is compiled to it (bound variables and symmetries expanded, the first
// matching transition wins, a configuration no transition matches leaves the cell as it is).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "models/golly_rule_file.hpp"

namespace cellgraph::models {

struct RuleTree {
  std::string name;
  GollyNeighborhood neighborhood = GollyNeighborhood::moore;
  std::uint32_t num_states = 0;
  std::vector<GollyOffset> inputs;   // the neighbors the levels read, in order (then the cell)
  std::vector<std::uint32_t> nodes;  // rows of num_states entries
  std::uint32_t root = 0;            // offset of the root's row

  // neighbors[k]: the state of the neighbor at inputs[k].
  std::uint32_t next_state(const std::uint8_t* neighbors, std::uint8_t cell) const {
    std::uint32_t row = root;
    for (std::size_t k = 0; k < inputs.size(); ++k) row = nodes[row + neighbors[k]];
    return nodes[row + cell];
  }
  std::uint32_t node_count() const { return std::uint32_t(nodes.size() / num_states); }
};

// The order the levels read the neighbors: Golly's rule trees' for 4 and 8 neighbors (N, W, E,
// S; NW, NE, SW, SE, N, W, E, S), and so for tables of those neighborhoods too; hexagonal: the
// Moore order without NE and SW; oneDimensional: W, E.
std::vector<GollyOffset> golly_tree_inputs(GollyNeighborhood neighborhood);

RuleTree tree_from_golly_tree(const GollyTree& tree, const std::string& name);
RuleTree compile_golly_table(const GollyTable& table, const std::string& name);
RuleTree golly_rule_tree(const GollyRuleFile& file);  // from whichever section the file has

// The neighbor permutations a table's symmetries stand for, over Golly's table order of the
// neighbors (golly_table_neighbors): variant p of a transition takes, for neighbor i, the term
// written for neighbor p[i]. The identity comes first; "permute" gives every permutation.
std::vector<std::vector<int>> golly_symmetry_permutations(GollyNeighborhood neighborhood,
                                                          const std::string& symmetries);

}  // namespace cellgraph::models
