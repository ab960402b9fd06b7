// CRC-32 (zlib's) of bytes of any length: checkpoints' checksums, and the digests by which the
// ranks of a partitioned run check that they read the same inputs.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cellgraph {

// Continues `crc` (0 to start) over `bytes` bytes at `data`.
std::uint32_t crc32_of(const void* data, std::size_t bytes, std::uint32_t crc = 0);
inline std::uint32_t crc32_of(std::string_view bytes, std::uint32_t crc = 0) {
  return crc32_of(bytes.data(), bytes.size(), crc);
}
template <class T>
std::uint32_t crc32_of(const std::vector<T>& values, std::uint32_t crc = 0) {
  return crc32_of(values.data(), values.size() * sizeof(T), crc);
}
// "0x1a2b3c4d".
std::string hex32(std::uint32_t value);

}  // namespace cellgraph
