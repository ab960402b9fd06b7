// Canonical CSR -> compiled layout (see layout.hpp for the shape).
#include <algorithm>
#include <climits>
#include <cmath>
#include <map>
#include <numeric>
#include <set>

#include "cellgraph/error.hpp"
#include "cellgraph/layout.hpp"
#include "cellgraph/vertex_order.hpp"

namespace cellgraph {
namespace {

// Hubs (rounded up to whole slices) first, by degree descending; then the ordinary vertices
// of the part's boundary (that peers read, rows.send, or that read the halo: in a graph that is
// not symmetric they differ), then the interior, which reads and is read by this part alone;
// each group sorted by degree descending within windows of `window` vertices of the vertex
// order (o.order), so that neighbors stay near. Returns user ids.
std::vector<VertexId> degree_order(const Graph& g, const CompileRows& rows, const CompileOptions& o,
                                   std::uint32_t* num_hubs, std::uint32_t* interior_begin) {
  std::vector<VertexId> order = rows.owned;                            // ascending
  const std::vector<std::uint64_t> place = vertex_places(g, o.order);  // empty: the input's order
  auto before = [&](VertexId a, VertexId b) {
    return place.empty() ? a < b : place[a] != place[b] ? place[a] < place[b] : a < b;
  };
  if (!place.empty()) std::sort(order.begin(), order.end(), before);
  const std::uint32_t n = std::uint32_t(order.size()), quantum = o.degree_quantum;
  auto by_degree = [&](VertexId a, VertexId b) { return g.degree(a) > g.degree(b); };
  auto by_bucket = [&](VertexId a, VertexId b) {
    return (g.degree(a) + quantum - 1) / quantum > (g.degree(b) + quantum - 1) / quantum;
  };

  std::uint32_t hubs = 0;
  for (VertexId v : order) hubs += g.degree(v) >= o.hub_degree;
  if (hubs > 0) {
    hubs = std::min<std::uint32_t>(n, (hubs + kSliceWidth - 1) / kSliceWidth * kSliceWidth);
    std::stable_sort(order.begin(), order.end(), by_degree);
    std::sort(order.begin() + hubs, order.end(), before);  // the rest back in the vertex order
  }
  auto interior = order.begin() + hubs;
  if (!rows.send.empty() || !rows.halo.empty()) {
    std::vector<std::uint8_t> boundary(g.num_vertices(), 0), owned(g.num_vertices(), 0);
    for (VertexId v : rows.send) boundary[v] = 1;
    for (VertexId v : rows.owned) owned[v] = 1;
    for (VertexId v : rows.owned)
      for (EdgeOffset e = g.offsets[v]; e < g.offsets[v + 1] && !boundary[v]; ++e)
        boundary[v] = g.neighbors[e] != kBoundaryVertex && !owned[g.neighbors[e]];
    interior = std::stable_partition(order.begin() + hubs, order.end(), [&](VertexId v) { return boundary[v]; });
  }
  *interior_begin = std::uint32_t(interior - order.begin());
  for (auto [first, last] : {std::pair{order.begin() + hubs, interior}, std::pair{interior, order.end()}})
    for (auto begin = first; begin < last; begin += std::min<std::ptrdiff_t>(o.sort_window, last - begin))
      std::stable_sort(begin, begin + std::min<std::ptrdiff_t>(o.sort_window, last - begin), by_bucket);
  *num_hubs = hubs;
  return order;
}

// The smallest encoding of an ordinary slice whose lanes are vertices [first, last), from its
// entries (column-major, padded with the null cell). A stencil (its offsets left in `pattern`):
// 32 lanes, every one of full width, each entry the lane's own id plus the same offset. Deltas:
// every entry within kDeltaMin..kDeltaMax of its lane's id, or padding, or the boundary cell.
SliceEncoding smallest_encoding(const std::vector<std::uint32_t>& entries, VertexId first, VertexId last,
                                const std::uint32_t* degree, std::uint32_t null_cell, bool deltas,
                                std::vector<std::int32_t>& pattern) {
  const std::size_t width = entries.size() / kSliceWidth;
  if (width == 0) return SliceEncoding::explicit_ids;  // no entries to encode
  bool stencil = last - first == kSliceWidth;
  for (VertexId v = first; v < last && stencil; ++v) stencil = degree[v] == width;
  pattern.assign(width, 0);
  for (std::size_t k = 0; k < width && stencil; ++k) {
    const std::int64_t offset = std::int64_t(entries[k * kSliceWidth]) - std::int64_t(first);
    stencil = entries[k * kSliceWidth] < null_cell && offset >= INT32_MIN && offset <= INT32_MAX;
    for (std::uint32_t lane = 1; lane < kSliceWidth && stencil; ++lane)
      stencil = std::int64_t(entries[k * kSliceWidth + lane]) - std::int64_t(first + lane) == offset;
    pattern[k] = std::int32_t(offset);
  }
  if (stencil) return SliceEncoding::stencil;
  if (!deltas) return SliceEncoding::explicit_ids;
  for (std::size_t e = 0; e < entries.size(); ++e) {
    const std::uint32_t cell = entries[e];
    if (cell >= null_cell) continue;  // padding or the boundary cell
    const std::int64_t delta = std::int64_t(cell) - std::int64_t(first + e % kSliceWidth);
    if (delta < kDeltaMin || delta > kDeltaMax) return SliceEncoding::explicit_ids;
  }
  return SliceEncoding::delta16;
}

}  // namespace

CompileOptions compile_options_for(const Graph& g, CompileOptions o) {
  const double mean = mean_degree(g);
  // Small graphs: ordinary lists of at most twice the mean degree, in whole batches of index
  // loads (the CUDA sweep's), at least three batches. copter2: 24, hubs from 25; a longest list
  // of 25 takes a fourth round of loads (1.77e5 steps/s on an H100, against 1.87e5).
  const double batch = kSweepTuning.index_batch;
  if (!o.hub_degree && g.num_vertices() < kSweepTuning.latency_bound_vertices)
    o.hub_degree = std::uint32_t(std::max(3.0 * batch, batch * std::floor(2.0 * mean / batch))) + 1;
  return compile_options_for_mean_degree(mean, o);
}

CompileOptions compile_options_for_mean_degree(double mean, CompileOptions o) {
  if (!o.hub_degree) o.hub_degree = std::uint32_t(std::max(256.0, 16.0 * mean));
  o.giant_degree =
      std::max(o.hub_degree, o.giant_degree ? o.giant_degree : std::uint32_t(std::max(1024.0, 32.0 * mean)));
  return o;
}

Layout compile(const Graph& g, const CompileOptions& options) {
  check_graph(g, "compile");
  CompileRows rows;
  rows.owned.resize(g.num_vertices());
  std::iota(rows.owned.begin(), rows.owned.end(), 0u);
  return compile_rows(g, rows, compile_options_for(g, options));
}

Layout compile_rows(const Graph& g, const CompileRows& rows, const CompileOptions& options) {
  if (options.sort_window == 0) throw Error("the sort window must be at least 1");
  if (options.degree_quantum == 0) throw Error("the degree quantum must be at least 1");
  if (options.hub_degree == 0 || options.giant_degree == 0) throw Error("compile_rows needs the hub thresholds");
  if (rows.owned.size() + rows.halo.size() > kMaxVertices)
    throw Error("too many vertices: at most " + std::to_string(kMaxVertices));
  const std::uint32_t n = std::uint32_t(rows.owned.size());

  Layout L;
  L.num_vertices = n;
  L.num_halo = std::uint32_t(rows.halo.size());
  L.slotted = g.slotted;
  L.symmetric = g.symmetric;
  L.hub_degree = options.hub_degree;
  L.giant_degree = options.giant_degree;
  std::uint32_t num_hubs = 0;
  L.local_to_user = degree_order(g, rows, options, &num_hubs, &L.interior_begin);
  L.local_to_user.insert(L.local_to_user.end(), rows.halo.begin(), rows.halo.end());

  constexpr std::uint32_t kAbsent = 0xFFFFFFFFu;
  std::vector<std::uint32_t> local_of(g.num_vertices(), kAbsent);
  for (std::uint32_t local = 0; local < L.num_cells(); ++local) local_of[L.local_to_user[local]] = local;
  L.user_to_local.resize(n);
  for (std::uint32_t i = 0; i < n; ++i) L.user_to_local[i] = local_of[rows.owned[i]];
  L.peers = rows.peers;
  for (VertexId user : rows.send) L.send_cells.push_back(local_of[user]);
  L.degree.resize(n);
  for (VertexId local = 0; local < n; ++local) L.degree[local] = g.degree(L.local_to_user[local]);

  const std::uint32_t slices = (n + kSliceWidth - 1) / kSliceWidth;
  L.num_hub_slices = (num_hubs + kSliceWidth - 1) / kSliceWidth;
  while (L.num_giant_hubs < num_hubs && L.degree[L.num_giant_hubs] >= L.giant_degree) ++L.num_giant_hubs;
  L.slice_begin.resize(slices + 1);
  L.slice_width.resize(slices);
  L.hub_row_begin.resize(std::size_t(num_hubs) + 1);

  auto local_id = [&](VertexId user, VertexId row) {
    if (user == kBoundaryVertex) return L.boundary_cell();
    if (local_of[user] == kAbsent)
      throw Error("vertex " + std::to_string(row) + " reads vertex " + std::to_string(user) +
                  ", which is neither owned nor in the halo");
    return local_of[user];
  };
  for (std::uint32_t s = 0; s < slices; ++s) {
    const VertexId first = s * kSliceWidth, last = std::min<VertexId>(n, first + kSliceWidth);
    std::uint32_t width = 0;
    for (VertexId v = first; v < last; ++v) width = std::max(width, L.degree[v]);
    L.slice_width[s] = width;
  }
  if (options.index_encoding != IndexEncoding::explicit_ids && slices > L.num_hub_slices)
    L.slice_encoding.assign(slices, std::uint8_t(SliceEncoding::explicit_ids));

  // Each ordinary slice's entries, column-major (entry k of lane i at k * 32 + i), padded
  // with the null cell.
  std::vector<std::uint32_t> entries;
  auto slice_entries = [&](std::uint32_t s) {
    const VertexId first = s * kSliceWidth, last = std::min<VertexId>(n, first + kSliceWidth);
    entries.assign(std::size_t(L.slice_width[s]) * kSliceWidth, L.null_cell());
    for (VertexId v = first; v < last; ++v) {
      const VertexId user = L.local_to_user[v];
      for (std::uint32_t k = 0; k < L.degree[v]; ++k)
        entries[std::size_t(k) * kSliceWidth + (v - first)] = local_id(g.neighbors[g.offsets[user] + k], user);
    }
  };

  // Sizes first: hub rows are packed, then padded so ordinary slices start on 32 entries; each
  // ordinary slice takes the smallest encoding that holds it.
  std::map<std::vector<std::int32_t>, std::uint64_t> stencil_at;
  std::vector<std::int32_t> pattern;
  std::uint64_t at = 0, deltas_at = 0;
  for (std::uint32_t s = 0; s < slices; ++s) {
    const VertexId first = s * kSliceWidth, last = std::min<VertexId>(n, first + kSliceWidth);
    L.slice_begin[s] = at;
    if (s < L.num_hub_slices) {
      for (VertexId v = first; v < last; ++v) L.hub_row_begin[v] = at, at += L.degree[v];
      if (s + 1 == L.num_hub_slices) {
        L.hub_row_begin[last] = at;
        at = (at + kSliceWidth - 1) / kSliceWidth * kSliceWidth;
      }
      continue;
    }
    const std::uint64_t size = std::uint64_t(L.slice_width[s]) * kSliceWidth;
    if (L.slice_encoding.empty()) {
      at += size;
      continue;
    }
    slice_entries(s);
    const SliceEncoding encoding = smallest_encoding(entries, first, last, L.degree.data(), L.null_cell(),
                                                     options.index_encoding == IndexEncoding::deltas, pattern);
    L.slice_encoding[s] = std::uint8_t(encoding);
    if (encoding == SliceEncoding::stencil) {
      const auto [found, added] = stencil_at.try_emplace(pattern, L.stencil_offsets.size());
      if (added) L.stencil_offsets.insert(L.stencil_offsets.end(), pattern.begin(), pattern.end());
      L.slice_begin[s] = found->second;
    } else if (encoding == SliceEncoding::delta16) {
      L.slice_begin[s] = deltas_at;
      deltas_at += size;
    } else {
      at += size;
    }
  }
  L.slice_begin[slices] = at;
  // All ids: no table, so that the walks read no encoding at all (as in a layout of explicit_ids).
  if (std::all_of(L.slice_encoding.begin(), L.slice_encoding.end(),
                  [](std::uint8_t e) { return e == std::uint8_t(SliceEncoding::explicit_ids); }))
    L.slice_encoding.clear();

  L.neighbors = AlignedArray<std::uint32_t>(at);
  std::fill(L.neighbors.begin(), L.neighbors.end(), L.null_cell());
  L.deltas = AlignedArray<std::int16_t>(deltas_at);
  for (std::uint32_t s = 0; s < L.num_hub_slices; ++s) {
    const VertexId first = s * kSliceWidth, last = std::min<VertexId>(n, first + kSliceWidth);
    for (VertexId v = first; v < last; ++v) {
      const VertexId user = L.local_to_user[v];
      for (std::uint32_t k = 0; k < L.degree[v]; ++k)
        L.neighbors[L.hub_row_begin[v] + k] = local_id(g.neighbors[g.offsets[user] + k], user);
    }
  }
  for (std::uint32_t s = L.num_hub_slices; s < slices; ++s) {
    const SliceEncoding encoding = L.encoding(s);
    if (encoding == SliceEncoding::stencil) continue;
    slice_entries(s);
    const std::uint64_t begin = L.slice_begin[s];
    if (encoding == SliceEncoding::explicit_ids) {
      std::copy(entries.begin(), entries.end(), L.neighbors.begin() + std::ptrdiff_t(begin));
      continue;
    }
    for (std::size_t e = 0; e < entries.size(); ++e) {
      const std::uint32_t v = s * kSliceWidth + std::uint32_t(e % kSliceWidth), cell = entries[e];
      L.deltas[begin + e] = cell == L.null_cell()       ? kDeltaNull
                            : cell == L.boundary_cell() ? kDeltaBoundary
                                                        : std::int16_t(std::int64_t(cell) - std::int64_t(v));
    }
  }
  return L;
}

LayoutReport report(const Layout& L) {
  LayoutReport r;
  r.vertices = L.num_vertices;
  r.slices = L.num_slices();
  r.hub_slices = L.num_hub_slices;
  r.hub_vertices = std::min(L.num_vertices, L.num_hub_slices * kSliceWidth);
  r.giant_hubs = L.num_giant_hubs;
  for (std::uint32_t s = L.num_hub_slices; s < L.num_slices(); ++s) {
    const auto e = std::size_t(L.encoding(s));
    ++r.slices_by_encoding[e];
    r.entries_by_encoding[e] += std::uint64_t(L.slice_width[s]) * kSliceWidth;
    r.stored += std::uint64_t(L.slice_width[s]) * kSliceWidth;
  }
  if (L.num_hub_vertices()) r.stored += L.hub_row_begin.back();
  std::set<std::uint64_t> distinct;  // compile stores each stencil once: one start each
  for (std::uint32_t s = L.num_hub_slices; s < L.num_slices(); ++s)
    if (L.encoding(s) == SliceEncoding::stencil) distinct.insert(L.slice_begin[s]);
  r.stencils = std::uint32_t(distinct.size());
  r.index_bytes_per_vertex = L.num_vertices ? double(L.index_bytes()) / double(L.num_vertices) : 0.0;
  std::map<std::uint32_t, std::uint64_t> histogram;
  r.min_degree = L.num_vertices ? ~0u : 0;
  for (std::uint32_t d : L.degree) {
    r.edges += d;
    r.min_degree = std::min(r.min_degree, d);
    r.max_degree = std::max(r.max_degree, d);
    ++histogram[d];
  }
  // Exact degrees when there are few; otherwise power-of-two buckets [2^k, 2^(k+1)).
  if (histogram.size() > 32) {
    std::map<std::uint32_t, std::uint64_t> buckets;
    for (auto [d, count] : histogram) buckets[d == 0 ? 0 : 1u << (31 - __builtin_clz(d))] += count;
    histogram.swap(buckets);
    r.histogram_bucketed = true;
  }
  r.degree_histogram.assign(histogram.begin(), histogram.end());
  r.padding_overhead = r.edges ? double(r.stored) / double(r.edges) - 1.0 : 0.0;
  r.bytes = L.index_bytes() + std::uint64_t(L.degree.size()) * 4 + L.slice_begin.size() * 8 + L.slice_width.size() * 4 +
            L.hub_row_begin.size() * 8;
  return r;
}

}  // namespace cellgraph
