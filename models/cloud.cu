// The CUDA backend for the cloud model: the same rule as models/cloud.hpp, compiled by nvcc.
#include "models/cloud.hpp"
#include "src/backend/cuda/cuda_simulation.cuh"

template std::unique_ptr<cellgraph::Simulation> cellgraph::cuda::make_cuda_simulation(
    const cellgraph::models::Cloud&, std::shared_ptr<const cellgraph::Layout>,
    const cellgraph::SimulationOptions&);
