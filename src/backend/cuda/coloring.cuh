// The GPU's coloring for colored updates (coloring.cu): Jones-Plassmann rounds over the
// device layout, equal to cellgraph::greedy_coloring.
#pragma once
#include <cstdint>
#include <vector>

#include "src/backend/cuda/device_layout.cuh"

namespace cellgraph::cuda {

// Symmetric layouts only: a round reads a vertex's own list, not the vertices that read it.
std::vector<std::uint32_t> jones_plassmann(const DeviceLayout& layout, std::uint32_t num_vertices, std::uint64_t seed);

}  // namespace cellgraph::cuda
