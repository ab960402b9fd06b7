// The MPI side of partitioned runs: the job's world (initialized only when mpirun started
// this process), the few collectives the observers need, and the halo transport.
// Debian's OpenMPI is not CUDA-aware: everything here moves host memory.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cellgraph/error.hpp"
#include "cellgraph/halo.hpp"

namespace cellgraph::mpi {

// True when an MPI launcher (mpirun, srun) started this process.
bool launched_by_mpirun();

// MPI_Init on construction (when launched by mpirun), MPI_Finalize on destruction.
class Session {
 public:
  Session(int* argc, char*** argv);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
};

// This process's rank and the number of ranks: 0 and 1 without MPI.
int rank();
int size();
// This process's rank among the ranks on its host, and their number: a rank takes the GPU and
// the share of the CPU cores its local rank points at. 0 and 1 without MPI.
int local_rank();
int local_size();
// Ends every rank of the job: an error on one rank must not leave the others waiting.
[[noreturn]] void abort_job(int code);

// Element-wise sums over all ranks, returned on every rank.
void sum(std::vector<std::uint64_t>& values);
void sum(std::vector<std::int64_t>& values);
// The largest of every rank's value, on every rank (the slowest rank's time).
double max(double value);
// Rank 0 receives every rank's bytes, concatenated in rank order; other ranks receive nothing.
std::vector<std::uint8_t> gather(const std::vector<std::uint8_t>& mine);
// Rank 0's values on every rank (the same length everywhere).
void broadcast(std::vector<std::uint32_t>& values);
// Waits for every rank.
void barrier();
// Every rank's text, in rank order, on every rank.
std::vector<std::string> all_gather(const std::string& mine);
// True when every rank passes true.
bool all(bool yes);

// Ranks that were started differently: thrown alike on every rank, so that the job ends
// cleanly with one message (rank 0's) instead of hanging in a collective.
class RanksDisagree : public Error {
 public:
  using Error::Error;
};
// Every rank passes its value of `what` ("the command line", "the --graph file"); throws
// RanksDisagree on every rank when some rank's differs from rank 0's: "ranks disagree on WHAT:
// rank R <differ(rank R's, rank 0's)>", by default "has THEIRS, rank 0 has OURS". A no-op
// without MPI.
using Difference = std::function<std::string(const std::string& theirs, const std::string& rank0s)>;
void agree(const std::string& what, const std::string& mine, const Difference& differ = nullptr);
// The name of this process's host (MPI_Get_processor_name; "" without MPI).
std::string host_name();

// Non-blocking sends and receives of each variable to and from every peer part (= rank); for
// device-to-device halos, the handles' trade and the step tokens. `maps_peer_devices` must be
// the same on every rank (all()).
class Transport final : public HaloTransport {
 public:
  explicit Transport(bool maps_peer_devices = false) : maps_peer_devices_(maps_peer_devices) {}
  void start(const Layout& layout, int variable, std::size_t bytes_per_cell, const void* send, void* halo) override;
  void finish() override;

  bool maps_peer_devices() const override { return maps_peer_devices_; }
  std::vector<std::vector<std::uint8_t>> trade(const Layout& layout,
                                               const std::vector<std::vector<std::uint8_t>>& to_each,
                                               std::size_t bytes) override;
  bool or_over_parts(std::vector<std::uint8_t>& flags) override;
  void notify_peers(const Layout& layout, std::uint32_t token) override;
  void await_peers(const Layout& layout, std::uint32_t token) override;

 private:
  std::vector<MPI_Request> requests_;
  bool maps_peer_devices_ = false;
};

}  // namespace cellgraph::mpi
