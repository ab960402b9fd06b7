// Greedy coloring in priority order (the reference the GPU's Jones-Plassmann rounds equal),
// and the color classes the colored sweeps walk.
#include "cellgraph/coloring.hpp"

#include <algorithm>
#include <numeric>
#include <string>
#include <tuple>

#include "cellgraph/error.hpp"

namespace cellgraph {

namespace {

// For each vertex, the vertices whose lists hold it (CSR): the other half of an asymmetric
// graph's conflicts.
template <class Visit>
std::pair<std::vector<std::uint64_t>, std::vector<std::uint32_t>> readers_of(std::uint32_t n, Visit&& visit) {
  std::vector<std::uint64_t> begin(std::size_t(n) + 1, 0);
  for (std::uint32_t v = 0; v < n; ++v) visit(v, [&](std::uint32_t u) { ++begin[u + 1]; });
  std::partial_sum(begin.begin(), begin.end(), begin.begin());
  std::vector<std::uint32_t> readers(begin[n]);
  std::vector<std::uint64_t> at(begin.begin(), begin.end() - 1);
  for (std::uint32_t v = 0; v < n; ++v) visit(v, [&](std::uint32_t u) { readers[at[u]++] = v; });
  return {std::move(begin), std::move(readers)};
}

// First fit in priority order over n vertices; user(v) keys the priority and
// visit(v, f) calls f(u) for each neighbor u < n of v. Asymmetric graphs: the readers of v
// count as its neighbors too, so that no class holds a vertex and one it reads.
template <class User, class Visit>
std::vector<std::uint32_t> first_fit_coloring(std::uint32_t n, std::uint64_t seed, bool symmetric, User&& user,
                                              Visit&& visit) {
  std::vector<std::uint64_t> reader_begin;
  std::vector<std::uint32_t> readers;
  if (!symmetric) std::tie(reader_begin, readers) = readers_of(n, visit);
  std::vector<std::uint64_t> priority(n);
#pragma omp parallel for schedule(static)
  for (std::int64_t v = 0; v < std::int64_t(n); ++v) priority[v] = coloring_priority(seed, user(std::uint32_t(v)));
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return priority[a] > priority[b]; });

  // The smallest color no neighbor colored before has. taken[c] == v marks color c as used
  // around v (a stamp, so the array is never cleared).
  std::vector<std::uint32_t> color(n, kNoColor), taken;
  for (std::uint32_t v : order) {
    auto take = [&](std::uint32_t u) {
      if (color[u] != kNoColor) {
        if (color[u] >= taken.size()) taken.resize(color[u] + 1, kNoColor);
        taken[color[u]] = v;
      }
    };
    visit(v, take);
    if (!symmetric)
      for (std::uint64_t r = reader_begin[v]; r < reader_begin[v + 1]; ++r) take(readers[r]);
    std::uint32_t c = 0;
    while (c < taken.size() && taken[c] == v) ++c;
    color[v] = c;
  }
  return color;
}

}  // namespace

std::vector<std::uint32_t> greedy_coloring(const Layout& L, std::uint64_t seed) {
  const std::uint32_t n = L.num_vertices;
  return first_fit_coloring(
      n, seed, L.symmetric, [&](std::uint32_t v) { return L.local_to_user[v]; },
      [&](std::uint32_t v, auto&& f) {
        for_each_neighbor(L, v, [&](std::uint32_t u, std::uint32_t) {
          if (u < n) f(u);
        });
      });
}

std::vector<std::uint32_t> greedy_coloring(const Graph& g, std::uint64_t seed) {
  return first_fit_coloring(
      g.num_vertices(), seed, g.symmetric, [](std::uint32_t v) { return v; },
      [&](std::uint32_t v, auto&& f) {
        for (EdgeOffset e = g.offsets[v]; e < g.offsets[v + 1]; ++e)
          if (g.neighbors[e] != kBoundaryVertex) f(g.neighbors[e]);
      });
}

ColorClasses color_classes(const Layout& L, const std::vector<std::uint32_t>& colors, std::uint32_t count) {
  if (colors.size() != L.num_vertices)
    throw Error("coloring of " + std::to_string(colors.size()) + " vertices for a layout of " +
                std::to_string(L.num_vertices));
  const std::uint32_t used = colors.empty() ? 0 : *std::max_element(colors.begin(), colors.end()) + 1;
  if (count == 0) count = used;
  if (used > count)
    throw Error("a coloring with " + std::to_string(used) + " colors for " + std::to_string(count) + " classes");
  ColorClasses classes;
  classes.begin.assign(count + 1, 0);
  for (std::uint32_t c : colors) ++classes.begin[c + 1];
  std::partial_sum(classes.begin.begin(), classes.begin.end(), classes.begin.begin());
  std::vector<std::uint32_t> at(classes.begin.begin(), classes.begin.end() - 1);
  classes.vertices.resize(colors.size());
  classes.giant_end.assign(at.begin(), at.end());
  classes.hub_end.assign(at.begin(), at.end());
  for (std::uint32_t v = 0; v < L.num_vertices; ++v) {  // ascending: giants, then hubs, then the rest
    const std::uint32_t c = colors[v];
    classes.vertices[at[c]++] = v;
    if (v < L.num_giant_hubs) classes.giant_end[c] = at[c];
    if (v < L.num_hub_vertices()) classes.hub_end[c] = at[c];
  }
  return classes;
}

void check_coloring(const Layout& L, const std::vector<std::uint32_t>& colors) {
  if (colors.size() != L.num_vertices) throw Error("coloring has the wrong length");
  for (std::uint32_t v = 0; v < L.num_vertices; ++v) {
    if (colors[v] == kNoColor) throw Error("vertex " + std::to_string(L.local_to_user[v]) + " has no color");
    for_each_neighbor(L, v, [&](std::uint32_t u, std::uint32_t) {
      if (u < L.num_vertices && u != v && colors[u] == colors[v])
        throw Error("neighbors " + std::to_string(L.local_to_user[v]) + " and " + std::to_string(L.local_to_user[u]) +
                    " share color " + std::to_string(colors[v]));
    });
  }
}

}  // namespace cellgraph
