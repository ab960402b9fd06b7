// Checkpoints: everything a run needs to continue bit-identically, in a versioned binary file
// with a checksum, written atomically.
//
// Layout (little-endian): "CGCKPT\r\n", u32 version, u64 step, u64 seed, strings (u32 length +
// bytes) model, parameters, source, run options (version 2 on); u32 vertices, u32 variables, then
// per variable u32 bytes per vertex and the values in user order; last, the CRC-32 (zlib) of
// everything before it. Version 1 files (no run options) are read too.
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
  std::vector<std::uint64_t> variable_offsets;       // read_checkpoint: where each variable's bytes begin
  // The options that chose the source and the model, as command-line tokens ("--grid", "64x64",
  // ...) each ended by '\0', so that a restart can continue from the checkpoint alone. Empty in
  // version 1 files.
  std::string run_options;
};

inline constexpr std::uint32_t kCheckpointVersion = 2;

void write_checkpoint(const std::string& path, const Checkpoint& checkpoint);
// Throws Error naming the file: not a checkpoint, a version other than 1 or 2, truncated,
// corrupt (checksum), inconsistent sizes, or a step past kMaxSteps.
Checkpoint read_checkpoint(const std::string& path);

// A checkpoint can carry a valid checksum and still not fit the run it restarts: throws Error
// "FILE: byte N: ..." unless it has one variable per entry of `widths` (bytes per vertex, what
// Simulation::export_state() holds) and variable 0 keeps to states 0..num_states-1 (any, when
// num_states is 0). `model` names the model in messages.
void check_checkpoint_fits(const Checkpoint& checkpoint, const std::string& path,
                           const std::vector<std::uint32_t>& widths, std::uint32_t num_states,
                           const std::string& model);

}  // namespace cellgraph
