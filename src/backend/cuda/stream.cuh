// Owning handles of a stream and an event: released however the owner's constructor ends.
#pragma once
#include <cuda_runtime.h>

#include <utility>

#include "src/backend/cuda/cuda_check.cuh"

namespace cellgraph::cuda {

class Stream {
 public:
  Stream() { CG_CUDA(cudaStreamCreateWithFlags(&handle_, cudaStreamNonBlocking)); }
  // A stream whose kernels' blocks go before those of streams of lower priority (captured
  // kernels keep it where their graph is instantiated with cudaGraphInstantiateFlagUseNodePriority).
  static Stream with_greatest_priority() {
    int least = 0, greatest = 0;
    CG_CUDA(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    return Stream(greatest);
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  ~Stream() { cudaStreamDestroy(handle_); }
  operator cudaStream_t() const { return handle_; }

 private:
  explicit Stream(int priority) { CG_CUDA(cudaStreamCreateWithPriority(&handle_, cudaStreamNonBlocking, priority)); }

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

// Makes `waiter`'s later work wait for the work queued on `on` so far, through `event`: a
// fork or a join of two streams, captured into a graph as its edges. An error names the caller.
inline void stream_waits_for(cudaStream_t waiter, cudaStream_t on, cudaEvent_t event,
                             const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  check(cudaEventRecord(event, on), "cudaEventRecord", file, line);
  check(cudaStreamWaitEvent(waiter, event), "cudaStreamWaitEvent", file, line);
}

}  // namespace cellgraph::cuda
