// How a part of a partitioned run trades cells with its peers. A backend packs, for each state
// variable, the values of layout.send_cells (peer by peer) into one buffer and hands it to
// start() with the variable's halo (num_halo values, peer by peer, where the peers' cells land);
// finish() returns once every started variable has arrived. Between the two, the backend
// updates its interior (the vertices peers do not read). The MPI transport is partition/mpi.hpp.
#pragma once
#include <cstddef>

#include "cellgraph/layout.hpp"

namespace cellgraph {

class HaloTransport {
 public:
  virtual ~HaloTransport() = default;
  // `send` and `halo` are host memory that stays untouched until finish() returns.
  virtual void start(const Layout& layout, int variable, std::size_t bytes_per_cell, const void* send,
                     void* halo) = 0;
  virtual void finish() = 0;
};

}  // namespace cellgraph
