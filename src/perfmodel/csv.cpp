// The timings CSV of `cellgraph perfmodel measure`: one table of columns, each with its name,
// how it is written and how it is read back (with the checks that make a row usable).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>

#include "cellgraph/error.hpp"
#include "cellgraph/perfmodel.hpp"
#include "cellgraph/update.hpp"
#include "src/source/line_reader.hpp"

namespace cellgraph::perfmodel {
namespace {

// The value a field was read as, or the reason it could not be: thrown as a plain string and
// turned into a ParseError naming the file, line and column by the reader.
struct FieldError {
  std::string what;
};

std::string format_number(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.10g", x);
  return text;
}

template <class T>
T whole(const std::string& field, T low) {
  T value{};
  const char* end = field.data() + field.size();
  auto [stop, ec] = std::from_chars(field.data(), end, value);
  if (field.empty() || ec != std::errc() || stop != end)
    throw FieldError{quoted_text(field) + " is not a whole number"};
  if (value < low) throw FieldError{"must be at least " + std::to_string(low)};
  return value;
}

double real(const std::string& field, bool positive) {
  double value = 0;
  const char* end = field.data() + field.size();
  auto [stop, ec] = std::from_chars(field.data(), end, value);
  if (field.empty() || ec != std::errc() || stop != end || !std::isfinite(value))
    throw FieldError{quoted_text(field) + " is not a number"};
  if (positive ? !(value > 0) : value < 0) throw FieldError{positive ? "must be positive" : "must not be negative"};
  return value;
}

// A share of a whole: more than 0, at most 1.
double share(const std::string& field) {
  const double value = real(field, true);
  if (value > 1) throw FieldError{quoted_text(field) + " is a share: at most 1"};
  return value;
}

std::string text(const std::string& field) {
  if (field.empty()) throw FieldError{"is empty"};
  return field;
}

std::string one_of(const std::string& field, std::initializer_list<const char*> allowed) {
  std::string list;
  for (const char* a : allowed) {
    if (field == a) return field;
    list += std::string(list.empty() ? "" : ", ") + a;
  }
  throw FieldError{quoted_text(field) + " is not one of " + list};
}

struct Column {
  const char* name;
  std::function<std::string(const Measurement&)> write;
  std::function<void(Measurement&, const std::string&)> read;
  bool optional = false;  // CSVs written before it lack it: its value is then unknown
};

#define CG_TEXT(field, check)                                                                                         \
  {                                                                                                                   \
#field, [](const Measurement& m) { return m.field; },                                                             \
                                                       [](Measurement & m, const std::string& f) { m.field = check; } \
  }
#define CG_WHOLE(field, low)                                                                                         \
  {                                                                                                                  \
#field, [](const Measurement&                                                                                    \
                   m) { return std::to_string(m.field); }, [](Measurement & m,                                       \
                                                              const std::string&                                     \
                                                                  f) { m.field = whole<decltype(m.field)>(f, low); } \
  }
#define CG_REAL(field, positive)                                                                                    \
  {                                                                                                                 \
#field, [](const Measurement& m) { return format_number(m.field); }, [](Measurement & m,                        \
                                                                            const std::string&                      \
                                                                                f) { m.field = real(f, positive); } \
  }

const std::vector<Column>& columns() {
  static const std::vector<Column> table = {
      CG_TEXT(source, text(f)),
      CG_TEXT(kind, one_of(f, {"grid", "graph", "hubs"})),
      CG_TEXT(model, text(f)),
      {"update", [](const Measurement& m) { return m.update; },
       [](Measurement& m, const std::string& f) {
         try {
           m.update = update_rule_text(parse_update_rule(f));
         } catch (const Error& e) {
           throw FieldError{e.what()};
         }
       }},
      CG_TEXT(backend, one_of(f, {"cpu", "cuda"})),
      CG_WHOLE(ranks, 1u),
      CG_WHOLE(threads, 1u),
      CG_WHOLE(cells, std::uint64_t(1)),
      CG_WHOLE(part_cells_max, std::uint64_t(1)),
      CG_REAL(bytes_per_cell, true),
      CG_REAL(state_bytes, true),
      CG_WHOLE(variables, 1u),
      CG_WHOLE(halo_cells_max, std::uint64_t(0)),
      CG_WHOLE(peers_max, 0u),
      CG_WHOLE(exchanges, 0u),
      CG_WHOLE(steps, std::uint64_t(1)),
      CG_REAL(seconds_per_step, true),
      CG_TEXT(device, text(f)),
      CG_WHOLE(sm_count, 0u),
      CG_REAL(clock_mhz, false),
      CG_REAL(cache_bytes, false),
      CG_REAL(copy_gbps, false),
      // Added after the first GPU sweeps: empty (or absent) is unknown.
      {"launches", [](const Measurement& m) { return m.launches ? std::to_string(m.launches) : std::string(); },
       [](Measurement& m, const std::string& f) { m.launches = f.empty() ? 0 : whole<std::uint32_t>(f, 1u); }, true},
      {"depth", [](const Measurement& m) { return m.depth > 0 ? format_number(m.depth) : std::string(); },
       [](Measurement& m, const std::string& f) { m.depth = f.empty() ? 0 : real(f, true); }, true},
      {"gathers", [](const Measurement& m) { return m.gathers > 0 ? format_number(m.gathers) : std::string(); },
       [](Measurement& m, const std::string& f) { m.gathers = f.empty() ? 0 : real(f, true); }, true},
      {"missed_gathers",
       [](const Measurement& m) { return m.missed_gathers > 0 ? format_number(m.missed_gathers) : std::string(); },
       [](Measurement& m, const std::string& f) { m.missed_gathers = f.empty() ? 0 : real(f, true); }, true},
      {"part_bytes_max",
       [](const Measurement& m) { return m.part_bytes_max > 0 ? format_number(m.part_bytes_max) : std::string(); },
       [](Measurement& m, const std::string& f) { m.part_bytes_max = f.empty() ? 0 : real(f, true); }, true},
      {"halo_path", [](const Measurement& m) { return m.halo_path; },
       [](Measurement& m, const std::string& f) {
         m.halo_path = f.empty() ? f : one_of(f, {"device", "host"});
       },
       true},
      {"boundary_share",
       [](const Measurement& m) { return m.boundary_share > 0 ? format_number(m.boundary_share) : std::string(); },
       [](Measurement& m, const std::string& f) { m.boundary_share = f.empty() ? 0 : share(f); }, true},
      {"send_cells_max",
       [](const Measurement& m) { return m.send_cells_max ? std::to_string(m.send_cells_max) : std::string(); },
       [](Measurement& m, const std::string& f) { m.send_cells_max = f.empty() ? 0 : whole<std::uint64_t>(f, 0); },
       true},
      {"gather_path", [](const Measurement& m) { return m.gather_path; },
       [](Measurement& m, const std::string& f) {
         m.gather_path = f.empty() ? f : one_of(f, {"packed", "bytes"});
       },
       true},
      {"parts", [](const Measurement& m) { return format_parts(m.parts); },
       [](Measurement& m, const std::string& f) {
         try {
           m.parts = parse_parts(f);
         } catch (const Error& e) {
           throw FieldError{e.what()};
         }
       },
       true},
  };
  return table;
}

#undef CG_TEXT
#undef CG_WHOLE
#undef CG_REAL

std::string quoted(const std::string& field) {
  if (field.find_first_of(",\"\n\r") == std::string::npos) return field;
  std::string q = "\"";
  for (char c : field) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

// Splits one CSV line (RFC 4180 quoting, no line breaks inside fields).
std::vector<std::string> split(const std::string& line, const std::string& name, std::size_t number) {
  std::vector<std::string> fields(1);
  bool in_quotes = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (in_quotes) {
      if (c != '"') fields.back() += c;
      else if (i + 1 < line.size() && line[i + 1] == '"') fields.back() += '"', ++i;
      else in_quotes = false;
    } else if (c == '"' && fields.back().empty()) {
      in_quotes = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  if (in_quotes) throw ParseError(name, number, "a quoted field is not closed");
  return fields;
}

}  // namespace

std::string format_parts(const std::vector<PartWork>& parts) {
  std::string text;
  for (const PartWork& p : parts)
    text += (text.empty() ? "" : ";") + std::to_string(p.cells) + ":" + std::to_string(p.indices) + ":" +
            format_number(p.depth) + ":" + format_number(p.gathers) + ":" + format_number(p.missed_gathers) + ":" +
            (p.packed_signals ? "packed" : "bytes");
  return text;
}

std::vector<PartWork> parse_parts(const std::string& text) {
  std::vector<PartWork> parts;
  if (text.empty()) return parts;
  std::istringstream list(text);
  for (std::string item; std::getline(list, item, ';');) {
    std::vector<std::string> f;
    std::istringstream fields(item);
    for (std::string x; std::getline(fields, x, ':');) f.push_back(x);
    const std::string which = "part " + std::to_string(parts.size() + 1);
    if (f.size() != 6)
      throw Error(which + " " + quoted_text(item) + ": expected cells:indices:depth:gathers:missed:packed|bytes");
    try {
      parts.push_back({whole<std::uint64_t>(f[0], 1), whole<std::uint64_t>(f[1], 0), real(f[2], false),
                       real(f[3], false), real(f[4], false), one_of(f[5], {"packed", "bytes"}) == "packed"});
    } catch (const FieldError& e) {
      throw Error(which + " " + quoted_text(item) + ": " + e.what);
    }
  }
  if (text.back() == ';') throw Error("a part is empty (the list ends in ';')");
  return parts;
}

std::string csv_header() {
  std::string line;
  for (const Column& c : columns()) line += std::string(line.empty() ? "" : ",") + c.name;
  return line;
}

std::string csv_row(const Measurement& m) {
  std::string line;
  bool first = true;
  for (const Column& c : columns()) {
    line += (first ? "" : ",") + quoted(c.write(m));
    first = false;
  }
  return line;
}

std::vector<Measurement> parse_measurements(std::istream& in, const std::string& name) {
  std::string line;
  std::size_t number = 0;
  std::vector<const Column*> order;  // the column of each field, as the header lists them
  std::vector<Measurement> rows;
  while (std::getline(in, line)) {
    ++number;
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;  // blank lines and notes
    const std::vector<std::string> fields = split(line, name, number);
    if (order.empty()) {
      std::map<std::string, const Column*> by_name;
      for (const Column& c : columns()) by_name[c.name] = &c;
      for (const std::string& f : fields) {
        auto it = by_name.find(f);
        if (it == by_name.end()) throw ParseError(name, number, "unknown column " + quoted_text(f) + " in the header");
        if (!it->second) throw ParseError(name, number, "column " + quoted_text(f) + " appears twice in the header");
        order.push_back(it->second);
        it->second = nullptr;
      }
      for (const auto& [column, unused] : by_name)
        if (unused && !unused->optional)
          throw ParseError(name, number, "the header has no column " + quoted_text(column));
      continue;
    }
    if (fields.size() != order.size())
      throw ParseError(name, number,
                       std::to_string(fields.size()) + " fields, the header has " + std::to_string(order.size()));
    Measurement m;
    for (std::size_t i = 0; i < fields.size(); ++i) {
      try {
        order[i]->read(m, fields[i]);
      } catch (const FieldError& e) {
        throw ParseError(name, number, std::string(order[i]->name) + ": " + e.what);
      }
    }
    // A step that is not colored is one launch; a colored row without the column stays unknown.
    if (!m.launches && m.update != "colored") m.launches = 1;
    if (m.part_cells_max > m.cells) throw ParseError(name, number, "part_cells_max exceeds cells");
    if (m.ranks == 1 && m.part_cells_max != m.cells)
      throw ParseError(name, number, "a row of one rank has part_cells_max != cells");
    if (!m.parts.empty()) {
      std::uint64_t largest = 0;
      for (const PartWork& p : m.parts) largest = std::max(largest, p.cells);
      if (m.parts.size() != m.ranks)
        throw ParseError(
            name, number,
            "parts lists " + std::to_string(m.parts.size()) + " parts, ranks is " + std::to_string(m.ranks));
      if (largest != m.part_cells_max)
        throw ParseError(name, number,
                         "the largest of parts has " + std::to_string(largest) + " cells, part_cells_max is " +
                             std::to_string(m.part_cells_max));
    }
    m.origin = name + ":" + std::to_string(number);
    rows.push_back(std::move(m));
  }
  if (in.bad()) throw ParseError(name, number + 1, "read error");
  if (order.empty()) throw ParseError(name, number, "no header: expected " + csv_header());
  return rows;
}

std::vector<Measurement> read_measurements(const std::string& path) {
  std::ifstream in = detail::open_input(path);
  return parse_measurements(in, path);
}

}  // namespace cellgraph::perfmodel
