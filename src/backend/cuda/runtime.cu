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

}  // namespace cellgraph
