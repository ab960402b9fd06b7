#include "cellgraph/graph.hpp"

#include <algorithm>
#include <numeric>

#include "cellgraph/error.hpp"

namespace cellgraph {

Graph graph_from_edges(VertexId n, const std::vector<std::pair<VertexId, VertexId>>& edges,
                       const std::vector<double>& weights) {
  const bool weighted = !weights.empty();
  if (weighted && weights.size() != edges.size())
    throw Error("graph_from_edges: one weight per edge expected");
  // Counting sort of both directions by source; rows are then sorted and de-duplicated.
  std::vector<EdgeOffset> count(std::size_t(n) + 1, 0);
  for (auto [u, v] : edges) {
    if (u >= n || v >= n) throw Error("graph_from_edges: vertex id out of range");
    if (u != v) ++count[u + 1], ++count[v + 1];
  }
  std::partial_sum(count.begin(), count.end(), count.begin());
  std::vector<VertexId> adj(count.back());
  std::vector<double> w(weighted ? count.back() : 0);
  std::vector<std::uint32_t> order(count.back());  // input position, to keep the first weight
  std::vector<EdgeOffset> fill(count.begin(), count.end() - 1);
  for (std::size_t e = 0; e < edges.size(); ++e) {
    auto [u, v] = edges[e];
    if (u == v) continue;
    for (auto [a, b] : {std::pair{u, v}, std::pair{v, u}}) {
      EdgeOffset at = fill[a]++;
      adj[at] = b;
      order[at] = static_cast<std::uint32_t>(e);
      if (weighted) w[at] = weights[e];
    }
  }
  Graph g;
  g.offsets.assign(std::size_t(n) + 1, 0);
  g.neighbors.reserve(adj.size());
  if (weighted) g.edge_weights.reserve(adj.size());
  std::vector<EdgeOffset> idx;
  for (VertexId v = 0; v < n; ++v) {
    idx.resize(count[v + 1] - count[v]);
    std::iota(idx.begin(), idx.end(), count[v]);
    std::sort(idx.begin(), idx.end(), [&](EdgeOffset a, EdgeOffset b) {
      return adj[a] != adj[b] ? adj[a] < adj[b] : order[a] < order[b];
    });
    for (std::size_t i = 0; i < idx.size(); ++i) {
      if (i > 0 && adj[idx[i]] == adj[idx[i - 1]]) continue;
      g.neighbors.push_back(adj[idx[i]]);
      if (weighted) g.edge_weights.push_back(w[idx[i]]);
    }
    g.offsets[v + 1] = g.neighbors.size();
  }
  return g;
}

void check_graph(const Graph& g, const std::string& what) {
  if (g.offsets.empty() || g.offsets.front() != 0) throw Error(what + ": offsets must start at 0");
  if (g.offsets.back() != g.neighbors.size())
    throw Error(what + ": offsets do not match the neighbor count");
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

}  // namespace cellgraph
