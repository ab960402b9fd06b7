// The files a command reads and writes, checked before it starts: an output must not replace
// one of the command's inputs, nor another output. Paths are compared as the files they lead
// to (links followed, "..", hard links), not as text. Devices and FIFOs are written through,
// never replaced, so they may appear more than once (two outputs to /dev/null).
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace cellgraph {

class FilePlan {
 public:
  // `option` names the path in messages: "--graph", "--stats".
  void reads(const std::string& path, const std::string& option);
  void writes(const std::string& path, const std::string& option);
  // Files "BASE_<step>EXTENSION" (frames, VTK snapshots).
  void writes_series(const std::string& base, const std::string& extension, const std::string& option);
  // `output` may replace `input` on purpose (a checkpoint continues the file it restarted from).
  void may_replace(const std::string& output, const std::string& input);

  // Throws Error naming both options and the file when two of them meet.
  void check() const;

 private:
  struct Entry {
    std::string path, option, extension;  // extension: series only
    bool output = false, series = false;
  };
  std::vector<Entry> entries_;
  std::vector<std::pair<std::string, std::string>> allowed_;  // (output option, input option)
};

}  // namespace cellgraph
