// Owning device and pinned-host arrays. cudaMalloc returns 256-byte aligned memory, so every
// array starts on a paragraph like the host layout.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include "src/backend/cuda/cuda_check.cuh"

namespace cellgraph::cuda {

template <class T>
class DeviceArray {
 public:
  DeviceArray() = default;
  explicit DeviceArray(std::size_t n) : size_(n) {
    if (n) CG_CUDA(cudaMalloc(&data_, n * sizeof(T)));
  }
  DeviceArray(const T* host, std::size_t n) : DeviceArray(n) { upload(host, n); }
  DeviceArray(DeviceArray&& o) noexcept { swap(o); }
  DeviceArray& operator=(DeviceArray&& o) noexcept {
    swap(o);
    return *this;
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  ~DeviceArray() {
    if (data_) cudaFree(data_);
  }

  void upload(const T* host, std::size_t n, std::size_t at = 0) {
    if (n) CG_CUDA(cudaMemcpy(data_ + at, host, n * sizeof(T), cudaMemcpyHostToDevice));
  }
  void swap(DeviceArray& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
  }
  T* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

// Page-locked host memory: device-to-host copies of observers go through it.
template <class T>
class PinnedArray {
 public:
  PinnedArray() = default;
  explicit PinnedArray(std::size_t n) : size_(n) {
    if (n) CG_CUDA(cudaMallocHost(&data_, n * sizeof(T)));
  }
  PinnedArray(PinnedArray&& o) noexcept : data_(std::exchange(o.data_, nullptr)), size_(o.size_) {}
  PinnedArray(const PinnedArray&) = delete;
  PinnedArray& operator=(const PinnedArray&) = delete;
  ~PinnedArray() {
    if (data_) cudaFreeHost(data_);
  }
  T* data() const { return data_; }
  T& operator[](std::size_t i) const { return data_[i]; }
  std::size_t size() const { return size_; }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace cellgraph::cuda
