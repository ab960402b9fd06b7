#include "partition/mpi.hpp"

#include <cstdlib>
#include <limits>

#include "cellgraph/error.hpp"

namespace cellgraph::mpi {
namespace {

bool initialized() {
  int flag = 0;
  MPI_Initialized(&flag);
  int finalized = 0;
  MPI_Finalized(&finalized);
  return flag && !finalized;
}

void check(int status, const char* what) {
  if (status == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(status, text, &length);
  throw Error(std::string(what) + " failed: " + std::string(text, length));
}

// Tags beside the variables' (0, 1, ...): a trade of device handles, and the tokens with which
// parts on the device path tell their peers they are done with each other's memory.
constexpr int kTradeTag = 1 << 14, kTokenTag = kTradeTag + 1;

int as_count(std::size_t bytes) {
  if (bytes > std::size_t(std::numeric_limits<int>::max())) throw Error("an MPI message over 2 GiB");
  return int(bytes);
}

}  // namespace

bool launched_by_mpirun() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS"})
    if (std::getenv(name)) return true;
  return false;
}

Session::Session(int* argc, char*** argv) {
  if (launched_by_mpirun() && !initialized()) {
    check(MPI_Init(argc, argv), "MPI_Init");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);  // errors become exceptions
  }
}

Session::~Session() {
  if (initialized()) MPI_Finalize();
}

int rank() {
  int r = 0;
  if (initialized()) MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int size() {
  int s = 1;
  if (initialized()) MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

namespace {
// The ranks that share this host (MPI_COMM_TYPE_SHARED), split once.
MPI_Comm host_communicator() {
  static MPI_Comm host = [] {
    MPI_Comm c;
    check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &c), "MPI_Comm_split_type");
    return c;
  }();
  return host;
}
}  // namespace

int local_rank() {
  int r = 0;
  if (initialized()) MPI_Comm_rank(host_communicator(), &r);
  return r;
}

int local_size() {
  int s = 1;
  if (initialized()) MPI_Comm_size(host_communicator(), &s);
  return s;
}

void abort_job(int code) {
  if (initialized()) MPI_Abort(MPI_COMM_WORLD, code);
  std::exit(code);
}

void sum(std::vector<std::uint64_t>& values) {
  if (size() > 1)
    check(MPI_Allreduce(MPI_IN_PLACE, values.data(), as_count(values.size()), MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD),
          "MPI_Allreduce");
}

void sum(std::vector<std::int64_t>& values) {
  if (size() > 1)
    check(MPI_Allreduce(MPI_IN_PLACE, values.data(), as_count(values.size()), MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD),
          "MPI_Allreduce");
}

double max(double value) {
  if (size() > 1) check(MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD), "MPI_Allreduce");
  return value;
}

std::vector<std::uint8_t> gather(const std::vector<std::uint8_t>& mine) {
  if (size() == 1) return mine;
  const int ranks = size(), me = rank();
  int count = as_count(mine.size());
  std::vector<int> counts(me == 0 ? ranks : 0), displacements(me == 0 ? ranks : 0);
  check(MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Gather");
  std::vector<std::uint8_t> all;
  if (me == 0) {
    std::size_t total = 0;
    for (int r = 0; r < ranks; ++r) displacements[r] = as_count(total), total += std::size_t(counts[r]);
    all.resize(total);
  }
  check(MPI_Gatherv(mine.data(), count, MPI_BYTE, all.data(), counts.data(), displacements.data(), MPI_BYTE, 0,
                    MPI_COMM_WORLD),
        "MPI_Gatherv");
  return all;
}

void broadcast(std::vector<std::uint32_t>& values) {
  if (size() > 1)
    check(MPI_Bcast(values.data(), as_count(values.size()), MPI_UINT32_T, 0, MPI_COMM_WORLD), "MPI_Bcast");
}

void barrier() {
  if (size() > 1) check(MPI_Barrier(MPI_COMM_WORLD), "MPI_Barrier");
}

std::vector<std::string> all_gather(const std::string& mine) {
  if (size() == 1) return {mine};
  const int ranks = size();
  int count = as_count(mine.size());
  std::vector<int> counts(ranks), displacements(ranks);
  check(MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD), "MPI_Allgather");
  std::size_t total = 0;
  for (int r = 0; r < ranks; ++r) displacements[r] = as_count(total), total += std::size_t(counts[r]);
  std::string all(total, '\0');
  check(MPI_Allgatherv(mine.data(), count, MPI_CHAR, all.data(), counts.data(), displacements.data(), MPI_CHAR,
                       MPI_COMM_WORLD),
        "MPI_Allgatherv");
  std::vector<std::string> each;
  for (int r = 0; r < ranks; ++r) each.push_back(all.substr(std::size_t(displacements[r]), std::size_t(counts[r])));
  return each;
}

bool all(bool yes) {
  int value = yes ? 1 : 0;
  if (size() > 1) check(MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD), "MPI_Allreduce");
  return value != 0;
}

void agree(const std::string& what, const std::string& mine, const Difference& differ) {
  if (size() == 1) return;
  const std::vector<std::string> each = all_gather(mine);
  for (std::size_t r = 1; r < each.size(); ++r)
    if (each[r] != each[0])
      throw RanksDisagree("ranks disagree on " + what + ": rank " + std::to_string(r) + " " +
                          (differ ? differ(each[r], each[0]) : "has " + each[r] + ", rank 0 has " + each[0]));
}

std::string host_name() {
  if (!initialized()) return "";
  char name[MPI_MAX_PROCESSOR_NAME];
  int length = 0;
  check(MPI_Get_processor_name(name, &length), "MPI_Get_processor_name");
  return std::string(name, std::size_t(length));
}

void Transport::start(const Layout& L, int variable, std::size_t bytes, const void* send, void* halo) {
  for (const HaloPeer& peer : L.peers) {
    const int rank = int(peer.part);
    if (peer.halo_count) {
      MPI_Request r;
      auto* into = static_cast<char*>(halo) + std::size_t(peer.halo_begin - L.num_vertices) * bytes;
      check(MPI_Irecv(into, as_count(peer.halo_count * bytes), MPI_BYTE, rank, variable, MPI_COMM_WORLD, &r),
            "MPI_Irecv");
      requests_.push_back(r);
    }
    if (peer.send_count) {
      MPI_Request r;
      const auto* from = static_cast<const char*>(send) + std::size_t(peer.send_begin) * bytes;
      check(MPI_Isend(from, as_count(peer.send_count * bytes), MPI_BYTE, rank, variable, MPI_COMM_WORLD, &r),
            "MPI_Isend");
      requests_.push_back(r);
    }
  }
}

void Transport::finish() {
  std::vector<MPI_Request> all;
  all.swap(requests_);
  if (!all.empty()) check(MPI_Waitall(int(all.size()), all.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
}

std::vector<std::vector<std::uint8_t>> Transport::trade(const Layout& L,
                                                        const std::vector<std::vector<std::uint8_t>>& to_each,
                                                        std::size_t bytes) {
  if (to_each.size() != L.peers.size()) throw Error("halo trade: one message per peer expected");
  std::vector<std::vector<std::uint8_t>> from_each(L.peers.size(), std::vector<std::uint8_t>(bytes));
  std::vector<MPI_Request> requests(2 * L.peers.size());
  for (std::size_t i = 0; i < L.peers.size(); ++i) {
    if (to_each[i].size() != bytes) throw Error("halo trade: messages of unequal size");
    const int peer = int(L.peers[i].part);
    check(MPI_Irecv(from_each[i].data(), as_count(bytes), MPI_BYTE, peer, kTradeTag, MPI_COMM_WORLD, &requests[2 * i]),
          "MPI_Irecv");
    check(
        MPI_Isend(to_each[i].data(), as_count(bytes), MPI_BYTE, peer, kTradeTag, MPI_COMM_WORLD, &requests[2 * i + 1]),
        "MPI_Isend");
  }
  if (!requests.empty()) check(MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  return from_each;
}

bool Transport::or_over_parts(std::vector<std::uint8_t>& flags) {
  if (!flags.empty())
    check(MPI_Allreduce(MPI_IN_PLACE, flags.data(), as_count(flags.size()), MPI_UNSIGNED_CHAR, MPI_BOR, MPI_COMM_WORLD),
          "MPI_Allreduce");
  return true;
}

void Transport::notify_peers(const Layout& L, std::uint32_t token) {
  // Four bytes go eagerly: the send returns at once, whatever the peer is doing.
  for (const HaloPeer& peer : L.peers)
    check(MPI_Send(&token, 1, MPI_UINT32_T, int(peer.part), kTokenTag, MPI_COMM_WORLD), "MPI_Send");
}

void Transport::await_peers(const Layout& L, std::uint32_t token) {
  for (const HaloPeer& peer : L.peers) {
    std::uint32_t theirs = 0;
    check(MPI_Recv(&theirs, 1, MPI_UINT32_T, int(peer.part), kTokenTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE), "MPI_Recv");
    if (theirs != token)
      throw Error("halo: part " + std::to_string(peer.part) + " sent step token " + std::to_string(theirs) + " where " +
                  std::to_string(token) + " was expected");
  }
}

}  // namespace cellgraph::mpi
