// cellgraph run for movable models (vicsek, mca): particles in a box instead of a source; and
// what both kinds of run say when a signal stops them.
#pragma once
#include "cellgraph/run/driver.hpp"
#include "models/movable_registry.hpp"
#include "tools/cellgraph/cli.hpp"

namespace cellgraph::cli {

// --particles, --box, --dims, --skin (run's options; --boundary is shared).
po::options_description movable_options();
// Refuses the options above for models that are not movable.
void refuse_movable_options(const po::variables_map& vm, const std::string& model);
// The whole run of a movable model, from parsed options.
int run_movable(const po::variables_map& vm, const models::MovableModelInfo& model);

// "cellgraph run: stopped by SIGINT after step N of M; wrote ...; not written (final state):
// --png\n": the outputs a stopped run wrote, joined by `between_written`, and the flags of
// those it could not.
std::string stop_message(const RunResult& result, std::uint64_t steps, const std::string& between_written);
// How a run shows progress: on rank 0 only; --progress asks for a line every second.
Progress::Mode progress_mode(const po::variables_map& vm);

}  // namespace cellgraph::cli
