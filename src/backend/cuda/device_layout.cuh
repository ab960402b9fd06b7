// The compiled layout on the device, uploaded once, and the plain view kernels take by value.
// Only what kernels read is uploaded: the degrees of hubs (ordinary walks count their entries)
// and local_to_user unless it is the identity (a grid's), so that a grid of stencil slices
// takes little more device memory than its two state buffers.
#pragma once
#include <cstdint>

#include "cellgraph/layout.hpp"
#include "src/backend/cuda/device_array.cuh"

namespace cellgraph::cuda {

struct LayoutView {
  const std::uint32_t* neighbors;
  const std::uint64_t* slice_begin;
  const std::uint32_t* slice_width;
  const std::uint64_t* hub_row_begin;
  const std::uint32_t* degree;         // hubs only
  const std::uint32_t* local_to_user;  // null: the identity
  std::uint32_t num_vertices, num_slices, num_hub_slices, num_hub_vertices, num_giant_hubs, null_cell;
  // Ordinary slices' encodings (null: every slice explicit, as movable cells' layouts are).
  const std::uint8_t* slice_encoding;
  const std::int16_t* deltas;
  const std::int32_t* stencil_offsets;

  __device__ SliceEncoding encoding(std::uint32_t slice) const {
    return slice_encoding ? SliceEncoding(__ldg(slice_encoding + slice)) : SliceEncoding::explicit_ids;
  }
  __device__ std::uint32_t user_of(std::uint32_t v) const { return local_to_user ? local_to_user[v] : v; }
  __device__ SliceLists lists() const {
    return {neighbors, deltas, stencil_offsets, slice_begin, slice_encoding, null_cell};
  }
};

inline bool in_user_order(const Layout& L) {
  for (std::uint32_t i = 0; i < L.local_to_user.size(); ++i)
    if (L.local_to_user[i] != i) return false;
  return true;
}

class DeviceLayout {
 public:
  explicit DeviceLayout(const Layout& L)
      : neighbors_(L.neighbors.data(), L.neighbors.size()), slice_begin_(L.slice_begin.data(), L.slice_begin.size()),
        slice_width_(L.slice_width.data(), L.slice_width.size()),
        hub_row_begin_(L.hub_row_begin.data(), L.hub_row_begin.size()), degree_(L.degree.data(), L.num_hub_vertices()),
        local_to_user_(L.local_to_user.data(), in_user_order(L) ? 0 : L.local_to_user.size()),
        slice_encoding_(L.slice_encoding.data(), L.slice_encoding.size()), deltas_(L.deltas.data(), L.deltas.size()),
        stencil_offsets_(L.stencil_offsets.data(), L.stencil_offsets.size()) {
    view_ = {neighbors_.data(),      slice_begin_.data(),
             slice_width_.data(),    hub_row_begin_.data(),
             degree_.data(),         local_to_user_.data(),
             L.num_vertices,         L.num_slices(),
             L.num_hub_slices,       std::uint32_t(L.hub_row_begin.size() - 1),
             L.num_giant_hubs,       L.null_cell(),
             slice_encoding_.data(), deltas_.data(),
             stencil_offsets_.data()};
  }
  const LayoutView& view() const { return view_; }

 private:
  DeviceArray<std::uint32_t> neighbors_;
  DeviceArray<std::uint64_t> slice_begin_;
  DeviceArray<std::uint32_t> slice_width_;
  DeviceArray<std::uint64_t> hub_row_begin_;
  DeviceArray<std::uint32_t> degree_;
  DeviceArray<std::uint32_t> local_to_user_;
  DeviceArray<std::uint8_t> slice_encoding_;
  DeviceArray<std::int16_t> deltas_;
  DeviceArray<std::int32_t> stencil_offsets_;
  LayoutView view_{};
};

}  // namespace cellgraph::cuda
