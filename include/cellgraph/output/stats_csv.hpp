// Per-step statistics as CSV, written atomically: the file appears only once finish() succeeds.
#pragma once
#include <charconv>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "cellgraph/output/atomic_file.hpp"

namespace cellgraph {

// Appends an integer, or a double in the shortest form that reads back to it, to a CSV line.
template <class Number>
void append_csv_number(std::string& line, Number value) {
  char digits[32];  // enough for any uint64 and any shortest-form double
  line.append(digits, std::to_chars(digits, digits + sizeof digits, value).ptr);
}

class StatsWriter {
 public:
  using Value = std::variant<std::uint64_t, double>;

  // Writes the header "step,<columns...>". Throws Error if the file cannot be created or a
  // column name contains a comma, quote or line break.
  StatsWriter(const std::string& path, const std::vector<std::string>& columns);

  // One line "step,<values...>", one value per column: integers as integers, doubles in the
  // shortest form that reads back to the same value. Throws Error on a column count mismatch.
  void row(std::uint64_t step, const std::vector<Value>& values);

  // Moves the file into place; throws Error on failure. Without it nothing is left behind.
  void finish() { file_.commit(); }

 private:
  AtomicFile file_;
  std::size_t num_columns_;
};

}  // namespace cellgraph
