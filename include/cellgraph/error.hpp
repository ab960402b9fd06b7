// Errors thrown by the library. The CLI turns them into a message and a non-zero exit.
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>

namespace cellgraph {

// Any failure the user can fix: bad options, bad input, unwritable outputs.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Malformed input; what() reads "file:line: what is wrong" (line 0: the file as a whole).
class ParseError : public Error {
 public:
  ParseError(std::string file, std::size_t line, const std::string& what)
      : Error(file + ":" + std::to_string(line) + ": " + what), file_(std::move(file)), line_(line) {}
  const std::string& file() const { return file_; }
  std::size_t line() const { return line_; }

 private:
  std::string file_;
  std::size_t line_;
};

}  // namespace cellgraph
