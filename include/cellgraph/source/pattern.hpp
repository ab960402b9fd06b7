// Patterns for 2D grids: Golly RLE (with #CXRLE Pos, the rule line, multi-state letters) and
// Life 1.05 / 1.06, placed on a grid the way Golly places them on a bounded grid.
#pragma once
#include <array>
#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <vector>

#include "cellgraph/source/grid.hpp"

namespace cellgraph {

struct PatternCell {
  std::int64_t x, y;    // Golly coordinates: y grows downwards
  std::uint32_t state;  // >= 1
};

struct Pattern {
  std::vector<PatternCell> cells;
  std::string rule;           // the rule as written in the file without a bounded-grid suffix; "" if none
  std::size_t rule_line = 0;  // the line that gave the rule (and the suffix); 0 if none
  // A bounded-grid suffix of the rule (":T512,512" torus, ":P64,64" plane), as width, height.
  std::optional<std::array<std::int64_t, 2>> bounded_size;
  char bounded_kind = 0;  // 'T', 'P' or 0
};

Pattern read_rle(std::istream& in, const std::string& name);
Pattern read_life(std::istream& in, const std::string& name);  // Life 1.05 and 1.06
// Chooses the reader by content: "#Life 1.05", "#Life 1.06", otherwise RLE.
Pattern read_pattern_file(const std::string& path);
// Where a pattern's rule file is looked for: the folders `rule_dirs` (':' between them), then the
// pattern file's own folder ("." for a bare name), where Golly keeps a pattern's rule.
std::string rule_dirs_beside_pattern(const std::string& rule_dirs, const std::string& pattern_file);

// Golly's bounded-grid placement on a W x H grid (data/patterns/PROVENANCE.md): the grid's top-left
// cell is Golly's (-int(W/2), -int(H/2)); cells outside are dropped (counted in *dropped).
// Returns one state per grid cell (row-major, cell_id order).
std::vector<std::uint32_t> place_pattern(const Pattern& p, const GridSpec& grid, std::uint64_t* dropped = nullptr);

// The grid a pattern runs on when neither --grid nor its rule (":T", ":P") sizes one: the
// pattern's bounding box with a margin of max(16, half the box's side) cells on each side,
// each side rounded up to a multiple of 8 (a glider, 3x3: 40x40; no cells: 32x32). Returns
// width, height; center_pattern then puts the pattern in the middle.
std::array<std::int64_t, 2> pattern_grid_size(const Pattern& p);
// Moves the pattern so that its bounding box's top-left is (-int(w/2), -int(h/2)), where Golly
// puts a w x h pattern with no "#CXRLE Pos" on a bounded grid: place_pattern then centres it
// on any grid of even sides.
void center_pattern(Pattern& p);

// Writes the live cells of a 2D grid as RLE that Golly opens where it was: a "#CXRLE Pos"
// line for the top-left of the bounding box, the rule with a bounded-grid suffix
// (":T W,H" periodic, ":P W,H" otherwise), 70-column lines. States >= 2 as letters A..X etc.
void write_rle(std::ostream& out, const std::vector<std::uint32_t>& states, const GridSpec& grid,
               const std::string& rule, std::uint32_t num_states);

}  // namespace cellgraph
