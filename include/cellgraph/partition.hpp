// Splitting a graph into parts, one per MPI rank (or GPU): METIS k-way or a plain block split,
// METIS's .part files, a report of what the split costs, and the rows each part compiles.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "cellgraph/graph.hpp"
#include "cellgraph/layout.hpp"

namespace cellgraph {

enum class PartitionMethod { metis, block };
enum class PartitionObjective { edge_cut, volume };
// What METIS keeps within the imbalance: the parts' cells, or their work, a vertex weighing 1 +
// its neighbor entries (on a graph with hubs, equal cells can mean one part doing most of the
// reads: R-MAT of 2^20 vertices on 4 parts, 67% of them).
enum class PartitionBalance { cells, work };

struct PartitionOptions {
  PartitionMethod method = PartitionMethod::metis;
  PartitionObjective objective = PartitionObjective::edge_cut;  // METIS: cut or total communication volume
  PartitionBalance balance = PartitionBalance::work;
  double imbalance = 1.03;  // METIS: largest part at most this times the mean
  bool contiguous = false;  // METIS: every part connected
  std::uint64_t seed = 1;   // METIS's random seed
};

// The part (0 .. parts - 1) of every vertex. Block: vertex v goes to part v * parts / n
// (rows of a row-major grid: slabs). METIS sees the symmetric graph without boundary slots.
// Throws Error when parts is 0 or exceeds the vertex count, or when METIS fails.
std::vector<std::uint32_t> partition_graph(const Graph& g, std::uint32_t parts, const PartitionOptions& options);

// METIS's .part format: line i holds the part of vertex i (0-based). Reading checks the
// length, the range and that no part is empty (ParseError "file:line: ...").
std::vector<std::uint32_t> read_partition(const std::string& path, VertexId vertices, std::uint32_t parts);
void write_partition(const std::string& path, const std::vector<std::uint32_t>& part);  // atomic

struct PartitionReport {
  std::uint32_t parts = 0;
  std::uint64_t edge_cut = 0;                   // undirected edges between parts
  std::vector<std::uint64_t> vertices;          // per part
  std::vector<std::uint64_t> entries;           // per part: its vertices' neighbor entries (the work)
  std::vector<std::uint64_t> halo;              // per part: other parts' cells it reads
  std::vector<std::uint64_t> sends;             // per part: its cells other parts read, counted per reader
  std::vector<std::uint64_t> boundary;          // per part: its vertices that read the halo or that peers read
  std::vector<std::uint64_t> boundary_entries;  // per part: those vertices' neighbor entries
  std::vector<std::uint32_t> peers;             // per part: parts it exchanges with
  double imbalance = 0;                         // largest part / mean part
  std::uint64_t total_halo() const;
  // The largest boundary's work (vertices + their entries) over the busiest part's (vertices +
  // entries), each the largest over the parts: the share of a step's compute that peers wait for.
  double boundary_share() const;
  std::uint64_t sends_max() const;
};
PartitionReport partition_report(const Graph& g, const std::vector<std::uint32_t>& part, std::uint32_t parts);

// What part `me` compiles: its vertices, the halo of other parts' cells they read (peer by
// peer, ascending user id), and the cells it sends each peer (those the peer's vertices read).
CompileRows part_rows(const Graph& g, const std::vector<std::uint32_t>& part, std::uint32_t parts, std::uint32_t me);

}  // namespace cellgraph
