#include "cellgraph/output/state_file.hpp"

#include <charconv>

#include "cellgraph/output/atomic_file.hpp"

namespace cellgraph {

void write_state_file(const std::string& path, const std::vector<std::uint32_t>& states) {
  AtomicFile file(path);
  std::ostream& out = file.stream();
  out << "# cellgraph states, " << states.size() << " vertices\n";
  // Formatted in blocks with to_chars: graphs reach 1e8+ vertices, where ostream<< crawls.
  constexpr std::size_t kBlock = 1 << 16;
  std::string block;
  block.reserve(kBlock + 16);
  for (std::uint32_t state : states) {
    char digits[16];
    block.append(digits, std::to_chars(digits, digits + sizeof digits, state).ptr);
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
