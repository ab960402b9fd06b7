// Outputs are never half-written, and never replace what they should write into:
// - a regular file (or a new one) is written to "<target>.tmp.<pid>" beside it, and renamed
//   over it by commit() once its bytes are on disk; an existing file's permissions are kept;
// - a symbolic link is followed to its target, which is then replaced that way (the link stays);
// - anything else that exists (a character device, a FIFO) is written through, in place.
// Write errors (a full disk: ENOSPC, EIO) are reported with the path and the system's reason.
#pragma once
#include <memory>
#include <ostream>
#include <string>

namespace cellgraph {

// Where an output path leads: the file that is written, and how.
struct OutputTarget {
  std::string file;            // the path itself, or where its links lead
  bool write_through = false;  // exists and is no regular file: written in place
};
// Follows `path`'s symbolic links (dangling ones too: the file they name is created). Throws
// Error for a directory and for a loop of links.
OutputTarget resolve_output(const std::string& path);

class AtomicFile {
 public:
  // Opens the temporary (or the target, written through) for binary writing; throws Error
  // naming `path` if it cannot.
  explicit AtomicFile(std::string path);
  ~AtomicFile();  // removes the temporary unless committed
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  std::ostream& stream() { return out_; }
  const std::string& path() const { return path_; }
  const std::string& temp_path() const { return temp_; }  // empty when written through
  // Flushes, syncs, closes and renames over the target; throws Error naming the path and the
  // reason on any failure.
  void commit();

  // Throws Error unless `path` can be written (its folder exists and takes new files; a device
  // or FIFO is writable); leaves nothing behind. For the checks before a run starts.
  static void check_writable(const std::string& path);

 private:
  class Buffer;  // a stream buffer over a file descriptor that keeps the first error
  std::string path_, temp_;
  OutputTarget target_;
  std::unique_ptr<Buffer> buffer_;
  std::ostream out_;
  bool committed_ = false;
};

}  // namespace cellgraph
