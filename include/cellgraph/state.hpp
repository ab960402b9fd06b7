// Host storage of a model's state: one paragraph-aligned array per variable.
#pragma once
#include <cstddef>
#include <tuple>
#include <utility>

#include "cellgraph/model.hpp"

namespace cellgraph {

template <class Vars>
class HostState {
 public:
  HostState() = default;
  explicit HostState(std::size_t length) : length_(length) {
    std::apply([&](auto&... a) { ((a = std::decay_t<decltype(a)>(length)), ...); }, arrays_);
  }
  std::size_t length() const { return length_; }
  template <int I>
  auto& array() {
    return std::get<I>(arrays_);
  }
  template <int I>
  const auto& array() const {
    return std::get<I>(arrays_);
  }

  // The arrays' addresses (kernels take them by value; read-only use of a const state).
  StateRef<Vars> ref() const {
    StateRef<Vars> r{};
    int i = 0;
    std::apply([&](const auto&... a) { ((r.var[i++] = const_cast<void*>(static_cast<const void*>(a.data()))), ...); },
               arrays_);
    return r;
  }
  void swap(HostState& o) noexcept {
    std::swap(arrays_, o.arrays_);
    std::swap(length_, o.length_);
  }

 private:
  typename Vars::Arrays arrays_;
  std::size_t length_ = 0;
};

}  // namespace cellgraph
