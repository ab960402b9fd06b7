// Which vertices a rank's part owns, and the moves between a part's values (its vertices in
// ascending user id) and the whole graph's in user order: what a partitioned simulation or
// ensemble gathers on rank 0 and hands out to every rank.
#pragma once
#include <cstdint>
#include <vector>

#include "cellgraph/graph.hpp"

namespace cellgraph {

class PartVertices {
 public:
  // This rank's vertices of `partition` (the part of every vertex; parts == ranks).
  PartVertices(const std::vector<std::uint32_t>& partition, std::uint32_t parts);

  std::uint64_t vertices() const { return by_part_.size(); }  // of the whole graph
  const std::vector<VertexId>& owned() const { return owned_; }

  // Rank 0: the bytes every rank sent (rank by rank, each in its ascending user ids) put back
  // in user order, `bytes` per vertex.
  std::vector<std::uint8_t> in_user_order(const std::vector<std::uint8_t>& gathered, std::size_t bytes) const;
  // This part's slice of a whole graph's values in user order.
  std::vector<std::uint8_t> mine(const std::vector<std::uint8_t>& all, std::size_t bytes) const;

  // Collective: every part's values (`bytes` per vertex) gathered on rank 0 in user order.
  std::vector<std::uint8_t> gather(const std::vector<std::uint8_t>& local, std::size_t bytes) const;
  // Collective: variable 0's states of every vertex on rank 0, in user order.
  std::vector<std::uint32_t> gather_states(const std::vector<std::uint32_t>& local) const;
  // This part's states of a whole graph's, checked for their count.
  std::vector<std::uint32_t> my_states(const std::vector<std::uint32_t>& user_order) const;
  // Every variable of a whole graph's (a checkpoint's) cut to this part.
  std::vector<std::vector<std::uint8_t>> my_variables(const std::vector<std::vector<std::uint8_t>>& variables) const;

 private:
  std::vector<VertexId> owned_;    // this part's user ids, ascending
  std::vector<VertexId> by_part_;  // every user id, by part, ascending within each
};

}  // namespace cellgraph
