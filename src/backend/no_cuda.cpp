// Builds without the CUDA backend: no device is ever available.
#include "cellgraph/build_info.hpp"
#include "cellgraph/coloring.hpp"
#include "cellgraph/error.hpp"
#include "cellgraph/simulation.hpp"
#include "cellgraph/sweep_plan.hpp"

#if !CELLGRAPH_HAVE_CUDA
namespace cellgraph {
bool cuda_device_available() { return false; }
void require_cuda_device() {
  throw Error("this build of cellgraph has no CUDA backend (configure where nvcc is found)");
}
int cuda_device_count() { return 0; }
std::string cuda_runtime_version() { return ""; }
void use_cuda_device(int) { throw Error("this build of cellgraph has no CUDA backend"); }
std::string cuda_device_bus_id() { return ""; }
std::optional<DeviceTraits> cuda_device_traits() { return std::nullopt; }
bool cuda_devices_map_each_other(const std::vector<std::string>&) { return false; }
std::vector<std::uint32_t> gpu_coloring(const Layout&, std::uint64_t) {
  throw Error("gpu_coloring: this build of cellgraph has no CUDA backend");
}
}  // namespace cellgraph
#endif
