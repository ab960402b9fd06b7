// Checkpoints: everything a run needs to continue bit-identically, in a versioned binary file
// with a checksum, written atomically.
//
// Layout (little-endian): "CGCKPT\r\n", u32 version, u64 step, u64 seed, strings (u32 length +
// bytes) model, parameters, source; u32 vertices, u32 variables, then per variable u32 bytes per
// vertex and the values in user order; last, the CRC-32 (zlib) of everything before it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace cellgraph {

struct Checkpoint {
  std::uint64_t step = 0, seed = 0;
  std::string model, parameters, source;  // what the restart must match
  std::uint32_t vertices = 0;
  std::vector<std::vector<std::uint8_t>> variables;  // Simulation::export_state()
};

inline constexpr std::uint32_t kCheckpointVersion = 1;

void write_checkpoint(const std::string& path, const Checkpoint& checkpoint);
// Throws Error naming the file: not a checkpoint, another version, truncated, corrupt
// (checksum), or inconsistent sizes.
Checkpoint read_checkpoint(const std::string& path);

}  // namespace cellgraph
