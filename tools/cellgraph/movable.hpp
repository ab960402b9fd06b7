// cellgraph run for movable models (vicsek, mca): particles in a box instead of a source.
#pragma once
#include "models/movable_registry.hpp"
#include "tools/cellgraph/cli.hpp"

namespace cellgraph::cli {

// --particles, --box, --dims, --skin (run's options; --boundary is shared).
po::options_description movable_options();
// Refuses the options above for models that are not movable.
void refuse_movable_options(const po::variables_map& vm, const std::string& model);
// The whole run of a movable model, from parsed options.
int run_movable(const po::variables_map& vm, const models::MovableModelInfo& model);

}  // namespace cellgraph::cli
