// Builds without the CUDA backend: no device is ever available.
#include "cellgraph/simulation.hpp"

#if !CELLGRAPH_HAVE_CUDA
namespace cellgraph {
bool cuda_device_available() { return false; }
}  // namespace cellgraph
#endif
