#include "cellgraph/output/checkpoint.hpp"

#include <zlib.h>

#include <cstring>
#include <fstream>
#include <iterator>

#include "cellgraph/error.hpp"
#include "cellgraph/output/atomic_file.hpp"

namespace cellgraph {
namespace {

constexpr char kMagic[8] = {'C', 'G', 'C', 'K', 'P', 'T', '\r', '\n'};

std::uint32_t crc32_of(const std::string& bytes) {
  std::uint32_t crc = crc32(0L, Z_NULL, 0);
  for (std::size_t at = 0; at < bytes.size();) {  // zlib takes 32-bit lengths
    const std::size_t n = std::min<std::size_t>(bytes.size() - at, 1u << 30);
    crc = crc32(crc, reinterpret_cast<const Bytef*>(bytes.data() + at), uInt(n));
    at += n;
  }
  return crc;
}

class Writer {
 public:
  template <class T>
  void put(T value) {
    for (std::size_t i = 0; i < sizeof(T); ++i) out_.push_back(char((std::uint64_t(value) >> (8 * i)) & 0xFF));
  }
  void put(const std::string& s) {
    put(std::uint32_t(s.size()));
    out_ += s;
  }
  void put_bytes(const std::vector<std::uint8_t>& b) { out_.append(b.begin(), b.end()); }
  std::string& bytes() { return out_; }

 private:
  std::string out_;
};

class Reader {
 public:
  Reader(const std::string& bytes, const std::string& path) : in_(bytes), path_(path) {}
  template <class T>
  T get() {
    need(sizeof(T));
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i) v |= std::uint64_t(std::uint8_t(in_[at_ + i])) << (8 * i);
    at_ += sizeof(T);
    return T(v);
  }
  std::string get_string() {
    const std::uint32_t n = get<std::uint32_t>();
    need(n);
    std::string s = in_.substr(at_, n);
    at_ += n;
    return s;
  }
  std::vector<std::uint8_t> get_bytes(std::uint64_t n) {
    need(n);
    std::vector<std::uint8_t> b(in_.begin() + std::ptrdiff_t(at_), in_.begin() + std::ptrdiff_t(at_ + n));
    at_ += n;
    return b;
  }
  std::size_t position() const { return at_; }

 private:
  void need(std::uint64_t n) const {
    if (n > in_.size() - at_) throw Error("checkpoint " + path_ + " is truncated");
  }
  const std::string& in_;
  const std::string& path_;
  std::size_t at_ = 0;
};

}  // namespace

void write_checkpoint(const std::string& path, const Checkpoint& c) {
  Writer w;
  w.bytes().append(kMagic, sizeof kMagic);
  w.put(kCheckpointVersion);
  w.put(c.step);
  w.put(c.seed);
  w.put(c.model);
  w.put(c.parameters);
  w.put(c.source);
  w.put(c.vertices);
  w.put(std::uint32_t(c.variables.size()));
  for (const auto& variable : c.variables) {
    if (c.vertices == 0 || variable.size() % c.vertices != 0)
      throw Error("checkpoint: a variable's size is not a whole number of bytes per vertex");
    w.put(std::uint32_t(variable.size() / c.vertices));
    w.put_bytes(variable);
  }
  w.put(crc32_of(w.bytes()));
  AtomicFile file(path);
  file.stream().write(w.bytes().data(), std::streamsize(w.bytes().size()));
  file.commit();
}

Checkpoint read_checkpoint(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot open checkpoint " + path);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.size() < sizeof kMagic || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    throw Error(path + " is not a cellgraph checkpoint");
  if (bytes.size() < sizeof kMagic + 8) throw Error("checkpoint " + path + " is truncated");
  Reader r(bytes, path);
  r.get_bytes(sizeof kMagic);
  const std::uint32_t version = r.get<std::uint32_t>();
  if (version != kCheckpointVersion)
    throw Error("checkpoint " + path + " has version " + std::to_string(version) + "; this cellgraph reads version " +
                std::to_string(kCheckpointVersion));
  // The checksum covers everything before its last four bytes.
  const std::string body = bytes.substr(0, bytes.size() - 4);
  Reader tail(bytes, path);
  tail.get_bytes(bytes.size() - 4);
  if (tail.get<std::uint32_t>() != crc32_of(body))
    throw Error("checkpoint " + path + " is corrupt (checksum mismatch) or truncated");

  Checkpoint c;
  c.step = r.get<std::uint64_t>();
  c.seed = r.get<std::uint64_t>();
  c.model = r.get_string();
  c.parameters = r.get_string();
  c.source = r.get_string();
  c.vertices = r.get<std::uint32_t>();
  const std::uint32_t count = r.get<std::uint32_t>();
  if (count > 64) throw Error("checkpoint " + path + " claims " + std::to_string(count) + " variables");
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint32_t width = r.get<std::uint32_t>();
    c.variables.push_back(r.get_bytes(std::uint64_t(width) * c.vertices));
  }
  if (r.position() != bytes.size() - 4) throw Error("checkpoint " + path + " has trailing bytes");
  return c;
}

}  // namespace cellgraph
