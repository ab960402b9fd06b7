// Private helpers shared by the pattern readers: numbered lines and Golly's rule suffixes.
#pragma once
#include <cstddef>
#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <string_view>

#include "cellgraph/source/pattern.hpp"

namespace cellgraph::pattern_text {

// Lines ended by "\n", "\r\n" or a lone "\r" (Golly reads all three), numbered from 1.
class LineReader {
 public:
  explicit LineReader(std::istream& in) : in_(in) {}

  // Reads the next line without its terminator; false at the end of the input.
  bool next(std::string& line);
  // The number of the line last read (0 before the first).
  std::size_t number() const { return number_; }

 private:
  std::istream& in_;
  std::size_t number_ = 0;
};

std::string_view trim(std::string_view text);
bool starts_with_word(std::string_view text, std::string_view word);  // word, then blank or end

// Sets p.rule, p.bounded_kind and p.bounded_size from a rule that may end in Golly's bounded
// grid suffix (":T64,64", ":P30,20", ":T64" for 64x64). Throws ParseError at (file, line) for
// a malformed suffix or a topology other than a plain torus or plane.
void set_rule(Pattern& p, std::string_view rule, const std::string& file, std::size_t line);

// Refuses, at a line of `file`, a pattern whose live cells would take more memory than the
// limit allows. The limit is read once: the readers ask at every cell.
class CellMemory {
 public:
  void require(std::uint64_t cells, const std::string& file, std::size_t line);

 private:
  std::optional<std::uint64_t> limit_;
};

// The top-left cell of a Golly bounded grid of the given size: (-int(w/2), -int(h/2)).
inline std::int64_t bounded_grid_origin(std::int64_t size) { return -(size / 2); }

}  // namespace cellgraph::pattern_text
