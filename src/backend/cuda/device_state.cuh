// A model's state on the device: one zeroed array per variable.
#pragma once
#include <tuple>
#include <utility>

#include "cellgraph/model.hpp"
#include "src/backend/cuda/device_array.cuh"

namespace cellgraph::cuda {

template <class Vars, class Seq = std::make_integer_sequence<int, Vars::count>>
class DeviceState;

template <class Vars, int... I>
class DeviceState<Vars, std::integer_sequence<int, I...>> {
 public:
  explicit DeviceState(std::size_t length) : arrays_(DeviceArray<typename Vars::template type<I>>(length)...) {
    (CG_CUDA(cudaMemset(std::get<I>(arrays_).data(), 0, length * sizeof(typename Vars::template type<I>))), ...);
  }
  StateRef<Vars> ref() const { return StateRef<Vars>{{static_cast<void*>(std::get<I>(arrays_).data())...}}; }
  template <int J>
  auto& array() {
    return std::get<J>(arrays_);
  }

 private:
  std::tuple<DeviceArray<typename Vars::template type<I>>...> arrays_;
};

}  // namespace cellgraph::cuda
