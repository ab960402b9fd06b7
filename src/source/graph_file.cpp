// Graph files by path: format detection, and per-vertex state files.
#include "cellgraph/source/graph_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <istream>
#include <string_view>
#include <unordered_map>

#include "src/source/line_reader.hpp"

namespace cellgraph {
namespace {

// The first non-blank bytes, at most `size` of them; leaves `in` at the start.
std::string head_of(std::istream& in, std::size_t size) {
  std::string head(size, '\0');
  in >> std::ws;
  in.read(head.data(), static_cast<std::streamsize>(size));
  head.resize(static_cast<std::size_t>(in.gcount()));
  in.clear();
  in.seekg(0);
  return head;
}

std::string extension_of(const std::string& path) { return std::filesystem::path(path).extension().string(); }

GraphFormat detect_format(std::istream& in, const std::string& path) {
  constexpr std::string_view kBanner = "%%MatrixMarket";
  const std::string head = head_of(in, kBanner.size());
  if (head == kBanner) return GraphFormat::matrix_market;
  // XML: "<?xml", "<graphml", a comment. Other XML reads as GraphML too, and is refused as such.
  if (extension_of(path) == ".graphml" || (!head.empty() && head[0] == '<')) return GraphFormat::graphml;
  // A headerless ".mtx" file (some collections ship plain edge lists so named) lands here.
  const std::string extension = extension_of(path);
  return extension == ".graph" || extension == ".mgraph" ? GraphFormat::metis : GraphFormat::edge_list;
}

// The state given to the vertex each line names: "LABEL STATE".
std::vector<std::uint32_t> read_labelled_states(detail::LineReader& reader, std::uint32_t num_states,
                                                const std::vector<std::string>& labels) {
  std::unordered_map<std::string_view, VertexId> vertex_of;
  vertex_of.reserve(labels.size());
  for (VertexId v = 0; v < labels.size(); ++v) vertex_of.emplace(labels[v], v);
  std::vector<std::size_t> line_of(labels.size(), 0);  // where each vertex's state was given
  std::vector<std::uint32_t> states(labels.size(), 0);
  reader.split_fields(detail::FieldSeparator::blanks, true);
  while (reader.next("#")) {
    if (reader.size() != 2)
      reader.fail("expected 'label state' (the graph's vertices are named), " + reader.fields_found());
    const auto at = vertex_of.find(reader[0]);
    if (at == vertex_of.end()) reader.fail("no vertex is named " + quoted_text(reader[0]));
    const VertexId v = at->second;
    if (line_of[v])
      reader.fail("vertex " + quoted_text(reader[0]) + " was given a state on line " + std::to_string(line_of[v]) +
                  " already");
    const std::uint64_t state = reader.parse_unsigned(reader[1], "state", std::numeric_limits<std::uint32_t>::max());
    if (num_states && state >= num_states)
      reader.fail("state " + std::to_string(state) + " is out of range: the model's states are 0.." +
                  std::to_string(num_states - 1));
    states[v] = static_cast<std::uint32_t>(state);
    line_of[v] = reader.line_number();
  }
  const std::size_t missing = static_cast<std::size_t>(std::count(line_of.begin(), line_of.end(), 0));
  if (missing) {
    const auto first = static_cast<std::size_t>(std::find(line_of.begin(), line_of.end(), 0) - line_of.begin());
    reader.fail("the file ends without a state for vertex " + quoted_text(labels[first]) +
                (missing > 1 ? " and " + std::to_string(missing - 1) + " more" : std::string()) +
                "; expected one per vertex (" + std::to_string(labels.size()) + ")");
  }
  return states;
}

// Line i: the state of vertex i.
std::vector<std::uint32_t> read_states_by_line(detail::LineReader& reader, std::uint32_t num_vertices,
                                               std::uint32_t num_states) {
  std::vector<std::uint32_t> states;
  states.reserve(num_vertices);
  while (reader.next("#")) {
    if (states.size() == num_vertices) reader.fail("more states than vertices (" + std::to_string(num_vertices) + ")");
    if (reader.size() != 1) reader.fail("expected one state per line, " + reader.fields_found());
    const std::uint64_t state = reader.parse_unsigned(reader[0], "state", std::numeric_limits<std::uint32_t>::max());
    if (num_states && state >= num_states)
      reader.fail("state " + std::to_string(state) + " is out of range: the model's states are 0.." +
                  std::to_string(num_states - 1));
    states.push_back(static_cast<std::uint32_t>(state));
  }
  // Reported at the last line, where the missing states would have followed.
  if (states.size() != num_vertices)
    reader.fail("the file ends after " + std::to_string(states.size()) + (states.size() == 1 ? " state" : " states") +
                "; expected one per vertex (" + std::to_string(num_vertices) + ")");
  return states;
}

}  // namespace

LabelledGraph read_labelled_graph_file(const std::string& path, const GraphReadOptions& options) {
  std::ifstream in = detail::open_input(path);
  const GraphFormat format = options.format == GraphFormat::automatic ? detect_format(in, path) : options.format;
  switch (format) {
    case GraphFormat::metis:
      return {read_metis_graph(in, path), {}};
    case GraphFormat::matrix_market:
      return {read_matrix_market(in, path), {}};
    case GraphFormat::graphml:
      return read_graphml(in, path);
    case GraphFormat::edge_list:
    case GraphFormat::automatic:  // resolved above
      break;
  }
  return read_labelled_edge_list(in, path, options);
}

Graph read_graph_file(const std::string& path, const GraphReadOptions& options) {
  return read_labelled_graph_file(path, options).graph;
}

std::vector<std::uint32_t> read_state_file(const std::string& path, std::uint32_t num_vertices,
                                           std::uint32_t num_states, const std::vector<std::string>& vertex_labels) {
  if (!vertex_labels.empty() && vertex_labels.size() != num_vertices)
    throw Error("read_state_file: " + std::to_string(vertex_labels.size()) + " labels for " +
                std::to_string(num_vertices) + " vertices");
  std::ifstream in = detail::open_input(path);
  detail::LineReader reader(in, path);
  return detail::naming_file_when_out_of_memory(reader, [&] {
    return vertex_labels.empty() ? read_states_by_line(reader, num_vertices, num_states)
                                 : read_labelled_states(reader, num_states, vertex_labels);
  });
}

}  // namespace cellgraph
