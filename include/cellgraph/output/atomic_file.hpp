// Outputs are never half-written: write to a temporary file beside the target, then rename.
#pragma once
#include <fstream>
#include <string>

namespace cellgraph {

class AtomicFile {
 public:
  // Opens "<path>.tmp.<pid>" for binary writing; throws Error if it cannot.
  explicit AtomicFile(std::string path);
  ~AtomicFile();  // removes the temporary unless committed
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  std::ostream& stream() { return out_; }
  const std::string& temp_path() const { return temp_; }
  // Flushes, closes and renames over the target; throws Error on any failure.
  void commit();

 private:
  std::string path_, temp_;
  std::ofstream out_;
  bool committed_ = false;
};

}  // namespace cellgraph
