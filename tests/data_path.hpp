// Test data lives in the repository's data/; CELLGRAPH_DATA_DIR in the environment overrides
// the build-time path (the GPU machine runs a copy of the tree elsewhere).
#pragma once
#include <cstdlib>
#include <string>

inline std::string data_path(const std::string& relative) {
  const char* dir = std::getenv("CELLGRAPH_DATA_DIR");
  return std::string(dir && *dir ? dir : CELLGRAPH_DATA_DIR) + "/" + relative;
}
