// VTK XML DataArrays for the writers in vtk.cpp: each array in the smallest VTK type that holds
// its values exactly, encoded as decimal text, base64 of the raw values, or base64 of
// zlib-compressed blocks (VTK's vtkZLibDataCompressor), with UInt64 size headers.
#pragma once
#include <algorithm>
#include <charconv>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "cellgraph/output/vtk.hpp"

namespace cellgraph::detail {

template <class T>
inline constexpr std::string_view kVtkTypeName = "";
template <>
inline constexpr std::string_view kVtkTypeName<double> = "Float64";
template <>
inline constexpr std::string_view kVtkTypeName<float> = "Float32";
template <>
inline constexpr std::string_view kVtkTypeName<std::int64_t> = "Int64";
template <>
inline constexpr std::string_view kVtkTypeName<std::int32_t> = "Int32";
template <>
inline constexpr std::string_view kVtkTypeName<std::uint32_t> = "UInt32";
template <>
inline constexpr std::string_view kVtkTypeName<std::uint16_t> = "UInt16";
template <>
inline constexpr std::string_view kVtkTypeName<std::uint8_t> = "UInt8";

// Arrays narrowed to the smallest type that holds them exactly.
using UnsignedValues = std::variant<std::vector<std::uint8_t>, std::vector<std::uint16_t>, std::vector<std::uint32_t>>;
using IndexValues = std::variant<std::vector<std::int32_t>, std::vector<std::int64_t>>;
using RealValues = std::variant<std::vector<float>, std::vector<double>>;

// UInt8, UInt16 or UInt32: the smallest that holds both `largest` and every value. A type
// fixed in advance (by a model's number of states) widens rather than wraps a stray value.
UnsignedValues narrowest_unsigned(const std::vector<std::uint32_t>& values, std::uint64_t largest);
// Int32 unless a value needs Int64 (VTK's connectivity and offsets take either).
IndexValues narrowest_index(const std::vector<std::int64_t>& values);
// Float32 when every value survives the round trip through float exactly, else Float64.
RealValues narrowest_real(const std::vector<double>& values);

// The VTKFile element's attributes for a dataset `type`: byte order, header type and, for
// zlib, the compressor.
std::string vtk_file_attributes(std::string_view type, VtkEncoding encoding);

// Writes `bytes` as a binary DataArray's text: for VtkEncoding::binary base64 of a UInt64 byte
// count and the bytes, encoded as one stream; for VtkEncoding::zlib base64 of the compression
// header (block count, block size, size of a partial last block or 0, each block's compressed
// size; UInt64 each) followed, encoded apart, by base64 of the compressed blocks.
void write_binary_array(std::ostream& out, std::span<const std::byte> bytes, VtkEncoding encoding);

// ` name="value"`, ready to follow an element name; the value XML-escaped.
std::string attr(std::string_view name, std::string_view value);
std::string attr(std::string_view name, std::integral auto value) { return attr(name, std::to_string(value)); }

struct ArrayLayout {
  std::string_view name;
  int components = 1;
  std::size_t values_per_line = 16;  // ascii only
};

// Indented VTK XML, elements and DataArrays; nesting depth sets the indentation.
class VtkXml {
 public:
  VtkXml(std::ostream& out, VtkEncoding encoding, int depth = 0) : out_(out), encoding_(encoding), depth_(depth) {}

  int depth() const { return depth_; }

  void open(std::string_view element, const std::string& attributes = {}) {
    line("<" + std::string(element) + attributes + ">");
    ++depth_;
  }
  void close(std::string_view element) {
    --depth_;
    line("</" + std::string(element) + ">");
  }
  void empty(std::string_view element, const std::string& attributes) {
    line("<" + std::string(element) + attributes + "/>");
  }

  template <class T>
  void data_array(const ArrayLayout& layout, const std::vector<T>& values) {
    std::string attributes = attr("type", kVtkTypeName<T>) + attr("Name", layout.name);
    if (layout.components > 1) attributes += attr("NumberOfComponents", layout.components);
    attributes += attr("format", encoding_ == VtkEncoding::ascii ? "ascii" : "binary");
    open("DataArray", attributes);
    if (encoding_ == VtkEncoding::ascii) {
      write_ascii(values, std::max<std::size_t>(layout.values_per_line, 1));
    } else {
      indent();
      write_binary_array(out_, std::as_bytes(std::span(values)), encoding_);
      out_ << '\n';
    }
    close("DataArray");
  }
  // A narrowed array, in the type it was narrowed to.
  template <class... T>
  void data_array(const ArrayLayout& layout, const std::variant<std::vector<T>...>& values) {
    std::visit([&](const auto& typed) { data_array(layout, typed); }, values);
  }

 private:
  void indent() {
    for (int level = 0; level < depth_; ++level) out_ << "  ";
  }
  void line(const std::string& text) {
    indent();
    out_ << text << '\n';
  }

  template <class T>
  void write_ascii(const std::vector<T>& values, std::size_t values_per_line) {
    char number[32];  // any int64 or shortest-form double
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (i % values_per_line != 0) {
        out_ << ' ';
      } else {
        if (i > 0) out_ << '\n';
        indent();
      }
      out_.write(number, std::to_chars(number, number + sizeof number, values[i]).ptr - number);
    }
    if (!values.empty()) out_ << '\n';
  }

  std::ostream& out_;
  VtkEncoding encoding_;
  int depth_;
};

}  // namespace cellgraph::detail
