#include "cellgraph/output/graph_layout.hpp"

#include <gvc.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <memory>
#include <mutex>
#include <string>

#include "cellgraph/error.hpp"

namespace cellgraph {
namespace {

// Graphviz reports through agerr, on stderr unless a function is set: while a layout runs, its
// messages are kept here instead, for the Error a failure throws. Graphviz keeps global state
// (the message function, the random generator sfdp seeds), so one layout runs at a time.
std::mutex graphviz_mutex;
std::string graphviz_messages;

int keep_message(char* text) {
  graphviz_messages += text;
  return 0;
}

class QuietGraphviz {
 public:
  QuietGraphviz() : previous_(agseterrf(keep_message)) { graphviz_messages.clear(); }
  ~QuietGraphviz() { agseterrf(previous_); }
  QuietGraphviz(const QuietGraphviz&) = delete;
  QuietGraphviz& operator=(const QuietGraphviz&) = delete;

 private:
  agusererrf previous_;
};

// What Graphviz said, on one line.
std::string messages_said() {
  std::string text = graphviz_messages;
  while (!text.empty() && text.back() == '\n') text.pop_back();
  for (char& c : text)
    if (c == '\n') c = ' ';
  return text.empty() ? "no message" : text;
}

struct FreeContext {
  void operator()(GVC_t* context) const { gvFreeContext(context); }
};
struct CloseGraph {
  void operator()(Agraph_t* graph) const { agclose(graph); }
};

// Graphviz before 2.44 takes `char*` for names and values it only reads.
char* text(const char* s) { return const_cast<char*>(s); }

// The vertices that have an edge (a neighbor other than themselves); the others are isolated.
std::vector<bool> with_edges(const Graph& graph) {
  const VertexId n = graph.num_vertices();
  std::vector<bool> linked(n, false);
  for (VertexId v = 0; v < n; ++v)
    for (EdgeOffset e = graph.offsets[v]; e < graph.offsets[v + 1]; ++e)
      if (const VertexId u = graph.neighbors[e]; u < n && u != v) linked[v] = linked[u] = true;
  return linked;
}

// Each undirected edge once: rows of a symmetric graph hold it twice.
template <class Visit>
void for_each_edge(const Graph& graph, Visit visit) {
  const VertexId n = graph.num_vertices();
  for (VertexId v = 0; v < n; ++v)
    for (EdgeOffset e = graph.offsets[v]; e < graph.offsets[v + 1]; ++e)
      if (const VertexId u = graph.neighbors[e]; u < n && u != v && (u > v || !graph.symmetric)) visit(v, u);
}

// sfdp's positions of the vertices in `linked`, into coords (x, y per vertex).
void sfdp_positions(const Graph& graph, const std::vector<bool>& linked, const LayoutOptions& options,
                    std::vector<double>& coords) {
  std::lock_guard<std::mutex> one_at_a_time(graphviz_mutex);
  QuietGraphviz quiet;
  std::unique_ptr<GVC_t, FreeContext> context(gvContext());
  if (!context) throw Error("Graphviz could not start: " + messages_said());
  // A graph that is not symmetric may list an edge in both rows: a strict graph merges them.
  std::unique_ptr<Agraph_t, CloseGraph> g(
      agopen(text("cellgraph"), graph.symmetric ? Agundirected : Agstrictundirected, nullptr));
  if (!g) throw Error("Graphviz could not make a graph: " + messages_said());
  agattr(g.get(), AGRAPH, text("start"), text(std::to_string(options.seed).c_str()));
  agattr(g.get(), AGRAPH, text("overlap"), text("true"));  // discs are drawn at a size of their own
  agattr(g.get(), AGRAPH, text("splines"), text("none"));  // vertices only: no edge routing
  agattr(g.get(), AGNODE, text("label"), text(""));        // no text to measure
  agattr(g.get(), AGNODE, text("shape"), text("point"));   // tiny: components pack by where their vertices are

  const VertexId n = graph.num_vertices();
  std::vector<Agnode_t*> nodes(n, nullptr);
  for (VertexId v = 0; v < n; ++v)
    if (linked[v]) nodes[v] = agnode(g.get(), text(std::to_string(v).c_str()), 1);
  for_each_edge(graph, [&](VertexId v, VertexId u) { agedge(g.get(), nodes[v], nodes[u], nullptr, 1); });

  // sfdp seeds rand() from "start" only after coarsening the graph with it, and Graphviz also
  // draws from drand48(): both start from the seed, or a second layout in a process would differ.
  std::srand(options.seed);
  srand48(options.seed);
  if (gvLayout(context.get(), g.get(), "sfdp") != 0)
    throw Error("Graphviz sfdp could not lay out the graph: " + messages_said());
  for (VertexId v = 0; v < n; ++v)
    if (nodes[v]) {
      coords[2 * std::size_t(v)] = ND_coord(nodes[v]).x;
      coords[2 * std::size_t(v) + 1] = ND_coord(nodes[v]).y;
    }
  gvFreeLayout(context.get(), g.get());  // nothing above throws while the layout is held
}

// Isolated vertices in rows under the rest, as wide as it and as dense as its vertices spread
// evenly over its bounds: sfdp would pack each as a component of its own, on a grid as coarse
// as the rest is large, where generated graphs (R-MAT, Erdos-Renyi) have hundreds of them.
void place_isolated(const std::vector<bool>& linked, std::vector<double>& coords) {
  auto x = [&](std::size_t v) -> double& { return coords[2 * v]; };
  auto y = [&](std::size_t v) -> double& { return coords[2 * v + 1]; };
  const double inf = std::numeric_limits<double>::infinity();
  double left = inf, right = -inf, bottom = inf, top = -inf;
  for (std::size_t v = 0; v < linked.size(); ++v)
    if (linked[v])
      left = std::min(left, x(v)), right = std::max(right, x(v)), bottom = std::min(bottom, y(v)),
      top = std::max(top, y(v));
  const auto with_edges = std::uint64_t(std::count(linked.begin(), linked.end(), true));
  const std::uint64_t isolated = linked.size() - with_edges;
  if (!isolated) return;
  double spacing = 1;
  auto columns = std::uint64_t(std::ceil(std::sqrt(double(isolated))));  // no edges at all: a square
  if (with_edges) {
    const double width = right - left, height = top - bottom;
    const double even =
        width * height > 0 ? std::sqrt(width * height / double(with_edges)) : width / double(with_edges);
    if (even > 0) spacing = even;
    columns = std::uint64_t(std::min(width / spacing, double(isolated - 1))) + 1;
  } else {
    left = bottom = 0;
  }
  std::uint64_t placed = 0;
  for (std::size_t v = 0; v < linked.size(); ++v)
    if (!linked[v]) {
      const std::uint64_t row = placed / columns + (with_edges ? 1 : 0), column = placed % columns;
      x(v) = left + spacing * double(column);
      y(v) = bottom - spacing * double(row);
      ++placed;
    }
}

}  // namespace

bool layout_fits(const Graph& graph, const LayoutOptions& options) {
  return graph.num_vertices() <= options.max_vertices && undirected_edge_count(graph) <= options.max_edges;
}

std::string layout_limit_message(const Graph& graph, const LayoutOptions& options) {
  return "graphs without coordinates are laid out for pictures (Graphviz sfdp) up to " +
         std::to_string(options.max_vertices) + " vertices and " + std::to_string(options.max_edges) +
         " edges, and this one has " + std::to_string(graph.num_vertices()) + " vertices and " +
         std::to_string(undirected_edge_count(graph)) +
         " edges: picture a smaller graph, or one with coordinates (a mesh with node positions, a random geometric "
         "graph)";
}

std::vector<double> layout_graph(const Graph& graph, const LayoutOptions& options) {
  if (!layout_fits(graph, options)) throw Error(layout_limit_message(graph, options));
  if (options.seed == 0)
    throw Error("a layout's seed must be at least 1 (sfdp would take 0 for a seed from the clock)");
  std::vector<double> coords(std::size_t(graph.num_vertices()) * 2);
  const std::vector<bool> linked = with_edges(graph);
  if (std::find(linked.begin(), linked.end(), true) != linked.end()) sfdp_positions(graph, linked, options, coords);
  place_isolated(linked, coords);
  return coords;
}

}  // namespace cellgraph
