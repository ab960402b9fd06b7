// Graph files by path: format detection, and per-vertex state files.
#include "cellgraph/source/graph_file.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <istream>
#include <string_view>

#include "src/source/line_reader.hpp"

namespace cellgraph {
namespace {

// True when the first non-blank bytes are the Matrix Market banner; leaves `in` at the start.
bool starts_with_matrix_market_banner(std::istream& in) {
  constexpr std::string_view kBanner = "%%MatrixMarket";
  char head[kBanner.size()];
  in >> std::ws;
  in.read(head, static_cast<std::streamsize>(kBanner.size()));
  const bool banner =
      in.gcount() == static_cast<std::streamsize>(kBanner.size()) && std::string_view(head, kBanner.size()) == kBanner;
  in.clear();
  in.seekg(0);
  return banner;
}

bool has_metis_extension(const std::string& path) {
  const std::string extension = std::filesystem::path(path).extension().string();
  return extension == ".graph" || extension == ".mgraph";
}

GraphFormat detect_format(std::istream& in, const std::string& path) {
  if (starts_with_matrix_market_banner(in)) return GraphFormat::matrix_market;
  // A headerless ".mtx" file (some collections ship plain edge lists so named) lands here.
  return has_metis_extension(path) ? GraphFormat::metis : GraphFormat::edge_list;
}

}  // namespace

Graph read_graph_file(const std::string& path, const GraphReadOptions& options) {
  std::ifstream in = detail::open_input(path);
  const GraphFormat format = options.format == GraphFormat::automatic ? detect_format(in, path) : options.format;
  switch (format) {
    case GraphFormat::metis:
      return read_metis_graph(in, path);
    case GraphFormat::matrix_market:
      return read_matrix_market(in, path);
    case GraphFormat::edge_list:
    case GraphFormat::automatic:  // resolved above
      break;
  }
  return read_edge_list(in, path, options.edge_list_base);
}

std::vector<std::uint32_t> read_state_file(const std::string& path, std::uint32_t num_vertices,
                                           std::uint32_t num_states) {
  std::ifstream in = detail::open_input(path);
  detail::LineReader reader(in, path);
  return detail::naming_file_when_out_of_memory(reader, [&] {
    std::vector<std::uint32_t> states;
    states.reserve(num_vertices);
    while (reader.next("#")) {
      if (states.size() == num_vertices)
        reader.fail("more states than vertices (" + std::to_string(num_vertices) + ")");
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
  });
}

}  // namespace cellgraph
