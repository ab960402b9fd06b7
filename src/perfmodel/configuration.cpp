// What the model needs to know about a configuration besides its model: the kind of layout a
// graph compiles to, the split of a grid into slabs (without building the grid), and the
// model specs of a sweep.
#include <algorithm>
#include <list>
#include <map>
#include <unordered_map>
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

// A multiprocessor's L1 as the model sees it: sectors, least recently used out.
class SectorCache {
 public:
  explicit SectorCache(std::size_t bytes) : capacity_(std::max<std::size_t>(1, bytes / 32)) {}
  bool hit(std::uint32_t sector) {
    const auto found = where_.find(sector);
    if (found != where_.end()) {
      order_.splice(order_.begin(), order_, found->second);
      return true;
    }
    order_.push_front(sector);
    where_[sector] = order_.begin();
    if (order_.size() > capacity_) {
      where_.erase(order_.back());
      order_.pop_back();
    }
    return false;
  }

 private:
  std::size_t capacity_;
  std::list<std::uint32_t> order_;
  std::unordered_map<std::uint32_t, std::list<std::uint32_t>::iterator> where_;
};

// Sectors and L1 misses of neighbor reads, summed over cells.
struct GatherCount {
  double sectors = 0, missed = 0, cells = 0;
};

// The multiprocessors whose L1s are simulated: 8 spread over them (one runs every
// multiprocessors-th block, and vertices are sorted by degree in windows: one alone would see
// the windows' same few positions), each over at most kSimulatedBlocks blocks.
constexpr std::uint32_t kSimulatedBlocks = 256;
std::vector<std::uint32_t> sampled_multiprocessors(std::uint32_t multiprocessors) {
  const std::uint32_t sampled = std::min(8u, multiprocessors);
  std::vector<std::uint32_t> firsts;
  for (std::uint32_t j = 0; j < sampled; ++j) firsts.push_back(j * multiprocessors / sampled);
  return firsts;
}

// Distinct sectors among `read` (sorted in place).
double distinct(std::vector<std::uint32_t>& read) {
  std::sort(read.begin(), read.end());
  return double(std::unique(read.begin(), read.end()) - read.begin());
}

// Vertices first .. first + count - 1 (a synchronous sweep's), or a list (a color class's).
struct VertexRun {
  std::uint32_t first, count;
  std::uint32_t operator[](std::size_t i) const { return first + std::uint32_t(i); }
  std::size_t size() const { return count; }
};

// The reads of a launch over `vertices` (ordinary ones, in the order the sweep deals them to
// threads): warps of 32, blocks of the plan's size, dealt round-robin over the multiprocessors. Sectors
// over a sample of about 2^14 warps; misses over the blocks of the sampled multiprocessors,
// each warp reading its lanes' list position k together.
template <class Vertices>
void count_ordinary(const Layout& L, const Vertices& vertices, const GatherPath& path, GatherCount& c) {
  const std::uint32_t block_warps = path.block_vertices / kWarpSize;
  const unsigned shift = path.packed_signals ? 8 : 5;  // 32 bytes: 32 one-byte states, 256 signal bits
  const SliceLists lists = L.lists();
  const std::uint32_t warps = std::uint32_t((vertices.size() + kWarpSize - 1) / kWarpSize);
  auto lanes = [&](std::uint32_t w) {
    return std::min<std::size_t>(vertices.size() - std::size_t(w) * kWarpSize, kWarpSize);
  };
  std::vector<std::uint32_t> read;
  auto reads_at = [&](std::uint32_t w, std::uint32_t k) {  // lanes of warp w at list position k
    read.clear();
    for (std::size_t i = std::size_t(w) * kWarpSize, end = i + lanes(w); i < end; ++i) {
      const std::uint32_t v = vertices[i], slice = v / kSliceWidth;
      if (k >= L.slice_width[slice]) continue;
      const std::uint32_t cell = lists.entry(v, k);
      if (cell < L.null_cell()) read.push_back(cell >> shift);  // not padding nor the boundary cell
    }
  };
  auto width = [&](std::uint32_t w) {  // the widest slice among the warp's lanes
    std::uint32_t widest = 0;
    for (std::size_t i = std::size_t(w) * kWarpSize, end = i + lanes(w); i < end; ++i)
      widest = std::max(widest, L.slice_width[vertices[i] / kSliceWidth]);
    return widest;
  };
  const std::uint32_t stride = std::max(1u, warps >> 14);
  double sampled_sectors = 0, sampled_cells = 0;
  for (std::uint32_t w = 0; w < warps; w += stride) {
    for (std::uint32_t k = 0, n = width(w); k < n; ++k) {
      reads_at(w, k);
      sampled_sectors += distinct(read);
    }
    sampled_cells += double(lanes(w));
  }
  if (sampled_cells > 0) c.sectors += sampled_sectors / sampled_cells * double(vertices.size());
  if (path.multiprocessors == 0) return;
  const std::uint32_t blocks = (warps + block_warps - 1) / block_warps;
  double missed = 0, cells = 0;
  for (std::uint32_t first : sampled_multiprocessors(path.multiprocessors)) {
    SectorCache l1(path.l1_bytes);
    for (std::uint32_t b = first, n = 0; b < blocks && n < kSimulatedBlocks; b += path.multiprocessors, ++n) {
      const std::uint32_t w0 = b * block_warps, w1 = std::min(warps, w0 + block_warps);
      std::uint32_t widest = 0;
      for (std::uint32_t w = w0; w < w1; ++w) widest = std::max(widest, width(w));
      for (std::uint32_t k = 0; k < widest; ++k)
        for (std::uint32_t w = w0; w < w1; ++w) {
          reads_at(w, k);
          for (std::uint32_t sector : read) missed += !l1.hit(sector);
        }
      for (std::uint32_t w = w0; w < w1; ++w) cells += double(lanes(w));
    }
  }
  if (cells > 0) c.missed += missed / cells * double(vertices.size());
}

// A hub's warp (or a giant's block, in warp-wide loads) reads 32 entries of its row at once.
// Misses: the hub blocks (8 hubs, a warp each) the sampled multiprocessors run, every
// multiprocessors-th, each from an empty L1 (the hub kernel is a launch of its own; where the
// sweeps are fused, on small graphs, they share the launch with the ordinary blocks: taken
// apart here), each hub reading its row in order.
template <class Vertices>
void count_hubs(const Layout& L, const Vertices& hubs, const GatherPath& path, GatherCount& c) {
  constexpr std::size_t kHubsPerBlock = 8;
  const unsigned shift = path.packed_signals ? 8 : 5;
  const std::uint32_t* nb = L.neighbors.data();
  std::vector<std::uint32_t> read;
  auto reads_at = [&](std::uint32_t v, std::uint64_t at) {  // a warp's load of 32 entries from at
    read.clear();
    for (std::uint64_t i = at; i < std::min<std::uint64_t>(at + kWarpSize, L.hub_row_begin[v + 1]); ++i)
      if (nb[i] < L.null_cell()) read.push_back(nb[i] >> shift);
  };
  double entries = 0;
  for (std::size_t h = 0; h < hubs.size(); ++h) {
    const std::uint32_t v = hubs[h];
    for (std::uint64_t at = L.hub_row_begin[v]; at < L.hub_row_begin[v + 1]; at += kWarpSize) {
      reads_at(v, at);
      c.sectors += distinct(read);
    }
    entries += double(L.hub_row_begin[v + 1] - L.hub_row_begin[v]);
  }
  double missed = 0, simulated = 0;  // entries of the simulated hubs
  if (path.multiprocessors > 0)
    for (std::uint32_t first : sampled_multiprocessors(path.multiprocessors)) {
      SectorCache l1(path.l1_bytes);
      for (std::size_t b = first; b * kHubsPerBlock < hubs.size(); b += path.multiprocessors)
        for (std::size_t h = b * kHubsPerBlock; h < std::min(hubs.size(), (b + 1) * kHubsPerBlock); ++h) {
          const std::uint32_t v = hubs[h];
          for (std::uint64_t at = L.hub_row_begin[v]; at < L.hub_row_begin[v + 1]; at += kWarpSize) {
            reads_at(v, at);
            for (std::uint32_t sector : read) missed += !l1.hit(sector);
          }
          simulated += double(L.hub_row_begin[v + 1] - L.hub_row_begin[v]);
        }
    }
  if (simulated > 0) c.missed += missed / simulated * entries;  // rows differ: per entry
  c.cells += double(hubs.size());
}

template <class Vertices>
void count_launch(const Layout& L, const Vertices& hubs, const Vertices& ordinary, const GatherPath& path,
                  GatherCount& c) {
  count_hubs(L, hubs, path, c);
  count_ordinary(L, ordinary, path, c);
  c.cells += double(ordinary.size());
}

}  // namespace

SweepPlan step_plan(const Layout& layout, const SweepModelTraits& model, bool colored, SignalPacking packing,
                    std::optional<bool> scattered) {
  SimulationOptions options;
  options.backend = BackendKind::cuda;
  options.update.mode = colored ? UpdateMode::colored : UpdateMode::synchronous;
  options.signal_packing = packing;
  const DeviceTraits device = reference_device_traits();
  return scattered ? plan_sweeps(layout, *scattered, model, options, device)
                   : plan_sweeps(layout, model, options, device);
}

GatherPath gather_path(const SweepPlan& plan, std::uint32_t multiprocessors) {
  GatherPath path;
  path.multiprocessors = multiprocessors;
  path.packed_signals = plan.packs_signals && multiprocessors > 0;  // the CPU backend reads state bytes
  path.block_vertices = plan.tuning.vertices_per_block();
  return path;
}

Measurement Measurement::as_part(const PartWork& part) const {
  Measurement m = *this;
  m.part_cells_max = part.cells;
  m.part_bytes_max = step_bytes(double(part.cells), double(part.indices), state_bytes, false);
  m.depth = part.depth;
  m.gathers = part.gathers;
  m.missed_gathers = part.missed_gathers;
  m.gather_path = part.packed_signals ? "packed" : "bytes";
  m.parts.clear();
  return m;
}

PartWork part_work(const Layout& part, const StepShape& shape) {
  return {part.num_vertices, stored_indices(part), shape.depth,
          shape.gathers,     shape.missed_gathers, shape.packed_signals};
}

std::vector<PartWork> part_works(const std::vector<Layout>& parts, const SweepModelTraits& model,
                                 std::uint32_t multiprocessors) {
  std::vector<PartWork> works;
  for (const Layout& L : parts)
    works.push_back(part_work(L, step_shape(L, nullptr, gather_path(step_plan(L, model, false), multiprocessors))));
  return works;
}

StepShape busiest_part_shape(const std::vector<PartWork>& parts, std::uint64_t cells_max) {
  StepShape busiest;
  for (const PartWork& p : parts) {
    const double per_cell_of_largest = double(p.cells) / double(cells_max);
    busiest.depth = std::max(busiest.depth, p.depth);
    busiest.gathers = std::max(busiest.gathers, p.gathers * per_cell_of_largest);
    busiest.missed_gathers = std::max(busiest.missed_gathers, p.missed_gathers * per_cell_of_largest);
    busiest.packed_signals = busiest.packed_signals || p.packed_signals;
  }
  return busiest;
}

double busiest_part_bytes(const std::vector<Layout>& parts, double state_bytes) {
  double busiest = 0;
  for (const Layout& L : parts)
    busiest = std::max(busiest, step_bytes(L.num_vertices, double(stored_indices(L)), state_bytes, false));
  return busiest;
}

StepShape step_shape(const Layout& L, const ColorClasses* classes, const GatherPath& gather) {
  StepShape s;
  GatherCount count;
  if (!classes) {
    for (std::uint32_t v = 0; v < L.num_hub_vertices(); ++v) s.depth = std::max(s.depth, walk_depth(L, v));
    for (std::uint32_t i = L.num_hub_slices; i < L.num_slices(); ++i)
      s.depth = std::max(s.depth, double(L.slice_width[i]));
    const std::uint32_t hubs = L.num_hub_vertices();
    count_launch(L, VertexRun{0, hubs}, VertexRun{hubs, L.num_vertices - hubs}, gather, count);
    s.packed_signals = gather.packed_signals;
  } else {
    s.launches = std::max(1u, classes->count());
    for (std::uint32_t c = 0; c < classes->count(); ++c) {
      double deepest = 0;
      for (std::uint32_t i = classes->begin[c]; i < classes->begin[c + 1]; ++i)
        deepest = std::max(deepest, walk_depth(L, classes->vertices[i]));
      s.depth += deepest;
      std::vector<std::uint32_t> hubs, ordinary;  // the class's vertices, walked by a warp each or a thread
      for (std::uint32_t i = classes->begin[c]; i < classes->begin[c + 1]; ++i)
        (classes->vertices[i] < L.num_hub_vertices() ? hubs : ordinary).push_back(classes->vertices[i]);
      count_launch(L, hubs, ordinary, gather, count);
    }
  }
  if (count.cells > 0) {
    s.gathers = count.sectors / count.cells;
    s.missed_gathers = count.missed / count.cells;
  }
  return s;
}

void record_shape(Measurement& m, const StepShape& shape) {
  m.launches = shape.launches;
  m.depth = shape.depth;
  m.gathers = shape.gathers;
  m.missed_gathers = shape.missed_gathers;
  m.gather_path = shape.packed_signals ? "packed" : "bytes";
}

std::optional<PartShape> grid_slab_estimate(const GridSpec& grid, std::uint32_t parts) {
  const std::uint64_t n = grid.cell_count();
  if (parts == 0 || parts > n)
    throw Error("cannot split " + std::to_string(n) + " cells into " + std::to_string(parts) + " parts");
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
    if (spec.update.empty())
      throw Error("model " + quoted_text(text) + ": nothing after '@' (sync, colored or alpha:A)");
  }
  std::map<std::string, std::string> params;
  std::size_t begin = 0;
  for (bool first = true;; first = false) {
    const auto colon = head.find(':', begin);
    const std::string part = head.substr(begin, colon == std::string::npos ? std::string::npos : colon - begin);
    if (first) {
      spec.name = part;
      if (part.empty()) throw Error("model " + quoted_text(text) + " has no name (NAME[:key=value...][@UPDATE])");
    } else {
      const auto eq = part.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == part.size())
        throw Error("model " + quoted_text(text) + ": " + quoted_text(part) + " is not key=value");
      if (!params.emplace(part.substr(0, eq), part.substr(eq + 1)).second)
        throw Error("model " + quoted_text(text) + ": parameter " + quoted_text(part.substr(0, eq)) + " given twice");
    }
    if (colon == std::string::npos) break;
    begin = colon + 1;
  }
  spec.params.assign(params.begin(), params.end());
  return spec;
}

}  // namespace cellgraph::perfmodel
