#include "src/output/vtk_arrays.hpp"

#include <zlib.h>

#include <array>
#include <bit>
#include <limits>
#include <new>

#include "cellgraph/error.hpp"

namespace cellgraph::detail {
namespace {

// Binary arrays are memory copied into files that declare byte_order="LittleEndian".
static_assert(std::endian::native == std::endian::little, "VTK binary output assumes a little-endian machine");

// VTK's own block size: readers may decompress one block at a time, and zlib's 32 KiB window
// gains nothing from larger ones.
constexpr std::size_t kZlibBlockSize = 32768;

// Base64 of bytes fed in pieces, encoded as one stream: padded only at the very end.
class Base64Writer {
 public:
  explicit Base64Writer(std::ostream& out) : out_(out) {}

  void write(std::span<const std::byte> bytes) {
    for (std::byte b : bytes) {
      group_[filled_++] = std::to_integer<std::uint8_t>(b);
      if (filled_ == 3) emit_group();
    }
  }

  void finish() {
    if (filled_ > 0) emit_group();
    out_.write(buffer_.data(), std::streamsize(used_));
    used_ = 0;
  }

 private:
  void emit_group() {
    static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const std::uint32_t bits = std::uint32_t(group_[0]) << 16 | std::uint32_t(group_[1]) << 8 | group_[2];
    if (used_ + 4 > buffer_.size()) {
      out_.write(buffer_.data(), std::streamsize(used_));
      used_ = 0;
    }
    buffer_[used_++] = kAlphabet[bits >> 18 & 63];
    buffer_[used_++] = kAlphabet[bits >> 12 & 63];
    buffer_[used_++] = filled_ > 1 ? kAlphabet[bits >> 6 & 63] : '=';
    buffer_[used_++] = filled_ > 2 ? kAlphabet[bits & 63] : '=';
    group_ = {};
    filled_ = 0;
  }

  std::ostream& out_;
  std::array<std::uint8_t, 3> group_{};
  int filled_ = 0;
  std::array<char, 4096> buffer_;
  std::size_t used_ = 0;
};

void write_base64(std::ostream& out, std::span<const std::byte> bytes) {
  Base64Writer base64(out);
  base64.write(bytes);
  base64.finish();
}

// Blocks of kZlibBlockSize bytes (the last one shorter), each compressed on its own by zlib at
// its default level: independent, so the threads share them out.
std::vector<std::vector<Bytef>> compressed_blocks(std::span<const std::byte> bytes) {
  const std::size_t count = (bytes.size() + kZlibBlockSize - 1) / kZlibBlockSize;
  std::vector<std::vector<Bytef>> blocks(count);
  bool failed = false;
#pragma omp parallel for schedule(dynamic, 4) reduction(|| : failed) if (count > 8)
  for (std::size_t b = 0; b < count; ++b) {
    const std::span<const std::byte> block = bytes.subspan(b * kZlibBlockSize);
    const uLong size = uLong(std::min(block.size(), kZlibBlockSize));
    uLongf compressed_size = compressBound(size);
    try {  // no exception may leave the parallel loop
      blocks[b].resize(compressed_size);
      failed = failed || compress2(blocks[b].data(), &compressed_size, reinterpret_cast<const Bytef*>(block.data()),
                                   size, Z_DEFAULT_COMPRESSION) != Z_OK;
      blocks[b].resize(compressed_size);
    } catch (const std::bad_alloc&) {
      failed = true;
    }
  }
  if (failed) throw Error("VTK output: zlib could not compress an array (out of memory)");
  return blocks;
}

void write_zlib(std::ostream& out, std::span<const std::byte> bytes) {
  const std::vector<std::vector<Bytef>> blocks = compressed_blocks(bytes);
  std::vector<std::uint64_t> header{blocks.size(), kZlibBlockSize, bytes.size() % kZlibBlockSize};
  for (const std::vector<Bytef>& block : blocks) header.push_back(block.size());
  write_base64(out, std::as_bytes(std::span(header)));
  Base64Writer base64(out);
  for (const std::vector<Bytef>& block : blocks) base64.write(std::as_bytes(std::span(block)));
  base64.finish();
}

template <class Narrow, class T>
std::vector<Narrow> converted(const std::vector<T>& values) {
  return std::vector<Narrow>(values.begin(), values.end());
}

}  // namespace

UnsignedValues narrowest_unsigned(const std::vector<std::uint32_t>& values, std::uint64_t largest) {
  for (std::uint32_t v : values) largest = std::max<std::uint64_t>(largest, v);
  if (largest <= std::numeric_limits<std::uint8_t>::max()) return converted<std::uint8_t>(values);
  if (largest <= std::numeric_limits<std::uint16_t>::max()) return converted<std::uint16_t>(values);
  return values;
}

IndexValues narrowest_index(const std::vector<std::int64_t>& values) {
  const bool fits = std::all_of(values.begin(), values.end(), [](std::int64_t v) {
    return v >= std::numeric_limits<std::int32_t>::min() && v <= std::numeric_limits<std::int32_t>::max();
  });
  if (fits) return converted<std::int32_t>(values);
  return values;
}

RealValues narrowest_real(const std::vector<double>& values) {
  const bool exact = std::all_of(values.begin(), values.end(), [](double v) { return double(float(v)) == v; });
  if (exact) return converted<float>(values);
  return values;
}

std::string vtk_file_attributes(std::string_view type, VtkEncoding encoding) {
  std::string attributes =
      attr("type", type) + attr("version", "1.0") + attr("byte_order", "LittleEndian") + attr("header_type", "UInt64");
  if (encoding == VtkEncoding::zlib) attributes += attr("compressor", "vtkZLibDataCompressor");
  return attributes;
}

void write_binary_array(std::ostream& out, std::span<const std::byte> bytes, VtkEncoding encoding) {
  if (encoding == VtkEncoding::zlib) return write_zlib(out, bytes);
  const std::uint64_t size = bytes.size();
  Base64Writer base64(out);
  base64.write(std::as_bytes(std::span(&size, 1)));
  base64.write(bytes);
  base64.finish();
}

std::string attr(std::string_view name, std::string_view value) {
  std::string out = " " + std::string(name) + "=\"";
  for (char c : value) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out + "\"";
}

}  // namespace cellgraph::detail
