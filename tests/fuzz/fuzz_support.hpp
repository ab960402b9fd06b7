// What every fuzz target shares (docs/FUZZING.md): the input written to a file for readers that
// take a path, the one exception a reader may throw (cellgraph::Error, checked against the
// error contract), and how a finding ends the run (a message, then abort(), which libFuzzer
// and the replay driver both report with the input that caused it).
//
// The error contract, checked when CELLGRAPH_FUZZ_CONTRACT is set ("warn": print each kind of
// violation once and go on; "1" or "enforce": a violation is a finding):
//   - an error caused by a file's content names the file (its message holds the path given);
//   - a message holds no raw non-printable byte (control characters, bytes >= 0x80) and quotes
//     no more of the input than a short excerpt (kMaxMessageBeyondPath characters besides the
//     path).
#pragma once
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <string_view>
#include <typeinfo>

#include "cellgraph/error.hpp"
#if __has_include("cellgraph/memory_budget.hpp")
#include "cellgraph/memory_budget.hpp"
#define CELLGRAPH_FUZZ_MEMORY_BUDGET 1
#endif

// Targets built from one source for several formats (graph.cpp, mesh.cpp, pattern.cpp) read
// theirs from this constant, defined by a one-line file that tests/fuzz/CMakeLists.txt writes
// per target: the source is compiled once for all of them.
extern "C" const int cellgraph_fuzz_format;

namespace cellgraph::fuzz {

// A message may quote a few excerpts of ~60 characters of the input (a rule, the folders it was
// looked for in: at most 160 characters of them), beside its own words and the path.
inline constexpr std::size_t kMaxMessageBeyondPath = 480;

[[noreturn]] inline void finding(const std::string& what, const std::string& detail) {
  std::fprintf(stderr, "\n==cellgraph-fuzz== FINDING: %s\n==cellgraph-fuzz== %s\n", what.c_str(), detail.c_str());
  std::fflush(stderr);
  std::abort();
}

enum class ContractMode { off, warn, enforce };

inline ContractMode contract_mode() {
  static const ContractMode mode = [] {
    const char* value = std::getenv("CELLGRAPH_FUZZ_CONTRACT");
    const std::string v = value ? value : "";
    if (v.empty() || v == "0" || v == "off") return ContractMode::off;
    if (v == "warn") return ContractMode::warn;
    if (v == "1" || v == "enforce" || v == "on") return ContractMode::enforce;
    std::fprintf(stderr, "CELLGRAPH_FUZZ_CONTRACT=%s: expected off, warn or enforce\n", v.c_str());
    std::exit(2);
  }();
  return mode;
}

// A message shown in a report: control characters and bytes >= 0x80 escaped, cut short.
inline std::string escaped(std::string_view text, std::size_t limit = 300) {
  std::string out;
  for (std::size_t i = 0; i < text.size() && i < limit; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      out += char(c);
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    }
  }
  if (text.size() > limit) out += "...(" + std::to_string(text.size()) + " bytes)";
  return out;
}

// What is wrong with `message` under the contract; empty when nothing is. `path`: the file the
// error is about, which the message must name; empty when the error need not name one.
inline std::string contract_violation(const std::string& message, const std::string& path) {
  if (!path.empty() && message.find(path) == std::string::npos) return "the message does not name the file";
  for (std::size_t i = 0; i < message.size(); ++i) {
    const auto c = static_cast<unsigned char>(message[i]);
    if (c < 0x20 || c >= 0x7f) return "the message holds a raw non-printable byte";
  }
  std::size_t beyond = message.size();
  if (!path.empty())
    for (std::size_t at = message.find(path); at != std::string::npos; at = message.find(path, at + path.size()))
      beyond -= path.size();
  if (beyond > kMaxMessageBeyondPath)
    return "the message is " + std::to_string(beyond) + " characters besides the path (quotes too much)";
  return {};
}

// Warn mode reports each kind of violation once. The kind: where, the violation, and the
// message's first three words after the path and line, letters only (quoted input varies).
inline bool first_of_its_kind(const std::string& where, const std::string& violation, const std::string& message,
                              const std::string& path) {
  static std::set<std::string> seen;
  std::string_view rest = message;
  if (!path.empty())
    if (const auto at = rest.find(path); at != std::string_view::npos) rest.remove_prefix(at + path.size());
  std::string key = where + "|" + violation.substr(0, 30) + "|";
  int words = 0;
  bool in_word = false;
  for (char c : rest) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      key += c;
      in_word = true;
    } else if (c == ' ' && in_word) {
      if (++words == 3) break;
      key += ' ';
      in_word = false;
    }
  }
  return seen.size() < 4096 && seen.insert(key).second;
}

// Checks an error the parser threw; `where` names the call in reports.
inline void check_message(const std::string& message, const std::string& path, const char* where) {
  if (contract_mode() == ContractMode::off) return;
  const std::string violation = contract_violation(message, path);
  if (violation.empty()) return;
  const std::string detail = std::string(where) + " threw \"" + escaped(message) + "\"" +
                             (path.empty() ? std::string() : " (the file: " + path + ")");
  if (contract_mode() == ContractMode::enforce) finding("error contract: " + violation, detail);
  if (first_of_its_kind(where, violation, message, path))
    std::fprintf(stderr, "==cellgraph-fuzz== contract (warn): %s: %s\n", violation.c_str(), detail.c_str());
}

// CELLGRAPH_FUZZ_VERBOSE=1: every parse's outcome on stderr (for replaying an input by hand).
inline bool verbose() {
  static const bool on = [] {
    const char* value = std::getenv("CELLGRAPH_FUZZ_VERBOSE");
    return value && *value && std::string(value) != "0";
  }();
  return on;
}

// Runs `parse`. cellgraph::Error is the expected outcome of bad input: its message is checked
// against the contract (naming `path` unless that is empty). Any other exception is a finding.
// True when `parse` returned.
template <class F>
bool guarded(const char* where, const std::string& path, F&& parse) {
  try {
    parse();
    if (verbose()) std::fprintf(stderr, "%s: ok\n", where);
    return true;
  } catch (const cellgraph::Error& e) {
    if (verbose()) std::fprintf(stderr, "%s: Error: %s\n", where, escaped(e.what()).c_str());
    check_message(e.what(), path, where);
  } catch (const std::exception& e) {
    finding(std::string("an exception other than cellgraph::Error escaped ") + where,
            std::string(typeid(e).name()) + ": " + escaped(e.what()));
  } catch (...) {
    finding(std::string("an exception of unknown type escaped ") + where, "");
  }
  return false;
}

// Runs a check of what a parser returned: any exception it throws is a finding.
template <class F>
void invariant(const char* what, F&& check) {
  try {
    check();
  } catch (const std::exception& e) {
    finding(std::string("the parser returned data that breaks an invariant: ") + what, escaped(e.what()));
  }
}

// The readers refuse input that implies more memory than the run's budget (memory_budget.hpp),
// which is the machine's available memory unless set. The fuzzer sets it small
// (CELLGRAPH_FUZZ_MEMORY_MB, default 128), so that a few bytes claiming a huge graph are
// refused at once rather than allocated slowly, and allocating far more than that is a finding
// (libFuzzer's -rss_limit_mb, 2048 in tools/fuzz.sh).
inline const bool memory_budget_set = [] {
#ifdef CELLGRAPH_FUZZ_MEMORY_BUDGET
  const char* value = std::getenv("CELLGRAPH_FUZZ_MEMORY_MB");
  const std::uint64_t megabytes = value && *value ? std::strtoull(value, nullptr, 10) : 128;
  set_memory_limit(megabytes << 20);
#endif
  return true;
}();

// The input as a file, for readers that take a path: one file per process, rewritten for
// every input, in /dev/shm when there is one (memory, not disk), else the temporary folder.
class InputFile {
 public:
  explicit InputFile(const std::string& file_name) {
    std::error_code ignored;
    std::filesystem::path base = "/dev/shm";
    if (!std::filesystem::is_directory(base, ignored) || ::access(base.c_str(), W_OK) != 0)
      base = std::filesystem::temp_directory_path();
    dir_ = base / ("cellgraph-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    path_ = (dir_ / file_name).string();
  }
  ~InputFile() {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  const std::string& write(const std::uint8_t* data, std::size_t size) const {
    std::ofstream out(path_, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    out.close();
    if (!out) finding("the fuzz harness cannot write its input file", path_);
    return path_;
  }
  const std::string& path() const { return path_; }

 private:
  std::filesystem::path dir_;
  std::string path_;
};

}  // namespace cellgraph::fuzz
