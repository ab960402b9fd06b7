// cellgraph perfmodel: what `fit` and `validate` print (the constants, the agreement of
// measured and predicted, held-out rows, the spread of each source left out) and the CSV of
// every row measured against predicted that tools/plot_perfmodel.py draws.
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <limits>
#include <sstream>

#include "cellgraph/error.hpp"
#include "cellgraph/perfmodel.hpp"
#include "tools/cellgraph/perfmodel/commands.hpp"

namespace cellgraph::cli {

namespace pm = perfmodel;

// A figure, or "-" where it is undefined (a correlation of one row).
std::string figure(double x, int digits) {
  if (!std::isfinite(x)) return std::isinf(x) ? "inf" : "-";
  std::ostringstream o;
  o << std::setprecision(digits) << x;
  return o.str();
}
std::string percent(double x) {
  if (!std::isfinite(x)) return "-";
  std::ostringstream o;
  o << std::fixed << std::setprecision(std::abs(x) < 0.1 ? 2 : 1) << 100 * x << "%";
  return o.str();
}

namespace {

// A CSV field, quoted when it holds a comma or a quote (a graph file's path might).
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"") == std::string::npos) return text;
  std::string q = "\"";
  for (char c : text) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

// A source for a table column of `width`: long paths keep their end.
std::string column_text(const std::string& text, std::size_t width) {
  return text.size() < width ? text : "..." + text.substr(text.size() - (width - 4));
}

// The parallel units of the machine as a whole (cuda: one GPU; cpu: its threads), and what
// one unit's cycles are counted in.
double device_units(const pm::Machine& m) { return m.backend == "cuda" ? 1.0 : double(m.threads); }

// Cycles per cell: s per cell of one unit times the clock, times the multiprocessors of a GPU.
double cycles_per_cell(const pm::Machine& m, double per_cell) {
  if (m.clock_mhz <= 0) return std::numeric_limits<double>::quiet_NaN();
  return per_cell * m.clock_mhz * 1e6 * (m.backend == "cuda" ? double(m.sm_count) : 1.0);
}

std::string gbps(const pm::Machine& m, double per_byte) {
  return per_byte > 0 ? figure(device_units(m) / per_byte / 1e9) : "inf";
}

void print_groups(std::ostream& out, const pm::FittedModel& f, const std::vector<pm::GroupFit>& groups) {
  const pm::Machine& m = f.machine;
  for (const pm::GroupFit& g : groups) {
    const pm::ComputeConstants &c = g.of(pm::View::cycles), &b = g.of(pm::View::bytes);
    std::ostringstream name;
    name << g.model << "|" << g.update << "|" << g.kind;
    out << "  " << std::left << std::setw(34) << name.str() << std::right << std::setw(5) << g.rows << std::setw(10)
        << figure(c.launch * 1e6) << std::setw(10) << figure(cycles_per_cell(m, c.per_work)) << std::setw(9)
        << (c.cache_fitted ? figure(cycles_per_cell(m, c.per_work_cache)) : "-") << std::setw(10) << gbps(m, b.per_work)
        << std::setw(9) << (b.cache_fitted ? gbps(m, b.per_work_cache) : "-") << std::setw(8)
        << (m.copy_gbps > 0 && b.per_work > 0 ? figure(100 * device_units(m) / b.per_work / 1e9 / m.copy_gbps) : "-")
        << std::setw(9) << percent(c.rms_rel) << std::setw(8) << percent(b.rms_rel) << "\n";
  }
}

// The two-term view per group, and which of the three forms explains the group's rows best
// (the lowest relative RMS error; two-term only where its rows identify it).
void print_two_term(std::ostream& out, const pm::FittedModel& f, const std::vector<pm::GroupFit>& groups) {
  const pm::Machine& m = f.machine;
  for (const pm::GroupFit& g : groups) {
    const pm::ComputeConstants& t = g.of(pm::View::two_term);
    std::ostringstream name, range;
    name << g.model << "|" << g.update << "|" << g.kind;
    range << figure(g.bytes_min) << "-" << figure(g.bytes_max);
    pm::View best = pm::View::cycles;
    for (pm::View v : pm::kViews)
      if (g.of(v).identified && g.of(v).rms_rel < g.of(best).rms_rel) best = v;
    out << "  " << std::left << std::setw(34) << name.str() << std::right << std::setw(5) << g.rows << std::setw(12)
        << range.str();
    if (t.identified)
      out << std::setw(10) << figure(t.launch * 1e6) << std::setw(10) << figure(cycles_per_cell(m, t.per_cell))
          << std::setw(10) << gbps(m, t.per_work) << std::setw(9) << (t.cache_fitted ? gbps(m, t.per_work_cache) : "-");
    else out << std::setw(39) << "(one B: not identified)";
    out << std::setw(9) << percent(g.of(pm::View::cycles).rms_rel) << std::setw(8)
        << percent(g.of(pm::View::bytes).rms_rel) << std::setw(8) << (t.identified ? percent(t.rms_rel) : "-") << "  "
        << pm::view_name(best) << "\n";
  }
}

// The latency terms of each group: the depth and launches its rows span, and per view the
// launch cost, c_depth and (with a wave shape) the cost per wave; then the class sweep and the
// cost per gathered sector (bytes view).
void print_latency(std::ostream& out, const std::vector<pm::Measurement>& rows, const std::vector<pm::GroupFit>& groups,
                   bool waves) {
  for (const pm::GroupFit& g : groups) {
    double depth_min = 0, depth_max = 0;
    std::uint32_t launches_min = 0, launches_max = 0;
    bool any = false, depth_known = true;
    for (const pm::Measurement& r : rows) {
      if (r.ranks != 1 || r.model != g.model || r.update != g.update || (g.kind != "*" && r.kind != g.kind)) continue;
      const std::uint32_t l = r.launches ? r.launches : 1;
      depth_known = depth_known && r.depth > 0;
      if (!any) depth_min = depth_max = r.depth, launches_min = launches_max = l;
      depth_min = std::min(depth_min, r.depth), depth_max = std::max(depth_max, r.depth);
      launches_min = std::min(launches_min, l), launches_max = std::max(launches_max, l);
      any = true;
    }
    std::ostringstream name, depth, launches;
    name << g.model << "|" << g.update << "|" << g.kind;
    if (depth_known && any) depth << figure(depth_min) << "-" << figure(depth_max);
    else depth << "-";
    launches << launches_min << "-" << launches_max;
    out << "  " << std::left << std::setw(34) << name.str() << std::right << std::setw(12) << depth.str()
        << std::setw(10) << launches.str();
    for (pm::View v : pm::kViews) {
      const pm::ComputeConstants& c = g.of(v);
      out << std::setw(waves ? 24 : 18)
          << (figure(c.launch * 1e6) + ", " + (depth_known && any ? figure(c.per_depth * 1e9) : "-") +
              (waves ? ", " + figure(c.per_wave * 1e6) : ""));
    }
    // A colored step's per-class sweep (bytes view): launches x bytes at this bandwidth.
    const double per_class = g.of(pm::View::bytes).per_class_work;
    const double per_gather = g.of(pm::View::bytes).per_gather;
    const double per_miss = g.of(pm::View::bytes).per_missed_gather;
    const double per_pack = g.of(pm::View::bytes).per_pack;
    out << std::setw(14) << (launches_max > 1 && per_class > 0 ? figure(1e-9 / per_class) : "-") << std::setw(11)
        << (per_gather > 0 ? figure(per_gather * 1e12) : "-") << std::setw(9)
        << (per_miss > 0 ? figure(per_miss * 1e12) : "-") << std::setw(9)
        << (per_pack > 0 ? figure(per_pack * 1e6) : "-") << "\n";
  }
}

void print_agreement_row(std::ostream& out, const std::string& label, const pm::Agreement& a) {
  out << "  " << std::left << std::setw(8) << label << std::right << std::setw(6) << a.rows << std::setw(10)
      << figure(a.pearson, 4) << std::setw(13) << figure(a.pearson_log, 4) << std::setw(9) << figure(a.r_squared, 4)
      << std::setw(11) << percent(a.mean_abs_rel) << std::setw(10) << percent(a.max_abs_rel) << "\n";
}

// The fit with only its shared groups: every row predicted by one parameter set per model.
pm::FittedModel shared_only(pm::FittedModel f) {
  f.groups.clear();
  return f;
}

// Prints the constants and the agreement; returns whether the preferred view correlates at// The rows and the machine
// they were timed on.
void print_rows(std::ostream& out, const pm::FittedModel& f, std::size_t rows, std::size_t singles) {
  const pm::Machine& m = f.machine;
  out << rows << " rows (" << singles << " on one rank, " << rows - singles << " partitioned); " << m.backend << " on "
      << m.device << ": " << m.sm_count << (m.backend == "cuda" ? " SMs" : " cores") << ", "
      << (m.clock_mhz > 0 ? figure(m.clock_mhz, 4) + " MHz" : "clock unknown") << ", cache "
      << figure(m.cache_bytes / 1048576) << " MiB, copy " << figure(m.copy_gbps) << " GB/s"
      << (m.backend == "cpu" ? ", " + std::to_string(m.threads) + " threads" : "") << "\n";
  for (const std::string& note : f.notes) out << "note: " << note << "\n";
}

// One rank, the one-term views: each group's and each shared fit's launch, cost per cell and
// bandwidth, beyond and within the cache.
void print_one_term(std::ostream& out, const pm::FittedModel& f) {
  const pm::Machine& m = f.machine;
  out << "\none rank, the one-term views: T = launch x launches + c_depth x depth [+ c_wave x waves] + cost x work; "
         "work = cells (cycles "
      << "view) or bytes (bytes view) per " << (m.backend == "cuda" ? "GPU" : "thread")
      << (f.saturation_cells > 0 ? ", of at least " + figure(f.saturation_cells) + " cells (the saturation floor)" : "")
      << ";\nseparate costs beyond and within the cache: "
      << (f.cache_regime == pm::CacheRegime::off ? "off (--cache-regime off)"
          : f.cache_regime == pm::CacheRegime::evidence
              ? "where the rows show it (--cache-regime evidence; '-': not split)"
              : "wherever both were measured (--cache-regime always)")
      << "\n"
      << "  " << std::left << std::setw(34) << "model|update|kind" << std::right << std::setw(5) << "rows"
      << std::setw(10) << "launch us" << std::setw(10) << (m.backend == "cuda" ? "SM-cyc/c" : "cyc/cell")
      << std::setw(9) << "cached" << std::setw(10) << "eff GB/s" << std::setw(9) << "cached" << std::setw(8) << "% copy"
      << std::setw(9) << "err cyc" << std::setw(8) << "err B"
      << "\n";
  print_groups(out, f, f.groups);
  out << " one parameter set per model and update, shared by every layout kind (*):\n";
  print_groups(out, f, f.shared);
}

// The two-term view of each group and shared fit, and the best of the three forms.
void print_two_term_table(std::ostream& out, const pm::FittedModel& f) {
  const pm::Machine& m = f.machine;
  out << "\ntwo-term: T = launch + (cost per cell + cost per byte x B) x cells; the per-cell cost in SM-cycles"
      << (m.backend == "cuda" ? "" : " (cycles of a thread)")
      << ", the per-byte cost as GB/s; relative RMS error of each "
      << "form and the best\n  " << std::left << std::setw(34) << "model|update|kind" << std::right << std::setw(5)
      << "rows" << std::setw(12) << "B/cell" << std::setw(10) << "launch us" << std::setw(10)
      << (m.backend == "cuda" ? "SM-cyc/c" : "cyc/cell") << std::setw(10) << "eff GB/s" << std::setw(9) << "cached"
      << std::setw(9) << "err cyc" << std::setw(8) << "err B" << std::setw(8) << "err 2t"
      << "  best\n";
  print_two_term(out, f, f.groups);
  out << " shared by every layout kind (*):\n";
  print_two_term(out, f, f.shared);
}

// The latency terms of each group and shared fit (launch, depth, waves), the class sweep and
// the gather, miss and packing costs.
void print_latency_terms(std::ostream& out, const pm::FittedModel& f, const std::vector<pm::Measurement>& rows) {
  const bool waves = f.wave_cells > 0;
  out << "\nlatency terms: launch us per kernel launch (1 a step; a colored step one per class) and c_depth ns per "
      << "entry of the step's depth (the longest chain of neighbor entries a thread walks), per view ('-': the rows "
      << "record no depth)"
      << (waves ? ", and c_wave us per wave of blocks (" + figure(f.wave_cells) + " cells a wave)" : "")
      << "; a colored step's per-class sweep, launches x bytes, as GB/s, and c_gather ps per sector of neighbor state "
      << "read (gathers x cells), c_miss ps per sector of it that misses the L1 (missed gathers x cells) and c_pack us "
      << "per step that packs one-bit signals first (all bytes view)\n  " << std::left << std::setw(34)
      << "model|update|kind" << std::right << std::setw(12) << "depth" << std::setw(10) << "launches";
  for (pm::View v : pm::kViews)
    out << std::setw(waves ? 24 : 18) << (std::string(pm::view_name(v)) + (waves ? " us, ns, us" : " us, ns"));
  out << std::setw(14) << "class GB/s" << std::setw(11) << "gather ps" << std::setw(9) << "miss ps" << std::setw(9)
      << "pack us"
      << "\n";
  print_latency(out, rows, f.groups, waves);
  print_latency(out, rows, f.shared, waves);
}

// The machine's exchange: the frame, the boundary branch and the step floor.
void print_exchange(std::ostream& out, const pm::FittedModel& f) {
  const std::optional<pm::ExchangeFit>& e = f.exchange;
  if (!e) return;
  auto per_giga = [](double s) { return s > 0 ? figure(1e-9 / s) : std::string("inf"); };
  out << "\nseveral ranks, the machine's exchange (" << e->rows << " rows): T + round trip x exchanges + latency x "
      << "message rounds (exchanges x variables, to all peers at once) + halo cells / bandwidth + halo values (cells "
      << "x variables) / bandwidth, the busiest part's\n";
  for (pm::View v : pm::kViews)
    out << "  " << std::left << std::setw(9) << pm::view_name(v) << std::right << "round trip "
        << figure(e->round_trip[int(v)] * 1e6) << " us, latency " << figure(e->latency[int(v)] * 1e6)
        << " us per message round, bandwidth " << per_giga(e->seconds_per_halo_cell[int(v)]) << " G halo cells/s, "
        << per_giga(e->seconds_per_halo_value[int(v)]) << " G halo values/s\n";
  if (e->branch_rows) {
    out << "or, on the device path where longer, the boundary branch (" << e->branch_rows << " rows in the "
        << pm::view_name(f.preferred)
        << " view): branch latency x exchanges + sent values / push bandwidth - (1 - boundary share) x compute\n";
    for (pm::View v : pm::kViews)
      out << "  " << std::left << std::setw(9) << pm::view_name(v) << std::right << "branch latency "
          << figure(e->branch_latency[int(v)] * 1e6) << " us, push " << per_giga(e->seconds_per_send_value[int(v)])
          << " G values/s\n";
  }
  if (std::any_of(std::begin(e->step_floor), std::end(e->step_floor), [](double t) { return t > 0; })) {
    out << "and a synchronous device-path step with peers lasts at least (" << e->floor_rows
        << " rows set by it in the " << pm::view_name(f.preferred) << " view):";
    for (pm::View v : pm::kViews) out << " " << pm::view_name(v) << " " << figure(e->step_floor[int(v)] * 1e6) << " us";
    out << "\n";
  }
}

// The rows the preferred view misses most: where the model is weakest.
void print_largest_errors(std::ostream& out, const pm::FittedModel& f, const std::vector<pm::Measurement>& rows) {
  std::vector<std::pair<double, const pm::Measurement*>> misses;
  for (const pm::Measurement& r : rows) try {
      const pm::Prediction p = pm::predict(f, r, f.preferred);
      if (r.ranks == 1 || p.exchange_fitted) misses.emplace_back(p.seconds_per_step / r.seconds_per_step - 1, &r);
    } catch (const Error&) {
    }
  std::sort(misses.begin(), misses.end(),
            [](const auto& a, const auto& b) { return std::abs(a.first) > std::abs(b.first); });
  if (misses.size() > 5) misses.resize(5);
  out << " largest errors (" << pm::view_name(f.preferred) << " view):\n";
  for (const auto& [error, r] : misses)
    out << "  " << std::left << std::setw(34) << column_text(r->source, 34) << std::setw(22)
        << column_text(r->model + " (" + r->update + ")", 22) << std::right << std::setw(3) << r->ranks
        << (r->ranks > 1 ? " ranks" : " rank ") << std::setw(11) << figure(r->seconds_per_step * 1e6) << " us measured"
        << std::setw(9) << ((error >= 0 ? "+" : "") + percent(error)) << "\n";
}

// Measured against predicted, per view and with shared parameters; whether the preferred view
// correlates at 0.99 or more.
bool print_agreement(std::ostream& out, const pm::FittedModel& f, const std::vector<pm::Measurement>& rows,
                     const std::vector<pm::Measurement>& singles) {
  out << "\nmeasured against predicted:\n  " << std::left << std::setw(8) << "view" << std::right << std::setw(6)
      << "rows" << std::setw(10) << "pearson" << std::setw(13) << "pearson(log)" << std::setw(9) << "R^2"
      << std::setw(11) << "mean |err|" << std::setw(10) << "max |err|"
      << "\n";
  pm::Agreement chosen;
  for (pm::View v : pm::kViews) {
    const pm::Agreement a = pm::agreement_over(f, rows, v);
    if (v == f.preferred) chosen = a;
    print_agreement_row(out, pm::view_name(v), a);
  }
  out << " with one parameter set per model shared by every layout kind, one-rank rows:\n";
  const pm::FittedModel shared = shared_only(f);
  double err[pm::kViewCount] = {};
  for (pm::View v : pm::kViews) {
    const pm::Agreement a = pm::agreement_over(shared, singles, v);
    err[int(v)] = a.rms_rel;
    print_agreement_row(out, pm::view_name(v), a);
  }
  print_largest_errors(out, f, rows);
  out << "preferred view: " << pm::view_name(f.preferred)
      << " (relative RMS error with parameters shared across layouts: "
      << "cycles " << percent(err[0]) << ", bytes " << percent(err[1]) << ", two-term " << percent(err[2]) << ")\n";
  const bool met = chosen.pearson >= 0.99 && chosen.pearson_log >= 0.99;
  out << "correlation of measured and predicted >= 0.99 (seconds and their logs, " << pm::view_name(f.preferred)
      << " view): " << (met ? "met" : "NOT met") << "\n";
  return met;
}

}  // namespace

bool print_fit(std::ostream& out, const pm::FittedModel& f, const std::vector<pm::Measurement>& rows) {
  std::vector<pm::Measurement> singles;
  for (const pm::Measurement& r : rows)
    if (r.ranks == 1) singles.push_back(r);
  print_rows(out, f, rows.size(), singles.size());
  print_one_term(out, f);
  print_two_term_table(out, f);
  print_latency_terms(out, f, rows);
  print_exchange(out, f);
  return print_agreement(out, f, rows, singles);
}

// The CSV tools/plot_perfmodel.py draws: every row measured against each view's prediction.
void write_predictions_header(std::ostream& out) {
  out << "source,kind,model,update,ranks,cells,bytes_per_cell,measured,predicted_cycles,predicted_bytes,predicted_two_"
         "term,"
         "preferred,held_out,compute,exchange\n";
}
void write_prediction(std::ostream& out, const pm::FittedModel& f, const pm::Measurement& m, bool held_out,
                      pm::View preferred) {
  std::string predicted[pm::kViewCount];
  pm::Prediction chosen;  // the preferred view's, in its two parts
  try {
    for (pm::View v : pm::kViews) {
      const pm::Prediction p = pm::predict(f, m, v);
      if (m.ranks > 1 && !p.exchange_fitted) throw Error("no exchange constants");
      predicted[int(v)] = figure(p.seconds_per_step, 10);
      if (v == preferred) chosen = p;
    }
  } catch (const Error&) {
    return;  // not predictable by this fit
  }
  out << csv_field(m.source) << "," << m.kind << "," << csv_field(m.model) << "," << m.update << "," << m.ranks << ","
      << m.cells << "," << figure(m.bytes_per_cell, 6) << "," << figure(m.seconds_per_step, 10) << "," << predicted[0]
      << "," << predicted[1] << "," << predicted[2] << "," << pm::view_name(preferred) << "," << (held_out ? 1 : 0)
      << "," << figure(chosen.compute, 10) << "," << figure(chosen.exchange, 10) << "\n";
}
void write_predictions(std::ostream& out, const pm::FittedModel& f, const std::vector<pm::Measurement>& rows,
                       const pm::Holdout* holdout, pm::View preferred) {
  write_predictions_header(out);
  for (const pm::Measurement& m : rows) write_prediction(out, f, m, holdout && holdout->holds_out(m), preferred);
}

// `backend`: the rows' (cuda: kinds of run on one or several GPUs; else ranks).
void print_cross_validation(std::ostream& out, const pm::ErrorSummary& c, const std::vector<pm::KindErrors>& by_kind,
                            const std::string& backend) {
  out << "each of " << c.sources << " sources left out in turn (" << c.rows << " rows predicted): mean |error| "
      << percent(c.mean) << ", median " << percent(c.median) << ", 9 of 10 within " << percent(c.p90) << ", max "
      << percent(c.max) << "; " << percent(c.within) << " of the rows within " << percent(c.tolerance) << "\n";
  for (const pm::KindErrors& k : by_kind)
    out << "  " << pm::describe_run(k.run, backend == "cuda" ? "GPU" : "rank") << ": " << k.errors.rows << " rows of "
        << k.errors.sources << " sources, median " << percent(k.errors.median) << ", 9 of 10 within "
        << percent(k.errors.p90) << ", " << percent(k.errors.within) << " within " << percent(k.errors.tolerance)
        << "\n";
}

// A held-out row's line of validate's table.
void print_validated_row(std::ostream& out, const pm::ValidatedRow& r) {
  out << "  " << std::left << std::setw(30) << column_text(r.row.source, 30) << std::setw(26)
      << column_text(r.row.model + " (" + r.row.update + ")", 26) << std::right << std::setw(6) << r.row.ranks
      << std::setw(12) << r.row.cells << std::setw(13) << figure(r.row.seconds_per_step * 1e6);
  if (r.prediction && r.why.empty())
    out << std::setw(14) << figure(r.prediction->seconds_per_step * 1e6) << std::setw(9)
        << ((r.rel_error >= 0 ? "+" : "") + percent(r.rel_error)) << (r.within ? "" : "  OUTSIDE") << "\n";
  else out << "  cannot predict: " << r.why << "\n";
}

void print_validation_header(std::ostream& out) {
  out << "  " << std::left << std::setw(30) << "source" << std::setw(26) << "model (update)" << std::right
      << std::setw(6) << "ranks" << std::setw(12) << "cells" << std::setw(13) << "measured us" << std::setw(14)
      << "predicted us" << std::setw(9) << "error"
      << "\n";
}

}  // namespace cellgraph::cli
