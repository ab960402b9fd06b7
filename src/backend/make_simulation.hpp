// Builds a Simulation of a concrete model on the backend the options name. A file that calls
// make_simulation_for instantiates the CPU backend for its model; when nvcc compiles it (model
// files, in builds with the CUDA backend: src/CMakeLists.txt) it instantiates the CUDA backend
// too. Files compiled by the host compiler see only the CUDA backend's declaration, and link
// against the instantiation of the model's file (models/lifelike.model.cpp emits LifeLike's for
// the dense kernels and the benchmarks).
#pragma once
#include <memory>

#include "cellgraph/error.hpp"
#include "cellgraph/simulation.hpp"
#include "src/backend/cpu/cpu_ensemble.hpp"
#include "src/backend/cpu/cpu_simulation.hpp"
#if CELLGRAPH_HAVE_CUDA && defined(__CUDACC__)
#include "src/backend/cuda/cuda_ensemble.cuh"
#include "src/backend/cuda/cuda_simulation.cuh"
#endif

namespace cellgraph {

#if CELLGRAPH_HAVE_CUDA && !defined(__CUDACC__)
namespace cuda {
template <class Model>
std::unique_ptr<Simulation> make_cuda_simulation(const Model& model, std::shared_ptr<const Layout> layout,
                                                 const SimulationOptions& options);
template <class Model>
std::unique_ptr<Ensemble> make_cuda_ensemble(std::vector<Model> models, std::uint32_t replicas,
                                             std::shared_ptr<const Layout> layout, const SimulationOptions& options);
}  // namespace cuda
#endif

template <class Model>
std::unique_ptr<Simulation> make_simulation_for(const Model& model, std::shared_ptr<const Layout> layout,
                                                const SimulationOptions& options) {
  switch (options.backend) {
    case BackendKind::reference:
    case BackendKind::cpu:
      return std::make_unique<CpuSimulation<Model>>(model, std::move(layout), options);
    case BackendKind::cuda:
      require_cuda_device();
#if CELLGRAPH_HAVE_CUDA
      return cuda::make_cuda_simulation(model, std::move(layout), options);
#endif
      break;
  }
  throw Error("unknown backend");
}

// An ensemble (ensemble.hpp) of one model per sweep point, `replicas` members each.
template <class Model>
std::unique_ptr<Ensemble> make_ensemble_for(std::vector<Model> models, std::uint32_t replicas,
                                            std::shared_ptr<const Layout> layout, const SimulationOptions& options) {
  switch (options.backend) {
    case BackendKind::reference:
    case BackendKind::cpu:
      return std::make_unique<CpuEnsemble<Model>>(std::move(models), replicas, std::move(layout), options);
    case BackendKind::cuda:
      require_cuda_device();
#if CELLGRAPH_HAVE_CUDA
      return cuda::make_cuda_ensemble(std::move(models), replicas, std::move(layout), options);
#endif
      break;
  }
  throw Error("unknown backend");
}

}  // namespace cellgraph
