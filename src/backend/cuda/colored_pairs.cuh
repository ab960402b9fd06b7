// The (vertex, member) pairs the colored steps of a CUDA ensemble sweep: every member's, listed
// range by range (a color class's giant hubs, hubs and ordinary vertices), kept on the device;
// the live members' are listed from them on the device, in the same order, whenever members
// finish or run again (a mask, a scan and a scatter), so that a finished member stops costing
// its pairs.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "src/backend/cuda/device_array.cuh"

namespace cellgraph::cuda {

class ColoredPairs {
 public:
  struct Range {
    std::uint32_t begin = 0, end = 0;
  };

  // ranges: consecutive, covering [0, vertex.size()) in order; members 0 .. members - 1.
  ColoredPairs(const std::vector<std::uint32_t>& vertex, const std::vector<std::uint32_t>& member,
               std::vector<Range> ranges, std::uint32_t members);

  // Device bytes the lists of `pairs` pairs take.
  static std::uint64_t device_bytes(std::uint64_t pairs, std::uint32_t members) {
    return (pairs + 1) * 6 * sizeof(std::uint32_t) + members;
  }

  // Lists the pairs of members live[0 .. count) (a device array), on `stream`; returns each
  // range's part of the list.
  const std::vector<Range>& list_live(const std::uint32_t* live, std::uint32_t count, cudaStream_t stream);

  const std::uint32_t* vertex() const { return vertex_.data(); }
  const std::uint32_t* member() const { return member_.data(); }

 private:
  std::uint32_t size_;
  std::vector<Range> every_, live_;
  DeviceArray<std::uint32_t> every_vertex_, every_member_, vertex_, member_;
  DeviceArray<std::uint32_t> kept_, position_;  // size_ + 1: kept_[i] = pair i is listed
  DeviceArray<std::uint32_t> boundary_, boundary_position_;
  DeviceArray<std::uint8_t> is_live_;  // a flag per member
  DeviceArray<unsigned char> scan_temp_;
};

}  // namespace cellgraph::cuda
