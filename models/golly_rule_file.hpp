// Golly rule files (.rule): the name after @RULE and the rule of the first @TABLE or @TREE
// section, as Golly's RuleLoader reads them (Golly Help: File Formats, "Rule files"). @COLORS,
// @ICONS, @NAMES and sections Golly does not know are skipped, as Golly skips them. Malformed
// files throw ParseError ("file:line: what is wrong").
#pragma once
#include <cstddef>
#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <vector>

namespace cellgraph::models {

inline constexpr std::uint32_t kGollyMaxStates = 256;

enum class GollyNeighborhood : std::uint8_t { von_neumann, moore, hexagonal, one_dimensional };

// A @TABLE section as written. Terms keep their variable names so that bound variables (a
// name used twice in one transition takes one value) and symmetries are expanded in one place,
// golly_tree.cpp, and so that tests can evaluate the table directly.
struct GollyTable {
  struct Term {
    std::vector<std::uint8_t> states;  // what the term matches, in the variable's order
    std::string variable;              // empty for a literal state
  };
  struct Transition {
    std::vector<Term> inputs;  // Golly's order: the cell, then its neighbors (see below)
    Term output;               // a state, a one-state variable or a variable bound by the inputs
    std::size_t line = 0;
  };

  std::uint32_t num_states = 0;
  GollyNeighborhood neighborhood = GollyNeighborhood::moore;
  std::string symmetries;               // none, permute, rotate4, rotate4reflect, reflect_horizontal, rotate8,
                                        // rotate8reflect, rotate2, rotate3, rotate6, rotate6reflect, reflect
  std::vector<Transition> transitions;  // the first that matches wins
};

// A @TREE section: node lines as written, numbered from 0 in file order, the root last.
struct GollyTree {
  std::uint32_t num_states = 0;
  std::uint32_t num_neighbors = 0;    // 4 (N, W, E, S) or 8 (NW, NE, SW, SE, N, W, E, S)
  std::vector<std::uint32_t> depth;   // per node: 1 (values are next states) .. num_neighbors + 1
  std::vector<std::uint32_t> values;  // num_states per node: states at depth 1, node numbers above
  std::vector<std::size_t> lines;     // per node, for messages
};

struct GollyRuleFile {
  std::string name;                 // after @RULE
  std::optional<GollyTable> table;  // one of the two: whichever section comes first
  std::optional<GollyTree> tree;
};

// The neighbors of a table's transitions after the cell, as (dx, dy) with y down, in Golly's
// order: vonNeumann N,E,S,W; Moore N,NE,E,SE,S,SW,W,NW; hexagonal N,E,SE,S,W,NW (Golly's skewed
// hexagons on the square grid); oneDimensional W,E. Each but the last is a ring, clockwise.
struct GollyOffset {
  int dx, dy;
};
std::vector<GollyOffset> golly_table_neighbors(GollyNeighborhood neighborhood);
std::string golly_neighborhood_name(GollyNeighborhood neighborhood);

// `name` is the file name used in messages.
GollyRuleFile read_golly_rule(std::istream& in, const std::string& name);
GollyRuleFile read_golly_rule_file(const std::string& path);

}  // namespace cellgraph::models
