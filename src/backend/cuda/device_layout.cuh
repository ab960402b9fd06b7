// The compiled layout on the device, uploaded once, and the plain view kernels take by value.
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
  const std::uint32_t* degree;
  const std::uint32_t* local_to_user;
  std::uint32_t num_vertices, num_slices, num_hub_slices, num_hub_vertices, num_giant_hubs, null_cell;
};

class DeviceLayout {
 public:
  explicit DeviceLayout(const Layout& L)
      : neighbors_(L.neighbors.data(), L.neighbors.size()), slice_begin_(L.slice_begin.data(), L.slice_begin.size()),
        slice_width_(L.slice_width.data(), L.slice_width.size()),
        hub_row_begin_(L.hub_row_begin.data(), L.hub_row_begin.size()), degree_(L.degree.data(), L.degree.size()),
        local_to_user_(L.local_to_user.data(), L.local_to_user.size()) {
    view_ = {neighbors_.data(),   slice_begin_.data(),
             slice_width_.data(), hub_row_begin_.data(),
             degree_.data(),      local_to_user_.data(),
             L.num_vertices,      L.num_slices(),
             L.num_hub_slices,    std::uint32_t(L.hub_row_begin.size() - 1),
             L.num_giant_hubs,    L.null_cell()};
  }
  const LayoutView& view() const { return view_; }

 private:
  DeviceArray<std::uint32_t> neighbors_;
  DeviceArray<std::uint64_t> slice_begin_;
  DeviceArray<std::uint32_t> slice_width_;
  DeviceArray<std::uint64_t> hub_row_begin_;
  DeviceArray<std::uint32_t> degree_;
  DeviceArray<std::uint32_t> local_to_user_;
  LayoutView view_{};
};

}  // namespace cellgraph::cuda
