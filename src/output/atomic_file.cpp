#include "cellgraph/output/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <streambuf>
#include <vector>

#include "cellgraph/error.hpp"
#include "cellgraph/interrupt.hpp"

namespace cellgraph {
namespace {

[[noreturn]] void fail(const std::string& path, int error) {
  throw Error("cannot write " + path + ": " + std::strerror(error));
}

std::string parent_folder(const std::string& file) {
  const std::string parent = std::filesystem::path(file).parent_path().string();
  return parent.empty() ? "." : parent;
}

}  // namespace

OutputTarget resolve_output(const std::string& path) {
  std::string file = path;
  for (int links = 0;; ++links) {
    struct stat seen {};
    if (::lstat(file.c_str(), &seen) != 0) {
      if (errno != ENOENT) fail(path, errno);
      return {file, false};  // a new file
    }
    if (S_ISDIR(seen.st_mode)) fail(path, EISDIR);
    if (!S_ISLNK(seen.st_mode)) return {file, !S_ISREG(seen.st_mode)};
    if (links == 40) fail(path, ELOOP);
    // Links the kernel resolves by itself (/dev/stdout -> /proc/self/fd/1 -> pipe:[N]) lead to
    // no path: a target that exists and is no regular file is written through the link.
    struct stat target {};
    if (::stat(file.c_str(), &target) == 0 && !S_ISREG(target.st_mode)) {
      if (S_ISDIR(target.st_mode)) fail(path, EISDIR);
      return {path, true};
    }
    std::vector<char> text(PATH_MAX + 1);
    const ssize_t length = ::readlink(file.c_str(), text.data(), text.size() - 1);
    if (length < 0) fail(path, errno);
    const std::filesystem::path next(std::string(text.data(), std::size_t(length)));
    file = (next.is_absolute() ? next : std::filesystem::path(parent_folder(file)) / next).string();
  }
}

// Writes go to the file descriptor in blocks; the first failure is kept for commit() to
// report, with its errno, and every later write fails at once.
class AtomicFile::Buffer : public std::streambuf {
 public:
  explicit Buffer(int fd) : fd_(fd), block_(1 << 16) { setp(block_.data(), block_.data() + block_.size()); }
  ~Buffer() override { close(); }
  void attach(int fd) { fd_ = fd; }

  int error() const { return error_; }
  int fd() const { return fd_; }
  void close() {
    if (fd_ >= 0 && ::close(fd_) != 0 && !error_) error_ = errno;
    fd_ = -1;
  }

 protected:
  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char* data, std::streamsize size) override {
    if (size < std::streamsize(block_.size()) / 2) return std::streambuf::xsputn(data, size);
    return drain() && write_all(data, std::size_t(size)) ? size : 0;  // large blocks go straight out
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  bool drain() {
    const bool ok = write_all(pbase(), std::size_t(pptr() - pbase()));
    setp(block_.data(), block_.data() + block_.size());
    return ok;
  }
  bool write_all(const char* data, std::size_t size) {
    while (size > 0 && !error_) {
      const ssize_t n = ::write(fd_, data, size);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        error_ = n < 0 ? errno : EIO;
        break;
      }
      data += n;
      size -= std::size_t(n);
    }
    return !error_;
  }

  int fd_;
  std::vector<char> block_;
  int error_ = 0;
};

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)), target_(resolve_output(path_)), out_(nullptr) {
  buffer_ = std::make_unique<Buffer>(-1);
  int fd = -1;
  if (target_.write_through) {
    fd = ::open(target_.file.c_str(), O_WRONLY | O_CLOEXEC);
  } else {
    temp_ = target_.file + ".tmp." + std::to_string(::getpid());
    struct stat old {};
    const mode_t mode = ::stat(target_.file.c_str(), &old) == 0 ? (old.st_mode & 07777) : 0666;
    fd = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
    if (fd >= 0) {
      track_temporary(temp_.c_str());
      if (mode != 0666) ::fchmod(fd, mode);  // the replaced file's mode, whatever the umask
    }
  }
  if (fd < 0) fail(path_, errno);
  buffer_->attach(fd);
  out_.rdbuf(buffer_.get());
}

AtomicFile::~AtomicFile() {
  if (committed_) return;
  buffer_->close();
  if (!temp_.empty()) {
    ::unlink(temp_.c_str());
    forget_temporary(temp_.c_str());
  }
}

void AtomicFile::commit() {
  out_.flush();
  int error = buffer_->error();
  // Regular files reach the disk before they take the target's name: a crash leaves the old
  // file or the new one, never a short one.
  if (!error && !target_.write_through && ::fsync(buffer_->fd()) != 0) error = errno;
  buffer_->close();
  if (!error) error = buffer_->error();
  if (!error && !temp_.empty() && ::rename(temp_.c_str(), target_.file.c_str()) != 0) error = errno;
  if (error) fail(path_, error);  // the destructor removes the temporary
  if (!temp_.empty()) forget_temporary(temp_.c_str());
  committed_ = true;
}

void AtomicFile::check_writable(const std::string& path) {
  const OutputTarget target = resolve_output(path);
  if (target.write_through) {
    if (::access(target.file.c_str(), W_OK) != 0) fail(path, errno);
    return;
  }
  const std::string probe = target.file + ".tmp." + std::to_string(::getpid());
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) fail(path, errno);
  ::close(fd);
  ::unlink(probe.c_str());
}

}  // namespace cellgraph
