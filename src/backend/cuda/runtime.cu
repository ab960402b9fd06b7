#include "cellgraph/error.hpp"
#include "cellgraph/simulation.hpp"
#include "src/backend/cuda/sweep_kernels.cuh"

namespace cellgraph {

namespace cuda {
__global__ void advance_step_counter(std::uint32_t* counter, std::uint32_t steps) { *counter += steps; }
}  // namespace cuda

bool cuda_device_available() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

int cuda_device_count() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
}

void use_cuda_device(int device) {
  const cudaError_t status = cudaSetDevice(device);
  if (status != cudaSuccess)
    throw Error("CUDA device " + std::to_string(device) + ": " + cudaGetErrorString(status));
}

}  // namespace cellgraph
