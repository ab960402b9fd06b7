#include "tools/cellgraph/summary.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <ostream>
#include <sstream>

#include "cellgraph/build_info.hpp"
#include "cellgraph/output/atomic_file.hpp"

namespace cellgraph::cli {
namespace {

std::uint64_t bytes_of(const WrittenOutput& output) {
  std::uint64_t bytes = 0;
  for (const std::string& file : output.files) {
    std::error_code ignored;
    const std::uintmax_t size = std::filesystem::file_size(file, ignored);
    if (!ignored) bytes += size;
  }
  return bytes;
}

const char* series_word(RunOutput kind) { return kind == RunOutput::frames ? "frames" : "snapshots"; }

const char* kind_name(RunOutput kind) {
  switch (kind) {
    case RunOutput::checkpoint:
      return "checkpoint";
    case RunOutput::statistics:
      return "statistics";
    case RunOutput::vtk_series:
      return "vtk";
    case RunOutput::animation:
      return "gif";
    case RunOutput::picture:
      return "png";
    case RunOutput::rle:
      return "rle";
    case RunOutput::state_file:
      return "states";
    case RunOutput::particle_picture:
      return "png";
    case RunOutput::frames:
      return "frames";
  }
  return "";
}

// A JSON string: quotes, backslashes and control characters escaped; other bytes as they are.
std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') out += '\\', out += char(c);
    else if (c < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
      out += escaped;
    } else out += char(c);
  }
  return out + "\"";
}

// Numbers as JSON has them: finite, else null.
std::string json_number(double x) {
  if (!std::isfinite(x)) return "null";
  std::ostringstream out;
  out.precision(17);
  out << x;
  return out.str();
}

}  // namespace

double RunSummary::rate() const {
  const double steps = double(last_step - first_step);
  if (seconds <= 0) return 0;
  return rate_per_cell ? steps * double(cells) / seconds : steps / seconds;
}

std::string census_text(const RunSummary& s) {
  std::string text;
  for (const auto& [name, count] : s.census) text += (text.empty() ? "" : ", ") + name + " " + std::to_string(count);
  return text;
}

std::string size_text(std::uint64_t bytes) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  double value = double(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4) value /= 1024, ++unit;
  char text[32];
  if (unit == 0) std::snprintf(text, sizeof text, "%llu bytes", static_cast<unsigned long long>(bytes));
  else std::snprintf(text, sizeof text, "%.1f %s", value, units[unit]);
  return text;
}

std::string output_text(const WrittenOutput& output) {
  const std::string size = " (" + size_text(bytes_of(output)) + ")";
  if (output.kind == RunOutput::vtk_series)
    return output.path + " and " + std::to_string(output.files.size() - 1) + " " + series_word(output.kind) + size;
  if (output.kind == RunOutput::frames)
    return std::to_string(output.files.size()) + " frames " + output.path + "_*.png" + size;
  return output.path + size;
}

void print_summary_details(std::ostream& out, const RunSummary& s) {
  if (!s.census.empty()) out << "  census at step " << s.last_step << ": " << census_text(s) << "\n";
  if (!s.observables.empty()) {
    out << "  observables at step " << s.last_step << ":";
    for (std::size_t i = 0; i < s.observables.size(); ++i)
      out << (i ? ", " : " ") << s.observables[i].first << " " << s.observables[i].second;
    out << "\n";
  }
  for (std::size_t i = 0; i < s.outputs.size(); ++i)
    out << (i ? ", " : "  wrote ") << output_text(s.outputs[i]) << (i + 1 == s.outputs.size() ? "\n" : "");
}

void write_summary_json(const std::string& path, const RunSummary& s) {
  const BuildInfo b = build_info();
  std::ostringstream j;
  j << "{\n  \"cellgraph\": {\"version\": " << json_string(b.version) << ", \"commit\": " << json_string(b.commit)
    << "},\n  \"source\": " << json_string(s.source) << ",\n  \"cells\": " << s.cells
    << ",\n  \"model\": " << json_string(s.model) << ",\n  \"rule\": " << json_string(s.rule)
    << ",\n  \"parameters\": {";
  for (std::size_t i = 0; i < s.parameters.size(); ++i)
    j << (i ? ", " : "") << json_string(s.parameters[i].first) << ": " << json_string(s.parameters[i].second);
  j << "},\n  \"backend\": " << json_string(s.backend) << ",\n  \"first_step\": " << s.first_step
    << ",\n  \"last_step\": " << s.last_step << ",\n  \"seconds\": " << json_number(s.seconds)
    << ",\n  \"rate\": " << json_number(s.rate()) << ",\n  \"rate_unit\": " << json_string(s.rate_unit())
    << ",\n  \"census\": {";
  for (std::size_t i = 0; i < s.census.size(); ++i)
    j << (i ? ", " : "") << json_string(s.census[i].first) << ": " << s.census[i].second;
  j << "},\n  \"observables\": {";
  for (std::size_t i = 0; i < s.observables.size(); ++i)
    j << (i ? ", " : "") << json_string(s.observables[i].first) << ": " << json_number(s.observables[i].second);
  j << "},\n  \"outputs\": [";
  for (std::size_t i = 0; i < s.outputs.size(); ++i) {
    const WrittenOutput& o = s.outputs[i];
    j << (i ? ",\n" : "\n") << "    {\"kind\": " << json_string(kind_name(o.kind))
      << ", \"path\": " << json_string(o.path) << ", \"files\": " << o.files.size() << ", \"bytes\": " << bytes_of(o)
      << "}";
  }
  j << (s.outputs.empty() ? "]" : "\n  ]") << "\n}\n";
  AtomicFile file(path);
  file.stream() << j.str();
  file.commit();
}

}  // namespace cellgraph::cli
