#include "cellgraph/source/source.hpp"

#include <algorithm>
#include <charconv>
#include <limits>
#include <new>
#include <string_view>
#include <unordered_map>

#include "cellgraph/error.hpp"
#include "cellgraph/memory_budget.hpp"
#include "cellgraph/philox.hpp"
#include "cellgraph/source/generators.hpp"
#include "src/source/mesh_formats.hpp"

namespace cellgraph {
namespace {

std::string base_name(const std::string& path) {
  auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string boundary_name(const Boundary& b) {
  switch (b.kind) {
    case BoundaryKind::periodic:
      return "periodic";
    case BoundaryKind::reflective:
      return "reflective";
    case BoundaryKind::fixed:
      return "fixed:" + std::to_string(b.value);
  }
  return "?";
}

std::string grid_size_text(const GridSpec& grid) {
  std::string text = std::to_string(grid.size[0]);
  for (int a = 1; a < grid.dims; ++a) text += "x" + std::to_string(grid.size[a]);
  return text;
}

std::string cells_text(const GridSpec& grid) {
  return std::to_string(grid.cell_count()) + " cells, " + std::to_string(grid.stencil.size()) + " neighbors each";
}

// Whether the grid is the one pattern_grid_size gives: a pattern with neither --grid nor a
// bounded grid of its own.
bool sized_to_pattern(const SourceSpec& spec, const std::optional<Pattern>& pattern) {
  return spec.grid.empty() && pattern && !pattern->bounded_size;
}

// Refused before build_grid_graph allocates it; a size the pattern's rule gave is reported at
// that line of the pattern file, one sized to the pattern names the file.
void check_source_grid_memory(const GridSpec& grid, const SourceSpec& spec, const std::optional<Pattern>& pattern) {
  if (!spec.grid.empty() || !pattern) return check_grid_memory(grid);
  const std::uint64_t bytes = estimated_grid_bytes(grid);
  if (bytes <= memory_limit()) return;
  if (sized_to_pattern(spec, pattern))
    throw Error(spec.pattern_file + ": the grid sized to the pattern, " + grid_size_text(grid) + " (" +
                cells_text(grid) + "), " + memory_shortfall(bytes) + "; give --grid");
  throw ParseError(
      spec.pattern_file, pattern->rule_line,
      "the rule's bounded grid " + grid_size_text(grid) + " (" + cells_text(grid) + ") " + memory_shortfall(bytes));
}

// check_grid, naming the pattern where the grid was sized to it.
void check_source_grid(const GridSpec& grid, const SourceSpec& spec, const std::optional<Pattern>& pattern) {
  if (!sized_to_pattern(spec, pattern)) return check_grid(grid);
  try {
    check_grid(grid);
  } catch (const Error& e) {
    throw Error(spec.pattern_file + ": the grid sized to the pattern, " + grid_size_text(grid) + ": " + e.what() +
                "; give --grid");
  }
}

// A pattern's rule, where the run will take it, must be one the model can run: refused here
// at its line in the pattern file, not later without one.
void check_pattern_rule(const Pattern& pattern, const SourceSpec& spec) {
  if (pattern.rule.empty() || !spec.check_pattern_rule) return;
  try {
    spec.check_pattern_rule(pattern.rule, rule_dirs_beside_pattern(spec.golly_rule_dirs, spec.pattern_file));
  } catch (const Error& e) {
    throw ParseError(spec.pattern_file, pattern.rule_line, e.what());
  }
}

// Generators draw their graphs whole: a spec's size is checked before the first draw.
void check_generator_memory(const std::string& generator) {
  const GeneratedSize size = generated_size(generator);
  check_memory(size.bytes, "--generate " + printable_text(generator) + " (" + std::to_string(size.vertices) +
                               " vertices, about " + std::to_string(size.edges) + " edges)");
}

GridSpec grid_from(const SourceSpec& spec, const std::optional<Pattern>& pattern) {
  GridSpec grid;
  std::string size = spec.grid;
  Boundary boundary = parse_boundary(spec.boundary);
  if (size.empty() && pattern && pattern->bounded_size) {
    // The pattern's rule names its own bounded grid (":T20,20" torus, ":P" plane).
    size = std::to_string((*pattern->bounded_size)[0]) + "x" + std::to_string((*pattern->bounded_size)[1]);
    if (pattern->bounded_kind == 'P') boundary = {BoundaryKind::fixed, 0};
    else boundary = {BoundaryKind::periodic, 0};
  }
  if (size.empty() && pattern) {
    // Neither --grid nor the rule sizes it: the pattern with a margin (center_pattern has
    // moved it to the middle).
    const auto [width, height] = pattern_grid_size(*pattern);
    grid.size = {width, height, 1};
  } else {
    grid.size = parse_grid_size(size, &grid.dims);
  }
  grid.boundary = boundary;
  grid.stencil = parse_stencil(spec.neighborhood, grid.dims);
  if (pattern && grid.dims != 2) throw Error("patterns are placed on 2D grids; --grid " + size + " is not 2D");
  return grid;
}

// The mesh's graph. What goes wrong there (no elements of the dimension asked for, METIS) is
// about the file, so the error names it.
MeshGraph mesh_graph(const Mesh& mesh, const SourceSpec& spec) {
  const std::uint64_t nodes = mesh.num_nodes(), elements = mesh.num_elements();
  check_memory(
      detail::estimated_mesh_bytes(nodes, elements, mesh.element_nodes.size()),
      spec.mesh_file + ": a mesh of " + std::to_string(nodes) + " nodes and " + std::to_string(elements) + " elements");
  try {
    return mesh_to_graph(mesh, spec.mesh_options);
  } catch (const ParseError&) {
    throw;
  } catch (const Error& e) {
    throw ParseError(spec.mesh_file, 0, e.what());
  }
}

// What the user named as the source, for messages.
std::string source_name(const SourceSpec& spec) {
  if (!spec.mesh_file.empty()) return spec.mesh_file;
  if (!spec.graph_file.empty()) return spec.graph_file;
  if (!spec.generator.empty()) return "--generate " + printable_text(spec.generator);
  if (!spec.grid.empty()) return "--grid " + printable_text(spec.grid);
  return spec.pattern_file;
}

Source load(const SourceSpec& spec) {
  Source source;
  if (!spec.mesh_file.empty()) {
    source.mesh = read_mesh_file(spec.mesh_file);
    MeshGraph mg = mesh_graph(*source.mesh, spec);
    source.graph = std::move(mg.graph);
    source.mesh_elements = std::move(mg.elements);
    const bool dual = spec.mesh_options.kind == MeshGraphKind::dual;
    source.description = std::string(dual ? "dual" : "nodal") + " graph of mesh " + base_name(spec.mesh_file);
    return source;
  }
  if (!spec.generator.empty()) {
    check_generator_memory(spec.generator);
    source.graph = generate_graph(spec.generator, spec.generator_seed);
    // Another seed is another graph: a restart must tell them apart.
    source.description = "generated " + spec.generator +
                         (spec.generator_seed == 1 ? "" : " seed " + std::to_string(spec.generator_seed));
    return source;
  }
  if (!spec.graph_file.empty()) {
    LabelledGraph file = read_labelled_graph_file(spec.graph_file, spec.graph_options);
    source.graph = std::move(file.graph);
    source.vertex_labels = std::move(file.vertex_labels);
    source.description = "graph " + base_name(spec.graph_file);
    return source;
  }
  if (!spec.pattern_file.empty()) {
    source.pattern = read_pattern_file(spec.pattern_file);
    check_pattern_rule(*source.pattern, spec);
    if (sized_to_pattern(spec, source.pattern)) center_pattern(*source.pattern);
  }
  GridSpec grid = grid_from(spec, source.pattern);
  check_source_grid(grid, spec, source.pattern);
  check_source_grid_memory(grid, spec, source.pattern);
  source.graph = build_grid_graph(grid);
  source.description = "grid " + grid_size_text(grid) + " " + spec.neighborhood + " " + boundary_name(grid.boundary);
  source.grid = grid;
  return source;
}

}  // namespace

std::uint64_t estimated_grid_bytes(const GridSpec& grid) {
  // Per cell: the graph's offset and slots (8 + 4k), the layout's slots, degree and both
  // permutations (4k + 12), and up to 8 bytes of state twice plus the initial states (24).
  const long double cells = grid.cell_count(), slots = grid.stencil.size();
  const long double bytes = cells * (44 + 8 * slots);
  return bytes >= 1.8e19L ? std::numeric_limits<std::uint64_t>::max() : std::uint64_t(bytes);
}

void check_grid_memory(const GridSpec& grid) {
  check_memory(estimated_grid_bytes(grid), "--grid " + grid_size_text(grid) + " (" + cells_text(grid) + ")");
}

Source load_source(const SourceSpec& spec) {
  const bool has_grid = !spec.grid.empty(), has_graph = !spec.graph_file.empty(),
             has_pattern = !spec.pattern_file.empty(), has_generator = !spec.generator.empty(),
             has_mesh = !spec.mesh_file.empty();
  if (int(has_graph) + int(has_generator) + int(has_mesh) + int(has_grid || has_pattern) > 1)
    throw Error("choose one source: --graph, --mesh, --generate, or --grid (with an optional --pattern)");
  if (!has_graph && !has_grid && !has_pattern && !has_generator && !has_mesh)
    throw Error("no source: give --grid WxH, --pattern FILE, --graph FILE, --mesh FILE or --generate SPEC");
  try {
    return load(spec);
  } catch (const std::bad_alloc&) {
    throw Error(source_name(spec) + ": out of memory loading it (it needs more than " + memory_limit_description() +
                ")");
  }
}

std::vector<std::uint32_t> random_fill(std::uint32_t num_vertices, double density, std::uint64_t seed) {
  if (!(density >= 0.0 && density <= 1.0)) throw OptionError("fill", "--fill must be a density from 0 to 1");
  std::vector<std::uint32_t> states(num_vertices);
  for (std::uint32_t v = 0; v < num_vertices; ++v)
    states[v] = bernoulli(random_words(seed, v, 0, RandomStream::initial_fill).v[0], density);
  return states;
}

std::vector<std::uint32_t> random_fill_count(std::uint32_t num_vertices, std::uint64_t count, std::uint64_t seed) {
  if (count > num_vertices)
    throw OptionError("fill-count", "--fill-count " + std::to_string(count) + " is more than the " +
                                        std::to_string(num_vertices) + " cells");
  // The `count` vertices of smallest key; keys are unique (the id breaks ties).
  std::vector<std::uint64_t> keys(num_vertices);
  for (std::uint32_t v = 0; v < num_vertices; ++v)
    keys[v] = (std::uint64_t(random_words(seed, v, 0, RandomStream::initial_fill).v[1]) << 32) | v;
  std::vector<std::uint32_t> states(num_vertices, 0);
  if (count == 0) return states;
  std::nth_element(keys.begin(), keys.begin() + std::ptrdiff_t(count - 1), keys.end());
  for (std::uint64_t i = 0; i < count; ++i) states[std::uint32_t(keys[i])] = 1;
  return states;
}

std::vector<std::uint32_t> listed_cells(std::uint32_t num_vertices, const std::string& list,
                                        const std::vector<std::string>& vertex_labels) {
  std::vector<std::uint32_t> states(num_vertices, 0);
  std::unordered_map<std::string_view, std::uint32_t> vertex_named;
  for (std::uint32_t v = 0; v < vertex_labels.size(); ++v) vertex_named.emplace(vertex_labels[v], v);
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    const std::string item = list.substr(start, comma - start);
    if (!vertex_labels.empty()) {
      const auto named = vertex_named.find(item);
      if (named == vertex_named.end())
        throw OptionError("cells", "--cells: no vertex is named " + quoted_text(item) +
                                       " (the graph file names its vertices; --cells lists those names)");
      states[named->second] = 1;
      start = comma + 1;
      continue;
    }
    std::uint64_t id = 0;
    auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), id);
    if (item.empty() || ec != std::errc() || end != item.data() + item.size())
      throw OptionError("cells",
                        "--cells: " + quoted_text(item) + " is not a vertex id (a comma-separated list of ids)");
    if (id >= num_vertices)
      throw OptionError("cells",
                        "--cells: vertex " + item + " does not exist (" + std::to_string(num_vertices) + " cells)");
    states[id] = 1;
    start = comma + 1;
  }
  return states;
}

}  // namespace cellgraph
