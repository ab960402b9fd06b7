// Line-oriented reading shared by the graph-file and mesh readers: line numbers, comment and
// blank lines, whitespace tokens (or, for edge lists, comma- or tab-separated fields, quoted as
// CSV quotes them), and number parsing whose failures read "file:line: what is wrong". Binary
// blocks between lines (Gmsh) and values that wrap across lines (VTK) too.
#pragma once
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <istream>
#include <limits>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cellgraph/error.hpp"
#include "cellgraph/graph.hpp"
#include "cellgraph/memory_budget.hpp"

namespace cellgraph::detail {

// Opens an input file for the readers, or throws Error naming it. (An ifstream "opens" a
// directory and then reads nothing; that is reported as what it is.)
inline std::ifstream open_input(const std::string& path) {
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) throw Error("cannot open " + path + ": " + std::strerror(EISDIR));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot open " + path + ": " + std::strerror(errno));
  return in;
}

// The most vertices a file may declare. Ids then stay below kBoundaryVertex, which grids
// reserve, and the vertex count itself fits VertexId.
inline constexpr std::uint64_t kMaxVertices = kBoundaryVertex - 1;

// A header's count is a claim, not a promise: reserve no more than this up front so that a
// corrupt header fails with a ParseError, not an allocation failure.
inline constexpr std::uint64_t kMostReserved = std::uint64_t{1} << 22;
inline std::size_t reserve_hint(std::uint64_t claimed) {
  return static_cast<std::size_t>(std::min<std::uint64_t>(claimed, kMostReserved));
}

enum class BlankLines { skip, keep };

// Where a line splits into fields: at runs of blanks (spaces, tabs), or at each comma or each
// tab, the fields then trimmed of blanks (CSV and TSV files, whose fields may hold spaces).
enum class FieldSeparator { blanks, comma, tab };

// The bytes from `in`'s position to its end, where the stream can tell (files, strings).
inline std::optional<std::uint64_t> bytes_to_end(std::istream& in) {
  const std::streampos here = in.tellg();
  if (here < 0) return std::nullopt;
  in.seekg(0, std::ios::end);
  const std::streampos end = in.tellg();
  in.seekg(here);
  if (end < here) return std::nullopt;
  return static_cast<std::uint64_t>(end - here);
}

class LineReader {
 public:
  // `lines_before`: how many lines of the file precede `in` (a part of a file read apart).
  LineReader(std::istream& in, std::string name, std::size_t lines_before = 0)
      : in_(in), name_(std::move(name)), line_number_(lines_before), lines_read_(lines_before),
        size_(bytes_to_end(in)) {}

  // Moves to the next line that is not a comment (its first non-blank character is one of
  // `comment_marks`) and, unless kept, not blank. False at the end of the input.
  bool next(std::string_view comment_marks, BlankLines blank = BlankLines::skip) {
    while (std::getline(in_, line_)) {
      line_number_ = ++lines_read_;
      consumed_ += line_.size() + (in_.eof() ? 0 : 1);
      const std::size_t first = first_non_blank();
      const bool skipped = first == line_.size() ? blank == BlankLines::skip
                                                 : comment_marks.find(line_[first]) != std::string_view::npos;
      if (skipped) continue;
      split();
      return true;
    }
    if (in_.bad()) fail_at(lines_read_ + 1, "read error");
    return false;
  }

  // Splits the current line and those after it at `separator`. With `quotes`, a field that
  // starts with a double quote runs to the closing one, separators and blanks included, and ""
  // inside it is one quote (as CSV writers quote); elsewhere a quote is an ordinary character.
  void split_fields(FieldSeparator separator, bool quotes) {
    separator_ = separator;
    quotes_ = quotes;
    split();
  }

  // The current line as read, for readers that tell formats apart by its characters.
  std::string_view line() const { return line_; }

  // A line read earlier, for readers that look ahead (an edge list's first line is a header or
  // an edge, depending on the line after it).
  struct SavedLine {
    std::string text;
    std::size_t number = 0;
  };
  SavedLine save_line() const { return {line_, line_number_}; }
  // Makes `saved` the current line again: its fields, and its number in messages. The next line
  // read is still the one after the last read.
  void restore_line(const SavedLine& saved) {
    line_ = saved.text;
    line_number_ = saved.number;
    split();
  }

  // Reads `size` raw bytes that follow the current line, counting the line breaks among them
  // so that later line numbers stay right. False when the input ends first.
  bool read_bytes(char* out, std::size_t size) {
    in_.read(out, static_cast<std::streamsize>(size));
    const auto got = static_cast<std::size_t>(in_.gcount());
    lines_read_ += static_cast<std::size_t>(std::count(out, out + got, '\n'));
    line_number_ = lines_read_;
    consumed_ += got;
    return got == size;
  }

  std::size_t line_number() const { return line_number_; }
  const std::string& name() const { return name_; }
  // Bytes read so far: where the next line or binary block starts.
  std::uint64_t byte_offset() const { return consumed_; }

  // A header's count cannot exceed what the rest of the file can hold, at `bytes_each` bytes an
  // item at the least: a large count is checked before anything is allocated or estimated for
  // it, and reported at the header. A count within what readers reserve anyway is left to the
  // reading, which names the fault exactly. `claim` reads "the header gives 2000000000 entries".
  void check_count_fits(std::uint64_t count, std::uint64_t bytes_each, const std::string& claim) const {
    if (!size_ || bytes_each == 0 || count <= kMostReserved) return;
    const std::uint64_t left = *size_ - std::min(*size_, consumed_);
    const std::uint64_t most = (left + 1) / bytes_each;  // the last may lack its line break
    if (count <= most) return;
    fail(claim + ", but the rest of the file (" + std::to_string(left) + " bytes) holds at most " +
         std::to_string(most) + " (each takes at least " + std::to_string(bytes_each) +
         (bytes_each == 1 ? " byte)" : " bytes)"));
  }

  // Refuses, at the current line, a size the file implies that the memory limit cannot hold;
  // `describe()` says what implies it ("vertex ids up to 300000000 and 1 edge imply a graph
  // that"). The limit is read once: readers may ask at every line.
  template <class Describe>
  void require_memory(std::uint64_t bytes, Describe describe) const {
    if (!memory_limit_) memory_limit_ = memory_limit();
    if (bytes > *memory_limit_) fail(describe() + " " + memory_shortfall(bytes));
  }

  std::size_t size() const { return tokens_.size(); }
  std::string_view operator[](std::size_t i) const { return tokens_[i]; }

  // "found 1 field", "found 3 fields": the current line's field count, for messages.
  std::string fields_found() const { return "found " + std::to_string(size()) + (size() == 1 ? " field" : " fields"); }

  [[noreturn]] void fail(const std::string& what) const { fail_at(line_number_, what); }
  [[noreturn]] void fail_at(std::size_t line, const std::string& what) const { throw ParseError(name_, line, what); }

  // A decimal integer in 0..max; `what` names the field in the message.
  std::uint64_t parse_unsigned(std::string_view token, std::string_view what, std::uint64_t max) const {
    std::uint64_t value = 0;
    auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
    const bool overflow = ec == std::errc::result_out_of_range;
    if ((ec != std::errc{} && !overflow) || end != token.data() + token.size())
      fail(std::string(what) + " " + quoted_text(token) + " is not a non-negative integer");
    if (overflow || value > max)
      fail(std::string(what) + " " + printable_text(token) + " is too large (at most " + std::to_string(max) + ")");
    return value;
  }

  // A 1-based index in 1..count, returned 0-based.
  std::uint64_t parse_index(std::string_view token, std::string_view what, std::uint64_t count) const {
    const std::uint64_t index = parse_unsigned(token, what, std::numeric_limits<std::uint64_t>::max());
    if (index == 0 || index > count)
      fail(std::string(what) + " " + printable_text(token) + " is out of range 1.." + std::to_string(count));
    return index - 1;
  }

  std::int64_t parse_signed(std::string_view token, std::string_view what) const {
    std::int64_t value = 0;
    auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
    const bool overflow = ec == std::errc::result_out_of_range;
    if ((ec != std::errc{} && !overflow) || end != token.data() + token.size())
      fail(std::string(what) + " " + quoted_text(token) + " is not an integer");
    if (overflow) fail(std::string(what) + " " + printable_text(token) + " is too large");
    return value;
  }

  // A finite real number; a leading '+' is allowed, as strtod allows it.
  double parse_real(std::string_view token, std::string_view what) const {
    std::string_view digits = token;
    if (digits.size() > 1 && digits[0] == '+' && digits[1] != '-') digits.remove_prefix(1);
    double value = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (ec != std::errc{} || end != digits.data() + digits.size() || !std::isfinite(value))
      fail(std::string(what) + " " + quoted_text(token) + " is not a finite number");
    return value;
  }

 private:
  std::size_t first_non_blank() const {
    std::size_t i = 0;
    while (i < line_.size() && is_blank(line_[i])) ++i;
    return i;
  }

  void split() {
    tokens_.clear();
    if (first_non_blank() == line_.size()) return;  // a blank line has no fields
    if (separator_ == FieldSeparator::blanks && !quotes_) return split_at_blanks();
    // Quoted fields are copied out without their quotes; the copies never outgrow the line,
    // so views into them stay valid.
    unquoted_.clear();
    unquoted_.reserve(line_.size());
    const bool at_blanks = separator_ == FieldSeparator::blanks;
    const char separator = separator_ == FieldSeparator::comma ? ',' : '\t';
    const auto is_padding = [&](char c) { return is_blank(c) && (at_blanks || c != separator); };
    const std::size_t n = line_.size();
    std::size_t i = 0;
    while (true) {
      while (i < n && is_padding(line_[i])) ++i;
      if (at_blanks && i == n) return;
      if (quotes_ && i < n && line_[i] == '"') {
        tokens_.push_back(unquote(i));
        if (!at_blanks)
          while (i < n && is_padding(line_[i])) ++i;
        if (i < n && (at_blanks ? !is_blank(line_[i]) : line_[i] != separator))
          fail("text after the closing quote of field " + std::to_string(tokens_.size()));
      } else {
        const std::size_t start = i;
        while (i < n && (at_blanks ? !is_blank(line_[i]) : line_[i] != separator)) ++i;
        std::size_t end = i;
        while (end > start && is_blank(line_[end - 1])) --end;
        tokens_.emplace_back(line_.data() + start, end - start);
      }
      if (i == n) return;
      ++i;  // past the separator; after a last one, an empty field follows
    }
  }

  // The quoted field that starts at line_[i], without its quotes; `i` moves past the closing one.
  std::string_view unquote(std::size_t& i) {
    const std::size_t start = unquoted_.size();
    for (++i; i < line_.size(); ++i) {
      if (line_[i] != '"') {
        unquoted_ += line_[i];
      } else if (i + 1 < line_.size() && line_[i + 1] == '"') {
        unquoted_ += '"';
        ++i;
      } else {
        ++i;
        return std::string_view(unquoted_.data() + start, unquoted_.size() - start);
      }
    }
    fail("field " + std::to_string(tokens_.size() + 1) + " opens a quote that the line does not close");
  }

  void split_at_blanks() {
    const std::size_t n = line_.size();
    for (std::size_t i = 0; i < n;) {
      while (i < n && is_blank(line_[i])) ++i;
      const std::size_t start = i;
      while (i < n && !is_blank(line_[i])) ++i;
      if (i > start) tokens_.emplace_back(line_.data() + start, i - start);
    }
  }

  static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

  std::istream& in_;
  std::string name_;
  std::string line_;
  std::size_t line_number_ = 0;  // the current line's
  std::size_t lines_read_ = 0;   // the last line read; the next one's number follows it
  FieldSeparator separator_ = FieldSeparator::blanks;
  bool quotes_ = false;
  std::vector<std::string_view> tokens_;  // views into line_ or unquoted_
  std::string unquoted_;                  // quoted fields without their quotes
  std::optional<std::uint64_t> size_;     // bytes from the start to the end; none: unknown
  std::uint64_t consumed_ = 0;
  mutable std::optional<std::uint64_t> memory_limit_;
};

// Runs `read`, which reads `file`; a std::bad_alloc in it becomes a ParseError at the line
// `current_line()` gives, so that running out of memory names the file, not just the fact.
template <class Read, class CurrentLine>
auto naming_file_when_out_of_memory(const std::string& file, CurrentLine current_line, Read read) -> decltype(read()) {
  try {
    return read();
  } catch (const std::bad_alloc&) {
    throw ParseError(file, current_line(), "out of memory at this line: the file needs more memory than there is");
  }
}
// The same for a reader built on a LineReader.
template <class Read>
auto naming_file_when_out_of_memory(const LineReader& reader, Read read) -> decltype(read()) {
  return naming_file_when_out_of_memory(
      reader.name(), [&] { return reader.line_number(); }, read);
}

// Whitespace tokens across line breaks, for formats whose values wrap freely (legacy VTK).
// Starts after the reader's current line; the reader stays usable for keyword lines once
// the values are read.
class TokenStream {
 public:
  TokenStream(LineReader& reader, std::string_view comment_marks)
      : reader_(reader), comment_marks_(comment_marks), index_(reader.size()) {}

  // The next token; `what` names it in the message when the input ends first.
  std::string_view next(std::string_view what) {
    while (index_ == reader_.size()) {
      if (!reader_.next(comment_marks_))
        reader_.fail_at(reader_.line_number(), "the file ends before " + std::string(what));
      index_ = 0;
    }
    return reader_[index_++];
  }

 private:
  LineReader& reader_;
  std::string_view comment_marks_;
  std::size_t index_;
};

}  // namespace cellgraph::detail
