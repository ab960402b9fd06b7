// CUDA calls either succeed or throw cellgraph::Error naming the call: no silent failures.
#pragma once
#include <cuda_runtime.h>

#include <string>

#include "cellgraph/error.hpp"

namespace cellgraph::cuda {

inline void check(cudaError_t status, const char* call, const char* file, int line) {
  if (status != cudaSuccess)
    throw Error(std::string("CUDA error: ") + cudaGetErrorString(status) + " in " + call + " (" + file + ":" +
                std::to_string(line) + ")");
}

}  // namespace cellgraph::cuda

#define CG_CUDA(call) ::cellgraph::cuda::check((call), #call, __FILE__, __LINE__)
// After a kernel launch: launch errors now, execution errors at the next synchronisation.
#define CG_CUDA_LAUNCHED() CG_CUDA(cudaGetLastError())
