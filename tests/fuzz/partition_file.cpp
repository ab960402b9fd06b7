// Fuzz target partition_file: METIS .part files (read_partition, partition/partition.cpp) on
// any bytes, written to a file since the reader takes a path. Each input is read for as many
// vertices as it has lines and one fewer, and for as many parts as its largest part id asks,
// one part, and 5 parts.
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cellgraph/partition.hpp"
#include "tests/fuzz/counted_lines.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cellgraph;
  static const fuzz::InputFile file("input.part");
  const std::string& path = file.write(data, size);
  const fuzz::CountedLines counted =
      fuzz::count_lines(std::string_view(reinterpret_cast<const char*>(data), size), "%#");
  const std::uint64_t lines = std::min<std::uint64_t>(counted.lines, 1u << 20);
  const std::uint64_t asked = std::min<std::uint64_t>(counted.largest + 1, 4096);
  for (const std::uint64_t vertices : {lines, lines ? lines - 1 : 0})
    for (const std::uint64_t parts : {asked, std::uint64_t{1}, std::uint64_t{5}}) {
      std::vector<std::uint32_t> part;
      if (!fuzz::guarded("read_partition", path,
                         [&] { part = read_partition(path, VertexId(vertices), std::uint32_t(parts)); }))
        continue;
      if (part.size() != vertices) fuzz::finding("read_partition returned the wrong number of part ids", "");
      for (std::uint32_t p : part)
        if (p >= parts) fuzz::finding("read_partition returned a part id out of range", std::to_string(p));
    }
  return 0;
}
