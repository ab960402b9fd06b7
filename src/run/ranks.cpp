#include "cellgraph/run/ranks.hpp"

namespace cellgraph {

const RunRanks& single_process() {
  static const SingleProcess one;
  return one;
}

}  // namespace cellgraph
