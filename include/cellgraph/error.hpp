// Errors thrown by the library. The CLI turns them into a message and a non-zero exit.
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

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

// A bad option value. `option` is its name without dashes ("boundary"), so that the CLI can
// say which config file line the value came from.
class OptionError : public Error {
 public:
  OptionError(std::string option, const std::string& what) : Error(what), option_(std::move(option)) {}
  const std::string& option() const { return option_; }

 private:
  std::string option_;
};

// Untrusted text (a file's content, a flag's value) as a message shows it: at most `shown_at_most`
// characters, bytes other than printable ASCII written as \xNN, so that a binary file cannot
// garble the terminal or bury the message. Paths are shown whole: pass a larger limit.
inline std::string printable_text(std::string_view text, std::size_t shown_at_most = 60) {
  const std::size_t kShown = shown_at_most;
  constexpr char kHex[] = "0123456789abcdef";
  std::string shown;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    const bool plain = byte >= 0x20 && byte < 0x7f;
    if (shown.size() + (plain ? 1 : 4) > kShown) return shown + "...";
    if (plain) {
      shown += static_cast<char>(byte);
    } else {
      shown += "\\x";
      shown += kHex[byte >> 4];
      shown += kHex[byte & 15];
    }
  }
  return shown;
}
// The same in single quotes: "unknown rule 'B3/Sx'".
inline std::string quoted_text(std::string_view text) { return "'" + printable_text(text) + "'"; }

}  // namespace cellgraph
