// The CUDA backend for the forest fire: the same rule as models/forest_fire.hpp, compiled by nvcc.
#include "models/forest_fire.hpp"
#include "src/backend/cuda/cuda_simulation.cuh"

template std::unique_ptr<cellgraph::Simulation> cellgraph::cuda::make_cuda_simulation(
    const cellgraph::models::ForestFire&, std::shared_ptr<const cellgraph::Layout>,
    const cellgraph::SimulationOptions&);
