#include "src/backend/cuda/cuda_check.cuh"
#include "src/movable/cuda/movable_kernels.cuh"

namespace cellgraph::cuda::movable_kernels {
namespace {

__global__ void compose_sources_kernel(const std::uint32_t* old_user_to_local, const std::uint32_t* new_local_to_user,
                                       std::uint32_t n, std::uint32_t* source) {
  const std::uint32_t l = blockIdx.x * kThreads + threadIdx.x;
  if (l >= n) return;
  const std::uint32_t particle = new_local_to_user[l];
  source[l] = old_user_to_local ? old_user_to_local[particle] : particle;
}

}  // namespace

void compose_sources(const std::uint32_t* old_user_to_local, const std::uint32_t* new_local_to_user, std::uint32_t n,
                     std::uint32_t* source, cudaStream_t stream) {
  compose_sources_kernel<<<blocks_for(n), kThreads, 0, stream>>>(old_user_to_local, new_local_to_user, n, source);
  CG_CUDA_LAUNCHED();
}

}  // namespace cellgraph::cuda::movable_kernels
