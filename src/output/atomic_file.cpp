#include "cellgraph/output/atomic_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "cellgraph/error.hpp"

namespace cellgraph {

AtomicFile::AtomicFile(std::string path)
    : path_(std::move(path)), temp_(path_ + ".tmp." + std::to_string(::getpid())) {
  out_.open(temp_, std::ios::binary | std::ios::trunc);
  if (!out_) throw Error("cannot write " + path_ + ": " + std::strerror(errno));
}

AtomicFile::~AtomicFile() {
  if (!committed_) {
    out_.close();
    std::remove(temp_.c_str());
  }
}

void AtomicFile::commit() {
  out_.flush();
  bool ok = static_cast<bool>(out_);
  out_.close();
  if (!ok || out_.fail()) throw Error("cannot write " + path_ + ": write failed");
  if (std::rename(temp_.c_str(), path_.c_str()) != 0)
    throw Error("cannot write " + path_ + ": " + std::strerror(errno));
  committed_ = true;
}

}  // namespace cellgraph
