#include "cellgraph/graph.hpp"

#include <algorithm>
#include <numeric>

#include "cellgraph/error.hpp"

namespace cellgraph {

Graph graph_from_edges(VertexId n, const std::vector<std::pair<VertexId, VertexId>>& edges,
                       const std::vector<double>& weights) {
  const bool weighted = !weights.empty();
  if (weighted && weights.size() != edges.size()) throw Error("graph_from_edges: one weight per edge expected");
  // Bucket both directions by source (counting sort), then sort and de-duplicate each row in
  // parallel; `order` keeps the input position so that the first weight of a duplicate wins.
  std::vector<EdgeOffset> start(std::size_t(n) + 1, 0);
  for (auto [u, v] : edges) {
    if (u >= n || v >= n) throw Error("graph_from_edges: vertex id out of range");
    if (u != v) ++start[u + 1], ++start[v + 1];
  }
  std::partial_sum(start.begin(), start.end(), start.begin());
  std::vector<VertexId> adj(start.back());
  std::vector<std::uint64_t> order(weighted ? start.back() : 0);
  {
    std::vector<EdgeOffset> fill(start.begin(), start.end() - 1);
    for (std::size_t e = 0; e < edges.size(); ++e) {
      auto [u, v] = edges[e];
      if (u == v) continue;
      for (auto [a, b] : {std::pair{u, v}, std::pair{v, u}}) {
        const EdgeOffset at = fill[a]++;
        adj[at] = b;
        if (weighted) order[at] = e;
      }
    }
  }
  std::vector<EdgeOffset> unique(std::size_t(n) + 1, 0);
#pragma omp parallel
  {
    std::vector<std::pair<VertexId, std::uint64_t>> row;  // (neighbor, input edge) when weighted
#pragma omp for schedule(dynamic, 1024)
    for (std::int64_t v = 0; v < std::int64_t(n); ++v) {
      VertexId* first = adj.data() + start[v];
      VertexId* last = adj.data() + start[v + 1];
      if (!weighted) {
        std::sort(first, last);
        unique[v + 1] = EdgeOffset(std::unique(first, last) - first);
        continue;
      }
      row.clear();
      for (EdgeOffset at = start[v]; at < start[v + 1]; ++at) row.emplace_back(adj[at], order[at]);
      std::sort(row.begin(), row.end());
      row.erase(std::unique(row.begin(), row.end(), [](auto& a, auto& b) { return a.first == b.first; }), row.end());
      for (std::size_t i = 0; i < row.size(); ++i)
        adj[start[v] + i] = row[i].first, order[start[v] + i] = row[i].second;
      unique[v + 1] = row.size();
    }
  }
  std::partial_sum(unique.begin(), unique.end(), unique.begin());
  Graph g;
  g.offsets = unique;
  g.neighbors.resize(unique.back());
  if (weighted) g.edge_weights.resize(unique.back());
#pragma omp parallel for schedule(dynamic, 1024)
  for (std::int64_t v = 0; v < std::int64_t(n); ++v)
    for (EdgeOffset i = 0; i < unique[v + 1] - unique[v]; ++i) {
      g.neighbors[unique[v] + i] = adj[start[v] + i];
      if (weighted) g.edge_weights[unique[v] + i] = weights[order[start[v] + i]];
    }
  return g;
}

void check_graph(const Graph& g, const std::string& what) {
  if (g.offsets.empty() || g.offsets.front() != 0) throw Error(what + ": offsets must start at 0");
  if (g.offsets.back() != g.neighbors.size()) throw Error(what + ": offsets do not match the neighbor count");
  const VertexId n = g.num_vertices();
  for (VertexId v = 0; v < n; ++v)
    if (g.offsets[v + 1] < g.offsets[v]) throw Error(what + ": offsets decrease at vertex " + std::to_string(v));
  for (VertexId u : g.neighbors)
    if (u >= n && !(g.slotted && u == kBoundaryVertex))
      throw Error(what + ": neighbor id " + std::to_string(u) + " out of range");
  if (!g.edge_weights.empty() && g.edge_weights.size() != g.neighbors.size())
    throw Error(what + ": one edge weight per neighbor expected");
  if (g.coord_dim != 0 && g.coords.size() != std::size_t(n) * g.coord_dim)
    throw Error(what + ": one coordinate tuple per vertex expected");
}

std::uint64_t undirected_edge_count(const Graph& g) { return g.num_entries() / 2; }

double mean_degree(const Graph& g) { return g.num_vertices() ? double(g.num_entries()) / g.num_vertices() : 0.0; }

}  // namespace cellgraph
