// For the line-per-vertex files (state files, METIS .part files): the number of lines the
// readers count (not blank, not a comment) and the largest number at a line's start, so that a
// target can ask for exactly as many vertices as the file has, one more and one fewer.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace cellgraph::fuzz {

struct CountedLines {
  std::uint64_t lines = 0;
  std::uint64_t largest = 0;  // the largest leading decimal number, capped at 2^32
};

// Mirrors src/source/line_reader.hpp: lines end at '\n', blanks are " \t\r\v\f", a line whose
// first field starts with one of `comment_marks` is a comment.
inline CountedLines count_lines(std::string_view text, std::string_view comment_marks) {
  const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; };
  CountedLines counted;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::size_t i = at;
    while (i < end && blank(text[i])) ++i;
    if (i < end && comment_marks.find(text[i]) == std::string_view::npos) {
      ++counted.lines;
      std::uint64_t value = 0;
      for (; i < end && text[i] >= '0' && text[i] <= '9'; ++i)
        value = std::min<std::uint64_t>(value * 10 + std::uint64_t(text[i] - '0'), std::uint64_t{1} << 32);
      counted.largest = std::max(counted.largest, value);
    }
    at = end + 1;
  }
  return counted;
}

}  // namespace cellgraph::fuzz
