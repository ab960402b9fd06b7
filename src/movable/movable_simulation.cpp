#include "cellgraph/movable/movable_simulation.hpp"

namespace cellgraph {

std::vector<double> MovableSimulation::positions() const {
  const int dims = box().dims;
  std::vector<double> out(std::size_t(num_particles()) * dims);
  for (int a = 0; a < dims; ++a) {
    const std::vector<double> axis = variable(a);
    for (std::size_t p = 0; p < axis.size(); ++p) out[p * dims + a] = axis[p];
  }
  return out;
}

}  // namespace cellgraph
