// The halo of a partitioned run on the GPU: the cells peers read are packed on the device
// (one gather kernel per variable) and copied to pinned memory on a stream of their own, so
// that the interior vertices' kernels run meanwhile; the transport (MPI) moves the pinned
// buffers; the received halo is copied into the buffer's halo cells, and the step's stream
// waits for it before its next work. An ensemble's cells carry every member's copy side by side
// (`members` elements a cell), and travel together.
#pragma once
#include <memory>
#include <tuple>
#include <utility>

#include "cellgraph/halo.hpp"
#include "cellgraph/model.hpp"
#include "src/backend/cuda/device_array.cuh"
#include "src/backend/cuda/stream.cuh"

namespace cellgraph::cuda {

template <class T>
__global__ void pack_cells(const T* values, const std::uint32_t* cells, std::uint32_t count, std::uint32_t members,
                           T* packed) {
  const std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < std::uint64_t(count) * members) packed[i] = values[std::uint64_t(cells[i / members]) * members + i % members];
}

template <class Vars, class Seq = std::make_integer_sequence<int, Vars::count>>
class DeviceHalo;

template <class Vars, int... I>
class DeviceHalo<Vars, std::integer_sequence<int, I...>> {
  template <int J>
  using T = typename Vars::template type<J>;

 public:
  DeviceHalo(const Layout& layout, std::shared_ptr<HaloTransport> transport, std::uint32_t members = 1)
      : layout_(layout), transport_(std::move(transport)), members_(members),
        send_cells_(layout.send_cells.data(), layout.send_cells.size()),
        packed_(DeviceArray<T<I>>(layout.send_cells.size() * members)...),
        send_(PinnedArray<T<I>>(layout.send_cells.size() * members)...),
        received_(PinnedArray<T<I>>(std::size_t(layout.num_halo) * members)...) {}

  // Packs `current` once the work queued on `after` is done, and copies it to the host.
  void pack(StateRef<Vars> current, cudaStream_t after) {
    stream_waits_for(stream_, after, ready_);
    const std::uint32_t n = std::uint32_t(layout_.send_cells.size());
    if (n) ((pack_one<I>(current, n)), ...);
  }
  // Waits for the packed cells, then hands them to the transport.
  void start() {
    CG_CUDA(cudaStreamSynchronize(stream_));
    ((transport_->start(layout_, I, sizeof(T<I>) * members_, std::get<I>(send_).data(), std::get<I>(received_).data())),
     ...);
  }
  // Waits for the peers' cells and copies them into `current`'s halo; `stream` waits for that.
  void finish(StateRef<Vars> current, cudaStream_t stream) {
    transport_->finish();
    if (layout_.num_halo)
      ((CG_CUDA(cudaMemcpyAsync(current.template get<I>() + std::size_t(layout_.num_vertices) * members_,
                                std::get<I>(received_).data(), std::size_t(layout_.num_halo) * members_ * sizeof(T<I>),
                                cudaMemcpyHostToDevice, stream_))),
       ...);
    stream_waits_for(stream, stream_, arrived_);
  }

 private:
  template <int J>
  void pack_one(StateRef<Vars> current, std::uint32_t n) {
    T<J>* packed = std::get<J>(packed_).data();
    const std::uint64_t values = std::uint64_t(n) * members_;
    pack_cells<<<unsigned((values + 255) / 256), 256, 0, stream_>>>(current.template get<J>(), send_cells_.data(), n,
                                                                    members_, packed);
    CG_CUDA_LAUNCHED();
    CG_CUDA(cudaMemcpyAsync(std::get<J>(send_).data(), packed, values * sizeof(T<J>), cudaMemcpyDeviceToHost, stream_));
  }

  const Layout& layout_;
  std::shared_ptr<HaloTransport> transport_;
  std::uint32_t members_;
  DeviceArray<std::uint32_t> send_cells_;
  std::tuple<DeviceArray<T<I>>...> packed_;
  std::tuple<PinnedArray<T<I>>...> send_, received_;
  Stream stream_;
  Event ready_, arrived_;
};

}  // namespace cellgraph::cuda
