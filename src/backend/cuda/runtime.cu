#include "cellgraph/build_info.hpp"
#include "cellgraph/error.hpp"
#include "cellgraph/simulation.hpp"
#include "cellgraph/sweep_plan.hpp"
#include "src/backend/cuda/peer_halo.cuh"
#include "src/backend/cuda/sweep_kernels.cuh"

namespace cellgraph {

namespace cuda {
__global__ void advance_step_counter(std::uint32_t* counter, std::uint32_t steps) { *counter += steps; }

__global__ void wait_for_peers(const volatile std::uint32_t* flags, std::uint32_t peers, const std::uint32_t* step) {
  const std::uint32_t target = *step;
  for (std::uint32_t p = threadIdx.x; p < peers; p += blockDim.x)
    while (flags[p] < target) __nanosleep(64);
}

__global__ void signal_peers(std::uint32_t* const* peer_flags, std::uint32_t peers, std::uint32_t* step) {
  __threadfence_system();
  const std::uint32_t next = *step + 1;
  for (std::uint32_t p = 0; p < peers; ++p) *static_cast<volatile std::uint32_t*>(peer_flags[p]) = next;
  *step = next;
}
}  // namespace cuda

bool cuda_device_available() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

std::string cuda_runtime_version() {
  int version = 0;
  if (cudaRuntimeGetVersion(&version) != cudaSuccess) return "";
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

void require_cuda_device() {
  if (!cuda_device_available()) throw Error("the CUDA backend was asked for, but no CUDA device is available");
}

int cuda_device_count() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
}

void use_cuda_device(int device) {
  const cudaError_t status = cudaSetDevice(device);
  if (status != cudaSuccess) throw Error("CUDA device " + std::to_string(device) + ": " + cudaGetErrorString(status));
}

std::optional<DeviceTraits> cuda_device_traits() {
  int device = 0;
  cudaDeviceProp p{};
  if (!cuda_device_available() || cudaGetDevice(&device) != cudaSuccess ||
      cudaGetDeviceProperties(&p, device) != cudaSuccess)
    return std::nullopt;
  DeviceTraits d;
  d.name = p.name;
  d.compute_capability = p.major * 10 + p.minor;
  d.multiprocessors = std::uint32_t(p.multiProcessorCount);
  d.persisting_l2_bytes = std::size_t(p.persistingL2CacheMaxSize);
  d.access_window_bytes = std::size_t(p.accessPolicyMaxWindowSize);
  return d;
}

std::string cuda_device_bus_id() {
  int device = 0;
  char id[32] = {};
  if (cudaGetDevice(&device) != cudaSuccess || cudaDeviceGetPCIBusId(id, int(sizeof id), device) != cudaSuccess)
    return "";
  return id;
}

bool cuda_devices_map_each_other(const std::vector<std::string>& bus_ids) {
  std::vector<int> devices;
  for (const std::string& id : bus_ids) {
    int device = -1;
    if (id.empty() || cudaDeviceGetByPCIBusId(&device, id.c_str()) != cudaSuccess) {
      cudaGetLastError();  // not a sticky error: clear it
      return false;
    }
    devices.push_back(device);
  }
  for (int a : devices)
    for (int b : devices) {
      int can = 0;  // a device maps its own memory in another process without peer access
      if (a != b && (cudaDeviceCanAccessPeer(&can, a, b) != cudaSuccess || !can)) return false;
    }
  return true;
}

}  // namespace cellgraph
