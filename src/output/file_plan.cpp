#include "cellgraph/output/file_plan.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <optional>

#include "cellgraph/error.hpp"
#include "cellgraph/output/atomic_file.hpp"

namespace cellgraph {
namespace {

namespace fs = std::filesystem;

// What a path leads to: its canonical name, and the file's identity where it exists. Empty for
// devices and FIFOs, which are written through and never replaced.
struct FileKey {
  std::string name;
  std::optional<std::pair<dev_t, ino_t>> inode;
};

std::optional<FileKey> key_of(const std::string& path) {
  OutputTarget target;
  try {
    target = resolve_output(path);
  } catch (const Error&) {
    return std::nullopt;  // a directory, a loop: the write itself says what is wrong
  }
  if (target.write_through) return std::nullopt;
  std::error_code ignored;
  FileKey key{fs::weakly_canonical(target.file, ignored).string(), std::nullopt};
  if (key.name.empty()) key.name = fs::absolute(target.file, ignored).lexically_normal().string();
  struct stat seen {};
  if (::stat(target.file.c_str(), &seen) == 0) key.inode = std::make_pair(seen.st_dev, seen.st_ino);
  return key;
}

bool same_file(const FileKey& a, const FileKey& b) {
  return a.name == b.name || (a.inode && b.inode && *a.inode == *b.inode);
}

// Whether `file` is one of the series' files: "<base>_<digits><extension>".
bool in_series(const std::string& file, const std::string& base, const std::string& extension) {
  const std::string head = base + "_";
  if (file.size() <= head.size() + extension.size() || file.compare(0, head.size(), head) != 0 ||
      file.compare(file.size() - extension.size(), extension.size(), extension) != 0)
    return false;
  const std::string digits = file.substr(head.size(), file.size() - head.size() - extension.size());
  return std::all_of(digits.begin(), digits.end(), [](unsigned char c) { return std::isdigit(c); });
}

std::string canonical_base(const std::string& base) {
  std::error_code ignored;
  const fs::path path(base);
  const fs::path folder =
      fs::weakly_canonical(path.parent_path().empty() ? fs::path(".") : path.parent_path(), ignored);
  return (folder / path.filename()).string();
}

}  // namespace

void FilePlan::reads(const std::string& path, const std::string& option) {
  if (!path.empty()) entries_.push_back({path, option, "", false, false});
}

void FilePlan::writes(const std::string& path, const std::string& option) {
  if (!path.empty()) entries_.push_back({path, option, "", true, false});
}

void FilePlan::writes_series(const std::string& base, const std::string& extension, const std::string& option) {
  if (!base.empty()) entries_.push_back({base, option, extension, true, true});
}

void FilePlan::may_replace(const std::string& output, const std::string& input) {
  allowed_.emplace_back(output, input);
}

void FilePlan::check() const {
  // The later of two outputs, or the output of an output and an input, is the one refused.
  auto refuse = [](const Entry& a, const Entry& b, const std::string& file) {
    const Entry& out = b.output ? b : a;
    const Entry& other = b.output ? a : b;
    throw Error(out.option + " " + out.path + " would replace " + (other.output ? "the output of " : "the input of ") +
                other.option + " " + other.path + (out.path != other.path ? " (both are " + file + ")" : "") +
                ": give " + out.option + " another path");
  };
  std::vector<std::optional<FileKey>> keys;
  for (const Entry& e : entries_) keys.push_back(e.series ? std::nullopt : key_of(e.path));
  for (std::size_t i = 0; i < entries_.size(); ++i)
    for (std::size_t j = i + 1; j < entries_.size(); ++j) {
      const Entry &a = entries_[i], &b = entries_[j];
      if (!a.output && !b.output) continue;  // reading a file twice is fine
      const Entry& out = b.output ? b : a;
      const Entry& other = b.output ? a : b;
      if (!other.output &&
          std::find(allowed_.begin(), allowed_.end(), std::make_pair(out.option, other.option)) != allowed_.end())
        continue;
      if (a.series || b.series) {
        const Entry& series = a.series ? a : b;
        const Entry& single = a.series ? b : a;
        if (single.series) continue;  // series of different options differ in their extensions
        const std::optional<FileKey>& key = keys[a.series ? j : i];
        if (key && in_series(key->name, canonical_base(series.path), series.extension)) refuse(a, b, key->name);
        continue;
      }
      if (keys[i] && keys[j] && same_file(*keys[i], *keys[j])) refuse(a, b, keys[i]->name);
    }
}

}  // namespace cellgraph
