// Per-vertex states as a text file, the format read_state_file reads back.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace cellgraph {

// A "# cellgraph states, N vertices" comment, then line i holds the state of user vertex i;
// with `vertex_labels` (a labelled graph's names of its vertices, LabelledGraph), line i reads
// "LABEL STATE" for vertex i, the label in double quotes where it is empty, starts with '#' or
// holds a blank or a quote (a quote doubled inside, as CSV quotes). Written atomically; throws
// Error on failure.
void write_state_file(const std::string& path, const std::vector<std::uint32_t>& states,
                      const std::vector<std::string>& vertex_labels = {});

}  // namespace cellgraph
