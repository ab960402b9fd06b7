// The CUDA backend for Life-like rules: the same rule as models/lifelike.hpp, compiled by nvcc.
#include "models/lifelike.hpp"
#include "src/backend/cuda/cuda_simulation.cuh"

template std::unique_ptr<cellgraph::Simulation> cellgraph::cuda::make_cuda_simulation(
    const cellgraph::models::LifeLike&, std::shared_ptr<const cellgraph::Layout>,
    const cellgraph::SimulationOptions&);
