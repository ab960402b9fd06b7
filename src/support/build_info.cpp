#include "cellgraph/build_info.hpp"

#include <metis.h>
#include <mpi.h>

namespace cellgraph {

BuildInfo build_info() {
  BuildInfo b;
  b.version = CELLGRAPH_VERSION;
  b.commit = CELLGRAPH_COMMIT;
  b.cuda_runtime = cuda_runtime_version();
  b.cuda_architectures = CELLGRAPH_CUDA_ARCHITECTURES;
  char mpi[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  if (MPI_Get_library_version(mpi, &length) == MPI_SUCCESS) {  // callable before MPI_Init
    b.mpi.assign(mpi, std::size_t(length));
    b.mpi = b.mpi.substr(0, b.mpi.find_first_of(",\n"));  // "Open MPI v4.1.4", not its build details
  }
  b.metis = std::to_string(METIS_VER_MAJOR) + "." + std::to_string(METIS_VER_MINOR) + "." +
            std::to_string(METIS_VER_SUBMINOR);
  return b;
}

}  // namespace cellgraph
