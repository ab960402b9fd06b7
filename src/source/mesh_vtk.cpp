// VTK unstructured grids: legacy .vtk files (ASCII; the classic "CELLS n size" layout and
// the 5.x OFFSETS/CONNECTIVITY layout) and .vtu XML files whose DataArrays are inline,
// format "ascii" or "binary" (base64, uncompressed, UInt32 or UInt64 headers, little-endian).
// Not read: legacy BINARY files, appended data, compressed data, polyhedra.
//
// The XML reader is a small scanner for the elements VTK writes, not a general XML parser:
// it reads the tags VTKFile, Piece, Points, Cells and DataArray and skips everything else.
#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "src/source/line_reader.hpp"
#include "src/source/mesh_formats.hpp"

namespace cellgraph::detail {
namespace {

constexpr std::string_view kNoComments = "";

// Cells as VTK lays them out: cell c has connectivity[offsets[c] .. offsets[c+1]).
struct Cells {
  std::vector<std::uint64_t> offsets{0};
  std::vector<std::uint64_t> connectivity;
  std::vector<std::uint64_t> types;
};

// Checks `cells` against the node count and appends them to `mesh`, node ids shifted by
// `first_node`. `fail_at(what)` reports a fault in the types, `fail_nodes` one in the nodes.
template <class FailTypes, class FailNodes>
void append_cells(Mesh& mesh, const Cells& cells, std::uint64_t first_node, std::uint64_t node_count,
                  FailTypes fail_types, FailNodes fail_nodes) {
  const std::size_t n = cells.types.size();
  if (cells.offsets.size() != n + 1)
    fail_types(std::to_string(n) + " cell types for " + std::to_string(cells.offsets.size() - 1) + " cells");
  for (std::size_t c = 0; c < n; ++c) {
    const VtkCellType* type = cells.types[c] > 255 ? nullptr : find_vtk_cell_type(int(cells.types[c]));
    if (!type)
      fail_types("cell " + std::to_string(c) + " has VTK type " + std::to_string(cells.types[c]) +
                 ", which is not supported");
    const std::uint64_t first = cells.offsets[c], last = cells.offsets[c + 1];
    if (last < first || last > cells.connectivity.size())
      fail_nodes("the offsets of cell " + std::to_string(c) + " are out of order or range");
    if (type->nodes != 0 ? last - first != type->nodes : last == first)
      fail_nodes("cell " + std::to_string(c) + ", a " + type->name + ", has " + std::to_string(last - first) +
                 " nodes");
    for (std::uint64_t k = first; k < last; ++k) {
      if (cells.connectivity[k] >= node_count)
        fail_nodes("cell " + std::to_string(c) + " refers to point " + std::to_string(cells.connectivity[k]) +
                   ", but there are " + std::to_string(node_count));
      mesh.element_nodes.push_back(std::uint32_t(first_node + cells.connectivity[k]));
    }
    mesh.element_type.push_back(type->type);
    mesh.element_dim.push_back(type->dim);
    mesh.element_offsets.push_back(mesh.element_nodes.size());
  }
}

// ----- Legacy VTK.

class LegacyVtkReader {
 public:
  LegacyVtkReader(std::istream& in, const std::string& name) : reader_(in, name) {}
  std::size_t line_number() const { return reader_.line_number(); }

  Mesh read() {
    read_preamble();
    std::size_t cells_line = 0, types_line = 0;
    while (!(have_points_ && cells_line && types_line) && reader_.next(kNoComments)) {
      const std::string keyword(reader_[0]);
      if (keyword == "POINTS") {
        read_points();
      } else if (keyword == "CELLS") {
        cells_line = reader_.line_number();
        read_cells();
      } else if (keyword == "CELL_TYPES") {
        types_line = reader_.line_number();
        read_cell_types();
      }
      // Anything else (METADATA, FIELD, ...) is not needed here.
    }
    if (!have_points_ || !cells_line || !types_line)
      reader_.fail_at(0, "an unstructured grid needs POINTS, CELLS and CELL_TYPES");
    if (cells_.types.empty()) reader_.fail_at(types_line, "the mesh has no elements: CELL_TYPES is empty");
    append_cells(
        mesh_, cells_, 0, mesh_.num_nodes(), [&](const std::string& what) { reader_.fail_at(types_line, what); },
        [&](const std::string& what) { reader_.fail_at(cells_line, what); });
    return std::move(mesh_);
  }

 private:
  void read_preamble() {
    if (!reader_.next(kNoComments, BlankLines::keep) || reader_.size() < 4 || reader_[0] != "#" || reader_[1] != "vtk")
      reader_.fail("expected '# vtk DataFile Version x.y'");
    version5_ = reader_.size() >= 5 && reader_[4].starts_with("5");
    reader_.next(kNoComments, BlankLines::keep);  // the title, which may be blank
    if (!reader_.next(kNoComments) || reader_[0] != "ASCII") reader_.fail("only ASCII legacy VTK files are supported");
    if (!reader_.next(kNoComments) || reader_.size() != 2 || reader_[0] != "DATASET" ||
        reader_[1] != "UNSTRUCTURED_GRID")
      reader_.fail("expected 'DATASET UNSTRUCTURED_GRID'");
  }

  // "POINTS n type", then 3n numbers.
  void read_points() {
    if (reader_.size() != 3) reader_.fail("expected 'POINTS n type', " + reader_.fields_found());
    const auto n = reader_.parse_unsigned(reader_[1], "point count", kMaxVertices);
    check_numbers_fit(3 * n, "POINTS gives " + std::to_string(n) + " points, " + std::to_string(3 * n) + " numbers");
    reader_.require_memory(estimated_mesh_bytes(n, 0, 0),
                           [&] { return "POINTS gives " + std::to_string(n) + " points, which imply a mesh that"; });
    TokenStream values(reader_, kNoComments);
    mesh_.nodes.reserve(3 * reserve_hint(n));
    for (std::uint64_t i = 0; i < 3 * n; ++i)
      mesh_.nodes.push_back(reader_.parse_real(values.next("the end of POINTS"), "coordinate"));
    have_points_ = true;
  }

  // Before 5.0: "CELLS n size", then per cell its node count and nodes (size numbers in all).
  // 5.x: "CELLS offsets connectivity", "OFFSETS type" and its numbers, "CONNECTIVITY type" and
  // its numbers.
  void read_cells() {
    if (reader_.size() != 3) reader_.fail("expected 'CELLS n size', " + reader_.fields_found());
    const std::size_t header_line = reader_.line_number();
    const auto first = reader_.parse_unsigned(reader_[1], "cell count", kMaxVertices + 1);
    const auto second = reader_.parse_unsigned(reader_[2], "cell list size", std::numeric_limits<std::uint32_t>::max());
    // 5.x: `first` offsets and `second` node ids; before: `second` numbers, counts and ids.
    const std::uint64_t numbers = version5_ ? first + second : second;
    const std::uint64_t cells = version5_ ? first - std::min<std::uint64_t>(first, 1) : first;
    check_numbers_fit(numbers, "CELLS gives " + std::to_string(numbers) + " numbers");
    const std::uint64_t as_read = 2 * sizeof(std::uint64_t) * numbers;  // cells_, before append_cells
    reader_.require_memory(estimated_mesh_bytes(mesh_.num_nodes(), cells, numbers) + as_read, [&] {
      return "CELLS gives " + std::to_string(cells) + " cells of " + std::to_string(numbers) +
             " numbers, which imply a mesh that";
    });
    if (version5_) {
      read_array("OFFSETS", first, cells_.offsets);
      read_array("CONNECTIVITY", second, cells_.connectivity);
      if (cells_.offsets.empty() || cells_.offsets[0] != 0) reader_.fail("OFFSETS must start at 0");
      return;
    }
    TokenStream values(reader_, kNoComments);
    for (std::uint64_t c = 0; c < first; ++c) {
      const auto count =
          reader_.parse_unsigned(values.next("the end of CELLS"), "node count", second - cells_.connectivity.size());
      for (std::uint64_t k = 0; k < count; ++k)
        cells_.connectivity.push_back(
            reader_.parse_unsigned(values.next("the end of CELLS"), "point index", kMaxVertices));
      cells_.offsets.push_back(cells_.connectivity.size());
    }
    if (cells_.connectivity.size() + first != second)
      reader_.fail_at(header_line, "CELLS holds " + std::to_string(cells_.connectivity.size() + first) +
                                       " numbers, but its header gives " + std::to_string(second));
  }

  void read_array(const char* keyword, std::uint64_t n, std::vector<std::uint64_t>& out) {
    if (!reader_.next(kNoComments) || reader_[0] != keyword)
      reader_.fail(std::string("expected ") + keyword + " after CELLS");
    out.clear();
    TokenStream values(reader_, kNoComments);
    const std::string end = std::string("the end of ") + keyword;
    for (std::uint64_t i = 0; i < n; ++i)
      out.push_back(reader_.parse_unsigned(values.next(end), keyword, std::numeric_limits<std::uint32_t>::max()));
  }

  // "CELL_TYPES n", then n numbers.
  void read_cell_types() {
    if (reader_.size() != 2) reader_.fail("expected 'CELL_TYPES n', " + reader_.fields_found());
    const auto n = reader_.parse_unsigned(reader_[1], "cell count", kMaxVertices);
    check_numbers_fit(n, "CELL_TYPES gives " + std::to_string(n) + " cell types");
    TokenStream values(reader_, kNoComments);
    for (std::uint64_t i = 0; i < n; ++i)
      cells_.types.push_back(reader_.parse_unsigned(values.next("the end of CELL_TYPES"), "cell type", 255));
  }

  // A header's count of numbers must fit in the rest of the file, a digit and a blank each.
  void check_numbers_fit(std::uint64_t count, const std::string& claim) const {
    reader_.check_count_fits(count, 2, claim);
  }
  LineReader reader_;
  bool version5_ = false, have_points_ = false;
  Mesh mesh_;
  Cells cells_;
};

// ----- VTU.

struct Tag {
  std::string name;  // "/Piece" for a closing tag
  std::vector<std::pair<std::string, std::string>> attributes;
  bool self_closing = false;
  std::size_t start = 0, end = 0;  // at '<', just past '>'

  std::optional<std::string_view> attribute(std::string_view key) const {
    for (const auto& [k, v] : attributes)
      if (k == key) return v;
    return std::nullopt;
  }
};

std::optional<std::uint8_t> base64_value(char c) {
  if (c >= 'A' && c <= 'Z') return std::uint8_t(c - 'A');
  if (c >= 'a' && c <= 'z') return std::uint8_t(c - 'a' + 26);
  if (c >= '0' && c <= '9') return std::uint8_t(c - '0' + 52);
  if (c == '+') return 62;
  if (c == '/') return 63;
  return std::nullopt;
}

class VtuReader {
 public:
  VtuReader(std::istream& in, std::string name) : name_(std::move(name)) {
    std::ostringstream text;
    text << in.rdbuf();
    text_ = std::move(text).str();
  }

  // The line of the tag being read.
  std::size_t line_number() const { return line_at(tag_at_); }

  Mesh read() {
    std::string_view section;  // "Points" or "Cells" while inside one
    Cells cells;
    std::uint64_t piece_first_node = 0, piece_points = 0, piece_cells = 0;
    std::size_t piece_at = 0, types_at = 0, connectivity_at = 0;
    bool in_file = false;
    for (std::size_t at = 0; auto tag = next_tag(at);) {
      const std::size_t tag_at = tag->start;
      tag_at_ = tag_at;
      at = tag->end;
      if (tag->name == "VTKFile") {
        read_file_attributes(*tag, tag_at);
        in_file = true;
      } else if (tag->name == "AppendedData") {
        fail(tag_at, "appended data is not supported; write the arrays inline");
      } else if (tag->name == "Piece") {
        piece_at = tag_at;
        piece_first_node = mesh_.num_nodes();
        piece_points = count_attribute(*tag, "NumberOfPoints", tag_at);
        piece_cells = count_attribute(*tag, "NumberOfCells", tag_at);
        cells = Cells{};
      } else if (tag->name == "/Piece") {
        if (mesh_.num_nodes() - piece_first_node != piece_points)
          fail(piece_at, "the Piece has " + std::to_string(piece_points) + " points, but its " + "Points array gives " +
                             std::to_string(mesh_.num_nodes() - piece_first_node));
        if (cells.types.size() != piece_cells)
          fail(piece_at, "the Piece has " + std::to_string(piece_cells) + " cells, but its " + "types array gives " +
                             std::to_string(cells.types.size()));
        append_cells(
            mesh_, cells, piece_first_node, piece_points, [&](const std::string& what) { fail(types_at, what); },
            [&](const std::string& what) { fail(connectivity_at, what); });
      } else if (tag->name == "Points" || tag->name == "Cells") {
        section = tag->self_closing ? "" : tag->name == "Points" ? "Points" : "Cells";
      } else if (tag->name == "/Points" || tag->name == "/Cells") {
        section = "";
      } else if (tag->name == "DataArray" && !section.empty()) {
        const std::string_view array = tag->attribute("Name").value_or("");
        if (section == "Points") {
          if (tag->attribute("NumberOfComponents").value_or("1") != "3")
            fail(tag_at, "points need NumberOfComponents=\"3\"");
          const auto coords = read_array<double>(*tag, tag_at, at);
          if (coords.size() % 3 != 0) fail(tag_at, "the Points array's size is not a multiple of 3");
          mesh_.nodes.insert(mesh_.nodes.end(), coords.begin(), coords.end());
        } else if (array == "connectivity") {
          connectivity_at = tag_at;
          cells.connectivity = read_array<std::uint64_t>(*tag, tag_at, at);
        } else if (array == "offsets") {
          // VTK's offsets are each cell's end; a Cells holds the starts as well.
          const auto ends = read_array<std::uint64_t>(*tag, tag_at, at);
          cells.offsets.assign(1, 0);
          cells.offsets.insert(cells.offsets.end(), ends.begin(), ends.end());
        } else if (array == "types") {
          types_at = tag_at;
          cells.types = read_array<std::uint64_t>(*tag, tag_at, at);
        }
      }
    }
    if (!in_file) throw ParseError(name_, 0, "no VTKFile element");
    if (mesh_.num_nodes() == 0) throw ParseError(name_, 0, "no Piece with points");
    if (mesh_.num_elements() == 0) fail(piece_at, "the mesh has no elements: NumberOfCells is 0");
    return std::move(mesh_);
  }

 private:
  [[noreturn]] void fail(std::size_t offset, const std::string& what) const {
    throw ParseError(name_, line_at(offset), what);
  }
  std::size_t line_at(std::size_t offset) const {
    return 1 + std::size_t(std::count(text_.begin(), text_.begin() + std::ptrdiff_t(offset), '\n'));
  }

  void read_file_attributes(const Tag& tag, std::size_t at) {
    if (tag.attribute("type").value_or("") != "UnstructuredGrid")
      fail(at, "only VTKFile type=\"UnstructuredGrid\" is supported");
    if (tag.attribute("compressor")) fail(at, "compressed data is not supported");
    if (tag.attribute("byte_order").value_or("LittleEndian") != "LittleEndian" ||
        std::endian::native != std::endian::little)
      fail(at, "only little-endian data is supported");
    const std::string_view header = tag.attribute("header_type").value_or("UInt32");
    if (header != "UInt32" && header != "UInt64") fail(at, "header_type " + quoted_text(header) + " is not supported");
    header_bytes_ = header == "UInt64" ? 8 : 4;
  }

  std::uint64_t count_attribute(const Tag& tag, std::string_view key, std::size_t at) const {
    const std::string value(tag.attribute(key).value_or(""));
    std::istringstream in(value);
    LineReader reader(in, name_, line_at(at) - 1);
    if (!reader.next(kNoComments) || reader.size() != 1) fail(at, std::string(key) + " is missing or not a number");
    return reader.parse_unsigned(reader[0], key, kMaxVertices);
  }

  // The next tag at or after `at`, skipping <?...?>, <!...> and text; none at the end.
  std::optional<Tag> next_tag(std::size_t at) const {
    for (;;) {
      at = text_.find('<', at);
      if (at == std::string::npos) return std::nullopt;
      if (text_.compare(at, 4, "<!--") == 0) {
        at = text_.find("-->", at);
        if (at == std::string::npos) fail(text_.size(), "an unterminated comment");
        continue;
      }
      if (text_.compare(at, 2, "<?") == 0 || text_.compare(at, 2, "<!") == 0) {
        at = text_.find('>', at);
        if (at == std::string::npos) fail(text_.size(), "an unterminated declaration");
        continue;
      }
      return parse_tag(at);
    }
  }

  // A tag whose '<' is at `at`: its name, then key="value" attributes (or '...').
  Tag parse_tag(std::size_t at) const {
    const auto is_name_char = [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == ':' || c == '.' || c == '/';
    };
    const auto skip_space = [&](std::size_t i) {
      while (i < text_.size() && std::isspace(static_cast<unsigned char>(text_[i]))) ++i;
      return i;
    };
    Tag tag;
    tag.start = at;
    std::size_t i = at + 1;
    while (i < text_.size() && is_name_char(text_[i])) tag.name += text_[i++];
    for (;;) {
      i = skip_space(i);
      if (i >= text_.size()) fail(at, "an unterminated <" + printable_text(tag.name) + "> tag");
      if (text_[i] == '>') break;
      if (text_.compare(i, 2, "/>") == 0) {
        tag.self_closing = true;
        ++i;
        break;
      }
      std::string key;
      while (i < text_.size() && is_name_char(text_[i]) && text_[i] != '/') key += text_[i++];
      i = skip_space(i);
      if (key.empty() || i >= text_.size() || text_[i] != '=')
        fail(at, "a malformed attribute in <" + printable_text(tag.name) + ">");
      i = skip_space(i + 1);
      const char quote = i < text_.size() ? text_[i] : '\0';
      const std::size_t close = quote == '"' || quote == '\'' ? text_.find(quote, i + 1) : std::string::npos;
      if (close == std::string::npos) fail(at, "a malformed attribute in <" + printable_text(tag.name) + ">");
      tag.attributes.emplace_back(std::move(key), text_.substr(i + 1, close - i - 1));
      i = close + 1;
    }
    tag.end = i + 1;
    return tag;
  }

  // The values of the DataArray whose tag is at `tag_at` and whose content starts at
  // `content_at`, converted to T.
  template <class T>
  std::vector<T> read_array(const Tag& tag, std::size_t tag_at, std::size_t content_at) const {
    if (tag.self_closing) return {};
    const std::size_t content_end = text_.find("</DataArray>", content_at);
    if (content_end == std::string::npos) fail(tag_at, "a DataArray with no </DataArray>");
    const std::string_view content(text_.data() + content_at, content_end - content_at);
    const std::string_view format = tag.attribute("format").value_or("");
    const std::string type(tag.attribute("type").value_or(""));
    if (format == "ascii") return ascii_values<T>(content, type, content_at);
    if (format == "binary") return binary_values<T>(content, type, tag_at);
    fail(tag_at, "DataArray format " + quoted_text(format) + " is not supported");
  }

  template <class T>
  std::vector<T> ascii_values(std::string_view content, const std::string& type, std::size_t content_at) const {
    std::istringstream in{std::string(content)};
    LineReader reader(in, name_, line_at(content_at) - 1);
    const bool real = type.starts_with("Float");
    std::vector<T> values;
    while (reader.next(kNoComments))
      for (std::size_t i = 0; i < reader.size(); ++i) {
        if constexpr (std::is_floating_point_v<T>) {
          values.push_back(reader.parse_real(reader[i], "coordinate"));
        } else {
          if (real) reader.fail("expected integers in a " + printable_text(type) + " array of indices");
          values.push_back(reader.parse_unsigned(reader[i], "value", kMaxVertices));
        }
      }
    return values;
  }

  template <class T>
  std::vector<T> binary_values(std::string_view content, const std::string& type, std::size_t tag_at) const {
    const std::vector<std::uint8_t> bytes = decode_base64(content, tag_at);
    if (bytes.size() < header_bytes_) fail(tag_at, "binary DataArray without its size header");
    std::uint64_t size = 0;
    std::memcpy(&size, bytes.data(), header_bytes_);
    if (size > bytes.size() - header_bytes_)
      fail(tag_at, "the DataArray's header gives " + std::to_string(size) + " bytes, but it holds " +
                       std::to_string(bytes.size() - header_bytes_));
    const std::uint8_t* data = bytes.data() + header_bytes_;
    std::vector<T> values;
    const auto convert = [&]<class Stored>(Stored) {
      if (size % sizeof(Stored) != 0) fail(tag_at, "the DataArray's size is not a whole number of values");
      values.reserve(size / sizeof(Stored));
      for (std::uint64_t at = 0; at < size; at += sizeof(Stored)) {
        Stored value;
        std::memcpy(&value, data + at, sizeof value);
        if constexpr (std::is_floating_point_v<T>) {
          if (!std::isfinite(static_cast<double>(value)))
            fail(tag_at, "value " + std::to_string(at / sizeof(Stored)) + " of the DataArray is not a finite number");
        } else {
          if constexpr (std::is_floating_point_v<Stored>) {
            fail(tag_at, "expected integers in a " + printable_text(type) + " array of indices");
          } else if constexpr (std::is_signed_v<Stored>) {
            if (value < 0) fail(tag_at, "a negative index in the DataArray");
          }
        }
        values.push_back(static_cast<T>(value));
      }
    };
    if (type == "Float64") convert(double{});
    else if (type == "Float32") convert(float{});
    else if (type == "Int64") convert(std::int64_t{});
    else if (type == "UInt64") convert(std::uint64_t{});
    else if (type == "Int32") convert(std::int32_t{});
    else if (type == "UInt32") convert(std::uint32_t{});
    else if (type == "Int16") convert(std::int16_t{});
    else if (type == "UInt16") convert(std::uint16_t{});
    else if (type == "Int8") convert(std::int8_t{});
    else if (type == "UInt8") convert(std::uint8_t{});
    else fail(tag_at, "DataArray type " + quoted_text(type) + " is not supported");
    return values;
  }

  // Base64 that may be several encodings one after another (VTK encodes the size header
  // apart from the data), so padding may appear in the middle.
  std::vector<std::uint8_t> decode_base64(std::string_view text, std::size_t tag_at) const {
    std::vector<std::uint8_t> bytes;
    bytes.reserve(text.size() / 4 * 3);
    std::array<std::uint8_t, 4> quantum{};
    int filled = 0, padding = 0;
    for (char c : text) {
      if (std::isspace(static_cast<unsigned char>(c))) continue;
      if (c == '=') {
        ++padding;
        quantum[filled++] = 0;
      } else if (const auto value = base64_value(c); value && padding == 0) {
        quantum[filled++] = *value;
      } else {
        fail(tag_at, "a bad base64 character " + quoted_text(std::string_view(&c, 1)) + " in a DataArray");
      }
      if (filled < 4) continue;
      const std::uint32_t bits = std::uint32_t(quantum[0]) << 18 | std::uint32_t(quantum[1]) << 12 |
                                 std::uint32_t(quantum[2]) << 6 | quantum[3];
      const std::uint8_t decoded[3] = {std::uint8_t(bits >> 16), std::uint8_t(bits >> 8), std::uint8_t(bits)};
      if (padding > 2) fail(tag_at, "bad base64 padding in a DataArray");
      bytes.insert(bytes.end(), decoded, decoded + 3 - padding);
      filled = padding = 0;
    }
    if (filled != 0) fail(tag_at, "base64 data in a DataArray ends mid-quantum");
    return bytes;
  }

  std::string name_;
  std::string text_;
  std::size_t tag_at_ = 0;  // where the tag being read starts
  std::size_t header_bytes_ = 4;
  Mesh mesh_;
};

}  // namespace

Mesh read_legacy_vtk_mesh(std::istream& in, const std::string& name) {
  LegacyVtkReader reader(in, name);
  return naming_file_when_out_of_memory(
      name, [&] { return reader.line_number(); }, [&] { return reader.read(); });
}

Mesh read_vtu_mesh(std::istream& in, const std::string& name) {
  std::optional<VtuReader> reader;
  return naming_file_when_out_of_memory(
      name, [&] { return reader ? reader->line_number() : 0; },
      [&] {
        reader.emplace(in, name);  // reads the whole file
        return reader->read();
      });
}

}  // namespace cellgraph::detail
