// Owning handles of a stream and an event: released however the owner's constructor ends.
#pragma once
#include <cuda_runtime.h>

#include <utility>

#include "src/backend/cuda/cuda_check.cuh"

namespace cellgraph::cuda {

class Stream {
 public:
  Stream() { CG_CUDA(cudaStreamCreateWithFlags(&handle_, cudaStreamNonBlocking)); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  ~Stream() { cudaStreamDestroy(handle_); }
  operator cudaStream_t() const { return handle_; }

 private:
  cudaStream_t handle_ = nullptr;
};

class Event {
 public:
  Event() { CG_CUDA(cudaEventCreateWithFlags(&handle_, cudaEventDisableTiming)); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  ~Event() { cudaEventDestroy(handle_); }
  operator cudaEvent_t() const { return handle_; }

 private:
  cudaEvent_t handle_ = nullptr;
};

}  // namespace cellgraph::cuda
