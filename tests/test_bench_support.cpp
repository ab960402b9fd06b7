#include <doctest/doctest.h>

#include "cellgraph/error.hpp"
#include "tools/cellgraph/bench/cusparse_baseline.hpp"

using cellgraph::cuda::row_block_starts;
using V = std::vector<std::uint32_t>;

// The cuSPARSE baseline splits matrices into row blocks of 32-bit-indexable size.
TEST_CASE("bench: cuSPARSE row blocks cut at row boundaries") {
  CHECK(row_block_starts({0}, 10) == V{0});
  CHECK(row_block_starts({0, 3, 6, 9}, 10) == V{0, 3});
  CHECK(row_block_starts({0, 3, 6, 9}, 9) == V{0, 3});
  CHECK(row_block_starts({0, 3, 6, 9}, 8) == V{0, 2, 3});
  CHECK(row_block_starts({0, 3, 6, 9}, 3) == V{0, 1, 2, 3});
  CHECK(row_block_starts({0, 0, 0}, 0) == V{0, 2});
  CHECK(row_block_starts({0, 0, 5, 5, 7}, 5) == V{0, 3, 4});
  CHECK_THROWS_AS(row_block_starts({0, 3, 4}, 2), cellgraph::Error);
  std::vector<cellgraph::EdgeOffset> grid(1025);
  for (std::size_t v = 0; v < grid.size(); ++v) grid[v] = 8 * v;  // a 1024-cell Moore grid
  CHECK(row_block_starts(grid, 8 * 1024 - 1) == V{0, 1023, 1024});
}
