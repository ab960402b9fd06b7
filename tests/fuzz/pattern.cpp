// Fuzz targets pattern_rle and pattern_life: the pattern readers (src/source/pattern_rle.cpp,
// pattern_life.cpp) on any bytes, through their std::istream entry points; a pattern they
// return is placed on a 64x64 torus (place_pattern), and its rule, when it has one, goes
// through the Life-like rule parser as `cellgraph run --pattern` sends it (an error there need
// not name the file: it is about the rule). The target's format (cellgraph_fuzz_format): 0 RLE,
// 1 Life.
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>

#include "cellgraph/source/grid.hpp"
#include "cellgraph/source/pattern.hpp"
#include "models/lifelike.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cellgraph;
  static const std::string name = cellgraph_fuzz_format == 0 ? "/fuzz/input.rle" : "/fuzz/input.lif";
  static const GridSpec grid = [] {
    GridSpec g;
    g.dims = 2;
    g.size = {64, 64, 1};
    g.stencil = moore_stencil(2, 1);
    return g;
  }();
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  std::optional<Pattern> pattern;
  fuzz::guarded("the pattern reader", name,
                [&] { pattern = cellgraph_fuzz_format == 0 ? read_rle(in, name) : read_life(in, name); });
  if (!pattern) return 0;
  for (const PatternCell& cell : pattern->cells)
    if (cell.state == 0) fuzz::finding("the pattern reader returned a cell in state 0", "");
  std::uint64_t dropped = 0;
  fuzz::guarded("place_pattern", "", [&] { place_pattern(*pattern, grid, &dropped); });
  if (!pattern->rule.empty())
    fuzz::guarded("parse_lifelike_rule", "", [&] { models::parse_lifelike_rule(pattern->rule); });
  return 0;
}
