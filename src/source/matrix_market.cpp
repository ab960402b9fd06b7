// Matrix Market coordinate files (NIST "The Matrix Market Exchange Formats", 1996) read as
// undirected graphs: entry (i, j) is edge i-j.
//
// Supported: "%%MatrixMarket matrix coordinate <pattern|integer|real>
// <general|symmetric|skew-symmetric>". A general matrix is symmetrised (i-j and j-i merge,
// the first value kept). A skew-symmetric matrix has a symmetric pattern but values that
// differ in sign between i-j and j-i, so it is read as its pattern, without weights.
// Rejected with a message: complex and hermitian matrices, dense "array" files, duplicate
// entries, and non-square matrices.
#include <algorithm>
#include <cctype>
#include <string>
#include <utility>
#include <vector>

#include "cellgraph/source/graph_file.hpp"
#include "src/source/line_reader.hpp"

namespace cellgraph {
namespace {

using detail::LineReader;

constexpr std::string_view kComment = "%";
constexpr std::string_view kBannerShape = "'%%MatrixMarket matrix coordinate <field> <symmetry>'";

enum class Field { pattern, integer, real };
enum class Symmetry { general, symmetric, skew_symmetric };

struct Banner {
  Field field = Field::pattern;
  Symmetry symmetry = Symmetry::general;
};

struct Size {
  std::uint64_t rows = 0, cols = 0, entries = 0;
  std::size_t line = 0;
};

// Banner keywords are case-insensitive (as in NIST's mmio.c).
std::string lowercase(std::string_view word) {
  std::string lower(word);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

Field parse_field(const LineReader& banner, const std::string& word) {
  if (word == "pattern") return Field::pattern;
  if (word == "integer") return Field::integer;
  if (word == "real") return Field::real;
  if (word == "complex") banner.fail("complex matrices are not supported");
  banner.fail("unknown field " + quoted_text(word) + " (expected pattern, integer or real)");
}

Symmetry parse_symmetry(const LineReader& banner, const std::string& word) {
  if (word == "general") return Symmetry::general;
  if (word == "symmetric") return Symmetry::symmetric;
  if (word == "skew-symmetric") return Symmetry::skew_symmetric;
  if (word == "hermitian") banner.fail("hermitian matrices are not supported");
  banner.fail("unknown symmetry " + quoted_text(word) + " (expected general, symmetric or skew-symmetric)");
}

Banner read_banner(LineReader& reader) {
  if (!reader.next("")) reader.fail_at(0, "empty file; expected the banner " + std::string(kBannerShape));
  if (reader[0] != "%%MatrixMarket") reader.fail("missing the banner " + std::string(kBannerShape));
  if (reader.size() != 5) reader.fail("the banner must read " + std::string(kBannerShape));
  const std::string object = lowercase(reader[1]), format = lowercase(reader[2]), field = lowercase(reader[3]),
                    symmetry = lowercase(reader[4]);

  if (object != "matrix") reader.fail("unsupported object " + quoted_text(object) + " (expected 'matrix')");
  if (format == "array") reader.fail("dense 'array' matrices are not supported; a graph needs 'coordinate'");
  if (format != "coordinate") reader.fail("unknown format " + quoted_text(format) + " (expected 'coordinate')");

  return {parse_field(reader, field), parse_symmetry(reader, symmetry)};
}

// The size line is a claim: an entry takes at least "1 1\n" (and " 1" for its value), and
// the graph, its run and the entries as read must fit in memory. Both are checked before
// anything is allocated for them.
void check_size_is_possible(const LineReader& reader, const Banner& banner, const Size& size) {
  const bool has_value = banner.field != Field::pattern;
  reader.check_count_fits(size.entries, has_value ? 6 : 4,
                          "the size line gives " + std::to_string(size.entries) + " entries");
  const std::uint64_t per_entry = sizeof(std::pair<VertexId, VertexId>) + sizeof(std::size_t) +
                                  (has_value ? sizeof(double) : 0) + 16;  // edge, line, value, duplicate key
  const std::uint64_t vertices = std::max(size.rows, size.cols);
  reader.require_memory(estimated_run_bytes(vertices, 2 * size.entries) + per_entry * size.entries, [&] {
    return "the size line's " + std::to_string(size.rows) + " x " + std::to_string(size.cols) + " matrix with " +
           std::to_string(size.entries) + " entries implies a graph that";
  });
}

Size read_size(LineReader& reader, const Banner& banner) {
  if (!reader.next(kComment)) reader.fail_at(0, "missing the size line 'rows cols entries'");
  if (reader.size() != 3) reader.fail("the size line must be 'rows cols entries', " + reader.fields_found());
  Size size;
  size.line = reader.line_number();
  size.rows = reader.parse_unsigned(reader[0], "row count", detail::kMaxVertices);
  size.cols = reader.parse_unsigned(reader[1], "column count", detail::kMaxVertices);
  size.entries = reader.parse_unsigned(reader[2], "entry count", std::numeric_limits<std::uint64_t>::max());
  if (banner.symmetry != Symmetry::general && size.rows != size.cols)
    reader.fail("a symmetric matrix must be square, found " + std::to_string(size.rows) + " x " +
                std::to_string(size.cols));
  check_size_is_possible(reader, banner, size);
  return size;
}

// The entries as read, 0-based, with each one's line for messages.
struct Entries {
  std::vector<std::pair<VertexId, VertexId>> edges;
  std::vector<double> values;  // empty for pattern matrices
  std::vector<std::size_t> lines;
};

// Parsed even where it is then dropped (skew-symmetric), so that a malformed value is reported.
double read_value(const LineReader& entry, Field field) {
  switch (field) {
    case Field::integer:
      return static_cast<double>(entry.parse_signed(entry[2], "value"));
    case Field::real:
      return entry.parse_real(entry[2], "value");
    case Field::pattern:
      break;
  }
  return 0;
}

Entries read_entries(LineReader& reader, const Banner& banner, const Size& size) {
  const bool has_value = banner.field != Field::pattern;
  const bool keep_value = has_value && banner.symmetry != Symmetry::skew_symmetric;
  Entries entries;
  entries.edges.reserve(detail::reserve_hint(size.entries));
  entries.lines.reserve(detail::reserve_hint(size.entries));
  while (reader.next(kComment)) {
    if (entries.edges.size() == size.entries)
      reader.fail("more entries than the " + std::to_string(size.entries) + " the size line gives");
    if (reader.size() != (has_value ? 3u : 2u))
      reader.fail(std::string("an entry must be ") + (has_value ? "'row column value'" : "'row column'") + ", " +
                  reader.fields_found());
    const auto row = static_cast<VertexId>(reader.parse_index(reader[0], "row", size.rows));
    const auto col = static_cast<VertexId>(reader.parse_index(reader[1], "column", size.cols));
    const double value = read_value(reader, banner.field);
    entries.edges.emplace_back(row, col);
    if (keep_value) entries.values.push_back(value);
    entries.lines.push_back(reader.line_number());
  }
  if (entries.edges.size() != size.entries)
    reader.fail_at(size.line, "the size line gives " + std::to_string(size.entries) + " entries, but the file has " +
                                  std::to_string(entries.edges.size()));
  return entries;
}

// The format does not allow an entry twice; in a symmetric matrix (i, j) and (j, i) are the
// same entry. The first repeat in file order is reported.
void reject_duplicates(const LineReader& reader, const Entries& entries, Symmetry symmetry) {
  std::vector<std::pair<std::uint64_t, std::size_t>> keyed;  // (row, col) packed, entry index
  keyed.reserve(entries.edges.size());
  for (std::size_t e = 0; e < entries.edges.size(); ++e) {
    auto [row, col] = entries.edges[e];
    if (symmetry != Symmetry::general && row < col) std::swap(row, col);
    keyed.emplace_back(std::uint64_t{row} << 32 | col, e);
  }
  std::sort(keyed.begin(), keyed.end());
  std::size_t repeat = keyed.size();  // into keyed: the repeat that comes first in the file
  for (std::size_t i = 1; i < keyed.size(); ++i)
    if (keyed[i].first == keyed[i - 1].first && (repeat == keyed.size() || keyed[i].second < keyed[repeat].second))
      repeat = i;
  if (repeat == keyed.size()) return;
  const std::size_t entry = keyed[repeat].second, original = keyed[repeat - 1].second;
  const auto [row, col] = entries.edges[entry];
  reader.fail_at(entries.lines[entry], "duplicate entry (" + std::to_string(row + 1) + ", " + std::to_string(col + 1) +
                                           "), first given on line " + std::to_string(entries.lines[original]));
}

}  // namespace

Graph read_matrix_market(std::istream& in, const std::string& name) {
  LineReader reader(in, name);
  return detail::naming_file_when_out_of_memory(reader, [&] {
    const Banner banner = read_banner(reader);
    const Size size = read_size(reader, banner);
    const Entries entries = read_entries(reader, banner, size);
    reject_duplicates(reader, entries, banner.symmetry);
    // Checked last: a malformed entry is the more useful message for a file that is both.
    if (size.rows != size.cols)
      reader.fail_at(size.line, "the matrix is " + std::to_string(size.rows) + " x " + std::to_string(size.cols) +
                                    "; a graph needs a square matrix");
    // graph_from_edges drops the diagonal and merges i-j with j-i, keeping the first value.
    return graph_from_edges(static_cast<VertexId>(size.rows), entries.edges, entries.values);
  });
}

}  // namespace cellgraph
