// The fit file: what `perfmodel fit` writes and `perfmodel predict` reads. INI-like, so that a
// person can read the constants: top-level keys, then [machine], [group] (one per group and
// per shared fit, kind "*"), [exchange], [cross_validation] (every row) and
// [cross_validation_of_kind] (one kind of run's rows, each) sections of "key = value" lines.
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <ostream>

#include "cellgraph/error.hpp"
#include "cellgraph/perfmodel.hpp"
#include "src/source/line_reader.hpp"

namespace cellgraph::perfmodel {
namespace {

// Format 2 added the two-term view (per_cell, identified) and the groups' bytes per cell;
// format 1 files are still read, their two-term view being the bytes view, not identified.
// Format 3 added per_depth (the step's depth term) and per_class_work (a colored step's
// per-class sweep; both 0 in older files), launch counted per
// kernel launch, and cache_regime as off / evidence / always (true / false before: always / off).
// Format 4 added wave_cells (top level; 0: no wave term) and per_wave (0 in older files).
// Format 5 added saturation_cells (top level; 0 in older files: no floor).
// Format 6 added per_gather (0 in older files).
// Format 7 added per_missed_gather (0 in older files), and per_gather is per gathered sector
// of the cells (format 6: of at least the saturation floor's cells; read as it is).
// Format 8 prices the halo per cell (seconds_per_halo_cell) where older files priced it per
// byte (seconds_per_byte, still read and applied to the halo's bytes).
// Format 9 added seconds_per_halo_value, per variable of a halo cell (0 in older files), and
// the exchange's halo_path (device, host, or any: mixed, or no row trades with peers; older
// files: any).
// Format 10 added the boundary branch: branch_rows, branch_latency and seconds_per_send_value
// (0 in older files: every step priced by the frame terms).
// Format 11 added the optional [cross_validation] section (ErrorSummary).
// Format 12 added per_pack (0 in older files).
// Format 13 added the optional [cross_validation_of_kind] sections (kind, update, ranks).
// Format 14 added the step floor: floor_rows and step_floor (0 in older files: no floor).
constexpr int kFormat = 14;

std::string exact(double x) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", x);
  return text;
}

void write_group(std::ostream& out, const GroupFit& g) {
  out << "\n[group]\nmodel = " << g.model << "\nupdate = " << g.update << "\nkind = " << g.kind << "\nrows = " << g.rows
      << "\nstate_bytes = " << exact(g.state_bytes) << "\nvariables = " << g.variables
      << "\nbytes_min = " << exact(g.bytes_min) << "\nbytes_max = " << exact(g.bytes_max) << "\n";
  for (View v : kViews) {
    const ComputeConstants& c = g.of(v);
    const std::string p = std::string(view_name(v)) + ".";
    out << p << "launch = " << exact(c.launch) << "\n"
        << p << "per_cell = " << exact(c.per_cell) << "\n"
        << p << "per_depth = " << exact(c.per_depth) << "\n"
        << p << "per_gather = " << exact(c.per_gather) << "\n"
        << p << "per_missed_gather = " << exact(c.per_missed_gather) << "\n"
        << p << "per_wave = " << exact(c.per_wave) << "\n"
        << p << "per_pack = " << exact(c.per_pack) << "\n"
        << p << "per_class_work = " << exact(c.per_class_work) << "\n"
        << p << "per_work = " << exact(c.per_work) << "\n"
        << p << "per_work_cache = " << exact(c.per_work_cache) << "\n"
        << p << "cache_fitted = " << (c.cache_fitted ? "true" : "false") << "\n"
        << p << "identified = " << (c.identified ? "true" : "false") << "\n"
        << p << "rms_rel = " << exact(c.rms_rel) << "\n";
  }
}

// One section's "key = value" lines, taken one by one by the builder; what is left unknown.
class Section {
 public:
  Section(std::string name, std::string file, std::size_t line) : name_(std::move(name)), file_(std::move(file)), line_(line) {}

  void add(const std::string& key, const std::string& value, std::size_t line) {
    if (!values_.emplace(key, std::make_pair(value, line)).second) throw ParseError(file_, line, quoted_text(key) + " given twice");
  }
  bool has(const std::string& key) const { return values_.count(key) > 0; }
  std::string text(const std::string& key) {
    auto it = values_.find(key);
    if (it == values_.end()) throw ParseError(file_, line_, "[" + name_ + "] has no " + quoted_text(key));
    std::string v = it->second.first;
    const std::size_t line = it->second.second;
    values_.erase(it);
    if (v.empty()) throw ParseError(file_, line, quoted_text(key) + " is empty");
    last_line_ = line;
    return v;
  }
  double number(const std::string& key) {
    const std::string v = text(key);
    double x = 0;
    auto [stop, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
    if (ec != std::errc() || stop != v.data() + v.size() || !std::isfinite(x) || x < 0)
      throw ParseError(file_, last_line_, quoted_text(key) + " must be a number >= 0, not " + quoted_text(v));
    return x;
  }
  std::uint32_t whole(const std::string& key) {
    const double x = number(key);
    if (x != std::floor(x) || x > 4294967295.0) throw ParseError(file_, last_line_, quoted_text(key) + " must be a whole number");
    return std::uint32_t(x);
  }
  bool flag(const std::string& key) {
    const std::string v = text(key);
    if (v == "true") return true;
    if (v == "false") return false;
    throw ParseError(file_, last_line_, quoted_text(key) + " must be true or false, not " + quoted_text(v));
  }
  std::string one_of(const std::string& key, std::initializer_list<const char*> allowed) {
    const std::string v = text(key);
    std::string list;
    for (const char* a : allowed) {
      if (v == a) return v;
      list += std::string(list.empty() ? "" : ", ") + a;
    }
    throw ParseError(file_, last_line_, quoted_text(key) + " must be one of " + list + ", not " + quoted_text(v));
  }
  void finish() const {
    if (!values_.empty())
      throw ParseError(file_, values_.begin()->second.second, "unknown key " + quoted_text(values_.begin()->first) + " in [" + name_ + "]");
  }
  const std::string& name() const { return name_; }
  std::size_t line() const { return line_; }

 private:
  std::string name_, file_;
  std::size_t line_, last_line_ = 0;
  std::map<std::string, std::pair<std::string, std::size_t>> values_;
};

GroupFit read_group(Section& s, int format) {
  GroupFit g;
  g.model = s.text("model");
  g.update = s.text("update");
  g.kind = s.text("kind");
  g.rows = s.whole("rows");
  g.state_bytes = s.number("state_bytes");
  g.variables = s.whole("variables");
  if (format >= 2) {
    g.bytes_min = s.number("bytes_min");
    g.bytes_max = s.number("bytes_max");
  }
  for (View v : kViews) {
    ComputeConstants& c = g.view[int(v)];
    if (format < 2 && v == View::two_term) {
      c = g.of(View::bytes);
      c.identified = false;
      continue;
    }
    const std::string p = std::string(view_name(v)) + ".";
    c.launch = s.number(p + "launch");
    if (format >= 2) c.per_cell = s.number(p + "per_cell");
    if (format >= 3) c.per_depth = s.number(p + "per_depth");
    if (format >= 6) c.per_gather = s.number(p + "per_gather");
    if (format >= 7) c.per_missed_gather = s.number(p + "per_missed_gather");
    if (format >= 3) c.per_class_work = s.number(p + "per_class_work");
    if (format >= 4) c.per_wave = s.number(p + "per_wave");
    if (format >= 12) c.per_pack = s.number(p + "per_pack");
    c.per_work = s.number(p + "per_work");
    c.per_work_cache = s.number(p + "per_work_cache");
    c.cache_fitted = s.flag(p + "cache_fitted");
    if (format >= 2) c.identified = s.flag(p + "identified");
    c.rms_rel = s.number(p + "rms_rel");
  }
  return g;
}

ExchangeFit read_exchange(Section& s, int format) {
  ExchangeFit e;
  e.rows = s.whole("rows");
  if (format >= 10) e.branch_rows = s.whole("branch_rows");
  if (format >= 14) e.floor_rows = s.whole("floor_rows");
  if (format >= 9) {
    e.halo_path = s.one_of("halo_path", {"device", "host", "any"});
    if (e.halo_path == "any") e.halo_path.clear();
  }
  for (View v : kViews) {
    const int from = int(format < 2 && v == View::two_term ? View::bytes : v);
    if (from != int(v)) {
      e.round_trip[int(v)] = e.round_trip[from];
      e.latency[int(v)] = e.latency[from];
      e.seconds_per_byte[int(v)] = e.seconds_per_byte[from];
      e.seconds_per_halo_cell[int(v)] = e.seconds_per_halo_cell[from];
      e.seconds_per_halo_value[int(v)] = e.seconds_per_halo_value[from];
      continue;
    }
    const std::string p = std::string(view_name(v)) + ".";
    e.round_trip[int(v)] = s.number(p + "round_trip");
    e.latency[int(v)] = s.number(p + "latency");
    if (format >= 8) e.seconds_per_halo_cell[int(v)] = s.number(p + "seconds_per_halo_cell");
    else e.seconds_per_byte[int(v)] = s.number(p + "seconds_per_byte");
    if (format >= 9) e.seconds_per_halo_value[int(v)] = s.number(p + "seconds_per_halo_value");
    if (format >= 10) {
      e.branch_latency[int(v)] = s.number(p + "branch_latency");
      e.seconds_per_send_value[int(v)] = s.number(p + "seconds_per_send_value");
    }
    if (format >= 14) e.step_floor[int(v)] = s.number(p + "step_floor");
  }
  return e;
}

void write_errors(std::ostream& out, const ErrorSummary& c) {
  out << "sources = " << c.sources << "\nrows = " << c.rows << "\ntolerance = " << exact(c.tolerance)
      << "\nmean = " << exact(c.mean) << "\nmedian = " << exact(c.median) << "\np90 = " << exact(c.p90)
      << "\nmax = " << exact(c.max) << "\nwithin = " << exact(c.within) << "\n";
}

ErrorSummary read_errors(Section& s) {
  ErrorSummary c;
  c.sources = s.whole("sources"), c.rows = s.whole("rows");
  c.tolerance = s.number("tolerance"), c.mean = s.number("mean"), c.median = s.number("median");
  c.p90 = s.number("p90"), c.max = s.number("max"), c.within = s.number("within");
  return c;
}

}  // namespace

void write_fit(std::ostream& out, const FittedModel& f) {
  out << "# cellgraph perfmodel fit (docs/PERFORMANCE_MODEL.md): seconds per step =\n"
         "#   launch * launches + per_depth * depth + per_wave * waves + per_pack * packs + per_cell * cells\n"
         "#   + per_work * work (packs: 1 where the step packs one-bit signals first, gather_path packed)\n"
         "#   + per_class_work * launches * work (colored steps of several launches; per_cell: two-term view only)\n"
         "#   + per_gather * gathers * cells (sectors of neighbor state read: gathers per cell, from the layout)\n"
         "#   + per_missed_gather * missed_gathers * cells (of those, the sectors that miss the L1)\n"
         "#   (+ round_trip * exchanges + latency * messages + seconds_per_halo_cell * halo cells\n"
         "#    + seconds_per_halo_value * halo cells * variables on several ranks; on the device path, where\n"
         "#    longer: branch_latency * exchanges + seconds_per_send_value * sent cells * variables\n"
         "#    - (1 - boundary share) * the compute above; a synchronous step with peers lasts at least\n"
         "#    step_floor)\n"
         "# cells per parallel unit of the busiest rank; work: its cells (cycles view) or bytes (bytes,\n"
         "# two-term views); identified = false: the rows could not tell a cell's cost from a byte's.\n"
         "# per_work_cache applies while its working set fits the cache. launches: 1, or a colored step's\n"
         "# classes; depth: the longest serial chain of neighbor entries a thread walks in a step;\n"
         "# waves = launches * ceil(cells / (launches * wave_cells)) (0 without wave_cells); cells and\n"
         "# work count at least saturation_cells (0: no floor).\n"
      << "format = " << kFormat << "\npreferred_view = " << view_name(f.preferred)
      << "\ncache_regime = " << cache_regime_name(f.cache_regime) << "\nwave_cells = " << exact(f.wave_cells)
      << "\nsaturation_cells = " << exact(f.saturation_cells) << "\n";
  for (const std::string& n : f.notes) out << "note = " << n << "\n";
  const Machine& m = f.machine;
  out << "\n[machine]\ndevice = " << m.device << "\nbackend = " << m.backend << "\nsm_count = " << m.sm_count
      << "\nthreads = " << m.threads << "\nclock_mhz = " << exact(m.clock_mhz) << "\ncache_bytes = " << exact(m.cache_bytes)
      << "\ncopy_gbps = " << exact(m.copy_gbps) << "\n";
  for (const GroupFit& g : f.groups) write_group(out, g);
  for (const GroupFit& g : f.shared) write_group(out, g);
  if (const std::optional<ExchangeFit>& e = f.exchange) {
    out << "\n[exchange]\nrows = " << e->rows << "\nbranch_rows = " << e->branch_rows << "\nfloor_rows = " << e->floor_rows
        << "\nhalo_path = " << (e->halo_path.empty() ? "any" : e->halo_path) << "\n";
    for (View v : kViews)
      out << view_name(v) << ".round_trip = " << exact(e->round_trip[int(v)]) << "\n"
          << view_name(v) << ".latency = " << exact(e->latency[int(v)]) << "\n"
          << view_name(v) << ".seconds_per_halo_cell = " << exact(e->seconds_per_halo_cell[int(v)]) << "\n"
          << view_name(v) << ".seconds_per_halo_value = " << exact(e->seconds_per_halo_value[int(v)]) << "\n"
          << view_name(v) << ".branch_latency = " << exact(e->branch_latency[int(v)]) << "\n"
          << view_name(v) << ".seconds_per_send_value = " << exact(e->seconds_per_send_value[int(v)]) << "\n"
          << view_name(v) << ".step_floor = " << exact(e->step_floor[int(v)]) << "\n";
  }
  if (const std::optional<ErrorSummary>& c = f.cross_validation) {
    out << "\n# Each source left out of the fit in turn, its rows predicted: |predicted / measured - 1|\n"
           "[cross_validation]\n";
    write_errors(out, *c);
  }
  for (const KindErrors& k : f.cross_validation_by_kind) {
    out << "\n# The same, of the rows of one kind of run\n[cross_validation_of_kind]\nkind = " << k.run.kind
        << "\nupdate = " << k.run.update << "\nranks = " << (k.run.several_ranks ? "several" : "one") << "\n";
    write_errors(out, k.errors);
  }
}

FittedModel parse_fit(std::istream& in, const std::string& name) {
  FittedModel f;
  Section top("top", name, 1);
  std::vector<Section> sections;
  std::vector<std::pair<std::string, std::size_t>> notes;
  std::string line;
  std::size_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    const auto last = line.find_last_not_of(" \t\r");
    const std::string trimmed = line.substr(first, last - first + 1);
    if (trimmed.front() == '[') {
      if (trimmed.back() != ']') throw ParseError(name, number, "a section header ends with ']'");
      const std::string section = trimmed.substr(1, trimmed.size() - 2);
      if (section != "machine" && section != "group" && section != "exchange" && section != "cross_validation" &&
          section != "cross_validation_of_kind")
        throw ParseError(name, number,
                         "unknown section [" + section + "] (machine, group, exchange, cross_validation, cross_validation_of_kind)");
      sections.emplace_back(section, name, number);
      continue;
    }
    const auto eq = trimmed.find('=');
    if (eq == std::string::npos) throw ParseError(name, number, "expected 'key = value'");
    std::string key = trimmed.substr(0, eq), value = trimmed.substr(eq + 1);
    key.erase(key.find_last_not_of(" \t") + 1);
    value.erase(0, value.find_first_not_of(" \t"));
    if (key.empty()) throw ParseError(name, number, "expected 'key = value'");
    if (sections.empty() && key == "note") notes.emplace_back(value, number);
    else (sections.empty() ? top : sections.back()).add(key, value, number);
  }
  if (in.bad()) throw ParseError(name, number + 1, "read error");
  if (!top.has("format")) throw ParseError(name, 0, "not a cellgraph perfmodel fit (no 'format = N' line)");
  const std::string format_text = top.text("format");
  int format = 0;
  const char* end = format_text.data() + format_text.size();
  const auto [stop, ec] = std::from_chars(format_text.data(), end, format);
  if (format_text.empty() || ec != std::errc() || stop != end || format < 1 || format > kFormat)
    throw ParseError(name, 0, "fit file format " + quoted_text(format_text) + ": this cellgraph reads formats 1 to " + std::to_string(kFormat));
  f.preferred = [&] {
    const std::string v = top.text("preferred_view");
    try {
      return parse_view(v);
    } catch (const Error&) {
      throw ParseError(name, 0, "preferred_view must be cycles, bytes or two-term, not " + quoted_text(v));
    }
  }();
  if (format >= 3) {
    const std::string r = top.text("cache_regime");
    try {
      f.cache_regime = parse_cache_regime(r);
    } catch (const Error& e) {
      throw ParseError(name, 0, e.what());
    }
  } else {
    f.cache_regime = top.flag("cache_regime") ? CacheRegime::always : CacheRegime::off;
  }
  if (format >= 4) f.wave_cells = top.number("wave_cells");
  if (format >= 5) f.saturation_cells = top.number("saturation_cells");
  top.finish();
  for (const auto& [text, line_number] : notes) f.notes.push_back(text);
  bool machine = false;
  std::size_t first_kind_line = 0;
  for (Section& s : sections) {
    if (s.name() == "machine") {
      if (machine) throw ParseError(name, s.line(), "a second [machine]");
      machine = true;
      f.machine.device = s.text("device");
      f.machine.backend = s.text("backend");
      if (f.machine.backend != "cpu" && f.machine.backend != "cuda")
        throw ParseError(name, s.line(), "backend must be cpu or cuda, not " + quoted_text(f.machine.backend));
      f.machine.sm_count = s.whole("sm_count");
      f.machine.threads = std::max(1u, s.whole("threads"));
      f.machine.clock_mhz = s.number("clock_mhz");
      f.machine.cache_bytes = s.number("cache_bytes");
      f.machine.copy_gbps = s.number("copy_gbps");
    } else if (s.name() == "group") {
      GroupFit g = read_group(s, format);
      (g.kind == "*" ? f.shared : f.groups).push_back(std::move(g));
    } else if (s.name() == "cross_validation_of_kind") {
      if (format < 13) throw ParseError(name, s.line(), "[cross_validation_of_kind] needs fit file format 13 or later");
      KindErrors k;
      k.run.kind = s.text("kind"), k.run.update = s.text("update");
      k.run.several_ranks = s.one_of("ranks", {"one", "several"}) == "several";
      for (const KindErrors& other : f.cross_validation_by_kind)
        if (other.run == k.run)
          throw ParseError(name, s.line(), "a second [cross_validation_of_kind] of " + describe_run(k.run, "rank"));
      k.errors = read_errors(s);
      f.cross_validation_by_kind.push_back(std::move(k));
      if (!first_kind_line) first_kind_line = s.line();
    } else if (s.name() == "cross_validation") {
      if (f.cross_validation) throw ParseError(name, s.line(), "a second [cross_validation]");
      f.cross_validation = read_errors(s);
    } else {
      if (f.exchange) throw ParseError(name, s.line(), "a second [exchange]");
      f.exchange = read_exchange(s, format);
    }
    s.finish();
  }
  if (!machine) throw ParseError(name, 0, "no [machine] section");
  if (first_kind_line && !f.cross_validation)
    throw ParseError(name, first_kind_line, "[cross_validation_of_kind] without the [cross_validation] of every row");
  if (f.groups.empty() && f.shared.empty()) throw ParseError(name, 0, "no [group] section: nothing was fitted");
  return f;
}

FittedModel read_fit(const std::string& path) {
  std::ifstream in = detail::open_input(path);
  return parse_fit(in, path);
}

}  // namespace cellgraph::perfmodel
