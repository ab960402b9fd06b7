// The messages of a partitioned movable run beyond the fixed halo exchange: particles that
// migrate, the halo handed over at each rebuild, the rebuild decision and the sums of the
// observables. All go through the run's HaloTransport (MPI under mpirun, the in-process
// mailbox in the tests), with tags above any variable's: a message of n bytes is sent as n
// cells of one byte from a small layout whose peers are the other parts. Every call is
// collective: every part makes the same calls in the same order.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "cellgraph/halo.hpp"

namespace cellgraph {

class PartMessages {
 public:
  PartMessages(std::shared_ptr<HaloTransport> transport, std::uint32_t part, std::uint32_t parts);

  std::uint32_t part() const { return part_; }
  std::uint32_t parts() const { return parts_; }

  // out[q] goes to part q (out[part()] stays here); returns what each part sent this one, by
  // part. Two rounds: the sizes, then the bytes.
  std::vector<std::vector<std::uint8_t>> all_to_all(std::vector<std::vector<std::uint8_t>> out);
  // Element-wise sums over the parts, added in part order (integers: exact in any order).
  std::vector<std::int64_t> sum(const std::vector<std::int64_t>& mine);
  std::uint64_t sum(std::uint64_t mine);
  bool any(bool mine);

 private:
  // Every part sends `bytes` bytes to every other part; returns what each part sent, by part.
  std::vector<std::vector<std::uint8_t>> exchange_equal(const std::vector<std::uint8_t>& mine, int tag);

  std::shared_ptr<HaloTransport> transport_;
  std::uint32_t part_, parts_;
};

}  // namespace cellgraph
