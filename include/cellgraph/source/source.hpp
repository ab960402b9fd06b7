// One place that turns the user's choice of source into the canonical graph plus, for grids
// and patterns, what outputs need to know (grid shape, the pattern's rule).
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cellgraph/graph.hpp"
#include "cellgraph/source/graph_file.hpp"
#include "cellgraph/source/grid.hpp"
#include "cellgraph/source/mesh.hpp"
#include "cellgraph/source/pattern.hpp"

namespace cellgraph {

struct SourceSpec {
  std::string grid;  // "512x512"; empty: no grid unless a pattern names one
  std::string neighborhood = "moore";
  std::string boundary = "periodic";
  std::string graph_file;
  GraphReadOptions graph_options;
  std::string pattern_file;  // 2D grids only
  // Checks the pattern's own rule as the run will read it (empty: not read, as where --rule
  // overrides it), given the rule and the folders to look for rule files in (golly_rule_dirs,
  // then the pattern's folder; ':' between them); throws Error for one the run cannot take,
  // which load_source reports at its line in the pattern file. The models supply it
  // (models::rule_check), so that sources need not know the rules.
  std::function<void(const std::string& rule, const std::string& rule_dirs)> check_pattern_rule;
  std::string golly_rule_dirs;
  std::string generator;  // "rgg:N[:degree]", "rmat:SCALE[:edge_factor]", "er:N[:degree]"
  std::string mesh_file;  // Gmsh, METIS .mesh, VTK
  MeshGraphOptions mesh_options;
  std::uint64_t generator_seed = 1;
};

struct Source {
  Graph graph;
  std::optional<GridSpec> grid;
  std::optional<Pattern> pattern;
  std::optional<Mesh> mesh;                  // mesh sources, for VTK outputs
  std::vector<std::uint32_t> mesh_elements;  // dual graphs: graph vertex -> element
  std::string description;                   // "grid 512x512 moore periodic", "graph 4elt.graph"
  // Graph files: the id or name the file gives each vertex (an edge list's compacted ids or
  // names, GraphML's node ids); empty where vertex v is v. Outputs that name vertices use them.
  std::vector<std::string> vertex_labels;
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

// State 1 at the listed user ids ("0,17,42"), 0 elsewhere; with `vertex_labels` (a labelled
// graph's, Source::vertex_labels), at the vertices so named ("alice,bob", "1005,26196"). Throws
// Error naming a bad entry.
std::vector<std::uint32_t> listed_cells(std::uint32_t num_vertices, const std::string& list,
                                        const std::vector<std::string>& vertex_labels = {});

}  // namespace cellgraph
