// The cloud model's dense kernel against the graph engine (on the CPU, the reference), from
// the same random start, compared cell for cell (all three variables) after every chunk.
#pragma once
#include <doctest/doctest.h>

#include <vector>

#include "cellgraph/dense/automaton.hpp"

namespace cellgraph::test {

inline dense::GridShape cloud_shape(std::int64_t w, std::int64_t h, std::int64_t d, dense::Edge edge) {
  dense::GridShape s;
  s.dims = 3;
  s.size[0] = w, s.size[1] = h, s.size[2] = d;
  s.edge = edge;
  return s;
}

inline void check_cloud_kernel_against_graph(dense::Device device, const dense::GridShape& shape,
                                             const dense::CloudRule& rule, const std::vector<std::uint64_t>& chunks,
                                             double density, std::uint64_t seed = 5) {
  using namespace cellgraph::dense;
  auto reference = make_graph_cloud_automaton(Device::cpu, shape, rule, 2);
  auto kernel = make_cloud_automaton(device, shape, rule, {2});
  reference->fill_random(seed, density);
  kernel->fill_random(seed, density);
  REQUIRE(kernel->states() == reference->states());
  for (std::uint64_t steps : chunks) {
    reference->advance(steps);
    kernel->advance(steps);
    INFO(kernel->name(), ", ", shape.size[0], "x", shape.size[1], "x", shape.size[2], ", edge ", int(shape.edge),
         ", p_ext ", rule.extinction, " p_hum ", rule.vapor, " p_act ", rule.activation, ", step ", reference->step());
    const auto mismatch = first_mismatch(*reference, *kernel);
    CHECK_MESSAGE(!mismatch, (mismatch ? mismatch->describe() : ""));
    CHECK(kernel->hash() == reference->hash());
    CHECK(kernel->population() == reference->population());
    CHECK(kernel->step() == reference->step());
  }
}

}  // namespace cellgraph::test
