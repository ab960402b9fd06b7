// GraphML through Boost.Graph's reader (boost/graph/graphml.hpp), which hands cellgraph each
// vertex, edge and attribute value through its mutate_graph interface. That interface keeps
// node ids to itself, so the same XML tree (Boost.PropertyTree parses it for the reader) is
// walked once first: it gives the ids in the order the reader adds vertices, and finds what the
// reader would stumble on (a node without an id, directed and undirected edges mixed) with a
// message that says what is wrong.
#include <algorithm>
#include <boost/graph/graphml.hpp>
#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>
#include <cctype>
#include <charconv>
#include <cmath>
#include <iterator>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "cellgraph/error.hpp"
#include "cellgraph/memory_budget.hpp"
#include "cellgraph/source/graph_file.hpp"
#include "src/source/line_reader.hpp"

namespace cellgraph {
namespace {

namespace pt = boost::property_tree;

// A parsed XML tree takes about this many bytes per byte of text: an element is a node of a
// multi-index container with its name, text and a child tree for its attributes, each one a
// node again. An estimate, on the high side, for the memory guard.
constexpr std::uint64_t kTreeBytesPerTextByte = 24;

bool same_name(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::string count_of(std::uint64_t count, const char* one, const char* many) {
  return std::to_string(count) + " " + (count == 1 ? one : many);
}

void require_memory(const std::string& name, std::uint64_t bytes, const std::string& what) {
  if (bytes > memory_limit()) throw ParseError(name, 0, what + " " + memory_shortfall(bytes));
}

std::string read_text(std::istream& in, const std::string& name) {
  if (const std::optional<std::uint64_t> size = detail::bytes_to_end(in))
    require_memory(name, *size * (1 + kTreeBytesPerTextByte),
                   "a GraphML file of " + count_of(*size, "byte", "bytes") + ", parsed,");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw ParseError(name, 0, "read error");
  return text;
}

pt::ptree parse_xml(const std::string& text, const std::string& name) {
  std::istringstream in(text);
  pt::ptree tree;
  try {
    pt::read_xml(in, tree, pt::xml_parser::no_comments | pt::xml_parser::trim_whitespace);
  } catch (const pt::xml_parser_error& e) {
    throw ParseError(name, e.line(), "not well-formed XML: " + e.message());
  }
  return tree;
}

// ---------------------------------------------------------------------------------------------
// The walk ahead of Boost's reader

// What the reader will meet, in its order: the first <graph> of <graphml> and every <graph>
// directly inside a graph taken, depth first; the nodes of all of them, then their edges.
struct Outline {
  std::vector<std::string> node_ids;  // by vertex
  std::uint64_t edges = 0;
  std::uint64_t first_directed = 0, first_undirected = 0;  // 1-based edge numbers; 0: none
};

class OutlineWalk {
 public:
  explicit OutlineWalk(const std::string& name) : name_(name) {}

  Outline walk(const pt::ptree& tree) {
    const auto graphml = tree.get_child_optional("graphml");
    if (!graphml) fail("not GraphML: no <graphml> element at the top");
    std::vector<const pt::ptree*> graphs;
    collect_graphs(*graphml, true, graphs);
    if (graphs.empty()) fail("no <graph> element in <graphml>");
    check_data(*graphs[0], "the <graph>");
    for (const pt::ptree* graph : graphs)
      for (const auto& [tag, node] : *graph) {
        if (tag != "node") continue;
        ++nodes_;
        add_vertex(attribute(node, "id", "<node> " + std::to_string(nodes_)));
        check_data(node, "node " + quoted_text(outline_.node_ids.back()));
      }
    for (const pt::ptree* graph : graphs) {
      const std::string edge_default = attribute(*graph, "edgedefault", "a <graph>");
      if (edge_default != "directed" && edge_default != "undirected")
        fail("edgedefault " + quoted_text(edge_default) + " must be directed or undirected");
      for (const auto& [tag, edge] : *graph) {
        if (tag != "edge") continue;
        const std::string what = "<edge> " + std::to_string(++outline_.edges);
        add_vertex(attribute(edge, "source", what));
        add_vertex(attribute(edge, "target", what));
        const std::string directed = edge.get(path("<xmlattr>/directed"), "");
        const bool is_directed = directed.empty() ? edge_default == "directed" : directed == "true";
        std::uint64_t& first = is_directed ? outline_.first_directed : outline_.first_undirected;
        if (first == 0) first = outline_.edges;
        check_data(edge, what);
      }
    }
    if (outline_.first_directed && outline_.first_undirected)
      fail("edges " + std::to_string(std::min(outline_.first_directed, outline_.first_undirected)) + " and " +
           std::to_string(std::max(outline_.first_directed, outline_.first_undirected)) +
           " are one directed and one undirected: Boost's GraphML reader reads graphs of one kind (cellgraph makes "
           "either symmetric)");
    return std::move(outline_);
  }

 private:
  static pt::ptree::path_type path(const std::string& text) { return pt::ptree::path_type(text, '/'); }

  static void collect_graphs(const pt::ptree& parent, bool first_only, std::vector<const pt::ptree*>& graphs) {
    for (const auto& [tag, child] : parent) {
      if (tag != "graph") continue;
      graphs.push_back(&child);
      collect_graphs(child, false, graphs);
      if (first_only) return;
    }
  }

  std::string attribute(const pt::ptree& element, const char* key, const std::string& what) const {
    const auto value = element.get_optional<std::string>(path(std::string("<xmlattr>/") + key));
    if (!value) fail(what + " has no " + key + " attribute");
    return *value;
  }

  // Every <data> names its key (the reader looks each one up).
  void check_data(const pt::ptree& element, const std::string& what) const {
    for (const auto& [tag, data] : element)
      if (tag == "data" && !data.get_optional<std::string>(path("<xmlattr>/key")))
        fail("a <data> of " + what + " has no key attribute");
  }

  // Boost's reader adds a vertex for each id it has not met before.
  void add_vertex(const std::string& id) {
    if (!seen_.emplace(id, outline_.node_ids.size()).second) return;
    if (id.find_first_of("\n\r") != std::string::npos)
      fail("node id " + quoted_text(id) + " holds a line break, which state files cannot name");
    if (outline_.node_ids.size() >= detail::kMaxVertices)
      fail("more than " + std::to_string(detail::kMaxVertices) + " nodes");
    outline_.node_ids.push_back(id);
  }

  [[noreturn]] void fail(const std::string& what) const { throw ParseError(name_, 0, what); }

  const std::string& name_;
  Outline outline_;
  std::uint64_t nodes_ = 0;
  std::unordered_map<std::string, std::size_t> seen_;
};

// ---------------------------------------------------------------------------------------------
// Boost's reader

double finite_number(const std::string& value, const std::string& name, const std::string& what) {
  std::string_view digits = value;
  if (digits.size() > 1 && digits[0] == '+' && digits[1] != '-') digits.remove_prefix(1);
  double number = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
  if (ec != std::errc{} || end != digits.data() + digits.size() || !std::isfinite(number))
    throw ParseError(name, 0, what + " " + quoted_text(value) + " is not a finite number");
  return number;
}

// What Boost's reader hands over: vertices numbered as added, edges in order, and the
// attributes cellgraph keeps (edge weight; node x, y, z). Other attributes are left alone.
class GraphCollector final : public boost::mutate_graph {
 public:
  GraphCollector(const std::string& name, Outline& outline)
      : name_(name), outline_(outline), directed_(outline.first_directed != 0) {}

  bool is_directed() const override { return directed_; }

  boost::any do_add_vertex() override { return boost::any(static_cast<VertexId>(vertices_++)); }

  std::pair<boost::any, bool> do_add_edge(boost::any source, boost::any target) override {
    edges_.emplace_back(boost::any_cast<VertexId>(source), boost::any_cast<VertexId>(target));
    return {boost::any(edges_.size() - 1), true};  // parallel edges are merged later
  }

  void set_graph_property(const std::string&, const std::string&, const std::string&) override {}

  void set_vertex_property(const std::string& key, boost::any vertex, const std::string& value,
                           const std::string&) override {
    const int axis = same_name(key, "x") ? 0 : same_name(key, "y") ? 1 : same_name(key, "z") ? 2 : -1;
    if (axis < 0) return;
    const auto v = boost::any_cast<VertexId>(vertex);
    std::vector<double>& values = axes_[axis];
    if (values.size() <= v) values.resize(std::size_t{v} + 1, kMissing);
    values[v] = finite_number(value, name_, "node " + quoted_text(outline_.node_ids.at(v)) + ": " + key);
  }

  void set_edge_property(const std::string& key, boost::any edge, const std::string& value,
                         const std::string&) override {
    if (!same_name(key, "weight")) return;
    const auto e = boost::any_cast<std::size_t>(edge);
    if (weights_.size() <= e) weights_.resize(e + 1, 1.0);
    weights_[e] = finite_number(value, name_, "edge " + std::to_string(e + 1) + ": weight");
  }

  LabelledGraph graph() {
    if (vertices_ != outline_.node_ids.size() || edges_.size() != outline_.edges)
      throw Error(name_ + ": Boost's GraphML reader read " + count_of(vertices_, "vertex", "vertices") + " and " +
                  count_of(edges_.size(), "edge", "edges") + " where the file has " +
                  count_of(outline_.node_ids.size(), "node", "nodes") + " and " +
                  count_of(outline_.edges, "edge", "edges"));
    if (!weights_.empty()) weights_.resize(edges_.size(), 1.0);
    LabelledGraph result;
    result.graph = graph_from_edges(static_cast<VertexId>(vertices_), edges_, weights_);
    add_coordinates(result.graph);
    result.vertex_labels = std::move(outline_.node_ids);
    bool plain = true;
    for (std::size_t v = 0; v < vertices_ && plain; ++v) plain = result.vertex_labels[v] == std::to_string(v);
    if (plain) result.vertex_labels.clear();
    return result;
  }

 private:
  static constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();

  // x and y where every node has both (and z where every node has it too): Gephi's layout.
  void add_coordinates(Graph& g) const {
    const auto complete = [&](const std::vector<double>& values) {
      return values.size() == vertices_ &&
             std::none_of(values.begin(), values.end(), [](double x) { return std::isnan(x); });
    };
    if (vertices_ == 0 || !complete(axes_[0]) || !complete(axes_[1])) return;
    g.coord_dim = complete(axes_[2]) ? 3 : 2;
    g.coords.resize(vertices_ * static_cast<std::size_t>(g.coord_dim));
    for (std::size_t v = 0; v < vertices_; ++v)
      for (int axis = 0; axis < g.coord_dim; ++axis) g.coords[v * std::size_t(g.coord_dim) + axis] = axes_[axis][v];
  }

  const std::string& name_;
  Outline& outline_;
  const bool directed_;
  std::size_t vertices_ = 0;
  std::vector<std::pair<VertexId, VertexId>> edges_;
  std::vector<double> weights_;  // empty: no edge has a weight
  std::vector<double> axes_[3];  // by vertex; NaN where a node has no value
};

}  // namespace

LabelledGraph read_graphml(std::istream& in, const std::string& name) {
  return detail::naming_file_when_out_of_memory(
      name, [] { return std::size_t{0}; },
      [&] {
        const std::string text = read_text(in, name);
        Outline outline = OutlineWalk(name).walk(parse_xml(text, name));
        require_memory(
            name,
            text.size() * (1 + kTreeBytesPerTextByte) + estimated_run_bytes(outline.node_ids.size(), 2 * outline.edges),
            "a GraphML graph of " + count_of(outline.node_ids.size(), "node", "nodes") + " and " +
                count_of(outline.edges, "edge", "edges"));
        GraphCollector collector(name, outline);
        std::istringstream again(text);
        try {
          boost::read_graphml(again, collector, 0);
        } catch (const boost::parse_error& e) {  // its message may quote the file: shown short, printable
          throw ParseError(name, 0, printable_text(e.error, 160));
        } catch (const boost::graph_exception& e) {
          throw ParseError(name, 0, printable_text(e.what(), 160));
        } catch (const pt::ptree_error& e) {
          throw ParseError(name, 0, printable_text(e.what(), 160));
        }
        return collector.graph();
      });
}

}  // namespace cellgraph
