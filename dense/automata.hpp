// The concrete dense automata behind make_life_automaton / make_elementary_automaton, and the
// checks they share. Internal to the library.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cellgraph/dense/automaton.hpp"

namespace cellgraph::dense {

std::unique_ptr<Automaton> make_cpu_byte_life(const GridShape& shape, const LifeRule& rule, int threads);
std::unique_ptr<Automaton> make_cpu_byte_elementary(const GridShape& shape, const ElementaryRule& rule, int threads);
std::unique_ptr<Automaton> make_cpu_bitpacked(const GridShape& shape, const LifeRule& rule, int threads);
std::unique_ptr<Automaton> make_cpu_bitpacked_cloud(const GridShape& shape, const CloudRule& rule, int threads);

#if CELLGRAPH_HAVE_CUDA
std::unique_ptr<Automaton> make_cuda_byte_life(const GridShape& shape, const LifeRule& rule, int generations_per_pass);
std::unique_ptr<Automaton> make_cuda_byte_elementary(const GridShape& shape, const ElementaryRule& rule);
std::unique_ptr<Automaton> make_cuda_bitpacked(const GridShape& shape, const LifeRule& rule, int generations_per_pass);
std::unique_ptr<Automaton> make_cuda_bitpacked_cloud(const GridShape& shape, const CloudRule& rule);
#endif

// Throws Error unless `states` has one entry per cell, each below `num_states`.
void check_states(const std::vector<std::uint8_t>& states, const GridShape& shape, std::uint32_t num_states);

// Throws Error unless every state is a cloud_code (below 8) and there is one per cell.
void check_cloud_states(const std::vector<std::uint8_t>& states, const GridShape& shape);

// Fixed boundaries: 1 when the outside counts as a live neighbor.
inline std::uint8_t outside_live(const GridShape& shape) { return shape.edge == Edge::fixed && shape.edge_value == 1; }

}  // namespace cellgraph::dense
