// Neighbor lists of moving particles: a cell list (particles sorted into bins at least the
// cutoff wide, then each particle's neighbors looked for in its own and the adjacent bins),
// and the compiled layout of the result. The CPU versions are here; the CUDA versions
// (src/movable/cuda/) give the same lists and the same layout, array for array.
//
// Neighbors are the other particles within the cutoff, the distance included
// (squared_distance <= cutoff_squared in box.hpp, rounded in the coordinate type T), by
// minimum image in periodic boxes. The result does not depend on the thread count, on the
// order the particles were stored in, or on the bin size: every list is sorted by particle id.
// C++17: the CUDA files include this header.
#pragma once
#include <cstdint>
#include <vector>

#include "cellgraph/graph.hpp"
#include "cellgraph/layout.hpp"
#include "cellgraph/movable/box.hpp"

namespace cellgraph {

// Coordinates of `count` particles as one array per axis (axis[a][p]: particle p's
// coordinate along axis a), in particle id order.
template <class T>
struct PointsView {
  const T* axis[3] = {nullptr, nullptr, nullptr};
  std::uint32_t count = 0;
};

// Checks a box and a cutoff (dimensions 2 or 3, finite positive lengths and cutoff); throws
// Error naming what is wrong.
void check_box(const Box& box, double cutoff);

// Checks positions: finite, and inside [0, length) in a periodic box. Throws Error naming the
// first particle outside.
template <class T>
void check_points(const Box& box, const PointsView<T>& points);

// The bins for `particles` particles: bins[a] = floor(length / (cutoff x margin)), at least
// 1, where the margin (1 + a few ulps of T times length / cutoff) covers rounding in distances
// and bin numbers; halved along the longest axes while there are more than 2 x particles + 64
// bins (bins only grow, so neighbors stay in adjacent bins).
template <class T>
CellGrid make_cell_grid(const Box& box, double cutoff, std::uint64_t particles);

// A neighbor graph in cell-list order: vertex s is particle particle_of[s], particles sorted
// by bin (x fastest) and within a bin by id. Row s lists its neighbors as vertices of this
// graph, in ascending particle id. Compiling this graph (compile_neighbors) keeps particles
// that are near in space near in memory.
struct NeighborGraph {
  std::vector<VertexId> particle_of;
  Graph graph;
};

// The cell-list search on the CPU (OpenMP, `threads` threads; 0: all). Throws Error for a bad
// box, cutoff or position (check_box, check_points).
template <class T>
NeighborGraph find_neighbors(const Box& box, double cutoff, const PointsView<T>& points, int threads = 0);

// Every pair compared, O(n^2): the reference the cell list is tested and timed against. Rows
// are vertices = particle ids, each sorted.
template <class T>
Graph all_pairs_neighbors(const Box& box, double cutoff, const PointsView<T>& points, int threads = 0);

// The same neighbor lists with vertices = particle ids: row p lists particle p's neighbors in
// ascending id.
Graph in_particle_ids(const NeighborGraph& neighbors);

// compile() of the cell-list graph, with user ids = particle ids (local_to_user and
// user_to_local renamed through particle_of): what the movable backends step on.
Layout compile_neighbors(const NeighborGraph& neighbors, const CompileOptions& options = {});

// Renames a compiled layout's user ids: graph vertex g becomes user user_of[g].
void rename_users(Layout& layout, const std::vector<VertexId>& user_of);

// A compiled layout's lists with vertices = user ids, each in list order (the order a model
// folds it): row u is user u's list.
Graph lists_in_user_ids(const Layout& layout);

namespace cuda {
// The same on the GPU, from and to host memory (for tests and benchmarks; the movable CUDA
// backend keeps everything on the device): the cell-list search (CUB radix sort by bin,
// count, scan, fill), the all-pairs search, and the device compiler applied to a host graph.
// Builds without the CUDA backend throw Error.
template <class T>
NeighborGraph find_neighbors(const Box& box, double cutoff, const PointsView<T>& points);
template <class T>
Graph all_pairs_neighbors(const Box& box, double cutoff, const PointsView<T>& points);
Layout compile_neighbors(const NeighborGraph& neighbors, const CompileOptions& options = {});

// Seconds per call, the median of `repeats` after a warm-up, with positions already on the
// device: the cell-list search alone, search and device compile, and the all-pairs search.
struct RebuildTiming {
  double search_seconds = 0, compile_seconds = 0;
  std::uint64_t entries = 0;
};
template <class T>
RebuildTiming time_rebuild(const Box& box, double cutoff, const PointsView<T>& points, const CompileOptions& options,
                           int repeats);
template <class T>
double time_all_pairs(const Box& box, double cutoff, const PointsView<T>& points, int repeats);
}  // namespace cuda

}  // namespace cellgraph
