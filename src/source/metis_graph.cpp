// METIS graph files (METIS 5 manual, section 4.1.1).
//
// Header "n m [fmt [ncon]]", then one line per vertex: [size] [w1 .. wncon] followed by its
// neighbors (1-based), each followed by an edge weight when fmt is xx1. '%' lines are
// comments; a blank line is a vertex with no neighbors. Every edge is listed from both ends,
// with the same weight. As in METIS, edge weights must be positive.
#include <algorithm>
#include <limits>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "cellgraph/source/graph_file.hpp"
#include "src/source/line_reader.hpp"

namespace cellgraph {
namespace {

using detail::BlankLines;
using detail::LineReader;

constexpr std::string_view kComment = "%";
// Edge weights are stored as doubles: keep them exact.
constexpr std::uint64_t kMaxEdgeWeight = std::uint64_t{1} << 53;
constexpr std::uint64_t kMaxVertexWeight = std::numeric_limits<std::int64_t>::max();

struct Header {
  VertexId n = 0;
  std::uint64_t m = 0;
  bool has_sizes = false, has_vertex_weights = false, has_edge_weights = false;
  int ncon = 0;  // vertex weights per vertex; 0 without them
  std::size_t line = 0;
};

// The adjacency lists as the file gives them, row by row, 0-based.
struct Listing {
  std::vector<EdgeOffset> offsets{0};
  std::vector<VertexId> neighbors;
  std::vector<double> weights;  // one per neighbor when fmt is xx1
  std::vector<std::int64_t> sizes, vertex_weights;
  std::vector<std::size_t> lines;  // each vertex's line

  std::span<const VertexId> row(VertexId u) const {
    return std::span(neighbors).subspan(offsets[u], offsets[u + 1] - offsets[u]);
  }
};

std::string vertex_name(VertexId v) { return "vertex " + std::to_string(std::uint64_t{v} + 1); }

// The header is a claim: each vertex takes a line (a byte at least), each of the 2m neighbor
// entries a number and a blank, and the graph, its run and the lists as read must fit in
// memory. Both are checked before anything is allocated for them.
void check_header_is_possible(const LineReader& reader, const Header& h) {
  reader.check_count_fits(h.n, 1, "the header gives " + std::to_string(h.n) + " vertices, one line each");
  reader.check_count_fits(
      2 * h.m, 2,
      "the header gives " + std::to_string(h.m) + " edges, " + std::to_string(2 * h.m) + " neighbor entries");
  const std::uint64_t per_vertex = sizeof(EdgeOffset) + sizeof(std::size_t) +  // offsets, lines
                                   sizeof(std::int64_t) * (std::uint64_t{h.has_sizes} + std::uint64_t(h.ncon));
  const std::uint64_t per_entry = sizeof(VertexId) + (h.has_edge_weights ? sizeof(double) : 0);
  reader.require_memory(estimated_run_bytes(h.n, 2 * h.m) + per_vertex * h.n + per_entry * 2 * h.m, [&] {
    return "the header's graph of " + std::to_string(h.n) + " vertices and " + std::to_string(h.m) + " edges";
  });
}

Header read_header(LineReader& reader) {
  if (!reader.next(kComment)) reader.fail_at(0, "empty file; expected the header 'n m [fmt [ncon]]'");
  if (reader.size() < 2 || reader.size() > 4)
    reader.fail("the header must be 'n m [fmt [ncon]]', " + reader.fields_found());
  Header h;
  h.line = reader.line_number();
  h.n = static_cast<VertexId>(reader.parse_unsigned(reader[0], "vertex count", detail::kMaxVertices));
  if (h.n == 0) reader.fail("the vertex count must be positive");
  h.m = reader.parse_unsigned(reader[1], "edge count", std::numeric_limits<EdgeOffset>::max() / 2);
  if (reader.size() >= 3) {
    // Up to three flag digits, leading zeros optional: vertex sizes, vertex weights, edge weights.
    const std::string_view fmt = reader[2];
    if (fmt.size() > 3 || fmt.find_first_not_of("01") != std::string_view::npos)
      reader.fail("fmt " + quoted_text(fmt) + " must be up to three 0/1 digits");
    const std::string flags = std::string(3 - fmt.size(), '0') + std::string(fmt);
    h.has_sizes = flags[0] == '1';
    h.has_vertex_weights = flags[1] == '1';
    h.has_edge_weights = flags[2] == '1';
  }
  if (h.has_vertex_weights) h.ncon = 1;
  if (reader.size() == 4) {
    if (!h.has_vertex_weights)
      reader.fail("ncon is given, but fmt " + quoted_text(reader[2]) + " has no vertex weights");
    const auto ncon = reader.parse_unsigned(reader[3], "ncon", std::numeric_limits<int>::max());
    h.ncon = std::max(1, static_cast<int>(ncon));  // METIS reads ncon 0 as 1
  }
  check_header_is_possible(reader, h);
  return h;
}

// What a vertex line must start with, for messages: "a size and 2 weights".
std::string leading_fields(const Header& h) {
  const std::string weights = std::to_string(h.ncon) + (h.ncon == 1 ? " weight" : " weights");
  if (h.has_sizes && h.ncon > 0) return "a size and " + weights;
  return h.has_sizes ? "a size" : weights;
}

// Sorting a copy of the row costs O(d log d) and, unlike a per-vertex marker array, nothing
// proportional to the n that a possibly corrupt header claims.
void reject_repeated_neighbor(const LineReader& line, VertexId u, std::span<const VertexId> row,
                              std::vector<VertexId>& scratch) {
  scratch.assign(row.begin(), row.end());
  std::sort(scratch.begin(), scratch.end());
  if (auto twice = std::adjacent_find(scratch.begin(), scratch.end()); twice != scratch.end())
    line.fail(vertex_name(u) + " lists " + vertex_name(*twice) + " twice");
}

void read_vertex(const LineReader& line, const Header& h, VertexId u, Listing& out, std::vector<VertexId>& scratch) {
  const std::size_t leading = std::size_t{h.has_sizes} + static_cast<std::size_t>(h.ncon);
  if (line.size() < leading) line.fail(vertex_name(u) + " needs " + leading_fields(h) + " before its neighbors");
  std::size_t t = 0;
  if (h.has_sizes)
    out.sizes.push_back(static_cast<std::int64_t>(line.parse_unsigned(line[t++], "vertex size", kMaxVertexWeight)));
  for (int k = 0; k < h.ncon; ++k)
    out.vertex_weights.push_back(
        static_cast<std::int64_t>(line.parse_unsigned(line[t++], "vertex weight", kMaxVertexWeight)));

  const std::size_t stride = h.has_edge_weights ? 2 : 1;
  if ((line.size() - t) % stride != 0)
    line.fail("neighbor " + printable_text(line[line.size() - 1]) + " of " + vertex_name(u) + " has no edge weight");
  for (; t < line.size(); t += stride) {
    const auto v = static_cast<VertexId>(line.parse_index(line[t], "neighbor", h.n));
    if (v == u) line.fail(vertex_name(u) + " lists itself");
    out.neighbors.push_back(v);
    if (h.has_edge_weights) {
      const std::uint64_t w = line.parse_unsigned(line[t + 1], "edge weight", kMaxEdgeWeight);
      if (w == 0) line.fail("edge weights must be positive, found 0");
      out.weights.push_back(static_cast<double>(w));
    }
  }
  out.offsets.push_back(out.neighbors.size());
  out.lines.push_back(line.line_number());
  reject_repeated_neighbor(line, u, out.row(u), scratch);
}

Listing read_vertices(LineReader& reader, const Header& h) {
  Listing listing;
  listing.offsets.reserve(detail::reserve_hint(std::uint64_t{h.n} + 1));
  listing.lines.reserve(detail::reserve_hint(h.n));
  listing.neighbors.reserve(detail::reserve_hint(2 * h.m));
  std::vector<VertexId> scratch;
  for (VertexId u = 0; u < h.n; ++u) {
    if (!reader.next(kComment, BlankLines::keep))
      reader.fail_at(h.line, "the header gives " + std::to_string(h.n) + " vertices, but the file has " +
                                 std::to_string(u) + " vertex lines");
    read_vertex(reader, h, u, listing, scratch);
  }
  // Blank lines may pad the end of the file; anything else is one vertex line too many.
  while (reader.next(kComment, BlankLines::keep))
    if (reader.size() > 0) reader.fail("more than the " + std::to_string(h.n) + " vertex lines the header gives");
  return listing;
}

// Each edge once, as its smaller vertex lists it (with that listing's weight).
Graph merge_from_smaller_ends(VertexId n, const Listing& listing) {
  std::vector<std::pair<VertexId, VertexId>> edges;
  std::vector<double> weights;
  edges.reserve(listing.neighbors.size() / 2);
  for (VertexId u = 0; u < n; ++u)
    for (EdgeOffset e = listing.offsets[u]; e < listing.offsets[u + 1]; ++e)
      if (u < listing.neighbors[e]) {
        edges.emplace_back(u, listing.neighbors[e]);
        if (!listing.weights.empty()) weights.push_back(listing.weights[e]);
      }
  return graph_from_edges(n, edges, weights);
}

// `g` holds each edge as its smaller vertex lists it. With no neighbor listed twice, the file
// is symmetric iff every row of `g` has as many entries as the file's row and every listing
// of a smaller neighbor is in `g`, with the same weight.
void check_symmetric(const LineReader& reader, const Listing& listing, const Graph& g) {
  for (VertexId u = 0; u < g.num_vertices(); ++u) {
    const auto g_row = std::span(g.neighbors).subspan(g.offsets[u], g.degree(u));
    for (EdgeOffset e = listing.offsets[u]; e < listing.offsets[u + 1]; ++e) {
      const VertexId v = listing.neighbors[e];
      if (v > u) continue;  // in g by construction
      const auto at = std::lower_bound(g_row.begin(), g_row.end(), v);
      if (at == g_row.end() || *at != v)
        reader.fail_at(listing.lines[u],
                       vertex_name(u) + " lists " + vertex_name(v) + ", but " + vertex_name(v) + " does not list it");
      if (listing.weights.empty()) continue;
      const double smaller_end_weight = g.edge_weights[g.offsets[u] + static_cast<std::size_t>(at - g_row.begin())];
      if (listing.weights[e] != smaller_end_weight)
        reader.fail_at(listing.lines[u], "edge " + std::to_string(v + 1) + "-" + std::to_string(u + 1) + " weighs " +
                                             std::to_string(std::uint64_t(listing.weights[e])) + " here but " +
                                             std::to_string(std::uint64_t(smaller_end_weight)) + " on line " +
                                             std::to_string(listing.lines[v]));
    }
    if (g.degree(u) == listing.row(u).size()) continue;
    // A smaller vertex lists u, but u does not list it.
    const auto u_row = listing.row(u);
    for (VertexId w : g_row)
      if (std::find(u_row.begin(), u_row.end(), w) == u_row.end())
        reader.fail_at(listing.lines[w],
                       vertex_name(w) + " lists " + vertex_name(u) + ", but " + vertex_name(u) + " does not list it");
  }
}

Graph read_graph(LineReader& reader) {
  const Header header = read_header(reader);
  Listing listing = read_vertices(reader, header);

  Graph g = merge_from_smaller_ends(header.n, listing);
  check_symmetric(reader, listing, g);
  if (listing.neighbors.size() != 2 * header.m)
    reader.fail_at(header.line,
                   "the header gives " + std::to_string(header.m) + " edges, but the adjacency lists hold " +
                       std::to_string(listing.neighbors.size() / 2) + " (each edge is listed from both ends)");

  g.vertex_sizes = std::move(listing.sizes);
  g.vertex_weight_count = header.ncon;
  g.vertex_weights = std::move(listing.vertex_weights);
  return g;
}

}  // namespace

Graph read_metis_graph(std::istream& in, const std::string& name) {
  LineReader reader(in, name);
  return detail::naming_file_when_out_of_memory(reader, [&] { return read_graph(reader); });
}

}  // namespace cellgraph
