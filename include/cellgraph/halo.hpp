// How a part of a partitioned run trades cells with its peers. A backend packs, for each state
// variable, the values of layout.send_cells (peer by peer) into one buffer and hands it to
// start() with the variable's halo (num_halo values, peer by peer, where the peers' cells land);
// finish() returns once every started variable has arrived. Between the two, the backend
// updates its interior (the vertices peers do not read). The MPI transport is partition/mpi.hpp.
//
// Where every rank's device can map its peers' memory (one host, GPUs joined by NVLink or
// PCIe peer access), a backend may instead write the cells straight into its peers' device
// memory and order the steps there: the transport then only carries what sets that up
// (trade(), once) and tokens (notify_peers() / await_peers()) that tell a part its peers are
// done with its memory before it is released.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "cellgraph/error.hpp"
#include "cellgraph/layout.hpp"

namespace cellgraph {

class HaloTransport {
 public:
  virtual ~HaloTransport() = default;
  // `send` and `halo` are host memory that stays untouched until finish() returns.
  virtual void start(const Layout& layout, int variable, std::size_t bytes_per_cell, const void* send, void* halo) = 0;
  virtual void finish() = 0;

  // True when every rank of the job agreed that its device maps each of its peers' (decided
  // for all ranks at once, so that every pair of peers takes the same path).
  virtual bool maps_peer_devices() const { return false; }
  // Sends to_each[i] to layout.peers[i] and returns what each peer sent, every message of
  // `bytes` bytes. Every peer calls it at the same point.
  virtual std::vector<std::vector<std::uint8_t>> trade(const Layout&, const std::vector<std::vector<std::uint8_t>>&,
                                                       std::size_t) {
    throw Error("this halo transport cannot trade device handles");
  }
  // Every part's flags ORed together, on every part (each part calls it at the same point with as
  // many flags); false where the transport cannot, leaving `flags` as they are.
  virtual bool or_over_parts(std::vector<std::uint8_t>& flags) {
    (void)flags;
    return false;
  }
  // Sends `token` to every peer; await_peers() receives one from each and throws Error when a
  // peer's differs (the parts are not at the same step).
  virtual void notify_peers(const Layout&, std::uint32_t) { throw Error("this halo transport has no step tokens"); }
  virtual void await_peers(const Layout&, std::uint32_t) { throw Error("this halo transport has no step tokens"); }
};

}  // namespace cellgraph
