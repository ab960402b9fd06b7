// Gmsh MSH files, versions 2.2 and 4.1, ASCII and binary (Gmsh reference manual, "MSH file
// format" and "Legacy formats").
//
// Only $MeshFormat, $Nodes and $Elements are read. Other sections ($PhysicalNames, $Entities,
// $Periodic, $NodeData, ...) are skipped up to their $End line, as Gmsh itself skips sections
// it does not know, binary ones included. Nodes are numbered in file order; elements refer to
// them by tag, and 4.1 tags may leave gaps. Binary files must have this machine's byte order;
// their errors name the line that the offending bytes are on.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

#include "src/source/line_reader.hpp"
#include "src/source/mesh_formats.hpp"

namespace cellgraph::detail {
namespace {

constexpr std::string_view kNoComments = "";
constexpr std::uint64_t kMaxTag = std::numeric_limits<std::uint64_t>::max();

// What messages say about a section, and what its 4.1 headers hold.
struct Section {
  const char* name;
  const char* items;
  const char* header;       // 4.1
  const char* block_field;  // 4.1: the third field of a block header
};
constexpr Section kNodes{"$Nodes", "nodes", "numEntityBlocks numNodes minNodeTag maxNodeTag", "parametric"};
constexpr Section kElements{"$Elements", "elements", "numEntityBlocks numElements minElementTag maxElementTag",
                            "elementType"};

// Gmsh element type -> the VTK cell type with the same nodes. Of these, only the 10-node
// tetrahedron orders its nodes differently (its last two edges are swapped).
const VtkCellType* vtk_type_of_gmsh(std::int64_t gmsh_type) {
  static constexpr std::pair<int, int> kGmshToVtk[] = {
      {1, 3},  {2, 5},  {3, 9},   {4, 10},  {5, 12}, {6, 13},  {7, 14},
      {8, 21}, {9, 22}, {10, 28}, {11, 24}, {15, 1}, {16, 23},
  };
  for (auto [gmsh, vtk] : kGmshToVtk)
    if (gmsh == gmsh_type) return find_vtk_cell_type(vtk);
  return nullptr;
}
constexpr std::uint8_t kVtkQuadraticTetra = 24;

// Node tags -> indices. Tags are positive and usually 1..n, but may leave gaps: a table over
// [min, max] while that is at most a few times n, else a hash map.
class NodeIndex {
 public:
  static constexpr std::uint32_t kMissing = std::numeric_limits<std::uint32_t>::max();

  // Returns a tag given twice, or 0.
  std::uint64_t build(const std::vector<std::uint64_t>& tags) {
    if (tags.empty()) return 0;
    const auto [min, max] = std::minmax_element(tags.begin(), tags.end());
    first_ = *min;
    dense_ = *max - *min < 4 * tags.size() + 1024;
    if (dense_) table_.assign(*max - *min + 1, kMissing);
    for (std::uint32_t i = 0; i < tags.size(); ++i) {
      const bool inserted =
          dense_ ? std::exchange(table_[tags[i] - first_], i) == kMissing : map_.emplace(tags[i], i).second;
      if (!inserted) return tags[i];
    }
    return 0;
  }

  std::uint32_t find(std::uint64_t tag) const {
    if (dense_) return tag >= first_ && tag - first_ < table_.size() ? table_[tag - first_] : kMissing;
    const auto it = map_.find(tag);
    return it == map_.end() ? kMissing : it->second;
  }

 private:
  bool dense_ = true;
  std::uint64_t first_ = 0;
  std::vector<std::uint32_t> table_;
  std::unordered_map<std::uint64_t, std::uint32_t> map_;
};

class GmshReader {
 public:
  GmshReader(std::istream& in, const std::string& name) : reader_(in, name) {}
  std::size_t line_number() const { return reader_.line_number(); }

  Mesh read() {
    bool have_format = false, have_nodes = false, have_elements = false;
    while (reader_.next(kNoComments)) {
      const std::string section(reader_[0]);
      if (section == "$MeshFormat") {
        read_format();
        have_format = true;
      } else if (!have_format) {
        reader_.fail("not a Gmsh MSH file: expected $MeshFormat, found " + quoted_text(section));
      } else if (section == "$Nodes") {
        if (have_nodes) reader_.fail("a second $Nodes section");
        const std::size_t nodes_line = reader_.line_number();
        version4_ ? read_nodes_v4() : read_nodes_v2();
        build_node_index(nodes_line);
        have_nodes = true;
      } else if (section == "$Elements") {
        if (!have_nodes) reader_.fail("$Elements comes before $Nodes");
        if (have_elements) reader_.fail("a second $Elements section");
        elements_line_ = reader_.line_number();
        version4_ ? read_elements_v4() : read_elements_v2();
        have_elements = true;
      } else if (section.starts_with("$")) {
        skip_section(section);
      } else {
        reader_.fail("expected a section such as $Nodes, found " + quoted_text(section));
      }
    }
    if (!have_format) reader_.fail_at(0, "empty file; expected $MeshFormat");
    if (!have_elements) reader_.fail_at(0, "no $Elements section");
    if (mesh_.num_elements() == 0) reader_.fail_at(elements_line_, "the mesh has no elements: $Elements is empty");
    return std::move(mesh_);
  }

 private:
  // "version file-type data-size", then (binary) the integer 1 to show the byte order.
  void read_format() {
    if (!reader_.next(kNoComments) || reader_.size() != 3)
      reader_.fail("expected 'version file-type data-size' after $MeshFormat");
    const std::string version(reader_[0]);
    if (version == "4.1") {
      version4_ = true;
    } else if (version != "2" && version != "2.0" && version != "2.1" && version != "2.2") {
      reader_.fail("MSH version " + printable_text(version) + " is not supported (2.2 and 4.1 are)");
    }
    binary_ = reader_.parse_unsigned(reader_[1], "file type", 1) == 1;
    if (reader_.parse_unsigned(reader_[2], "data size", kMaxTag) != sizeof(double))
      reader_.fail("data size " + printable_text(reader_[2]) + " is not supported (8 is)");
    if (binary_) {
      const auto one = binary_value<std::int32_t>("the byte-order mark");
      if (one != 1) {
        const bool swapped = one == 0x01000000;
        fail_binary(swapped ? "the file's byte order is not this machine's" : "the byte-order mark is not 1");
      }
    }
    expect_end("$MeshFormat");
  }

  // ----- MSH 2.2: "$Nodes", n, then n "tag x y z" lines or records.

  void read_nodes_v2() {
    constexpr std::size_t kRecord = sizeof(std::int32_t) + 3 * sizeof(double);
    const auto count = count_line_v2(kNodes, binary_ ? kRecord : kShortestNodeLine);
    reserve_nodes(count);
    if (binary_) {
      std::vector<char> records;
      const std::uint64_t start = binary_values(records, count * kRecord, kNodes.name);
      for (std::uint64_t i = 0; i < count; ++i) {
        binary_item_ = start + i * kRecord;
        const char* record = records.data() + i * kRecord;
        add_node(node_tag(read_as<std::int32_t>(record)), binary_coordinates(record + sizeof(std::int32_t)));
      }
    } else {
      for (std::uint64_t i = 0; i < count; ++i) {
        body_line(kNodes, i, count);
        if (reader_.size() != 4) reader_.fail("expected 'tag x y z', " + reader_.fields_found());
        add_node(node_tag(reader_.parse_unsigned(reader_[0], "node tag", kMaxTag)), coordinates(1));
      }
    }
    expect_end(kNodes.name);
  }

  // "$Elements", n, then n "tag type ntags tag... node..." lines, or blocks of records under
  // a (type, count, ntags) header.
  void read_elements_v2() {
    // The shortest: a point, "1 15 0 1" as text, its tag and node as binary integers.
    const auto count = count_line_v2(kElements, binary_ ? 2 * sizeof(std::int32_t) : 8);
    reserve_elements(count);
    if (binary_) {
      std::vector<std::int32_t> header, records;
      for (std::uint64_t done = 0; done < count;) {
        binary_values(header, 3, "an $Elements block header");
        const VtkCellType& type = element_type(header[0]);
        const std::int32_t block_size = header[1], tags = header[2];
        if (block_size <= 0 || tags < 0 || std::uint64_t(block_size) > count - done)
          fail_binary("bad $Elements block header (" + std::to_string(block_size) + " elements, " +
                      std::to_string(tags) + " tags)");
        const std::size_t stride = 1 + std::size_t(tags) + type.nodes;
        const std::uint64_t start = binary_values(records, std::uint64_t(block_size) * stride, kElements.name);
        for (std::size_t e = 0; e < std::size_t(block_size); ++e) {
          binary_item_ = start + e * stride * sizeof(std::int32_t);
          const std::int32_t* nodes = records.data() + e * stride + 1 + tags;
          for (std::size_t k = 0; k < type.nodes; ++k) add_element_node(node_tag(nodes[k]));
          finish_element(type);
        }
        done += std::uint64_t(block_size);
      }
    } else {
      for (std::uint64_t i = 0; i < count; ++i) {
        body_line(kElements, i, count);
        if (reader_.size() < 3) reader_.fail("expected 'tag type ntags tag... node...', " + reader_.fields_found());
        const VtkCellType& type = element_type(reader_.parse_signed(reader_[1], "element type"));
        const auto tags = reader_.parse_unsigned(reader_[2], "tag count", reader_.size() - 3);
        if (reader_.size() != 3 + tags + type.nodes)
          reader_.fail(std::string("a ") + type.name + " with " + std::to_string(tags) + " tags needs " +
                       std::to_string(3 + tags + type.nodes) + " fields, " + reader_.fields_found());
        add_element_nodes(3 + tags, type);
      }
    }
    expect_end(kElements.name);
  }

  // `shortest`: the fewest bytes an item takes, for checking the count against the file's size.
  std::uint64_t count_line_v2(const Section& section, std::uint64_t shortest) {
    if (!reader_.next(kNoComments) || reader_.size() != 1)
      reader_.fail(std::string("expected the ") + section.items + " count after " + section.name);
    const auto count = reader_.parse_unsigned(reader_[0], std::string(section.items) + " count", kMaxVertices);
    check_count(section, count, shortest);
    return count;
  }

  // The count a section header gives is a claim: it must fit the rest of the file and, with
  // what is read already, the memory limit; checked before anything is allocated for it.
  void check_count(const Section& section, std::uint64_t count, std::uint64_t shortest) const {
    reader_.check_count_fits(count, shortest,
                             std::string(section.name) + " gives " + std::to_string(count) + " " + section.items);
    const bool nodes = &section == &kNodes;
    const std::uint64_t node_count = nodes ? count : mesh_.num_nodes(), elements = nodes ? 0 : count;
    const std::uint64_t tags = nodes ? 2 * sizeof(std::uint64_t) * count : 0;  // tags, and the index built from them
    reader_.require_memory(estimated_mesh_bytes(node_count, elements, elements) + tags, [&] {
      return std::string(section.name) + "'s " + std::to_string(count) + " " + section.items + " imply a mesh that";
    });
  }

  // ----- MSH 4.1: a section header, then per entity block a block header and its items.

  // Per block: "entityDim entityTag parametric count", count tags, count coordinate lines.
  void read_nodes_v4() {
    // The shortest node: "1\n0 0 0\n" as text, a tag and three coordinates in binary.
    const auto [blocks, count] = section_header_v4(kNodes, binary_ ? 4 * 8 : 8);
    reserve_nodes(count);
    std::vector<std::uint64_t> tags;
    std::vector<double> coords;
    std::uint64_t done = 0;
    for (std::uint64_t b = 0; b < blocks; ++b) {
      const Block block = block_header_v4(kNodes, done, count);
      if (block.third > 1) fail_here("the parametric flag must be 0 or 1");
      const std::size_t fields = 3 + (block.third == 1 ? block.dim : 0);
      if (binary_) {
        const std::uint64_t tags_start = binary_values(tags, block.count, kNodes.name);
        const std::uint64_t coords_start = binary_values(coords, block.count * fields, kNodes.name);
        for (std::uint64_t i = 0; i < block.count; ++i) {
          binary_item_ = tags_start + i * sizeof(std::uint64_t);
          const std::uint64_t tag = node_tag(tags[i]);
          binary_item_ = coords_start + i * fields * sizeof(double);
          add_node(tag, binary_coordinates(&coords[i * fields]));
        }
      } else {
        tags.clear();
        for (std::uint64_t i = 0; i < block.count; ++i) {
          body_line(kNodes, done, count);
          if (reader_.size() != 1) reader_.fail("expected a node tag, " + reader_.fields_found());
          tags.push_back(node_tag(reader_.parse_unsigned(reader_[0], "node tag", kMaxTag)));
        }
        for (std::uint64_t i = 0; i < block.count; ++i) {
          body_line(kNodes, done + i, count);
          if (reader_.size() != fields)
            reader_.fail("expected " + std::to_string(fields) + " coordinates, " + reader_.fields_found());
          add_node(tags[i], coordinates(0));
        }
      }
      done += block.count;
    }
    if (done != count) fail_count(kNodes, done, count);
    expect_end(kNodes.name);
  }

  // Per block: "entityDim entityTag elementType count", then count "tag node..." lines.
  void read_elements_v4() {
    // The shortest element: a point, "1 1" as text, a tag and a node in binary.
    const auto [blocks, count] = section_header_v4(kElements, binary_ ? 2 * 8 : 4);
    reserve_elements(count);
    std::vector<std::uint64_t> records;
    std::uint64_t done = 0;
    for (std::uint64_t b = 0; b < blocks; ++b) {
      const Block block = block_header_v4(kElements, done, count);
      const VtkCellType& type = element_type(std::int64_t(block.third));
      if (binary_) {
        const std::size_t stride = 1 + type.nodes;
        const std::uint64_t start = binary_values(records, block.count * stride, kElements.name);
        for (std::uint64_t e = 0; e < block.count; ++e) {
          binary_item_ = start + e * stride * sizeof(std::uint64_t);
          for (std::size_t k = 1; k <= type.nodes; ++k) add_element_node(node_tag(records[e * stride + k]));
          finish_element(type);
        }
      } else {
        for (std::uint64_t e = 0; e < block.count; ++e) {
          body_line(kElements, done + e, count);
          if (reader_.size() != 1 + std::size_t{type.nodes})
            reader_.fail(std::string("a ") + type.name + " needs its tag and " + std::to_string(type.nodes) +
                         " nodes, " + reader_.fields_found());
          add_element_nodes(1, type);
        }
      }
      done += block.count;
    }
    if (done != count) fail_count(kElements, done, count);
    expect_end(kElements.name);
  }

  struct Counts {
    std::uint64_t blocks, items;
  };
  Counts section_header_v4(const Section& section, std::uint64_t shortest) {
    if (binary_) {
      std::vector<std::uint64_t> header;
      binary_values(header, 4, section.name);
      if (header[1] > kMaxVertices)
        fail_binary(std::string(section.name) + " gives " + std::to_string(header[1]) + " " + section.items +
                    " (at most " + std::to_string(kMaxVertices) + ")");
      check_count(section, header[1], shortest);
      return {header[0], header[1]};
    }
    if (!reader_.next(kNoComments) || reader_.size() != 4)
      reader_.fail(std::string("expected '") + section.header + "' after " + section.name);
    const auto blocks = reader_.parse_unsigned(reader_[0], "block count", kMaxTag);
    const auto count = reader_.parse_unsigned(reader_[1], std::string(section.items) + " count", kMaxVertices);
    reader_.parse_unsigned(reader_[2], "smallest tag", kMaxTag);
    reader_.parse_unsigned(reader_[3], "largest tag", kMaxTag);
    check_count(section, count, shortest);
    return {blocks, count};
  }

  struct Block {
    std::uint64_t dim, third, count;  // third: the parametric flag or the element type
  };
  Block block_header_v4(const Section& section, std::uint64_t done, std::uint64_t total) {
    Block block;
    if (binary_) {
      char raw[3 * sizeof(std::int32_t) + sizeof(std::uint64_t)];
      binary_values_raw(raw, sizeof raw, section.name);
      const auto dim = read_as<std::int32_t>(raw), third = read_as<std::int32_t>(raw + 8);
      if (dim < 0 || dim > 3 || third < 0) fail_binary(std::string("bad block header in ") + section.name);
      block = {std::uint64_t(dim), std::uint64_t(third), read_as<std::uint64_t>(raw + 12)};
    } else {
      body_line(section, done, total);
      if (reader_.size() != 4)
        reader_.fail(std::string("expected a block header 'entityDim entityTag ") + section.block_field + " count', " +
                     reader_.fields_found());
      block.dim = reader_.parse_unsigned(reader_[0], "entity dimension", 3);
      reader_.parse_signed(reader_[1], "entity tag");
      block.third = reader_.parse_unsigned(reader_[2], section.block_field, kMaxTag);
      block.count = reader_.parse_unsigned(reader_[3], "block size", kMaxVertices);
    }
    if (block.count > total - done) fail_count(section, done + block.count, total);
    return block;
  }

  // ----- Nodes and elements.

  void reserve_nodes(std::uint64_t count) {
    mesh_.nodes.reserve(3 * reserve_hint(count));
    node_tags_.reserve(reserve_hint(count));
  }
  void reserve_elements(std::uint64_t count) {
    mesh_.element_type.reserve(reserve_hint(count));
    mesh_.element_dim.reserve(reserve_hint(count));
    mesh_.element_offsets.reserve(reserve_hint(count + 1));
  }

  std::uint64_t node_tag(std::uint64_t tag) const {
    if (tag == 0) fail_here("node tags must be positive");
    return tag;
  }
  std::uint64_t node_tag(std::int32_t tag) const { return node_tag(tag < 0 ? std::uint64_t{0} : std::uint64_t(tag)); }

  // The coordinates in the current line's fields first..first+2.
  std::array<double, 3> coordinates(std::size_t first) const {
    return {reader_.parse_real(reader_[first], "x"), reader_.parse_real(reader_[first + 1], "y"),
            reader_.parse_real(reader_[first + 2], "z")};
  }

  // Binary coordinates at binary_item_: finite, as parse_real requires of text ones.
  std::array<double, 3> binary_coordinates(const void* bytes) const {
    const auto xyz = read_as<std::array<double, 3>>(bytes);
    for (const double v : xyz)
      if (!std::isfinite(v)) fail_binary("a node coordinate is not a finite number");
    return xyz;
  }

  void add_node(std::uint64_t tag, const std::array<double, 3>& xyz) {
    node_tags_.push_back(tag);
    mesh_.nodes.insert(mesh_.nodes.end(), xyz.begin(), xyz.end());
  }

  void build_node_index(std::size_t nodes_line) {
    if (const std::uint64_t twice = node_index_.build(node_tags_))
      reader_.fail_at(nodes_line, "node tag " + std::to_string(twice) + " appears twice in $Nodes");
    node_tags_ = {};
  }

  const VtkCellType& element_type(std::int64_t gmsh_type) const {
    const VtkCellType* type = vtk_type_of_gmsh(gmsh_type);
    if (!type) fail_here("element type " + std::to_string(gmsh_type) + " is not supported (1-11, 15 and 16 are)");
    return *type;
  }

  // The current line's fields from `first` on are the element's node tags.
  void add_element_nodes(std::size_t first, const VtkCellType& type) {
    for (std::size_t k = first; k < reader_.size(); ++k)
      add_element_node(reader_.parse_unsigned(reader_[k], "node tag", kMaxTag));
    finish_element(type);
  }

  void add_element_node(std::uint64_t tag) {
    const std::uint32_t node = node_index_.find(tag);
    if (node == NodeIndex::kMissing)
      fail_here("element " + std::to_string(mesh_.num_elements() + 1) + " refers to node " + std::to_string(tag) +
                ", which $Nodes lacks");
    mesh_.element_nodes.push_back(node);
  }

  void finish_element(const VtkCellType& type) {
    if (type.type == kVtkQuadraticTetra) std::swap(mesh_.element_nodes.end()[-1], mesh_.element_nodes.end()[-2]);
    mesh_.element_type.push_back(type.type);
    mesh_.element_dim.push_back(type.dim);
    mesh_.element_offsets.push_back(mesh_.element_nodes.size());
  }

  // ----- Section structure.

  // The next line inside a section's body: a '$' line or the end of the file here means the
  // body is shorter than its header says.
  void body_line(const Section& section, std::uint64_t done, std::uint64_t total) {
    if (!reader_.next(kNoComments) || reader_[0].starts_with("$")) fail_count(section, done, total);
  }

  [[noreturn]] void fail_count(const Section& section, std::uint64_t found, std::uint64_t total) const {
    fail_here(std::string(section.name) + " holds " + std::to_string(found) + " " + section.items +
              ", but its header gives " + std::to_string(total));
  }

  void expect_end(const std::string& section) {
    const std::string end = "$End" + section.substr(1);
    if (!reader_.next(kNoComments)) reader_.fail_at(reader_.line_number(), "the file ends before " + end);
    if (reader_[0] != end) reader_.fail("expected " + end + ", found " + quoted_text(reader_[0]));
  }

  void skip_section(const std::string& section) {
    const std::size_t start = reader_.line_number();
    const std::string end = "$End" + section.substr(1);
    while (reader_.next(kNoComments))
      if (reader_[0] == end) return;
    reader_.fail_at(start, printable_text(section) + " has no " + printable_text(end));
  }

  // ----- Binary data, in this machine's byte order.

  // In a binary section the reader stands inside the line after its last full one; the
  // message adds the offset of the item at fault (binary_item_).
  [[noreturn]] void fail_binary(const std::string& what) const { fail_binary_at(binary_item_, what); }
  [[noreturn]] void fail_binary_at(std::uint64_t offset, const std::string& what) const {
    reader_.fail_at(reader_.line_number() + 1, what + " (at byte " + std::to_string(offset) + ")");
  }
  [[noreturn]] void fail_here(const std::string& what) const {
    if (binary_) fail_binary(what);
    reader_.fail(what);
  }

  // Returns the offset the bytes start at, which is also where binary_item_ is left.
  std::uint64_t binary_values_raw(char* out, std::size_t size, const std::string& where) {
    binary_item_ = reader_.byte_offset();
    if (!reader_.read_bytes(out, size)) fail_binary_at(reader_.byte_offset(), "the file ends inside " + where);
    return binary_item_;
  }

  // Reads in slices, so that a corrupt count fails at the end of the file, not in malloc.
  // Returns the offset of the first value.
  template <class T>
  std::uint64_t binary_values(std::vector<T>& out, std::uint64_t count, const std::string& where) {
    constexpr std::uint64_t kSlice = std::uint64_t{1} << 20;
    const std::uint64_t start = reader_.byte_offset();
    out.clear();
    for (std::uint64_t done = 0; done < count;) {
      const std::uint64_t n = std::min(kSlice, count - done);
      out.resize(done + n);
      binary_values_raw(reinterpret_cast<char*>(out.data() + done), n * sizeof(T), where);
      done += n;
    }
    binary_item_ = start;
    return start;
  }

  template <class T>
  T binary_value(const std::string& where) {
    T value;
    binary_values_raw(reinterpret_cast<char*>(&value), sizeof value, where);
    return value;
  }

  template <class T>
  static T read_as(const void* bytes) {
    T value;
    std::memcpy(&value, bytes, sizeof value);
    return value;
  }

  // The fewest bytes a node line takes: "1 0 0 0" (2.2), "1" and "0 0 0" (4.1).
  static constexpr std::uint64_t kShortestNodeLine = 8;

  LineReader reader_;
  bool version4_ = false, binary_ = false;
  std::uint64_t binary_item_ = 0;  // the offset of the binary value or record being read
  std::size_t elements_line_ = 0;
  Mesh mesh_;
  std::vector<std::uint64_t> node_tags_;  // until $Nodes is read
  NodeIndex node_index_;
};

}  // namespace

Mesh read_gmsh_mesh(std::istream& in, const std::string& name) {
  GmshReader reader(in, name);
  return naming_file_when_out_of_memory(
      name, [&] { return reader.line_number(); }, [&] { return reader.read(); });
}

}  // namespace cellgraph::detail
