// One place that turns the user's choice of source into the canonical graph plus, for grids
// and patterns, what outputs need to know (grid shape, the pattern's rule).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cellgraph/graph.hpp"
#include "cellgraph/source/graph_file.hpp"
#include "cellgraph/source/grid.hpp"
#include "cellgraph/source/mesh.hpp"
#include "cellgraph/source/pattern.hpp"

namespace cellgraph {

// How a run will read a rule (the CLI says, from --model): not checked here (another model
// reads it), as a Life-like rule, as the name of a Golly rule file, or as either (the default
// model: Life-like, else a rule file).
enum class RuleUse { ignored, lifelike, golly, lifelike_or_golly };

// Throws Error when `rule` is not one a run reading it as `use` can take; Golly rule files are
// looked for in `golly_dirs` (':' between folders) and where the golly model looks.
void check_rule(const std::string& rule, RuleUse use, const std::string& golly_dirs);

struct SourceSpec {
  std::string grid;                     // "512x512"; empty: no grid unless a pattern names one
  std::string neighborhood = "moore";
  std::string boundary = "periodic";
  std::string graph_file;
  GraphReadOptions graph_options;
  std::string pattern_file;             // 2D grids only
  // How the run reads the pattern's own rule (ignored where --rule overrides it): load_source
  // refuses a bad one at its line in the pattern file. NAME.rule is looked for in
  // golly_rule_dirs, then in the pattern's folder.
  RuleUse pattern_rule = RuleUse::ignored;
  std::string golly_rule_dirs;
  std::string generator;                // "rgg:N[:degree]", "rmat:SCALE[:edge_factor]", "er:N[:degree]"
  std::string mesh_file;                // Gmsh, METIS .mesh, VTK
  MeshGraphOptions mesh_options;
  std::uint64_t generator_seed = 1;
};

struct Source {
  Graph graph;
  std::optional<GridSpec> grid;
  std::optional<Pattern> pattern;
  std::optional<Mesh> mesh;                 // mesh sources, for VTK outputs
  std::vector<std::uint32_t> mesh_elements; // dual graphs: graph vertex -> element
  std::string description;  // "grid 512x512 moore periodic", "graph 4elt.graph"
};

// Throws Error for contradictory choices (a grid and a graph file, a pattern on a graph, ...),
// and before allocating it, for a source that needs more memory than memory_limit() allows.
Source load_source(const SourceSpec& spec);

// What a run of this grid takes: the slotted graph, its layout (no padding, no permutation to
// speak of) and double-buffered state. An estimate, on the high side, for check_memory.
std::uint64_t estimated_grid_bytes(const GridSpec& grid);
// Throws Error "--grid WxH (N cells, k neighbors each) needs about X, more than Y" when the
// grid's run would not fit memory_limit().
void check_grid_memory(const GridSpec& grid);

// Initial states from options. Their errors are OptionErrors about --fill, --fill-count and
// --cells, so that the CLI can name the config file line a value came from.

// Random initial state: each vertex live (state 1) with probability `density`, decided by
// Philox keyed by (seed, user id), so every backend and partitioning starts alike.
std::vector<std::uint32_t> random_fill(std::uint32_t num_vertices, double density, std::uint64_t seed);

// Exactly `count` vertices in state 1, chosen at random by the same kind of key (by count:
// "100 initially infected").
std::vector<std::uint32_t> random_fill_count(std::uint32_t num_vertices, std::uint64_t count, std::uint64_t seed);

// State 1 at the listed user ids ("0,17,42"), 0 elsewhere. Throws Error naming a bad entry.
std::vector<std::uint32_t> listed_cells(std::uint32_t num_vertices, const std::string& list);

}  // namespace cellgraph
