#include "cellgraph/output/state_file.hpp"

#include <charconv>
#include <string_view>

#include "cellgraph/error.hpp"
#include "cellgraph/output/atomic_file.hpp"

namespace cellgraph {
namespace {

// A label as read_state_file splits it back off its line.
void append_label(std::string& out, std::string_view label) {
  const bool quoted = label.empty() || label[0] == '#' || label.find_first_of(" \t\r\v\f\"") != std::string_view::npos;
  if (!quoted) {
    out += label;
    return;
  }
  out += '"';
  for (char c : label) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

}  // namespace

void write_state_file(const std::string& path, const std::vector<std::uint32_t>& states,
                      const std::vector<std::string>& vertex_labels) {
  const bool labelled = !vertex_labels.empty();
  if (labelled && vertex_labels.size() != states.size())
    throw Error("write_state_file " + path + ": " + std::to_string(vertex_labels.size()) + " labels for " +
                std::to_string(states.size()) + " states");
  AtomicFile file(path);
  std::ostream& out = file.stream();
  out << "# cellgraph states, " << states.size() << " vertices" << (labelled ? ": label state" : "") << "\n";
  // Formatted in blocks with to_chars: graphs reach 1e8+ vertices, where ostream<< crawls.
  constexpr std::size_t kBlock = 1 << 16;
  std::string block;
  block.reserve(kBlock + 16);
  for (std::size_t v = 0; v < states.size(); ++v) {
    if (labelled) {
      append_label(block, vertex_labels[v]);
      block += ' ';
    }
    char digits[16];
    block.append(digits, std::to_chars(digits, digits + sizeof digits, states[v]).ptr);
    block += '\n';
    if (block.size() >= kBlock) {
      out << block;
      block.clear();
    }
  }
  out << block;
  file.commit();
}

}  // namespace cellgraph
