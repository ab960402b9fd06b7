// Builds without the CUDA backend: no device is ever available.
#include "cellgraph/coloring.hpp"
#include "cellgraph/error.hpp"
#include "cellgraph/simulation.hpp"

#if !CELLGRAPH_HAVE_CUDA
namespace cellgraph {
bool cuda_device_available() { return false; }
std::vector<std::uint32_t> gpu_coloring(const Layout&, std::uint64_t) {
  throw Error("gpu_coloring: this build of cellgraph has no CUDA backend");
}
}  // namespace cellgraph
#endif
