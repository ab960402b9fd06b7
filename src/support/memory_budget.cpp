#include "cellgraph/memory_budget.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <string>

#include "cellgraph/error.hpp"

namespace cellgraph {
namespace {

std::uint64_t limit_given = 0;  // set_memory_limit; 0: none

constexpr std::uint64_t kUnknown = std::numeric_limits<std::uint64_t>::max();

// MemAvailable from /proc/meminfo, in bytes; kUnknown where there is none.
std::uint64_t mem_available() {
  std::ifstream in("/proc/meminfo");
  std::string key, unit;
  std::uint64_t kib = 0;
  while (in >> key >> kib) {
    std::getline(in, unit);
    if (key == "MemAvailable:") return kib * 1024;
  }
  return kUnknown;
}

std::uint64_t read_number(const char* path) {
  std::ifstream in(path);
  std::string text;
  if (!(in >> text)) return kUnknown;
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size() ? value : kUnknown;  // "max": none
}

// What the cgroup (v2) this process runs in still allows; kUnknown without a limit.
std::uint64_t cgroup_room() {
  const std::uint64_t max = read_number("/sys/fs/cgroup/memory.max");
  const std::uint64_t current = read_number("/sys/fs/cgroup/memory.current");
  if (max == kUnknown) return kUnknown;
  return current == kUnknown || current > max ? max : max - current;
}

std::uint64_t machine_room() { return std::min(mem_available(), cgroup_room()); }

}  // namespace

std::uint64_t memory_limit() { return limit_given ? limit_given : machine_room(); }

std::string memory_limit_description() {
  if (limit_given) return "--max-memory " + format_bytes(limit_given);
  const std::uint64_t room = machine_room();
  return room == kUnknown ? "the memory of this machine" : "the " + format_bytes(room) + " available on this machine";
}

void set_memory_limit(std::uint64_t bytes) { limit_given = bytes; }

std::string memory_shortfall(std::uint64_t bytes) {
  return "needs about " + format_bytes(bytes) + ", more than " + memory_limit_description() +
         (limit_given ? "" : " (--max-memory sets another limit)");
}

void check_memory(std::uint64_t bytes, const std::string& what) {
  if (bytes <= memory_limit()) return;
  throw Error(what + " " + memory_shortfall(bytes));
}

std::string format_bytes(std::uint64_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + " B";
  const char* units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = double(bytes) / 1024;
  int unit = 0;
  while (value >= 1024 && unit < 5) value /= 1024, ++unit;
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %s", value, units[unit]);
  return text;
}

std::uint64_t parse_byte_size(const std::string& text) {
  const auto bad = [&] {
    return Error(
        "--max-memory takes a size in bytes with an optional unit K, M, G or T (powers of 1024): 512M, "
        "8G, 1.5T; not " +
        quoted_text(text));
  };
  double value = 0;
  const char* end = text.data() + text.size();
  auto [stop, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || !(value > 0) || !std::isfinite(value)) throw bad();
  std::string unit(stop, end);
  for (char& c : unit) c = char(std::toupper(static_cast<unsigned char>(c)));
  if (unit.size() == 3 && unit.substr(1) == "IB") unit = unit.substr(0, 1);  // GiB
  else if (unit.size() == 2 && unit[1] == 'B') unit = unit.substr(0, 1);     // GB
  double scale = 1;
  if (unit == "K") scale = 1024.0;
  else if (unit == "M") scale = 1024.0 * 1024;
  else if (unit == "G") scale = 1024.0 * 1024 * 1024;
  else if (unit == "T") scale = 1024.0 * 1024 * 1024 * 1024;
  else if (!unit.empty() && unit != "B") throw bad();
  const double bytes = value * scale;
  if (bytes < 1 || bytes >= 1.8e19) throw bad();
  return std::uint64_t(bytes);
}

std::uint64_t estimated_run_bytes(std::uint64_t vertices, std::uint64_t entries) {
  // Graph: 8 B offsets + 4 B per entry; reading and compiling: as much again in passing
  // (edge pairs, slices padded, permutations); state: double buffers of up to 8 B a cell.
  const long double bytes = 48.0L * vertices + 16.0L * entries;
  return bytes >= 1.8e19L ? kUnknown : std::uint64_t(bytes);
}

}  // namespace cellgraph
