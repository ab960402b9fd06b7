// What the model needs to know about a configuration besides its model: the kind of layout a
// graph compiles to, the split of a grid into slabs (without building the grid), and the
// model specs of a sweep.
#include <algorithm>
#include <map>
#include <vector>

#include "cellgraph/error.hpp"
#include "cellgraph/perfmodel.hpp"

namespace cellgraph::perfmodel {

std::string layout_kind(const Graph& g, const CompileOptions& options) {
  if (g.slotted) return "grid";
  std::uint32_t max_degree = 0;
  for (VertexId v = 0; v < g.num_vertices(); ++v) max_degree = std::max(max_degree, g.degree(v));
  // Heavy-tailed degrees (R-MAT), by the rule for large graphs at every size: the rule of
  // graphs under 2^20 vertices (compile_options_for) makes hubs of any long tail, meshes' too.
  return max_degree >= compile_options_for_mean_degree(mean_degree(g), options).hub_degree ? "hubs" : "graph";
}

namespace {

// The serial entries of vertex v's walk: its slice's width (a thread), or its degree over the
// threads of its warp or block (hubs, giants).
double walk_depth(const Layout& L, std::uint32_t v) {
  if (v < L.num_giant_hubs) return double((L.degree[v] + kGiantHubThreads - 1) / kGiantHubThreads);
  if (v < L.num_hub_vertices()) return double((L.degree[v] + kWarpSize - 1) / kWarpSize);
  return double(L.slice_width[v / kSliceWidth]);
}

// Distinct 32-byte sectors of a one-byte state among `cells`.
std::uint32_t distinct_sectors(std::vector<std::uint32_t>& cells) {
  for (std::uint32_t& c : cells) c >>= 5;
  std::sort(cells.begin(), cells.end());
  return std::uint32_t(std::unique(cells.begin(), cells.end()) - cells.begin());
}

// Sectors per cell over about 2^14 ordinary slices and 2^14 hubs spread over the layout: a
// slice's lanes read position k together; a hub's warp reads 32 positions of its list at once.
double gather_sectors_per_cell(const Layout& L) {
  const std::uint32_t* nb = L.neighbors.data();
  double sectors = 0, cells = 0;
  std::vector<std::uint32_t> read;
  const std::uint32_t hubs = L.num_hub_vertices();
  for (std::uint32_t v = 0; v < hubs; v += std::max(1u, hubs >> 14)) {
    for (std::uint64_t at = L.hub_row_begin[v]; at < L.hub_row_begin[v + 1]; at += kWarpSize) {
      read.assign(nb + at, nb + std::min<std::uint64_t>(at + kWarpSize, L.hub_row_begin[v + 1]));
      sectors += distinct_sectors(read);
    }
    cells += 1;
  }
  const std::uint32_t first = L.num_hub_slices, slices = L.num_slices() - first;
  for (std::uint32_t i = first; i < L.num_slices(); i += std::max(1u, slices >> 14)) {
    const std::uint32_t lanes = std::min(kSliceWidth, L.num_vertices - i * kSliceWidth);
    for (std::uint32_t k = 0; k < L.slice_width[i]; ++k) {
      read.assign(nb + L.slice_begin[i] + std::uint64_t(k) * kSliceWidth,
                  nb + L.slice_begin[i] + std::uint64_t(k) * kSliceWidth + lanes);
      sectors += distinct_sectors(read);
    }
    cells += lanes;
  }
  return cells > 0 ? sectors / cells : 0.0;
}

}  // namespace

StepShape step_shape(const Layout& L, const ColorClasses* classes) {
  StepShape s;
  s.gathers = gather_sectors_per_cell(L);
  if (!classes) {
    for (std::uint32_t v = 0; v < L.num_hub_vertices(); ++v) s.depth = std::max(s.depth, walk_depth(L, v));
    for (std::uint32_t i = L.num_hub_slices; i < L.num_slices(); ++i) s.depth = std::max(s.depth, double(L.slice_width[i]));
    return s;
  }
  s.launches = std::max(1u, classes->count());
  for (std::uint32_t c = 0; c < classes->count(); ++c) {
    double deepest = 0;
    for (std::uint32_t i = classes->begin[c]; i < classes->begin[c + 1]; ++i)
      deepest = std::max(deepest, walk_depth(L, classes->vertices[i]));
    s.depth += deepest;
  }
  return s;
}

std::optional<PartShape> grid_slab_estimate(const GridSpec& grid, std::uint32_t parts) {
  const std::uint64_t n = grid.cell_count();
  if (parts == 0 || parts > n) throw Error("cannot split " + std::to_string(n) + " cells into " + std::to_string(parts) + " parts");
  // Block splits give part p the ids v with floor(v * parts / n) = p: sizes differ by one.
  PartShape s;
  s.cells_max = (n + parts - 1) / parts;
  if (parts == 1) return s;
  // A slab [lo, hi) of ids reads [lo + min delta, lo) below and [hi, hi + max delta) above,
  // delta the id step of a stencil offset (wrapping across x leaves the count about the same).
  std::int64_t below = 0, above = 0;
  for (const Offset& o : grid.stencil) {
    const std::int64_t delta = o.dx + grid.size[0] * (o.dy + grid.size[1] * std::int64_t(o.dz));
    below = std::max(below, -delta);
    above = std::max(above, delta);
  }
  if (std::uint64_t(std::max(below, above)) > n / parts) return std::nullopt;  // slabs thinner than the reach
  // A periodic grid wraps along its slowest axis too: the first and last slabs are peers.
  // Otherwise only slabs with a neighbor on both sides (three parts or more) read both ways.
  const bool both_sides = grid.boundary.kind == BoundaryKind::periodic || parts >= 3;
  const std::uint32_t sides = std::uint32_t(below > 0) + std::uint32_t(above > 0);
  s.halo_max = both_sides ? std::uint64_t(below + above) : std::uint64_t(std::max(below, above));
  s.peers_max = parts == 2 ? std::min(1u, sides) : sides;  // two parts: the one peer, on one side or both
  return s;
}

std::string ModelSpec::key() const {
  std::string k = name;
  for (const auto& [key, value] : params) k += ":" + key + "=" + value;
  return k;
}

ModelSpec parse_model_spec(const std::string& text) {
  ModelSpec spec;
  const auto at = text.find('@');
  const std::string head = text.substr(0, at);
  if (at != std::string::npos) {
    spec.update = text.substr(at + 1);
    if (spec.update.empty()) throw Error("model '" + text + "': nothing after '@' (sync, colored or alpha:A)");
  }
  std::map<std::string, std::string> params;
  std::size_t begin = 0;
  for (bool first = true;; first = false) {
    const auto colon = head.find(':', begin);
    const std::string part = head.substr(begin, colon == std::string::npos ? std::string::npos : colon - begin);
    if (first) {
      spec.name = part;
      if (part.empty()) throw Error("model '" + text + "' has no name (NAME[:key=value...][@UPDATE])");
    } else {
      const auto eq = part.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == part.size())
        throw Error("model '" + text + "': '" + part + "' is not key=value");
      if (!params.emplace(part.substr(0, eq), part.substr(eq + 1)).second)
        throw Error("model '" + text + "': parameter '" + part.substr(0, eq) + "' given twice");
    }
    if (colon == std::string::npos) break;
    begin = colon + 1;
  }
  spec.params.assign(params.begin(), params.end());
  return spec;
}

}  // namespace cellgraph::perfmodel
