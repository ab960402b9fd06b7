#include "cellgraph/digest.hpp"

#include <zlib.h>

#include <algorithm>
#include <cstdio>

namespace cellgraph {

std::uint32_t crc32_of(const void* data, std::size_t bytes, std::uint32_t crc) {
  const auto* at = static_cast<const Bytef*>(data);
  while (bytes > 0) {  // zlib takes 32-bit lengths
    const std::size_t n = std::min<std::size_t>(bytes, std::size_t(1) << 30);
    crc = std::uint32_t(crc32(crc, at, uInt(n)));
    at += n;
    bytes -= n;
  }
  return crc;
}

std::string hex32(std::uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", value);
  return text;
}

}  // namespace cellgraph
