// The halo of a partitioned run whose ranks' GPUs map each other's memory (one host; CUDA
// IPC): after a synchronous step's boundary sweep, one kernel writes the cells each peer reads
// straight into that peer's next buffer, every variable at once. A step count in device memory
// orders it, not the host: each part keeps a flag per peer, which that peer sets (over NVLink
// or PCIe) to k + 1 once the boundary of its step k is over (the vertices that read the halo
// or that peers read: the interior, which does neither, may still run); the boundary of step
// k of a part begins with a kernel that waits until every peer's flag says k. Then the peers'
// cells of step k - 1 are in this part's halo (they wrote them during that step), and no peer
// still reads the halo it will write (the buffer that step read). No host memory, no copy, no
// host wait a step: the steps are queued, and captured into CUDA graphs, like a whole graph's.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <utility>
#include <vector>

#include "cellgraph/error.hpp"
#include "cellgraph/halo.hpp"
#include "cellgraph/model.hpp"
#include "src/backend/cuda/cuda_check.cuh"
#include "src/backend/cuda/device_array.cuh"

namespace cellgraph::cuda {

// Writes every variable (I...) of each sent cell into its peer's halo: entry i goes to peer
// peer_of[i], at cell halo_cell[i] there; remote[v * peers + p] is variable v of peer p.
template <class Vars, int... I>
__global__ void push_halo_cells(StateRef<Vars> local, const std::uint32_t* cells, const std::uint32_t* halo_cell,
                                const std::uint16_t* peer_of, std::uint32_t count, void* const* remote,
                                std::uint32_t peers) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  const std::uint32_t from = cells[i], to = halo_cell[i], p = peer_of[i];
  ((static_cast<typename Vars::template type<I>*>(remote[I * peers + p])[to] = local.template get<I>()[from]), ...);
  // No fence here: the signal is a later kernel on the same stream, which this one's writes
  // precede, and which fences system-wide before it sets the flags.
}

// Waits until every flag is at least *step (a peer's write lands in this device's memory).
__global__ void wait_for_peers(const volatile std::uint32_t* flags, std::uint32_t peers, const std::uint32_t* step);
// This part's boundary is over: its writes (the pushes) are made visible system-wide, then each
// peer's flag for this part is set to the next step, which this part counts too (runtime.cu).
__global__ void signal_peers(std::uint32_t* const* peer_flags, std::uint32_t peers, std::uint32_t* step);

template <class Vars, class Seq = std::make_integer_sequence<int, Vars::count>>
class PeerHalo;

template <class Vars, int... I>
class PeerHalo<Vars, std::integer_sequence<int, I...>> {
  static constexpr int kVars = Vars::count;

  // What a part tells each peer: where its buffers and flags are, which flag is the peer's,
  // and where in its halo the peer's cells go.
  struct Handles {
    cudaIpcMemHandle_t state[2][kVars];
    cudaIpcMemHandle_t flags;
    std::uint32_t flag, halo_begin, halo_count;
  };

 public:
  // Trades handles with every peer (all peers construct theirs at the same point).
  PeerHalo(const Layout& layout, HaloTransport& transport, const StateRef<Vars> (&buffers)[2])
      : layout_(layout), transport_(transport), peers_(std::uint32_t(layout.peers.size())), flags_(peers_), step_(1) {
    if (layout.peers.size() > 0xFFFF) throw Error("device halo: more than 65535 peers");
    CG_CUDA(cudaMemset(flags_.data(), 0, peers_ * sizeof(std::uint32_t)));
    CG_CUDA(cudaMemset(step_.data(), 0, sizeof(std::uint32_t)));
    std::vector<std::vector<std::uint8_t>> mine;
    for (std::uint32_t p = 0; p < peers_; ++p) {
      Handles h{};
      for (int b = 0; b < 2; ++b)
        for (int v = 0; v < kVars; ++v) CG_CUDA(cudaIpcGetMemHandle(&h.state[b][v], buffers[b].var[v]));
      CG_CUDA(cudaIpcGetMemHandle(&h.flags, flags_.data()));
      h.flag = p, h.halo_begin = layout.peers[p].halo_begin, h.halo_count = layout.peers[p].halo_count;
      mine.emplace_back(sizeof h);
      std::memcpy(mine.back().data(), &h, sizeof h);
    }
    const auto theirs = transport.trade(layout, mine, sizeof(Handles));

    std::vector<void*> remote[2];
    for (auto& r : remote) r.assign(std::size_t(kVars) * peers_, nullptr);
    std::vector<std::uint32_t*> peer_flags(peers_);
    std::vector<std::uint32_t> halo_cell(layout.send_cells.size());
    std::vector<std::uint16_t> peer_of(layout.send_cells.size());
    for (std::uint32_t p = 0; p < peers_; ++p) {
      Handles h;
      std::memcpy(&h, theirs[p].data(), sizeof h);
      const HaloPeer& peer = layout.peers[p];
      if (h.halo_count != peer.send_count)
        throw Error("device halo: part " + std::to_string(peer.part) + " expects " + std::to_string(h.halo_count) +
                    " cells, this part sends " + std::to_string(peer.send_count));
      for (int b = 0; b < 2; ++b)
        for (int v = 0; v < kVars; ++v) remote[b][std::size_t(v) * peers_ + p] = open(h.state[b][v]);
      peer_flags[p] = static_cast<std::uint32_t*>(open(h.flags)) + h.flag;
      for (std::uint32_t k = 0; k < peer.send_count; ++k)
        halo_cell[peer.send_begin + k] = h.halo_begin + k, peer_of[peer.send_begin + k] = std::uint16_t(p);
    }
    for (int b = 0; b < 2; ++b) remote_[b] = DeviceArray<void*>(remote[b].data(), remote[b].size());
    peer_flags_ = DeviceArray<std::uint32_t*>(peer_flags.data(), peer_flags.size());
    cells_ = DeviceArray<std::uint32_t>(layout.send_cells.data(), layout.send_cells.size());
    halo_cell_ = DeviceArray<std::uint32_t>(halo_cell.data(), halo_cell.size());
    peer_of_ = DeviceArray<std::uint16_t>(peer_of.data(), peer_of.size());
  }
  PeerHalo(const PeerHalo&) = delete;
  PeerHalo& operator=(const PeerHalo&) = delete;
  // Peers may write into this part's memory until their queued steps are done: every part
  // waits for its own, then for its peers' word, before any of it is unmapped or freed.
  ~PeerHalo() {
    try {  // while an error unwinds, the job is ending (mpi::abort_job): peers may never answer
      if (std::uncaught_exceptions() == 0) {
        CG_CUDA(cudaDeviceSynchronize());
        transport_.notify_peers(layout_, kDoneToken);
        transport_.await_peers(layout_, kDoneToken);
      }
    } catch (...) {
    }
    for (void* base : opened_) cudaIpcCloseMemHandle(base);
  }

  // Before a step's boundary sweep: every peer's last boundary is over.
  void begin_step(cudaStream_t stream) {
    wait_for_peers<<<1, 32, 0, stream>>>(flags_.data(), peers_, step_.data());
    CG_CUDA(cudaGetLastError());
  }
  // After the boundary sweep wrote `to` (buffer `to_buffer` of the two): the cells peers read
  // go into the same buffer of theirs.
  void push(StateRef<Vars> to, int to_buffer, cudaStream_t stream) {
    const std::uint32_t n = std::uint32_t(cells_.size());
    if (n)
      push_halo_cells<Vars, I...><<<(n + 255) / 256, 256, 0, stream>>>(
          to, cells_.data(), halo_cell_.data(), peer_of_.data(), n, remote_[to_buffer].data(), peers_);
    CG_CUDA(cudaGetLastError());
  }
  // After the step's boundary sweep and push.
  void end_step(cudaStream_t stream) {
    signal_peers<<<1, 1, 0, stream>>>(peer_flags_.data(), peers_, step_.data());
    CG_CUDA(cudaGetLastError());
  }

 private:
  static constexpr std::uint32_t kDoneToken = 0x7FFFFFFFu;

  void* open(const cudaIpcMemHandle_t& handle) {
    void* base = nullptr;
    CG_CUDA(cudaIpcOpenMemHandle(&base, handle, cudaIpcMemLazyEnablePeerAccess));
    opened_.push_back(base);
    return base;
  }

  const Layout& layout_;
  HaloTransport& transport_;
  std::uint32_t peers_;
  DeviceArray<std::uint32_t> flags_;  // flags_[p]: steps peer p has ended (it writes them)
  DeviceArray<std::uint32_t> step_;   // steps this part has ended
  std::vector<void*> opened_;
  DeviceArray<void*> remote_[2];
  DeviceArray<std::uint32_t*> peer_flags_;
  DeviceArray<std::uint32_t> cells_, halo_cell_;
  DeviceArray<std::uint16_t> peer_of_;
};

}  // namespace cellgraph::cuda
