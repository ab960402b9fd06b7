// The CUDA backend for SIR and SIS epidemics: the same rule as models/epidemic.hpp, compiled by nvcc.
#include "models/epidemic.hpp"
#include "src/backend/cuda/cuda_simulation.cuh"

template std::unique_ptr<cellgraph::Simulation> cellgraph::cuda::make_cuda_simulation(
    const cellgraph::models::Epidemic&, std::shared_ptr<const cellgraph::Layout>,
    const cellgraph::SimulationOptions&);
