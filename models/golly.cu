// The CUDA backend for Golly rule files: the same rule as models/golly.hpp, compiled by nvcc.
#include "models/golly.hpp"
#include "src/backend/cuda/cuda_simulation.cuh"

template std::unique_ptr<cellgraph::Simulation> cellgraph::cuda::make_cuda_simulation(
    const cellgraph::models::GollyRule&, std::shared_ptr<const cellgraph::Layout>,
    const cellgraph::SimulationOptions&);
