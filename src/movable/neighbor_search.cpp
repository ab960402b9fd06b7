// The cell-list neighbor search on the CPU: bin keys, a counting sort by bin (stable in
// particle id), then a count pass and a fill pass over the adjacent bins, rows sorted by
// particle id. The CUDA version (src/movable/cuda/device_search.cu) takes the same steps.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

#include "cellgraph/error.hpp"
#include "cellgraph/movable/neighbor_search.hpp"

namespace cellgraph {
namespace {

constexpr std::int64_t kParallelMinimum = 4096;

int thread_count(int threads) { return threads > 0 ? threads : omp_get_max_threads(); }

std::string axis_name(int a) { return std::string(1, "xyz"[a]); }

}  // namespace

void check_box(const Box& box, double cutoff) {
  if (box.dims != 2 && box.dims != 3) throw Error("a box has 2 or 3 dimensions, not " + std::to_string(box.dims));
  for (int a = 0; a < box.dims; ++a)
    if (!(box.length[a] > 0) || !std::isfinite(box.length[a]))
      throw Error("the box's length along " + axis_name(a) + " must be positive and finite, not " +
                  std::to_string(box.length[a]));
  if (!(cutoff > 0) || !std::isfinite(cutoff))
    throw Error("the neighbor cutoff must be positive and finite, not " + std::to_string(cutoff));
}

template <class T>
void check_points(const Box& box, const PointsView<T>& points) {
  for (int a = 0; a < box.dims; ++a)
    if (points.count && !points.axis[a]) throw Error("the positions have no coordinates along " + axis_name(a));
  for (std::uint32_t p = 0; p < points.count; ++p)
    for (int a = 0; a < box.dims; ++a) {
      const T x = points.axis[a][p];
      if (!std::isfinite(x))
        throw Error("particle " + std::to_string(p) + ": its " + axis_name(a) + " coordinate is not finite");
      if (box.periodic && !(x >= T(0) && x < T(box.length[a])))
        throw Error("particle " + std::to_string(p) + " lies outside the periodic box: " + axis_name(a) + " = " +
                    std::to_string(double(x)) + " is not in [0, " + std::to_string(box.length[a]) + ")");
    }
}

template <class T>
CellGrid make_cell_grid(const Box& box, double cutoff, std::uint64_t particles) {
  check_box(box, cutoff);
  double longest = 0;
  for (int a = 0; a < box.dims; ++a) longest = std::max(longest, box.length[a]);
  // Distances in T are off by a few ulps of the box (minimum image subtracts a length), bin
  // numbers by a few ulps of the bin count: bins a little wider than the cutoff cover both.
  const double margin = 1.0 + 16.0 * double(std::numeric_limits<T>::epsilon()) * (longest / cutoff + 4.0);
  CellGrid grid;
  grid.dims = box.dims;
  grid.periodic = box.periodic;
  for (int a = 0; a < box.dims; ++a)
    grid.bins[a] = std::uint32_t(std::clamp(std::floor(box.length[a] / (cutoff * margin)), 1.0, double(1u << 30)));
  const std::uint64_t cap = 2 * particles + 64;
  while (grid.count() > cap) {
    int widest = 0;
    for (int a = 1; a < box.dims; ++a)
      if (grid.bins[a] > grid.bins[widest]) widest = a;
    grid.bins[widest] = std::max(1u, grid.bins[widest] / 2);
  }
  for (int a = 0; a < box.dims; ++a) grid.per_length[a] = double(grid.bins[a]) / box.length[a];
  return grid;
}

template <class T>
NeighborGraph find_neighbors(const Box& box, double cutoff, const PointsView<T>& points, int threads) {
  check_box(box, cutoff);
  check_points(box, points);
  const CellGrid grid = make_cell_grid<T>(box, cutoff, points.count);
  const int nt = thread_count(threads);
  const std::uint32_t n = points.count;
  const std::int64_t count = n;

  std::vector<std::uint32_t> key(n);
#pragma omp parallel for num_threads(nt) schedule(static) if (count >= kParallelMinimum)
  for (std::int64_t p = 0; p < count; ++p) key[p] = bin_key(grid, points.axis, std::uint32_t(p));

  // Counting sort by bin; particles enter in id order, so each bin lists them by id.
  std::vector<std::uint32_t> bin_begin(grid.count() + 1, 0);
  for (std::uint32_t k : key) ++bin_begin[k + 1];
  std::partial_sum(bin_begin.begin(), bin_begin.end(), bin_begin.begin());
  NeighborGraph out;
  out.particle_of.resize(n);
  std::vector<std::uint32_t> spatial_of(n);
  {
    std::vector<std::uint32_t> next(bin_begin.begin(), bin_begin.end() - 1);
    for (std::uint32_t p = 0; p < n; ++p) {
      spatial_of[p] = next[key[p]]++;
      out.particle_of[spatial_of[p]] = p;
    }
  }
  std::vector<T> sorted[3];
  const T* axis[3] = {nullptr, nullptr, nullptr};
  for (int a = 0; a < box.dims; ++a) {
    sorted[a].resize(n);
#pragma omp parallel for num_threads(nt) schedule(static) if (count >= kParallelMinimum)
    for (std::int64_t s = 0; s < count; ++s) sorted[a][s] = points.axis[a][out.particle_of[s]];
    axis[a] = sorted[a].data();
  }

  const BoxIn<T> in = box_in<T>(box);
  const T c2 = cutoff_squared<T>(cutoff);
  auto for_each_neighbor_of = [&](std::uint32_t s, auto&& visit) {
    for_each_adjacent_bin(grid, key[out.particle_of[s]], [&](std::uint32_t b) {
      for (std::uint32_t t = bin_begin[b]; t < bin_begin[b + 1]; ++t)
        if (t != s && squared_distance(in, axis, s, t) <= c2) visit(t);
    });
  };

  Graph& g = out.graph;
  g.offsets.assign(std::size_t(n) + 1, 0);
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1024) if (count >= kParallelMinimum)
  for (std::int64_t s = 0; s < count; ++s) {
    std::uint64_t degree = 0;
    for_each_neighbor_of(std::uint32_t(s), [&](std::uint32_t) { ++degree; });
    g.offsets[s + 1] = degree;
  }
  std::partial_sum(g.offsets.begin(), g.offsets.end(), g.offsets.begin());
  g.neighbors.resize(g.offsets.back());
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1024) if (count >= kParallelMinimum)
  for (std::int64_t s = 0; s < count; ++s) {
    VertexId* row = g.neighbors.data() + g.offsets[s];
    std::size_t k = 0;
    for_each_neighbor_of(std::uint32_t(s), [&](std::uint32_t t) { row[k++] = out.particle_of[t]; });
    std::sort(row, row + k);  // by particle id, then back to cell-list vertices
    for (std::size_t i = 0; i < k; ++i) row[i] = spatial_of[row[i]];
  }
  return out;
}

template <class T>
Graph all_pairs_neighbors(const Box& box, double cutoff, const PointsView<T>& points, int threads) {
  check_box(box, cutoff);
  check_points(box, points);
  const int nt = thread_count(threads);
  const std::int64_t n = points.count;
  const BoxIn<T> in = box_in<T>(box);
  const T c2 = cutoff_squared<T>(cutoff);
  Graph g;
  g.offsets.assign(std::size_t(n) + 1, 0);
#pragma omp parallel for num_threads(nt) schedule(dynamic, 64) if (n >= 256)
  for (std::int64_t i = 0; i < n; ++i) {
    std::uint64_t degree = 0;
    for (std::int64_t j = 0; j < n; ++j)
      degree += j != i && squared_distance(in, points.axis, std::uint32_t(i), std::uint32_t(j)) <= c2;
    g.offsets[i + 1] = degree;
  }
  std::partial_sum(g.offsets.begin(), g.offsets.end(), g.offsets.begin());
  g.neighbors.resize(g.offsets.back());
#pragma omp parallel for num_threads(nt) schedule(dynamic, 64) if (n >= 256)
  for (std::int64_t i = 0; i < n; ++i) {
    VertexId* row = g.neighbors.data() + g.offsets[i];
    for (std::int64_t j = 0; j < n; ++j)
      if (j != i && squared_distance(in, points.axis, std::uint32_t(i), std::uint32_t(j)) <= c2) *row++ = VertexId(j);
  }
  return g;
}

Graph in_particle_ids(const NeighborGraph& neighbors) {
  const Graph& g = neighbors.graph;
  const std::vector<VertexId>& particle_of = neighbors.particle_of;
  const VertexId n = g.num_vertices();
  if (particle_of.size() != n) throw Error("in_particle_ids: one particle per vertex expected");
  std::vector<VertexId> spatial_of(n);
  for (VertexId s = 0; s < n; ++s) spatial_of[particle_of[s]] = s;
  Graph out;
  out.offsets.assign(std::size_t(n) + 1, 0);
  for (VertexId p = 0; p < n; ++p) out.offsets[p + 1] = out.offsets[p] + g.degree(spatial_of[p]);
  out.neighbors.resize(out.offsets.back());
  for (VertexId p = 0; p < n; ++p) {
    const VertexId s = spatial_of[p];
    std::transform(g.neighbors.begin() + std::ptrdiff_t(g.offsets[s]),
                   g.neighbors.begin() + std::ptrdiff_t(g.offsets[s + 1]),
                   out.neighbors.begin() + std::ptrdiff_t(out.offsets[p]), [&](VertexId t) { return particle_of[t]; });
  }
  return out;
}

void rename_users(Layout& layout, const std::vector<VertexId>& user_of) {
  if (layout.num_halo != 0 || layout.user_to_local.size() != user_of.size() || layout.num_vertices != user_of.size())
    throw Error("rename_users: the layout must be a whole graph of " + std::to_string(user_of.size()) + " vertices");
  std::vector<std::uint32_t> user_to_local(user_of.size());
  for (std::size_t g = 0; g < user_of.size(); ++g) user_to_local[user_of[g]] = layout.user_to_local[g];
  for (VertexId& user : layout.local_to_user) user = user_of[user];
  layout.user_to_local = std::move(user_to_local);
}

Graph lists_in_user_ids(const Layout& layout) {
  const std::uint32_t n = layout.num_vertices;
  if (layout.user_to_local.size() != n) throw Error("lists_in_user_ids: one user id per vertex expected");
  Graph g;
  g.offsets.assign(std::size_t(n) + 1, 0);
  for (std::uint32_t u = 0; u < n; ++u) g.offsets[u + 1] = g.offsets[u] + layout.degree[layout.user_to_local[u]];
  g.neighbors.reserve(g.offsets.back());
  for (std::uint32_t u = 0; u < n; ++u)
    for_each_neighbor(layout, layout.user_to_local[u],
                      [&](std::uint32_t cell, std::uint32_t) { g.neighbors.push_back(layout.local_to_user[cell]); });
  return g;
}

Layout compile_neighbors(const NeighborGraph& neighbors, const CompileOptions& options) {
  // The device compiler's thresholds (from the mean degree alone, whatever the particle
  // count), so that both backends fold every list alike.
  // Explicit ids, as the device compiler writes them: moving cells' lists are filtered in place.
  const Graph& g = neighbors.graph;
  CompileOptions explicit_ids = compile_options_for_mean_degree(mean_degree(g), options);
  explicit_ids.index_encoding = IndexEncoding::explicit_ids;
  Layout layout = compile(g, explicit_ids);
  rename_users(layout, neighbors.particle_of);
  return layout;
}

#define CELLGRAPH_NEIGHBOR_SEARCH(T)                                                       \
  template void check_points<T>(const Box&, const PointsView<T>&);                         \
  template CellGrid make_cell_grid<T>(const Box&, double, std::uint64_t);                  \
  template NeighborGraph find_neighbors<T>(const Box&, double, const PointsView<T>&, int); \
  template Graph all_pairs_neighbors<T>(const Box&, double, const PointsView<T>&, int);
CELLGRAPH_NEIGHBOR_SEARCH(float)
CELLGRAPH_NEIGHBOR_SEARCH(double)
#undef CELLGRAPH_NEIGHBOR_SEARCH

}  // namespace cellgraph
