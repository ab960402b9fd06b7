// The MPI side of partitioned runs: the job's world (initialized only when mpirun started
// this process), the few collectives the observers need, and the halo transport.
// Debian's OpenMPI is not CUDA-aware: everything here moves host memory.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

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

// Non-blocking sends and receives of each variable to and from every peer part (= rank).
class Transport final : public HaloTransport {
 public:
  void start(const Layout& layout, int variable, std::size_t bytes_per_cell, const void* send, void* halo) override;
  void finish() override;

 private:
  std::vector<MPI_Request> requests_;
};

}  // namespace cellgraph::mpi
