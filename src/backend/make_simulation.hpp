// Builds a Simulation of a concrete model on the backend the options name.
#pragma once
#include <memory>

#include "cellgraph/error.hpp"
#include "cellgraph/simulation.hpp"
#include "src/backend/cpu/cpu_simulation.hpp"

namespace cellgraph {

template <class Model>
std::unique_ptr<Simulation> make_simulation_for(const Model& model,
                                                std::shared_ptr<const Layout> layout,
                                                const SimulationOptions& options) {
  switch (options.backend) {
    case BackendKind::cpu:
      return std::make_unique<CpuSimulation<Model>>(model, std::move(layout), options);
    case BackendKind::cuda:
      break;
  }
  throw Error("this build of cellgraph has no CUDA backend (configure with CUDA to get one)");
}

}  // namespace cellgraph
