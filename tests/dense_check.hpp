// The dense kernels against the graph engine (on the CPU, the reference), from the same random
// start, compared cell for cell after every chunk of steps. Kernels that cannot run the grid
// or rule are left out.
#pragma once
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "cellgraph/dense/automaton.hpp"

namespace cellgraph::test {

inline void check_kernels_against_graph(dense::Device device, const dense::GridShape& shape,
                                        const std::string& rule_name, const std::vector<dense::KernelKind>& kinds,
                                        const std::vector<std::uint64_t>& chunks, double density,
                                        dense::KernelOptions options) {
  using namespace cellgraph::dense;
  const LifeRule rule = parse_life_rule(rule_name);
  auto reference = make_graph_automaton(Device::cpu, shape, rule, options.threads);
  reference->fill_random(5, density);
  std::vector<std::unique_ptr<Automaton>> kernels;
  for (KernelKind kind : kinds)
    if (unsupported_reason(kind, shape, rule).empty()) {
      kernels.push_back(make_life_automaton(kind, device, shape, rule, options));
      kernels.back()->fill_random(5, density);
      REQUIRE(kernels.back()->hash() == reference->hash());
    }
  for (std::uint64_t steps : chunks) {
    reference->advance(steps);
    for (auto& k : kernels) {
      k->advance(steps);
      INFO(k->name(), ", rule ", rule_name, ", ", shape.size[0], "x", shape.size[1], "x", shape.size[2], ", edge ",
           int(shape.edge), ":", shape.edge_value, ", step ", reference->step());
      const auto mismatch = first_mismatch(*reference, *k);
      CHECK_MESSAGE(!mismatch, (mismatch ? mismatch->describe() : ""));
      CHECK(k->hash() == reference->hash());
      CHECK(k->population() == reference->population());
    }
  }
}

}  // namespace cellgraph::test
