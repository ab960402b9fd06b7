// The engine against Golly: populations after N generations equal bgolly's on the same grid
// (numbers and commands in golly_references.hpp).
#include <doctest/doctest.h>

#include "golly_check.hpp"

using namespace cellgraph;

TEST_CASE("golly: populations equal bgolly's (rows affordable on the CPU)") {
#ifdef NDEBUG
  const double budget = 1.5e9;  // cell updates per group
#else
  const double budget = 5e7;  // sanitizer and debug builds run slowly
#endif
  const int checked = testing::check_golly_references(BackendKind::cpu, budget);
  MESSAGE(checked << " of " << std::size(testing::kGollyReferences) << " rows checked on the CPU");
  CHECK(checked >= 20);
}
