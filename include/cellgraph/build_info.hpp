// What this build of cellgraph is: its version and commit, and the versions of the libraries it
// was built with (`cellgraph --version`, run summaries).
#pragma once
#include <string>

namespace cellgraph {

struct BuildInfo {
  std::string version;             // the project's, "0.1.0"
  std::string commit;              // the source tree's git commit when configured ("" outside git)
  std::string cuda_runtime;        // "13.0" ("" without the CUDA backend)
  std::string cuda_architectures;  // the GPU architectures the kernels were built for ("90")
  std::string mpi;                 // the MPI library's version line
  std::string metis;               // "5.1.0"
};

BuildInfo build_info();
// The CUDA runtime's version, "13.0"; "" without the CUDA backend.
std::string cuda_runtime_version();

}  // namespace cellgraph
