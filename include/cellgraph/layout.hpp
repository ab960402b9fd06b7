// The compiled layout: what the backends walk. Vertices are sorted by degree, descending
// (hubs globally first, the rest within windows so locality survives, as in SELL-C-sigma) and
// grouped in slices of 32, one warp each.
//
//   ordinary slice s: neighbor k of lane i sits at slice_begin[s] + k * 32 + i, padded to the
//                     slice's width with the null cell (column-major: a warp's loads coalesce),
//                     in the array of the slice's encoding (SliceEncoding): 4-byte cell ids,
//                     2-byte deltas from the lane's own id, or none at all where every lane
//                     reads itself plus the same offsets (a stencil: the interior of a grid)
//   hub slice s:      its 32 vertices (hubs) are walked by a whole warp each; vertex v's list
//                     is row-major at [hub_row_begin[v], hub_row_begin[v + 1]). The first
//                     num_giant_hubs of them (the largest) are walked by a block of
//                     kGiantHubThreads threads each.
//
// State cells: [0, num_vertices) the updated vertices in layout order, then the halo (cells
// copied from other parts), then the null cell (always state 0: padding reads it) and the
// boundary cell (the boundary value).
//
// A part of a partitioned graph orders its updated vertices: hub slices, then the ordinary
// vertices of its boundary (that peers read, or that read the halo), then, from
// interior_begin, the interior, which reads no halo cell and is read by no peer: it is updated
// while the boundary's cells are in flight. Its halo holds one contiguous range per peer part.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "cellgraph/aligned.hpp"
#include "cellgraph/graph.hpp"
#include "cellgraph/hd.hpp"
#include "cellgraph/sweep_tuning.hpp"

namespace cellgraph {

inline constexpr std::uint32_t kSliceWidth = 32;  // C of SELL-C-sigma: one warp per slice
inline constexpr std::uint32_t kWarpSize = 32;    // the fold tree of hubs follows the warp
// Vertex ids stay below this, so that slice counts and the null and boundary cells fit 32 bits.
inline constexpr std::uint64_t kMaxVertices = (std::uint64_t(1) << 32) - 64;
inline constexpr std::uint32_t kGiantHubThreads = kSweepTuning.block_threads;  // a giant hub: one sweep block

// The order vertices keep within the degree-sort windows: the input's ids, their places along
// a Hilbert curve through their coordinates, or reverse Cuthill-McKee (vertex_order.hpp; for
// graphs whose files number them poorly).
enum class VertexOrder { input, hilbert, rcm };

// How an ordinary slice stores its lists. A 16384^2 Moore grid's explicit lists are 32 of the
// 34 bytes a cell update moves; as stencil slices the step moves little more than the state.
enum class SliceEncoding : std::uint8_t {
  explicit_ids = 0,  // Layout::neighbors: 4-byte cell ids
  delta16 = 1,       // Layout::deltas: cell - v as 2 bytes (kDeltaNull, kDeltaBoundary)
  stencil = 2,       // no entries: lane v reads v + stencil_offsets[slice_begin[s] + k]
};
// Which encodings compile() may choose for each slice (results are bit-identical whichever):
//   automatic:    a stencil where the slice is one, else 4-byte ids
//   deltas:       also 2-byte deltas where they hold the slice. They take fewer bytes, but the
//                 CUDA walk decodes them with its gathers waiting longer: an rgg of 2^24
//                 vertices in Hilbert order stepped at 4.7e10 updates/s against 9.1e10 with
//                 ids on an H200, so they are not chosen automatically yet
//   explicit_ids: 4-byte ids everywhere
enum class IndexEncoding { automatic, deltas, explicit_ids };
inline constexpr std::int16_t kDeltaNull = -32768;      // padding: the null cell
inline constexpr std::int16_t kDeltaBoundary = -32767;  // the boundary cell
inline constexpr std::int32_t kDeltaMin = -32766, kDeltaMax = 32767;

// The cell a delta entry of vertex v names.
CG_HD inline std::uint32_t delta_cell(std::int16_t delta, std::uint32_t v, std::uint32_t null_cell) {
  if (delta == kDeltaNull) return null_cell;
  if (delta == kDeltaBoundary) return null_cell + 1;
  return v + std::uint32_t(std::int32_t(delta));  // modulo 2^32: the cell lies in range
}

// The lists of ordinary slices as plain pointers, for host and device alike (hubs' rows are
// read from `neighbors` directly). slice_encoding null: every slice explicit.
struct SliceLists {
  const std::uint32_t* neighbors;
  const std::int16_t* deltas;
  const std::int32_t* stencil_offsets;
  const std::uint64_t* slice_begin;
  const std::uint8_t* slice_encoding;
  std::uint32_t null_cell;

  CG_HD SliceEncoding encoding(std::uint32_t slice) const {
    return slice_encoding ? SliceEncoding(slice_encoding[slice]) : SliceEncoding::explicit_ids;
  }
  // Entry k of ordinary vertex v's list (k below its slice's width; padding: the null cell).
  CG_HD std::uint32_t entry(std::uint32_t v, std::uint32_t k) const {
    const std::uint32_t slice = v / 32;
    const std::uint64_t begin = slice_begin[slice];
    switch (encoding(slice)) {
      case SliceEncoding::stencil:
        return v + std::uint32_t(stencil_offsets[begin + k]);
      case SliceEncoding::delta16:
        return delta_cell(deltas[begin + std::uint64_t(k) * 32 + v % 32], v, null_cell);
      default:
        return neighbors[begin + std::uint64_t(k) * 32 + v % 32];
    }
  }
};

struct CompileOptions {
  VertexOrder order = VertexOrder::input;
  std::uint32_t sort_window = 1u << 12;  // sigma: vertices sorted by degree within windows
  // Degrees are compared rounded up to a multiple of this: coarser buckets keep a warp's
  // vertices nearer each other in id order, at the price of some padding.
  std::uint32_t degree_quantum = 1;
  // Vertices of at least this degree are hubs (a warp each), and of at least giant_degree
  // giant hubs (a block each). 0: automatic (compile_options_for).
  std::uint32_t hub_degree = 0;
  std::uint32_t giant_degree = 0;
  IndexEncoding index_encoding = IndexEncoding::automatic;
};

// One neighboring part of a partitioned layout: which of our cells it reads (send_cells
// [send_begin, send_begin + send_count)) and which halo cells hold its cells (from halo_begin).
// Both sides list the shared cells in ascending user id, so the messages need no ids.
struct HaloPeer {
  std::uint32_t part = 0;
  std::uint32_t send_begin = 0, send_count = 0;
  std::uint32_t halo_begin = 0, halo_count = 0;  // halo_begin is a cell id (>= num_vertices)
};

struct Layout {
  std::uint32_t num_vertices = 0;  // updated (owned) vertices
  std::uint32_t num_halo = 0;      // read-only copies of other parts' vertices
  std::uint32_t num_hub_slices = 0;
  std::uint32_t num_giant_hubs = 0;
  std::uint32_t hub_degree = 0;  // the thresholds used
  std::uint32_t giant_degree = 0;
  bool slotted = false;   // slot k of a list = stencil offset k (grids)
  bool symmetric = true;  // the graph's (Graph::symmetric)

  // Where each slice's lists start in the array of its encoding; slice_begin[num_slices()] is
  // the length of `neighbors`.
  std::vector<std::uint64_t> slice_begin;     // num_slices() + 1
  std::vector<std::uint32_t> slice_width;     // longest list in the slice
  std::vector<std::uint64_t> hub_row_begin;   // hub vertices + 1 (offsets into neighbors)
  std::vector<std::uint32_t> degree;          // per local vertex
  AlignedArray<std::uint32_t> neighbors;      // local cell ids: hub rows, explicit slices
  std::vector<std::uint8_t> slice_encoding;   // SliceEncoding per slice; empty: all explicit
  AlignedArray<std::int16_t> deltas;          // delta slices' entries
  std::vector<std::int32_t> stencil_offsets;  // the distinct stencils, one after another

  // Ordinary vertices from here on are not sent to peers and do not read the halo
  // (num_hub_vertices() without peers).
  std::uint32_t interior_begin = 0;
  std::vector<HaloPeer> peers;            // partitioned layouts only
  std::vector<std::uint32_t> send_cells;  // local ids, peer by peer

  std::vector<VertexId> local_to_user;  // num_vertices + num_halo: user (global) ids
  // Local id of the i-th updated vertex in ascending user id: states cross backends in this
  // order ("user order"; for an unpartitioned layout, i is the user id itself).
  std::vector<std::uint32_t> user_to_local;

  std::uint32_t num_slices() const { return static_cast<std::uint32_t>(slice_width.size()); }
  std::uint32_t num_cells() const { return num_vertices + num_halo; }
  std::uint32_t null_cell() const { return num_cells(); }
  std::uint32_t boundary_cell() const { return num_cells() + 1; }
  // Length of every state array: the cells, the null and the boundary cell.
  std::uint32_t state_length() const { return num_cells() + 2; }
  // Vertices of the hub slices (all walked row-major, by a warp or a block).
  std::uint32_t num_hub_vertices() const { return hub_row_begin.empty() ? 0 : std::uint32_t(hub_row_begin.size() - 1); }
  SliceEncoding encoding(std::uint32_t slice) const {
    return slice_encoding.empty() ? SliceEncoding::explicit_ids : SliceEncoding(slice_encoding[slice]);
  }
  SliceLists lists() const {
    return {neighbors.data(),
            deltas.data(),
            stencil_offsets.data(),
            slice_begin.data(),
            slice_encoding.empty() ? nullptr : slice_encoding.data(),
            null_cell()};
  }
  // Bytes of the neighbor lists as stored: what a step reads besides the state.
  std::uint64_t index_bytes() const {
    return neighbors.size() * 4 + deltas.size() * 2 + stencil_offsets.size() * 4 + slice_encoding.size();
  }
};

// How far apart the cells one slice reads lie: the median, over a sample of the ordinary
// slices, of the distance between the lowest and the highest cell its lanes read (padding and
// the boundary cell left out). Grids and meshes in a local order span a few rows; random and
// scale-free graphs the whole state. The CUDA backend picks its gather path by it.
std::uint64_t median_gather_span(const Layout& L);

// When the CUDA backend's synchronous steps of a model with a one-bit signal (model.hpp) gather
// packed signal words instead of state bytes (SignalPacking::automatic): from 2^17 cells (a
// part's halo counted), where a slice's gathers span at least 2^20 cells or half of the cells.
// Measured on H100s, B3/S23, `--signal-bits on` against bytes: scattered graphs' steps are
// shorter from 2^17 cells, as each multiprocessor's L1 starts a step empty and a sector brings
// 32 cells of bytes against 256 of bits (R-MAT scale 17 by 15%, scale 19 by 35%, Erdos-Renyi
// 2^18 by 42%, 2^19 by 51%; parts of R-MAT scale 20 on 2 and 4 GPUs by 25-36%); below, a step
// is bound by its launches and the pack pass is one more (4elt 36% slower, copter2 15%). Local
// layouts lose the pack pass and gain little: rggs of 2^18 and 2^19 vertices and degree 16
// (spans of 36% of their cells, the widest rggs seen) 36% and 13% slower packed, rgg 2^20 11%,
// a 16384^2 grid 3.5%. Random and R-MAT graphs span 94-99% of their cells.
inline constexpr std::uint64_t kPackedSignalMinimumCells = std::uint64_t(1) << 17;
inline constexpr std::uint64_t kPackedSignalMinimumSpan = std::uint64_t(1) << 20;
bool gathers_scattered(const Layout& L);
// The same rule from a layout's cells (its vertices and halo) and its median gather span.
bool gathers_scattered(std::uint64_t cells, std::uint64_t median_span);

// Calls visit(cell, slot) for each entry of vertex v's list, in list order: row-major for
// hubs, column-major otherwise. The encoding is chosen once a vertex, not once an entry as
// SliceLists::entry does: the CPU reference stepped a 2048^2 grid 32% faster so.
template <class Visit>
void for_each_neighbor(const Layout& L, std::uint32_t v, Visit&& visit) {
  const std::uint32_t* nb = L.neighbors.data();
  if (v < L.num_hub_vertices()) {
    for (std::uint64_t at = L.hub_row_begin[v], k = 0; k < L.degree[v]; ++at, ++k) visit(nb[at], std::uint32_t(k));
    return;
  }
  const std::uint32_t slice = v / kSliceWidth;
  const std::uint64_t begin = L.slice_begin[slice], column = begin + v % kSliceWidth;
  switch (L.encoding(slice)) {
    case SliceEncoding::stencil:
      for (std::uint32_t k = 0; k < L.degree[v]; ++k) visit(v + std::uint32_t(L.stencil_offsets[begin + k]), k);
      break;
    case SliceEncoding::delta16:
      for (std::uint32_t k = 0; k < L.degree[v]; ++k)
        visit(delta_cell(L.deltas[column + std::uint64_t(k) * kSliceWidth], v, L.null_cell()), k);
      break;
    default:
      for (std::uint32_t k = 0; k < L.degree[v]; ++k) visit(nb[column + std::uint64_t(k) * kSliceWidth], k);
  }
}

// Which rows of a graph a layout updates, and which cells it only reads: a part of a
// partitioned graph. Vertices not in `owned` or `halo` must not be neighbors of owned ones.
struct CompileRows {
  std::vector<VertexId> owned;  // user ids, ascending
  std::vector<VertexId> halo;   // user ids of the halo cells, in halo order
  std::vector<HaloPeer> peers;  // copied into the layout
  std::vector<VertexId> send;   // user ids of send_cells, peer by peer
};

// Compiles the rows of a graph that a part owns. The hub thresholds should be the whole
// graph's (compile_options_for), so that a vertex is folded alike in every partitioning.
Layout compile_rows(const Graph& g, const CompileRows& rows, const CompileOptions& options);

// The options with automatic hub thresholds replaced by the values compile() picks for `g`.
CompileOptions compile_options_for(const Graph& g, CompileOptions options);
// The thresholds for large graphs from the mean degree alone, whatever the vertex count (graphs
// compiled on the GPU: movable cells; the performance model's layout kinds): no small-graph rule.
CompileOptions compile_options_for_mean_degree(double mean_degree, CompileOptions options);

// Compiles a graph. Every vertex of `g` is owned (no halo). Automatic thresholds: a vertex is
// a hub when its degree is at least max(256, 16 x the mean degree), a giant hub from
// max(1024, 32 x the mean degree) (on an H200, R-MAT scale 24: 1024 beat 4096 and 16384);
// on graphs under kSweepTuning.latency_bound_vertices (sweep_tuning.hpp) a hub from one more than max(24, 2 x the mean
// degree rounded down to a multiple of 8).
Layout compile(const Graph& g, const CompileOptions& options = {});

struct LayoutReport {
  std::uint32_t vertices = 0;
  std::uint64_t edges = 0;   // real list entries (boundary slots included)
  std::uint64_t stored = 0;  // stored entries, padding included
  std::uint32_t slices = 0, hub_slices = 0, hub_vertices = 0, giant_hubs = 0;
  std::uint32_t min_degree = 0, max_degree = 0;
  double padding_overhead = 0;  // stored / edges - 1
  // Ordinary slices and their vertices by encoding (SliceEncoding's order), the distinct
  // stencils, and the index bytes per updated vertex.
  std::uint32_t slices_by_encoding[3] = {0, 0, 0};
  std::uint64_t entries_by_encoding[3] = {0, 0, 0};  // list entries, padding included
  std::uint32_t stencils = 0;
  double index_bytes_per_vertex = 0;
  // (degree, count); with many distinct degrees, (2^k, count of degrees in [2^k, 2^(k+1))).
  std::vector<std::pair<std::uint32_t, std::uint64_t>> degree_histogram;
  bool histogram_bucketed = false;
  std::uint64_t bytes = 0;  // lists + degree + slice tables
};
LayoutReport report(const Layout& layout);

}  // namespace cellgraph
