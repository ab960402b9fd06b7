// The CUDA backend for the Ising model: the same rule as models/ising.hpp, compiled by nvcc.
#include "models/ising.hpp"
#include "src/backend/cuda/cuda_simulation.cuh"

template std::unique_ptr<cellgraph::Simulation> cellgraph::cuda::make_cuda_simulation(
    const cellgraph::models::Ising&, std::shared_ptr<const cellgraph::Layout>,
    const cellgraph::SimulationOptions&);
