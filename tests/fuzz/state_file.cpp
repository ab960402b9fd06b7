// Fuzz target state_file: per-vertex state files (read_state_file, src/source/graph_file.cpp)
// on any bytes, written to a file since the reader takes a path. Each input is read for as
// many vertices as it has lines, one fewer, one more, and none; then as the states of three
// labelled vertices.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cellgraph/source/graph_file.hpp"
#include "tests/fuzz/counted_lines.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cellgraph;
  static const fuzz::InputFile file("input.states");
  const std::string& path = file.write(data, size);
  const fuzz::CountedLines counted =
      fuzz::count_lines(std::string_view(reinterpret_cast<const char*>(data), size), "#");
  const std::uint64_t lines = std::min<std::uint64_t>(counted.lines, 1u << 20);
  for (const std::uint64_t vertices : {lines, lines + 1, lines ? lines - 1 : 0, std::uint64_t{0}}) {
    std::vector<std::uint32_t> states;
    if (fuzz::guarded("read_state_file", path, [&] { states = read_state_file(path, std::uint32_t(vertices)); }) &&
        states.size() != vertices)
      fuzz::finding("read_state_file returned the wrong number of states",
                    std::to_string(states.size()) + " for " + std::to_string(vertices) + " vertices");
  }
  static const std::vector<std::string> labels = {"a", "b c", "#d"};
  std::vector<std::uint32_t> states;
  if (fuzz::guarded("read_state_file", path, [&] { states = read_state_file(path, 3, 0, labels); }) &&
      states.size() != 3)
    fuzz::finding("read_state_file returned the wrong number of states", std::to_string(states.size()) + " for 3");
  return 0;
}
