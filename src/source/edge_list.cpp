// Edge lists as people write them: "u v [weight]" per line, '#' and '%' comment lines, blank
// lines ignored; fields separated by blanks, commas or tabs, quoted as CSV quotes them; a header
// of column names (pandas, igraph, Gephi); vertices numbered or named. Either every edge has a
// weight or none has.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <deque>
#include <numeric>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "cellgraph/source/graph_file.hpp"
#include "src/source/line_reader.hpp"

namespace cellgraph {
namespace {

using detail::FieldSeparator;
using detail::LineReader;

constexpr std::string_view kComment = "#%";
// With base 0 the vertex count is the largest id plus one, which must stay within kMaxVertices.
constexpr std::uint64_t kMaxId = detail::kMaxVertices - 1;

// ---------------------------------------------------------------------------------------------
// Fields and columns

// The first line that is not a comment decides for the file: a comma makes it CSV, else a tab
// between fields TSV (whose fields may hold spaces), else fields are separated by blanks.
FieldSeparator separator_of(std::string_view line) {
  if (line.find(',') != std::string_view::npos) return FieldSeparator::comma;
  const std::size_t first = line.find_first_not_of(" \t\r\v\f"), last = line.find_last_not_of(" \t\r\v\f");
  if (first != std::string_view::npos && line.substr(first, last - first + 1).find('\t') != std::string_view::npos)
    return FieldSeparator::tab;
  return FieldSeparator::blanks;
}

bool is_number(std::string_view field) {
  double value = 0;
  const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), value);
  return !field.empty() && ec == std::errc{} && end == field.data() + field.size() && std::isfinite(value);
}

bool same_name(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::optional<std::size_t> column_named(const std::vector<std::string>& names, std::string_view name) {
  for (std::size_t i = 0; i < names.size(); ++i)
    if (same_name(names[i], name)) return i;
  return std::nullopt;
}

// The endpoint columns as pandas (source, target), igraph (from, to) and Gephi name them.
std::optional<std::pair<std::size_t, std::size_t>> named_endpoints(const std::vector<std::string>& names) {
  for (const auto& [u, v] : {std::pair{"source", "target"}, {"from", "to"}}) {
    const auto first = column_named(names, u), second = column_named(names, v);
    if (first && second) return std::pair{*first, *second};
  }
  return std::nullopt;
}

// Which fields of a line are the edge's ends and weight.
struct Columns {
  std::size_t u = 0, v = 1;
  std::optional<std::size_t> weight;
  std::size_t count = 0;  // the header's fields, which every line has; 0: no header
  std::size_t header_line = 0;
  std::size_t first_edge_line = 0;  // without a header, the first edge says whether edges weigh
};

// A first line of column names: none of its fields is a number, and the next line has a number
// where it has a name, or it names the endpoint columns. ("alice bob" above "carol dave" is an
// edge between named vertices.)
bool is_header(const std::vector<std::string>& first, const LineReader* next) {
  if (first.size() < 2 || std::any_of(first.begin(), first.end(), is_number)) return false;
  if (named_endpoints(first)) return true;
  if (!next) return false;
  for (std::size_t i = 0; i < std::min(first.size(), next->size()); ++i)
    if (is_number((*next)[i])) return true;
  return false;
}

Columns header_columns(const std::vector<std::string>& header, std::size_t line, const LineReader& reader) {
  Columns c;
  c.count = header.size();
  c.header_line = line;
  if (const auto ends = named_endpoints(header)) std::tie(c.u, c.v) = *ends;
  c.weight = column_named(header, "weight");
  if (!c.weight && c.count == 3 && c.u == 0 && c.v == 1) c.weight = 2;
  if (c.weight && (*c.weight == c.u || *c.weight == c.v))
    reader.fail_at(line, "the header names column " + std::to_string(*c.weight + 1) + " both an end and the weight");
  return c;
}

// Checks the current line's shape against the header's, or without one against the first
// edge's, and returns its weight column.
std::optional<std::size_t> weight_column(const LineReader& reader, Columns& c) {
  if (c.count) {
    if (reader.size() != c.count)
      reader.fail("expected " + std::to_string(c.count) + " fields, as the header (line " +
                  std::to_string(c.header_line) + ") has; " + reader.fields_found());
    return c.weight;
  }
  if (reader.size() != 2 && reader.size() != 3) reader.fail("expected 'u v' or 'u v weight', " + reader.fields_found());
  const bool weighted = reader.size() == 3;
  if (c.first_edge_line == 0) {
    c.first_edge_line = reader.line_number();
    if (weighted) c.weight = 2;
  } else if (weighted != c.weight.has_value()) {
    reader.fail(std::string(c.weight ? "this edge has no weight" : "this edge has a weight") +
                ", but the first edge (line " + std::to_string(c.first_edge_line) + ") " +
                (c.weight ? "has one" : "has none"));
  }
  return c.weight;
}

struct Edges {
  std::vector<std::pair<VertexId, VertexId>> pairs;
  std::vector<double> weights;  // empty when unweighted
  std::uint64_t bytes() const { return pairs.size() * sizeof(pairs[0]) + weights.size() * sizeof(double); }
};

// Reads every edge line: `vertex(token)` numbers an end, `after_edge(edges)` sees each edge
// added (the memory guard). The first line is looked at twice: whether it is a header depends
// on the line after it.
template <class Vertex, class AfterEdge>
Edges read_edges(LineReader& reader, Vertex vertex, AfterEdge after_edge) {
  Edges edges;
  Columns columns;
  const auto read_edge = [&] {
    const std::optional<std::size_t> weight = weight_column(reader, columns);
    const VertexId u = vertex(reader[columns.u]);
    const VertexId v = vertex(reader[columns.v]);
    if (weight) edges.weights.push_back(reader.parse_real(reader[*weight], "weight"));
    edges.pairs.emplace_back(u, v);
    after_edge(edges);
  };
  if (!reader.next(kComment)) reader.fail_at(0, "no edges");
  reader.split_fields(separator_of(reader.line()), true);
  const LineReader::SavedLine first = reader.save_line();
  std::vector<std::string> first_fields;
  for (std::size_t i = 0; i < reader.size(); ++i) first_fields.emplace_back(reader[i]);
  const bool more = reader.next(kComment);
  if (is_header(first_fields, more ? &reader : nullptr)) {
    columns = header_columns(first_fields, first.number, reader);
    if (!more) reader.fail_at(0, "no edges");
  } else {
    const LineReader::SavedLine second = more ? reader.save_line() : LineReader::SavedLine{};
    reader.restore_line(first);
    read_edge();
    if (!more) return edges;
    reader.restore_line(second);
  }
  do {
    read_edge();
  } while (reader.next(kComment));
  return edges;
}

// ---------------------------------------------------------------------------------------------
// Vertex ids as written (VertexIds::index)

Graph read_indexed(LineReader& reader, int base) {
  VertexId max_id = 0;
  std::size_t first_zero_line = 0;  // 0: no id is 0
  const auto vertex = [&](std::string_view token) {
    const auto id = static_cast<VertexId>(reader.parse_unsigned(token, "vertex id", kMaxId));
    max_id = std::max(max_id, id);
    if (id == 0 && first_zero_line == 0) first_zero_line = reader.line_number();
    return id;
  };
  // A 16-byte file naming vertex 3*10^8 implies gigabytes: refused at that line, before the
  // graph is built.
  const auto check_memory = [&](const Edges& edges) {
    const std::uint64_t count = edges.pairs.size();
    reader.require_memory(estimated_run_bytes(std::uint64_t{max_id} + 1, 2 * count) + edges.bytes(), [&] {
      return "vertex ids up to " + std::to_string(max_id) + " and " + std::to_string(count) +
             (count == 1 ? " edge" : " edges") + " imply a graph that";
    });
  };
  Edges edges = read_edges(reader, vertex, check_memory);
  if (base == -1) base = first_zero_line != 0 ? 0 : 1;
  if (base == 1 && first_zero_line != 0) reader.fail_at(first_zero_line, "vertex id 0 in a 1-based edge list");
  if (base == 1)
    for (auto& [u, v] : edges.pairs) --u, --v;
  return graph_from_edges(max_id + 1 - static_cast<VertexId>(base), edges.pairs, edges.weights);
}

// ---------------------------------------------------------------------------------------------
// Ids and names as labels (VertexIds::compact)

// A non-negative decimal integer: a numeric vertex id ("007" is 7).
std::optional<std::uint64_t> numeric_id(std::string_view token) {
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (token.empty() || ec != std::errc{} || end != token.data() + token.size()) return std::nullopt;
  return value;
}

// The vertices an edge list names, numbered as they first appear; numbered for good at the end.
// While every token is a number, ids are kept as numbers (the common case, and the cheaper);
// the first name turns every vertex into a name, numbers into their decimal text.
class VertexTable {
 public:
  explicit VertexTable(const LineReader& reader) : reader_(reader) {}

  VertexId vertex(std::string_view token) {
    if (token.empty()) reader_.fail("an empty field where a vertex id or name belongs");
    const std::optional<std::uint64_t> id = numeric_id(token);
    if (!named_ && id) {
      const auto [at, added] = by_id_.try_emplace(*id, size());
      if (added) {
        ids_.push_back(*id);
        check_count();
      }
      return at->second;
    }
    if (!named_) name_every_vertex();
    const std::string number = id ? std::to_string(*id) : std::string();
    const std::string_view name = id ? std::string_view(number) : token;
    if (const auto at = by_name_.find(name); at != by_name_.end()) return at->second;
    names_.emplace_back(name);
    name_bytes_ += names_.back().capacity();
    by_name_.emplace(names_.back(), size() - 1);
    check_count();
    return size() - 1;
  }

  VertexId size() const { return static_cast<VertexId>(named_ ? names_.size() : ids_.size()); }

  // What the table takes, and the labels it becomes: an estimate, on the high side, of the
  // hash tables' nodes and buckets.
  std::uint64_t bytes() const {
    return named_ ? std::uint64_t{names_.size()} * 128 + name_bytes_ : std::uint64_t{ids_.size()} * 96;
  }

  // The final number of each vertex (by first appearance) and, in `labels`, its id or name;
  // labels stay empty where they would read 0..n-1.
  std::vector<VertexId> number(std::vector<std::string>& labels) {
    const VertexId n = size();
    std::vector<VertexId> renumbered(n);
    labels.clear();
    if (named_) {
      std::iota(renumbered.begin(), renumbered.end(), VertexId{0});
      by_name_.clear();
      labels.reserve(n);
      for (std::string& name : names_) labels.push_back(std::move(name));
    } else {
      std::vector<VertexId> by_value(n);
      std::iota(by_value.begin(), by_value.end(), VertexId{0});
      std::sort(by_value.begin(), by_value.end(), [&](VertexId a, VertexId b) { return ids_[a] < ids_[b]; });
      labels.reserve(n);
      for (VertexId rank = 0; rank < n; ++rank) {
        renumbered[by_value[rank]] = rank;
        labels.push_back(std::to_string(ids_[by_value[rank]]));
      }
    }
    bool plain = true;
    for (VertexId v = 0; v < n && plain; ++v) plain = labels[v] == std::to_string(v);
    if (plain) labels.clear();
    return renumbered;
  }

 private:
  void name_every_vertex() {
    named_ = true;
    for (const std::uint64_t id : ids_) {
      names_.push_back(std::to_string(id));
      name_bytes_ += names_.back().capacity();
      by_name_.emplace(names_.back(), static_cast<VertexId>(names_.size() - 1));
    }
    std::vector<std::uint64_t>().swap(ids_);
    std::unordered_map<std::uint64_t, VertexId>().swap(by_id_);
  }

  void check_count() const {
    if ((named_ ? names_.size() : ids_.size()) > detail::kMaxVertices)
      reader_.fail("more than " + std::to_string(detail::kMaxVertices) + " distinct vertices");
  }

  const LineReader& reader_;
  bool named_ = false;
  std::unordered_map<std::uint64_t, VertexId> by_id_;
  std::vector<std::uint64_t> ids_;                          // by first appearance
  std::deque<std::string> names_;                           // by first appearance; never moved
  std::unordered_map<std::string_view, VertexId> by_name_;  // views into names_
  std::uint64_t name_bytes_ = 0;
};

LabelledGraph read_compact(LineReader& reader) {
  VertexTable table(reader);
  const auto vertex = [&](std::string_view token) { return table.vertex(token); };
  // The graph is as large as the file; what it holds is counted as it is read, so that a file
  // larger than memory is refused at the line where it would run out.
  const auto check_memory = [&](const Edges& edges) {
    const std::uint64_t count = edges.pairs.size();
    reader.require_memory(table.bytes() + edges.bytes() + estimated_run_bytes(table.size(), 2 * count), [&] {
      return "the " + std::to_string(table.size()) + " vertices and " + std::to_string(count) +
             (count == 1 ? " edge" : " edges") + " read by this line imply a graph that";
    });
  };
  Edges edges = read_edges(reader, vertex, check_memory);
  LabelledGraph result;
  const std::vector<VertexId> renumbered = table.number(result.vertex_labels);
  for (auto& [u, v] : edges.pairs) u = renumbered[u], v = renumbered[v];
  result.graph = graph_from_edges(table.size(), edges.pairs, edges.weights);
  return result;
}

}  // namespace

LabelledGraph read_labelled_edge_list(std::istream& in, const std::string& name, const GraphReadOptions& options) {
  const int base = options.edge_list_base;
  if (base < -1 || base > 1) throw Error("edge list base must be 0, 1 or -1 (detect), not " + std::to_string(base));
  LineReader reader(in, name);
  return detail::naming_file_when_out_of_memory(reader, [&] {
    if (options.vertex_ids == VertexIds::compact) return read_compact(reader);
    return LabelledGraph{read_indexed(reader, base), {}};
  });
}

Graph read_edge_list(std::istream& in, const std::string& name, int base) {
  GraphReadOptions options;
  options.vertex_ids = VertexIds::index;
  options.edge_list_base = base;
  return read_labelled_edge_list(in, name, options).graph;
}

}  // namespace cellgraph
