// Proper vertex colorings for colored (asynchronous) updates. Both backends produce the same
// coloring: greedy first-fit in priority order (the CPU reference) equals Jones-Plassmann with
// first-fit (the GPU's parallel rounds: a vertex takes its color once every neighbor of higher
// priority has one). Priorities hash the user id, so the coloring does not depend on the
// layout, the thread count or the partitioning.
#pragma once
#include <cstdint>
#include <vector>

#include "cellgraph/hd.hpp"
#include "cellgraph/layout.hpp"
#include "cellgraph/philox.hpp"

namespace cellgraph {

inline constexpr std::uint32_t kNoColor = 0xFFFFFFFFu;

// Unique per vertex: a random word keyed by (seed, user id), ties broken by the id.
CG_HD inline std::uint64_t coloring_priority(std::uint64_t seed, std::uint32_t user_id) {
  return (std::uint64_t(random_words(seed, user_id, 0, RandomStream::coloring).v[0]) << 32) | user_id;
}

// The color (0, 1, ...) of every local vertex: no two neighbors share one.
// Boundary, null and halo cells are not colored (they are never written during a step).
std::vector<std::uint32_t> greedy_coloring(const Layout& layout, std::uint64_t seed);

// The same coloring of a whole graph, per user id: a partitioned run colors its part with it,
// so that every partitioning updates in the same order.
std::vector<std::uint32_t> greedy_coloring(const Graph& graph, std::uint64_t seed);

// The same coloring computed on the GPU by Jones-Plassmann rounds. Throws Error without CUDA.
std::vector<std::uint32_t> gpu_coloring(const Layout& layout, std::uint64_t seed);

// The vertices grouped by color, ascending within a class; each class split into giant hubs,
// hubs and ordinary vertices (they take different kernels), which ascending order keeps in
// that order: class c is [begin[c], giant_end[c]) giant, [giant_end[c], hub_end[c]) hub,
// [hub_end[c], begin[c + 1]) ordinary.
struct ColorClasses {
  std::vector<std::uint32_t> vertices;
  std::vector<std::uint32_t> begin, giant_end, hub_end;
  std::uint32_t count() const { return std::uint32_t(giant_end.size()); }
};
// `count` classes (0: one past the largest color). A part of a partitioned run passes the whole
// graph's count, so that every part steps through the same classes and exchanges alike.
ColorClasses color_classes(const Layout& layout, const std::vector<std::uint32_t>& colors, std::uint32_t count = 0);

// Throws Error naming the first edge whose ends share a color (for tests and checks).
void check_coloring(const Layout& layout, const std::vector<std::uint32_t>& colors);

}  // namespace cellgraph
