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

// The format of the files written and read: any other is refused (refit its timings). Format 14
// holds every term of the model: per_depth, per_gather, per_missed_gather, per_wave, per_pack,
// per_class_work and each view's per_cell; the top level's wave_cells and saturation_cells; the
// exchange's halo path, boundary branch and step floor; the optional [cross_validation] and
// [cross_validation_of_kind] sections.
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
  Section(std::string name, std::string file, std::size_t line)
      : name_(std::move(name)), file_(std::move(file)), line_(line) {}

  void add(const std::string& key, const std::string& value, std::size_t line) {
    if (!values_.emplace(key, std::make_pair(value, line)).second)
      throw ParseError(file_, line, quoted_text(key) + " given twice");
  }
  bool has(const std::string& key) const { return values_.count(key) > 0; }
  std::size_t line_of(const std::string& key) const {
    auto it = values_.find(key);
    return it == values_.end() ? line_ : it->second.second;
  }
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
    if (x != std::floor(x) || x > 4294967295.0)
      throw ParseError(file_, last_line_, quoted_text(key) + " must be a whole number");
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
      throw ParseError(file_, values_.begin()->second.second,
                       "unknown key " + quoted_text(values_.begin()->first) + " in [" + name_ + "]");
  }
  const std::string& name() const { return name_; }
  std::size_t line() const { return line_; }

 private:
  std::string name_, file_;
  std::size_t line_, last_line_ = 0;
  std::map<std::string, std::pair<std::string, std::size_t>> values_;
};

GroupFit read_group(Section& s) {
  GroupFit g;
  g.model = s.text("model");
  g.update = s.text("update");
  g.kind = s.text("kind");
  g.rows = s.whole("rows");
  g.state_bytes = s.number("state_bytes");
  g.variables = s.whole("variables");
  g.bytes_min = s.number("bytes_min");
  g.bytes_max = s.number("bytes_max");
  for (View v : kViews) {
    ComputeConstants& c = g.view[int(v)];
    const std::string p = std::string(view_name(v)) + ".";
    c.launch = s.number(p + "launch");
    c.per_cell = s.number(p + "per_cell");
    c.per_depth = s.number(p + "per_depth");
    c.per_gather = s.number(p + "per_gather");
    c.per_missed_gather = s.number(p + "per_missed_gather");
    c.per_wave = s.number(p + "per_wave");
    c.per_pack = s.number(p + "per_pack");
    c.per_class_work = s.number(p + "per_class_work");
    c.per_work = s.number(p + "per_work");
    c.per_work_cache = s.number(p + "per_work_cache");
    c.cache_fitted = s.flag(p + "cache_fitted");
    c.identified = s.flag(p + "identified");
    c.rms_rel = s.number(p + "rms_rel");
  }
  return g;
}

ExchangeFit read_exchange(Section& s) {
  ExchangeFit e;
  e.rows = s.whole("rows");
  e.branch_rows = s.whole("branch_rows");
  e.floor_rows = s.whole("floor_rows");
  e.halo_path = s.one_of("halo_path", {"device", "host", "any"});
  if (e.halo_path == "any") e.halo_path.clear();
  for (View v : kViews) {
    const int i = int(v);
    const std::string p = std::string(view_name(v)) + ".";
    e.round_trip[i] = s.number(p + "round_trip");
    e.latency[i] = s.number(p + "latency");
    e.seconds_per_halo_cell[i] = s.number(p + "seconds_per_halo_cell");
    e.seconds_per_halo_value[i] = s.number(p + "seconds_per_halo_value");
    e.branch_latency[i] = s.number(p + "branch_latency");
    e.seconds_per_send_value[i] = s.number(p + "seconds_per_send_value");
    e.step_floor[i] = s.number(p + "step_floor");
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

// A fit file's lines: the top-level keys, the notes, then the sections in order.
struct FitText {
  Section top;
  std::vector<Section> sections;
  std::vector<std::string> notes;
};

FitText read_text(std::istream& in, const std::string& name) {
  FitText t{Section("top", name, 1), {}, {}};
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
        throw ParseError(
            name, number,
            "unknown section [" + section + "] (machine, group, exchange, cross_validation, cross_validation_of_kind)");
      t.sections.emplace_back(section, name, number);
      continue;
    }
    const auto eq = trimmed.find('=');
    if (eq == std::string::npos) throw ParseError(name, number, "expected 'key = value'");
    std::string key = trimmed.substr(0, eq), value = trimmed.substr(eq + 1);
    key.erase(key.find_last_not_of(" \t") + 1);
    value.erase(0, value.find_first_not_of(" \t"));
    if (key.empty()) throw ParseError(name, number, "expected 'key = value'");
    if (t.sections.empty() && key == "note") t.notes.push_back(value);
    else (t.sections.empty() ? t.top : t.sections.back()).add(key, value, number);
  }
  if (in.bad()) throw ParseError(name, number + 1, "read error");
  return t;
}

// The top-level keys: the format first (this one only: a file of another is fitted again), then
// the preferred view, the cache regime and the GPU's wave and saturation shapes.
void read_top(Section& top, const std::string& name, FittedModel& f) {
  if (!top.has("format")) throw ParseError(name, 0, "not a cellgraph perfmodel fit (no 'format = N' line)");
  const std::size_t line = top.line_of("format");
  const std::string format = top.text("format");
  if (format != std::to_string(kFormat))
    throw ParseError(name, line,
                     "fit file format " + format + ": this cellgraph reads format " + std::to_string(kFormat) +
                         "; refit the timings with `cellgraph perfmodel fit TIMINGS.csv... --out FIT`");
  const std::string view = top.text("preferred_view");
  try {
    f.preferred = parse_view(view);
  } catch (const Error&) {
    throw ParseError(name, 0, "preferred_view must be cycles, bytes or two-term, not " + quoted_text(view));
  }
  const std::string regime = top.text("cache_regime");
  try {
    f.cache_regime = parse_cache_regime(regime);
  } catch (const Error& e) {
    throw ParseError(name, 0, e.what());
  }
  f.wave_cells = top.number("wave_cells");
  f.saturation_cells = top.number("saturation_cells");
  top.finish();
}

Machine read_machine(Section& s, const std::string& name) {
  Machine m;
  m.device = s.text("device");
  m.backend = s.text("backend");
  if (m.backend != "cpu" && m.backend != "cuda")
    throw ParseError(name, s.line(), "backend must be cpu or cuda, not " + quoted_text(m.backend));
  m.sm_count = s.whole("sm_count");
  m.threads = std::max(1u, s.whole("threads"));
  m.clock_mhz = s.number("clock_mhz");
  m.cache_bytes = s.number("cache_bytes");
  m.copy_gbps = s.number("copy_gbps");
  return m;
}

KindErrors read_kind_errors(Section& s) {
  KindErrors k;
  k.run.kind = s.text("kind"), k.run.update = s.text("update");
  k.run.several_ranks = s.one_of("ranks", {"one", "several"}) == "several";
  k.errors = read_errors(s);
  return k;
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
      << "\nthreads = " << m.threads << "\nclock_mhz = " << exact(m.clock_mhz)
      << "\ncache_bytes = " << exact(m.cache_bytes) << "\ncopy_gbps = " << exact(m.copy_gbps) << "\n";
  for (const GroupFit& g : f.groups) write_group(out, g);
  for (const GroupFit& g : f.shared) write_group(out, g);
  if (const std::optional<ExchangeFit>& e = f.exchange) {
    out << "\n[exchange]\nrows = " << e->rows << "\nbranch_rows = " << e->branch_rows
        << "\nfloor_rows = " << e->floor_rows << "\nhalo_path = " << (e->halo_path.empty() ? "any" : e->halo_path)
        << "\n";
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
  FitText text = read_text(in, name);
  FittedModel f;
  read_top(text.top, name, f);
  f.notes = std::move(text.notes);
  bool machine = false;
  std::size_t first_kind_line = 0;
  for (Section& s : text.sections) {
    if (s.name() == "machine") {
      if (machine) throw ParseError(name, s.line(), "a second [machine]");
      machine = true;
      f.machine = read_machine(s, name);
    } else if (s.name() == "group") {
      GroupFit g = read_group(s);
      (g.kind == "*" ? f.shared : f.groups).push_back(std::move(g));
    } else if (s.name() == "cross_validation_of_kind") {
      KindErrors k = read_kind_errors(s);
      for (const KindErrors& other : f.cross_validation_by_kind)
        if (other.run == k.run)
          throw ParseError(name, s.line(), "a second [cross_validation_of_kind] of " + describe_run(k.run, "rank"));
      f.cross_validation_by_kind.push_back(std::move(k));
      if (!first_kind_line) first_kind_line = s.line();
    } else if (s.name() == "cross_validation") {
      if (f.cross_validation) throw ParseError(name, s.line(), "a second [cross_validation]");
      f.cross_validation = read_errors(s);
    } else {
      if (f.exchange) throw ParseError(name, s.line(), "a second [exchange]");
      f.exchange = read_exchange(s);
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
