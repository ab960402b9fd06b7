// Builds a MovableSimulation of a concrete movable model on the backend the options name (or
// one part of a partitioned run: movable.parts > 1), as
// make_simulation.hpp does for ordinary models: a model file that calls it instantiates the
// CPU backend, and when nvcc compiles the file (builds with the CUDA backend) the CUDA one.
// It lives beside the partitioned backend, the highest of the three it chooses from, so that
// src/ (the single-process engine) never includes partition/.
#pragma once
#include <memory>

#include "cellgraph/error.hpp"
#include "cellgraph/movable/movable_simulation.hpp"
#include "partition/movable/partitioned_movable.hpp"
#include "src/movable/cpu_movable.hpp"
#if CELLGRAPH_HAVE_CUDA && defined(__CUDACC__)
#include "src/movable/cuda/cuda_movable.cuh"
#endif

namespace cellgraph {

#if CELLGRAPH_HAVE_CUDA && !defined(__CUDACC__)
namespace cuda {
template <class Model>
std::unique_ptr<MovableSimulation> make_cuda_movable_simulation(const Model& model, std::uint32_t particles,
                                                                const MovableOptions& movable,
                                                                const SimulationOptions& options);
}  // namespace cuda
#endif

template <class Model>
std::unique_ptr<MovableSimulation> make_movable_simulation_for(const Model& model, std::uint32_t particles,
                                                               const MovableOptions& movable,
                                                               const SimulationOptions& options) {
  if (options.update.mode != UpdateMode::synchronous)
    throw Error("movable models update synchronously, not " + update_rule_text(options.update));
  if (movable.parts > 1) {
    if (!on_host(options.backend))
      throw Error("partitioned movable runs (" + std::to_string(movable.parts) + " parts) run on the CPU backend only");
    return std::make_unique<PartitionedMovableSimulation<Model>>(model, particles, movable, options);
  }
  switch (options.backend) {
    case BackendKind::reference:  // the movable models' CPU backend is their reference
    case BackendKind::cpu:
      return std::make_unique<CpuMovableSimulation<Model>>(model, particles, movable, options);
    case BackendKind::cuda:
      require_cuda_device();
#if CELLGRAPH_HAVE_CUDA
      return cuda::make_cuda_movable_simulation(model, particles, movable, options);
#endif
      break;
  }
  throw Error("unknown backend");
}

}  // namespace cellgraph
