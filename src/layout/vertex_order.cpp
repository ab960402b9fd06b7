#include "cellgraph/vertex_order.hpp"

#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/graph/cuthill_mckee_ordering.hpp>
#include <boost/property_map/property_map.hpp>

#include <utility>

#include "cellgraph/hilbert.hpp"

namespace cellgraph {
namespace {

std::vector<std::uint64_t> reverse_cuthill_mckee_places(const Graph& g) {
  using Csr = boost::compressed_sparse_row_graph<boost::directedS>;
  const std::uint32_t n = g.num_vertices();
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;  // rows are sorted: so is this
  edges.reserve(g.neighbors.size());
  for (VertexId u = 0; u < n; ++u)
    for (std::uint64_t k = g.offsets[u]; k < g.offsets[u + 1]; ++k)
      if (g.neighbors[k] < n && g.neighbors[k] != u) edges.emplace_back(u, g.neighbors[k]);  // not the boundary
  const Csr csr(boost::edges_are_sorted, edges.begin(), edges.end(), n);
  std::vector<Csr::vertex_descriptor> order(n);
  std::vector<boost::default_color_type> colors(n);
  const auto index = boost::get(boost::vertex_index, csr);
  boost::cuthill_mckee_ordering(csr, order.rbegin(), boost::make_iterator_property_map(colors.begin(), index),
                                boost::make_out_degree_map(csr));
  std::vector<std::uint64_t> place(n);
  for (std::uint32_t i = 0; i < n; ++i) place[order[i]] = i;
  return place;
}

}  // namespace

std::vector<std::uint64_t> vertex_places(const Graph& g, VertexOrder order) {
  switch (order) {
    case VertexOrder::hilbert:
      return hilbert_keys(g);
    case VertexOrder::rcm:
      return reverse_cuthill_mckee_places(g);
    default:
      return {};
  }
}

}  // namespace cellgraph
