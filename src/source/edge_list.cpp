// Plain edge lists: "u v [weight]" per line, '#' and '%' comment lines, blank lines ignored.
// Ids are 0- or 1-based; the vertex count is the largest id plus one, less the base. Either
// every edge has a weight or none has.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "cellgraph/source/graph_file.hpp"
#include "src/source/line_reader.hpp"

namespace cellgraph {
namespace {

using detail::LineReader;

constexpr std::string_view kComment = "#%";
// With base 0 the vertex count is the largest id plus one, which must stay within kMaxVertices.
constexpr std::uint64_t kMaxId = detail::kMaxVertices - 1;

struct RawEdges {
  std::vector<std::pair<VertexId, VertexId>> edges;  // ids as written
  std::vector<double> weights;                       // empty when unweighted
  VertexId max_id = 0;
  std::size_t first_zero_line = 0;  // 0: no id is 0
};

// The run of a graph with ids up to `max_id` and `edges` edges, and the edges as read.
std::uint64_t implied_bytes(const RawEdges& raw) {
  const std::uint64_t edges = raw.edges.size();
  return estimated_run_bytes(std::uint64_t{raw.max_id} + 1, 2 * edges) +
         edges * (sizeof(raw.edges[0]) + (raw.weights.empty() ? 0 : sizeof(double)));
}

// A 16-byte file naming vertex 3*10^8 implies gigabytes: refused at that line, before the graph
// is built.
void require_memory(const LineReader& reader, const RawEdges& raw) {
  reader.require_memory(implied_bytes(raw), [&] {
    const std::size_t edges = raw.edges.size();
    return "vertex ids up to " + std::to_string(raw.max_id) + " and " + std::to_string(edges) +
           (edges == 1 ? " edge" : " edges") + " imply a graph that";
  });
}

RawEdges read_raw_edges(LineReader& reader) {
  RawEdges raw;
  std::size_t first_edge_line = 0;
  bool weighted = false;  // as the first edge is
  while (reader.next(kComment)) {
    if (reader.size() != 2 && reader.size() != 3)
      reader.fail("expected 'u v' or 'u v weight', " + reader.fields_found());
    if (first_edge_line == 0) {
      first_edge_line = reader.line_number();
      weighted = reader.size() == 3;
    } else if ((reader.size() == 3) != weighted) {
      reader.fail(std::string(weighted ? "this edge has no weight" : "this edge has a weight") +
                  ", but the first edge (line " + std::to_string(first_edge_line) + ") " +
                  (weighted ? "has one" : "has none"));
    }
    const auto u = static_cast<VertexId>(reader.parse_unsigned(reader[0], "vertex id", kMaxId));
    const auto v = static_cast<VertexId>(reader.parse_unsigned(reader[1], "vertex id", kMaxId));
    if (weighted) raw.weights.push_back(reader.parse_real(reader[2], "weight"));
    raw.edges.emplace_back(u, v);
    raw.max_id = std::max({raw.max_id, u, v});
    if ((u == 0 || v == 0) && raw.first_zero_line == 0) raw.first_zero_line = reader.line_number();
    require_memory(reader, raw);
  }
  if (raw.edges.empty()) reader.fail_at(0, "no edges");
  return raw;
}

}  // namespace

Graph read_edge_list(std::istream& in, const std::string& name, int base) {
  if (base < -1 || base > 1) throw Error("edge list base must be 0, 1 or -1 (detect), not " + std::to_string(base));
  LineReader reader(in, name);
  return detail::naming_file_when_out_of_memory(reader, [&] {
    RawEdges raw = read_raw_edges(reader);
    if (base == -1) base = raw.first_zero_line != 0 ? 0 : 1;
    if (base == 1 && raw.first_zero_line != 0)
      reader.fail_at(raw.first_zero_line, "vertex id 0 in a 1-based edge list");
    if (base == 1)
      for (auto& [u, v] : raw.edges) --u, --v;
    return graph_from_edges(raw.max_id + 1 - static_cast<VertexId>(base), raw.edges, raw.weights);
  });
}

}  // namespace cellgraph
