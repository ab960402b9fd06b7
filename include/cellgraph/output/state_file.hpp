// Per-vertex states as a text file, the format read_state_file reads back.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace cellgraph {

// A "# cellgraph states, N vertices" comment, then line i holds the state of user vertex i.
// Written atomically; throws Error on failure.
void write_state_file(const std::string& path, const std::vector<std::uint32_t>& states);

}  // namespace cellgraph
