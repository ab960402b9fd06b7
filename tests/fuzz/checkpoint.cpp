// Fuzz target checkpoint: checkpoints (read_checkpoint, src/output/checkpoint.cpp) on any
// bytes, written to a file since the reader takes a path. Each input is read twice: as it is,
// and with its last four bytes replaced by the CRC-32 of the rest, so that mutations get past
// the checksum to the fields behind it. A checkpoint read is then checked against two runs it
// might restart (check_checkpoint_fits): Life (one byte per cell, 2 states) and a model with
// the checkpoint's own variable widths and 3 states. Every error must name the file.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cellgraph/digest.hpp"
#include "cellgraph/output/checkpoint.hpp"
#include "tests/fuzz/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace cellgraph;
  static const fuzz::InputFile file("input.checkpoint");
  std::string bytes(reinterpret_cast<const char*>(data), size);
  for (int variant = 0; variant < 2; ++variant) {
    if (variant == 1) {
      if (bytes.size() < 4) break;
      const std::uint32_t crc = crc32_of(std::string_view(bytes).substr(0, bytes.size() - 4));
      for (int i = 0; i < 4; ++i) bytes[bytes.size() - 4 + i] = char((crc >> (8 * i)) & 0xFF);
      if (bytes == std::string(reinterpret_cast<const char*>(data), size)) break;  // the same input
    }
    const std::string& path = file.write(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    std::optional<Checkpoint> checkpoint;
    fuzz::guarded("read_checkpoint", path, [&] { checkpoint = read_checkpoint(path); });
    if (!checkpoint) continue;
    const Checkpoint& c = *checkpoint;
    if (c.variable_offsets.size() != c.variables.size())
      fuzz::finding("read_checkpoint returned an offset per variable that it did not", "");
    for (std::size_t i = 0; i < c.variables.size(); ++i)
      if (c.variable_offsets[i] + c.variables[i].size() > bytes.size())
        fuzz::finding("read_checkpoint returned a variable past the end of the file", "");
    fuzz::guarded("check_checkpoint_fits (life)", path, [&] { check_checkpoint_fits(c, path, {1}, 2, "lifelike"); });
    std::vector<std::uint32_t> widths;
    for (const auto& variable : c.variables)
      widths.push_back(c.vertices ? std::uint32_t(variable.size() / c.vertices) : 1);
    fuzz::guarded("check_checkpoint_fits (own widths)", path,
                  [&] { check_checkpoint_fits(c, path, widths, 3, "model"); });
  }
  return 0;
}
