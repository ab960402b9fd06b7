#include "cellgraph/source/source.hpp"

#include <algorithm>
#include <charconv>

#include "cellgraph/error.hpp"
#include "cellgraph/philox.hpp"
#include "cellgraph/source/generators.hpp"

namespace cellgraph {
namespace {

std::string base_name(const std::string& path) {
  auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string boundary_name(const Boundary& b) {
  switch (b.kind) {
    case BoundaryKind::periodic: return "periodic";
    case BoundaryKind::reflective: return "reflective";
    case BoundaryKind::fixed: return "fixed:" + std::to_string(b.value);
  }
  return "?";
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
  if (size.empty()) throw Error("--pattern needs --grid WxH (the pattern names no bounded grid)");
  grid.size = parse_grid_size(size, &grid.dims);
  grid.boundary = boundary;
  grid.stencil = parse_stencil(spec.neighborhood, grid.dims);
  if (pattern && grid.dims != 2) throw Error("patterns are placed on 2D grids; --grid " + size + " is not 2D");
  return grid;
}

}  // namespace

Source load_source(const SourceSpec& spec) {
  const bool has_grid = !spec.grid.empty(), has_graph = !spec.graph_file.empty(),
             has_pattern = !spec.pattern_file.empty(), has_generator = !spec.generator.empty(),
             has_mesh = !spec.mesh_file.empty();
  if (int(has_graph) + int(has_generator) + int(has_mesh) + int(has_grid || has_pattern) > 1)
    throw Error("choose one source: --graph, --mesh, --generate, or --grid (with an optional --pattern)");
  if (!has_graph && !has_grid && !has_pattern && !has_generator && !has_mesh)
    throw Error("no source: give --grid WxH, --pattern FILE, --graph FILE, --mesh FILE or --generate SPEC");

  Source source;
  if (has_mesh) {
    source.mesh = read_mesh_file(spec.mesh_file);
    MeshGraph mg = mesh_to_graph(*source.mesh, spec.mesh_options);
    source.graph = std::move(mg.graph);
    source.mesh_elements = std::move(mg.elements);
    const bool dual = spec.mesh_options.kind == MeshGraphKind::dual;
    source.description = std::string(dual ? "dual" : "nodal") + " graph of mesh " + base_name(spec.mesh_file);
    return source;
  }
  if (has_generator) {
    source.graph = generate_graph(spec.generator, spec.generator_seed);
    source.description = "generated " + spec.generator;
    return source;
  }
  if (has_graph) {
    source.graph = read_graph_file(spec.graph_file, spec.graph_options);
    source.description = "graph " + base_name(spec.graph_file);
    return source;
  }
  if (has_pattern) source.pattern = read_pattern_file(spec.pattern_file);
  GridSpec grid = grid_from(spec, source.pattern);
  source.graph = build_grid_graph(grid);
  source.description = "grid " + std::to_string(grid.size[0]);
  for (int a = 1; a < grid.dims; ++a) source.description += "x" + std::to_string(grid.size[a]);
  source.description += " " + spec.neighborhood + " " + boundary_name(grid.boundary);
  source.grid = grid;
  return source;
}

std::vector<std::uint32_t> random_fill(std::uint32_t num_vertices, double density, std::uint64_t seed) {
  if (!(density >= 0.0 && density <= 1.0)) throw Error("--fill must be a density from 0 to 1");
  std::vector<std::uint32_t> states(num_vertices);
  for (std::uint32_t v = 0; v < num_vertices; ++v)
    states[v] = bernoulli(random_words(seed, v, 0, RandomStream::initial_fill).v[0], density);
  return states;
}

std::vector<std::uint32_t> random_fill_count(std::uint32_t num_vertices, std::uint64_t count, std::uint64_t seed) {
  if (count > num_vertices)
    throw Error("--fill-count " + std::to_string(count) + " is more than the " + std::to_string(num_vertices) +
                " cells");
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

std::vector<std::uint32_t> listed_cells(std::uint32_t num_vertices, const std::string& list) {
  std::vector<std::uint32_t> states(num_vertices, 0);
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t comma = std::min(list.find(',', start), list.size());
    const std::string item = list.substr(start, comma - start);
    std::uint64_t id = 0;
    auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), id);
    if (item.empty() || ec != std::errc() || end != item.data() + item.size())
      throw Error("--cells: '" + item + "' is not a vertex id (a comma-separated list of ids)");
    if (id >= num_vertices)
      throw Error("--cells: vertex " + item + " does not exist (" + std::to_string(num_vertices) + " cells)");
    states[id] = 1;
    start = comma + 1;
  }
  return states;
}

}  // namespace cellgraph
