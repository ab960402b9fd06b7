#include "cellgraph/output/checkpoint.hpp"

#include <cstring>
#include <fstream>
#include <iterator>

#include "cellgraph/digest.hpp"
#include "cellgraph/error.hpp"
#include "cellgraph/output/atomic_file.hpp"
#include "cellgraph/simulation.hpp"

namespace cellgraph {
namespace {

constexpr char kMagic[8] = {'C', 'G', 'C', 'K', 'P', 'T', '\r', '\n'};

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
  w.put(c.run_options);
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
  if (version != 1 && version != kCheckpointVersion)
    throw Error("checkpoint " + path + " has version " + std::to_string(version) +
                "; this cellgraph reads versions 1 to " + std::to_string(kCheckpointVersion));
  // The checksum covers everything before its last four bytes.
  const std::string body = bytes.substr(0, bytes.size() - 4);
  Reader tail(bytes, path);
  tail.get_bytes(bytes.size() - 4);
  if (tail.get<std::uint32_t>() != crc32_of(body))
    throw Error("checkpoint " + path + " is corrupt (checksum mismatch) or truncated");

  Checkpoint c;
  const std::size_t step_at = r.position();
  c.step = r.get<std::uint64_t>();
  if (c.step > kMaxSteps)
    throw Error(path + ": byte " + std::to_string(step_at) + ": step " + std::to_string(c.step) +
                " is past the last step a run can reach (" + std::to_string(kMaxSteps) + ")");
  c.seed = r.get<std::uint64_t>();
  c.model = r.get_string();
  c.parameters = r.get_string();
  c.source = r.get_string();
  if (version >= 2) c.run_options = r.get_string();
  c.vertices = r.get<std::uint32_t>();
  const std::uint32_t count = r.get<std::uint32_t>();
  if (count > 64) throw Error("checkpoint " + path + " claims " + std::to_string(count) + " variables");
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint32_t width = r.get<std::uint32_t>();
    c.variable_offsets.push_back(r.position());
    c.variables.push_back(r.get_bytes(std::uint64_t(width) * c.vertices));
  }
  if (r.position() != bytes.size() - 4) throw Error("checkpoint " + path + " has trailing bytes");
  return c;
}

void check_checkpoint_fits(const Checkpoint& c, const std::string& path, const std::vector<std::uint32_t>& widths,
                           std::uint32_t num_states, const std::string& model) {
  auto refuse = [&](std::uint64_t byte, const std::string& what) {
    throw Error(path + ": byte " + std::to_string(byte) + ": " + what);
  };
  const std::uint64_t first = c.variable_offsets.empty() ? 0 : c.variable_offsets[0];
  if (c.variables.size() != widths.size())
    refuse(first, "the checkpoint holds " + std::to_string(c.variables.size()) + " state variables, model " + model +
                      " has " + std::to_string(widths.size()));
  for (std::size_t i = 0; i < widths.size(); ++i)
    if (c.vertices == 0 || c.variables[i].size() != std::uint64_t(widths[i]) * c.vertices)
      refuse(c.variable_offsets[i], "variable " + std::to_string(i) + " has " +
                                        std::to_string(c.vertices ? c.variables[i].size() / c.vertices : 0) +
                                        " bytes per vertex, model " + model + "'s has " + std::to_string(widths[i]));
  if (num_states == 0 || widths.empty() || widths[0] == 0) return;  // no states to check
  const std::vector<std::uint8_t>& states = c.variables[0];
  const std::uint32_t width = widths[0];
  for (std::uint64_t v = 0; v < c.vertices; ++v) {
    std::uint64_t state = 0;
    for (std::uint32_t b = 0; b < width && b < 8; ++b) state |= std::uint64_t(states[v * width + b]) << (8 * b);
    if (state >= num_states)
      refuse(c.variable_offsets[0] + v * width, "vertex " + std::to_string(v) + " has state " + std::to_string(state) +
                                                    ", outside model " + model + "'s states 0.." +
                                                    std::to_string(num_states - 1));
  }
}

}  // namespace cellgraph
