// Builds without the CUDA backend: the GPU neighbor search and compiler are not there.
#include "cellgraph/error.hpp"
#include "cellgraph/movable/neighbor_search.hpp"

#if !CELLGRAPH_HAVE_CUDA
namespace cellgraph::cuda {
namespace {
[[noreturn]] void no_cuda(const char* what) {
  throw Error(std::string(what) + ": this build of cellgraph has no CUDA backend");
}
}  // namespace

template <class T>
NeighborGraph find_neighbors(const Box&, double, const PointsView<T>&) {
  no_cuda("cuda::find_neighbors");
}
template <class T>
Graph all_pairs_neighbors(const Box&, double, const PointsView<T>&) {
  no_cuda("cuda::all_pairs_neighbors");
}
Layout compile_neighbors(const NeighborGraph&, const CompileOptions&) { no_cuda("cuda::compile_neighbors"); }
template <class T>
RebuildTiming time_rebuild(const Box&, double, const PointsView<T>&, const CompileOptions&, int) {
  no_cuda("cuda::time_rebuild");
}
template <class T>
double time_all_pairs(const Box&, double, const PointsView<T>&, int) {
  no_cuda("cuda::time_all_pairs");
}

#define CELLGRAPH_NO_CUDA_SEARCH(T)                                                                             \
  template NeighborGraph find_neighbors<T>(const Box&, double, const PointsView<T>&);                           \
  template Graph all_pairs_neighbors<T>(const Box&, double, const PointsView<T>&);                              \
  template RebuildTiming time_rebuild<T>(const Box&, double, const PointsView<T>&, const CompileOptions&, int); \
  template double time_all_pairs<T>(const Box&, double, const PointsView<T>&, int);
CELLGRAPH_NO_CUDA_SEARCH(float)
CELLGRAPH_NO_CUDA_SEARCH(double)
#undef CELLGRAPH_NO_CUDA_SEARCH

}  // namespace cellgraph::cuda
#endif
