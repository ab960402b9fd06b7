// The CUDA backend for rule numbers: the same rule as models/rule_number.hpp, compiled by nvcc.
#include "models/rule_number.hpp"
#include "src/backend/cuda/cuda_simulation.cuh"

template std::unique_ptr<cellgraph::Simulation> cellgraph::cuda::make_cuda_simulation(
    const cellgraph::models::RuleNumber&, std::shared_ptr<const cellgraph::Layout>,
    const cellgraph::SimulationOptions&);
