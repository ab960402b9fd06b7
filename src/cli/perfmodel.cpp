// cellgraph perfmodel: fit the performance model to measured timings, validate it on rows
// left out of the fit, and predict a run's time and the best GPU count
// (docs/PERFORMANCE_MODEL.md). `measure` is perfmodel_measure.cpp.
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>

#include "cellgraph/coloring.hpp"
#include "cellgraph/error.hpp"
#include "cellgraph/output/atomic_file.hpp"
#include "cellgraph/output/file_plan.hpp"
#include "cellgraph/perfmodel.hpp"
#include "src/cli/perfmodel_cli.hpp"

namespace cellgraph::cli {
namespace {

namespace pm = perfmodel;

constexpr const char* kUsage =
    "usage: cellgraph perfmodel COMMAND [options]   (cellgraph perfmodel COMMAND --help for its options)\n"
    "\n"
    "commands:\n"
    "  measure   time a sweep of sizes, models and sources (under mpirun -np N: on N parts) into a CSV\n"
    "  fit       fit per-cell cost, launch overhead, exchange latency and bandwidth to timings CSVs\n"
    "  validate  fit on some rows, predict the rows held out, pass or fail against a tolerance\n"
    "  predict   a run's time per step and in all, per GPU count, and the best count\n"
    "  annotate  add the launches, depth and gather columns to timings measured without them (rebuilds each source)\n";

// A figure, or "-" where it is undefined (a correlation of one row).
std::string figure(double x, int digits = 3) {
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

std::vector<pm::Measurement> read_all(const po::variables_map& vm) {
  if (!vm.count("timings")) throw Error("no timings: name the CSV file(s) that `cellgraph perfmodel measure` wrote");
  std::vector<pm::Measurement> rows;
  for (const std::string& path : vm["timings"].as<std::vector<std::string>>()) {
    std::vector<pm::Measurement> more = pm::read_measurements(path);
    if (more.empty()) throw Error(path + ": no rows below the header");
    rows.insert(rows.end(), more.begin(), more.end());
  }
  return rows;
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
    else
      out << std::setw(39) << "(one B: not identified)";
    out << std::setw(9) << percent(g.of(pm::View::cycles).rms_rel) << std::setw(8) << percent(g.of(pm::View::bytes).rms_rel)
        << std::setw(8) << (t.identified ? percent(t.rms_rel) : "-") << "  " << pm::view_name(best) << "\n";
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
    out << "  " << std::left << std::setw(34) << name.str() << std::right << std::setw(12) << depth.str() << std::setw(10)
        << launches.str();
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
        << (per_gather > 0 ? figure(per_gather * 1e12) : "-") << std::setw(9) << (per_miss > 0 ? figure(per_miss * 1e12) : "-")
        << std::setw(9) << (per_pack > 0 ? figure(per_pack * 1e6) : "-") << "\n";
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

// Prints the constants and the agreement; returns whether the preferred view correlates at
// 0.99 or more (of seconds and of their logarithms).
bool print_fit(std::ostream& out, const pm::FittedModel& f, const std::vector<pm::Measurement>& rows) {
  const pm::Machine& m = f.machine;
  std::vector<pm::Measurement> singles;
  for (const pm::Measurement& r : rows)
    if (r.ranks == 1) singles.push_back(r);
  out << rows.size() << " rows (" << singles.size() << " on one rank, " << rows.size() - singles.size()
      << " partitioned); " << m.backend << " on " << m.device << ": " << m.sm_count << (m.backend == "cuda" ? " SMs" : " cores")
      << ", " << (m.clock_mhz > 0 ? figure(m.clock_mhz, 4) + " MHz" : "clock unknown") << ", cache "
      << figure(m.cache_bytes / 1048576) << " MiB, copy " << figure(m.copy_gbps) << " GB/s"
      << (m.backend == "cpu" ? ", " + std::to_string(m.threads) + " threads" : "") << "\n";
  for (const std::string& note : f.notes) out << "note: " << note << "\n";
  out << "\none rank, the one-term views: T = launch x launches + c_depth x depth [+ c_wave x waves] + cost x work; work = cells (cycles "
      << "view) or bytes (bytes view) per " << (m.backend == "cuda" ? "GPU" : "thread")
      << (f.saturation_cells > 0 ? ", of at least " + figure(f.saturation_cells) + " cells (the saturation floor)" : "")
      << ";\nseparate costs beyond and within the cache: "
      << (f.cache_regime == pm::CacheRegime::off        ? "off (--cache-regime off)"
          : f.cache_regime == pm::CacheRegime::evidence ? "where the rows show it (--cache-regime evidence; '-': not split)"
                                                        : "wherever both were measured (--cache-regime always)")
      << "\n"
      << "  " << std::left << std::setw(34) << "model|update|kind" << std::right << std::setw(5) << "rows" << std::setw(10)
      << "launch us" << std::setw(10) << (m.backend == "cuda" ? "SM-cyc/c" : "cyc/cell") << std::setw(9) << "cached"
      << std::setw(10) << "eff GB/s" << std::setw(9) << "cached" << std::setw(8) << "% copy" << std::setw(9) << "err cyc"
      << std::setw(8) << "err B" << "\n";
  print_groups(out, f, f.groups);
  out << " one parameter set per model and update, shared by every layout kind (*):\n";
  print_groups(out, f, f.shared);
  out << "\ntwo-term: T = launch + (cost per cell + cost per byte x B) x cells; the per-cell cost in SM-cycles"
      << (m.backend == "cuda" ? "" : " (cycles of a thread)") << ", the per-byte cost as GB/s; relative RMS error of each "
      << "form and the best\n  " << std::left << std::setw(34) << "model|update|kind" << std::right << std::setw(5) << "rows"
      << std::setw(12) << "B/cell" << std::setw(10) << "launch us" << std::setw(10) << (m.backend == "cuda" ? "SM-cyc/c" : "cyc/cell")
      << std::setw(10) << "eff GB/s" << std::setw(9) << "cached" << std::setw(9) << "err cyc" << std::setw(8) << "err B"
      << std::setw(8) << "err 2t" << "  best\n";
  print_two_term(out, f, f.groups);
  out << " shared by every layout kind (*):\n";
  print_two_term(out, f, f.shared);
  const bool waves = f.wave_cells > 0;
  out << "\nlatency terms: launch us per kernel launch (1 a step; a colored step one per class) and c_depth ns per "
      << "entry of the step's depth (the longest chain of neighbor entries a thread walks), per view ('-': the rows "
      << "record no depth)" << (waves ? ", and c_wave us per wave of blocks (" + figure(f.wave_cells) + " cells a wave)" : "")
      << "; a colored step's per-class sweep, launches x bytes, as GB/s, and c_gather ps per sector of neighbor state "
      << "read (gathers x cells), c_miss ps per sector of it that misses the L1 (missed gathers x cells) and c_pack us "
      << "per step that packs one-bit signals first (all bytes view)\n  " << std::left << std::setw(34)
      << "model|update|kind" << std::right << std::setw(12) << "depth" << std::setw(10) << "launches";
  for (pm::View v : pm::kViews)
    out << std::setw(waves ? 24 : 18) << (std::string(pm::view_name(v)) + (waves ? " us, ns, us" : " us, ns"));
  out << std::setw(14) << "class GB/s" << std::setw(11) << "gather ps" << std::setw(9) << "miss ps" << std::setw(9)
      << "pack us" << "\n";
  print_latency(out, rows, f.groups, waves);
  print_latency(out, rows, f.shared, waves);
  if (const std::optional<pm::ExchangeFit>& e = f.exchange) {
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
          << pm::view_name(f.preferred) << " view): branch latency x exchanges + sent values / push bandwidth - (1 - boundary share) x compute\n";
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
  out << "\nmeasured against predicted:\n  " << std::left << std::setw(8) << "view" << std::right << std::setw(6) << "rows"
      << std::setw(10) << "pearson" << std::setw(13) << "pearson(log)" << std::setw(9) << "R^2" << std::setw(11)
      << "mean |err|" << std::setw(10) << "max |err|" << "\n";
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
  // The rows the preferred view misses most: where the model is weakest.
  std::vector<std::pair<double, const pm::Measurement*>> misses;
  for (const pm::Measurement& r : rows) try {
      const pm::Prediction p = pm::predict(f, r, f.preferred);
      if (r.ranks == 1 || p.exchange_fitted) misses.emplace_back(p.seconds_per_step / r.seconds_per_step - 1, &r);
    } catch (const Error&) {
    }
  std::sort(misses.begin(), misses.end(), [](const auto& a, const auto& b) { return std::abs(a.first) > std::abs(b.first); });
  if (misses.size() > 5) misses.resize(5);
  out << " largest errors (" << pm::view_name(f.preferred) << " view):\n";
  for (const auto& [error, r] : misses)
    out << "  " << std::left << std::setw(34) << column_text(r->source, 34) << std::setw(22)
        << column_text(r->model + " (" + r->update + ")", 22) << std::right
        << std::setw(3) << r->ranks << (r->ranks > 1 ? " ranks" : " rank ") << std::setw(11) << figure(r->seconds_per_step * 1e6)
        << " us measured" << std::setw(9) << ((error >= 0 ? "+" : "") + percent(error)) << "\n";
  out << "preferred view: " << pm::view_name(f.preferred) << " (relative RMS error with parameters shared across layouts: "
      << "cycles " << percent(err[0]) << ", bytes " << percent(err[1]) << ", two-term " << percent(err[2]) << ")\n";
  const bool met = chosen.pearson >= 0.99 && chosen.pearson_log >= 0.99;
  out << "correlation of measured and predicted >= 0.99 (seconds and their logs, " << pm::view_name(f.preferred)
      << " view): " << (met ? "met" : "NOT met") << "\n";
  return met;
}

// The CSV tools/plot_perfmodel.py draws: every row measured against each view's prediction.
void write_predictions_header(std::ostream& out) {
  out << "source,kind,model,update,ranks,cells,bytes_per_cell,measured,predicted_cycles,predicted_bytes,predicted_two_term,"
         "preferred,held_out,compute,exchange\n";
}
void write_prediction(std::ostream& out, const pm::FittedModel& f, const pm::Measurement& m, bool held_out, pm::View preferred) {
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
  out << csv_field(m.source) << "," << m.kind << "," << csv_field(m.model) << "," << m.update << "," << m.ranks << "," << m.cells
      << "," << figure(m.bytes_per_cell, 6) << "," << figure(m.seconds_per_step, 10) << "," << predicted[0] << ","
      << predicted[1] << "," << predicted[2] << "," << pm::view_name(preferred) << "," << (held_out ? 1 : 0) << ","
      << figure(chosen.compute, 10) << "," << figure(chosen.exchange, 10) << "\n";
}
void write_predictions(std::ostream& out, const pm::FittedModel& f, const std::vector<pm::Measurement>& rows,
                       const pm::Holdout* holdout, pm::View preferred) {
  write_predictions_header(out);
  for (const pm::Measurement& m : rows) write_prediction(out, f, m, holdout && holdout->holds_out(m), preferred);
}

po::options_description fit_options(const char* caption) {
  po::options_description d(caption);
  d.add_options()("help,h", "show this help")(
      "timings", po::value<std::vector<std::string>>(), "CSV file(s) of `perfmodel measure` (the positional arguments)")(
      "out", po::value<std::string>(), "write the fitted constants here (for `perfmodel predict`)")(
      "predictions", po::value<std::string>(), "write every row measured against predicted here (for tools/plot_perfmodel.py)")(
      "cache-regime", po::value<std::string>(),
      "separate per-work costs inside and beyond the cache: off, evidence (default: where the rows show it, the "
      "split lowering a group's squared error by 10% or more) or always (where two rows lie each side)")(
      "no-cache-regime", po::bool_switch(), "the same as --cache-regime off: one cost whatever the working set (the paper's model)")(
      "no-depth", po::bool_switch(), "leave the depth term out (T = launch x launches + ...; for comparison)")(
      "no-gathers", po::bool_switch(), "leave the gather terms out (the sectors of neighbor state a step reads, and those past the L1; for comparison)")(
      "no-missed-gathers", po::bool_switch(), "leave the L1 miss term out (the sectors of it read past the L1; for comparison)")(
      "no-packing", po::bool_switch(), "leave the packing pass's term out (steps that pack one-bit signals first; for comparison)")(
      "no-branch", po::bool_switch(), "leave the boundary branch out (a device-path step priced by its frame alone; for comparison)")(
      "no-step-floor", po::bool_switch(), "leave the step floor out (the least a step with peers lasts; for comparison)")(
      "wave-blocks-per-sm", po::value<std::uint32_t>(),
      "GPU timings: resident sweep blocks per multiprocessor of the wave term (a wave covers SMs x this x 512 "
      "cells; default 4; 0: no wave term)")(
      "saturation-blocks-per-sm", po::value<double>(),
      "GPU timings: sweep blocks per multiprocessor below which a step costs as much work as that many "
      "(SMs x this x 512 cells; default 2; 0: no floor)");
  return d;
}

pm::FitOptions fit_options_from(const po::variables_map& vm) {
  pm::FitOptions options;
  if (vm.count("cache-regime")) options.cache_regime = pm::parse_cache_regime(vm["cache-regime"].as<std::string>());
  if (vm["no-cache-regime"].as<bool>()) {
    if (vm.count("cache-regime") && options.cache_regime != pm::CacheRegime::off)
      throw Error("--no-cache-regime contradicts --cache-regime " + vm["cache-regime"].as<std::string>());
    options.cache_regime = pm::CacheRegime::off;
  }
  options.depth = !vm["no-depth"].as<bool>();
  options.gathers = !vm["no-gathers"].as<bool>();
  options.missed_gathers = options.gathers && !vm["no-missed-gathers"].as<bool>();
  options.packing = !vm["no-packing"].as<bool>();
  options.branch = !vm["no-branch"].as<bool>();
  options.step_floor = !vm["no-step-floor"].as<bool>();
  if (vm.count("wave-blocks-per-sm")) options.wave_blocks_per_sm = vm["wave-blocks-per-sm"].as<std::uint32_t>();
  if (vm.count("saturation-blocks-per-sm")) {
    options.saturation_blocks_per_sm = vm["saturation-blocks-per-sm"].as<double>();
    if (!(options.saturation_blocks_per_sm >= 0) || !std::isfinite(options.saturation_blocks_per_sm))
      throw Error("--saturation-blocks-per-sm must be a number >= 0");
  }
  return options;
}

}  // namespace

bool parse_perfmodel_options(const Args& args, const po::options_description& desc, const char* positional,
                             const std::string& usage, po::variables_map& vm) {
  try {
    po::positional_options_description pos;
    if (positional) pos.add(positional, -1);
    po::store(po::command_line_parser(args).options(desc).positional(pos).run(), vm);
    if (vm.count("help")) {
      std::cout << usage << "\n\n" << desc << "\n";
      return false;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    throw Error(e.what());
  }
  // No output may replace an input (the timings fitted) or another output.
  FilePlan plan;
  for (const char* option : {"timings", "holdout-file"})
    if (vm.count(option))
      for (const std::string& path : vm[option].as<std::vector<std::string>>()) plan.reads(path, std::string("--") + option);
  if (vm.count("model-file")) plan.reads(vm["model-file"].as<std::string>(), "--model-file");
  for (const char* option : {"out", "predictions"})
    if (vm.count(option)) plan.writes(vm[option].as<std::string>(), std::string("--") + option);
  plan.check();
  return true;
}

std::uint64_t parse_count(const std::string& text, const std::string& option) {
  const bool power = text.rfind("2^", 0) == 0;
  const std::string digits = power ? text.substr(2) : text;
  std::uint64_t v = 0;
  auto [stop, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (digits.empty() || ec != std::errc() || stop != digits.data() + digits.size() || (power && v > 63))
    throw Error(option + " wants a whole number or 2^K, not " + quoted_text(text));
  return power ? std::uint64_t(1) << v : v;
}

namespace {

// `backend`: the rows' (cuda: kinds of run on one or several GPUs; else ranks).
void print_cross_validation(std::ostream& out, const pm::ErrorSummary& c, const std::vector<pm::KindErrors>& by_kind,
                            const std::string& backend) {
  out << "each of " << c.sources << " sources left out in turn (" << c.rows << " rows predicted): mean |error| "
      << percent(c.mean) << ", median " << percent(c.median) << ", 9 of 10 within " << percent(c.p90) << ", max "
      << percent(c.max) << "; " << percent(c.within) << " of the rows within " << percent(c.tolerance) << "\n";
  for (const pm::KindErrors& k : by_kind)
    out << "  " << pm::describe_run(k.run, backend == "cuda" ? "GPU" : "rank") << ": " << k.errors.rows << " rows of "
        << k.errors.sources << " sources, median " << percent(k.errors.median) << ", 9 of 10 within "
        << percent(k.errors.p90) << ", " << percent(k.errors.within) << " within " << percent(k.errors.tolerance) << "\n";
}

// A held-out row's line of validate's table.
void print_validated_row(std::ostream& out, const pm::ValidatedRow& r) {
  out << "  " << std::left << std::setw(30) << column_text(r.row.source, 30) << std::setw(26)
      << column_text(r.row.model + " (" + r.row.update + ")", 26) << std::right << std::setw(6) << r.row.ranks << std::setw(12)
      << r.row.cells << std::setw(13) << figure(r.row.seconds_per_step * 1e6);
  if (r.prediction && r.why.empty())
    out << std::setw(14) << figure(r.prediction->seconds_per_step * 1e6) << std::setw(9)
        << ((r.rel_error >= 0 ? "+" : "") + percent(r.rel_error)) << (r.within ? "" : "  OUTSIDE") << "\n";
  else
    out << "  cannot predict: " << r.why << "\n";
}

void print_validation_header(std::ostream& out) {
  out << "  " << std::left << std::setw(30) << "source" << std::setw(26) << "model (update)" << std::right << std::setw(6)
      << "ranks" << std::setw(12) << "cells" << std::setw(13) << "measured us" << std::setw(14) << "predicted us"
      << std::setw(9) << "error" << "\n";
}

// validate --holdout-each-source: every source held out in turn.
int validate_each_source(const std::vector<pm::Measurement>& rows, double tolerance, const pm::FitOptions& options,
                         std::optional<pm::View> view, const po::variables_map& vm) {
  std::unique_ptr<AtomicFile> predictions;
  if (vm.count("predictions")) predictions = std::make_unique<AtomicFile>(vm["predictions"].as<std::string>());
  const pm::CrossValidation cv = pm::cross_validate(rows, tolerance, options, view);
  std::cout << "perfmodel validate: each of " << cv.folds.size() << " sources held out in turn, fitted on the others "
            << "and predicted with that fit's " << (view ? std::string(pm::view_name(*view)) + " view" : "preferred view")
            << "; tolerance " << percent(tolerance) << ":\n";
  print_validation_header(std::cout);
  if (predictions) write_predictions_header(predictions->stream());
  for (const pm::CrossValidationFold& fold : cv.folds)
    for (const pm::ValidatedRow& r : fold.rows) {
      print_validated_row(std::cout, r);
      if (predictions && fold.fit) write_prediction(predictions->stream(), *fold.fit, r.row, true, fold.view);
    }
  print_cross_validation(std::cout, cv.summary, cv.by_kind, rows.front().backend);
  std::cout << (cv.pass ? "validation passed: every row within " : "validation FAILED: not every row within ")
            << percent(tolerance) << " of its measured time with its source left out\n";
  if (predictions) predictions->commit();
  return cv.pass ? 0 : 3;
}

}  // namespace

int perfmodel_fit(const Args& args) {
  po::options_description d = fit_options("cellgraph perfmodel fit");
  d.add_options()("cross-validate", po::bool_switch(),
                  "also fit once per source without it and predict its rows (leave one source out): their errors, "
                  "kept in the fit file, tell `predict` how far to trust a prediction for a graph never measured");
  po::variables_map vm;
  if (!parse_perfmodel_options(args, d, "timings",
                               "usage: cellgraph perfmodel fit TIMINGS.csv... [--out FIT] [--predictions CSV] [--cross-validate]", vm))
    return 0;
  const pm::FitOptions options = fit_options_from(vm);  // a bad option before any file is read
  const std::vector<pm::Measurement> rows = read_all(vm);
  pm::FittedModel f = pm::fit(rows, options);
  if (vm["cross-validate"].as<bool>()) {
    pm::CrossValidation cv = pm::cross_validate(rows, 0.10, options);
    f.cross_validation = cv.summary, f.cross_validation_by_kind = std::move(cv.by_kind);
  }
  // Both outputs are opened before either is written: a bad path leaves neither behind.
  std::unique_ptr<AtomicFile> out, predictions;
  if (vm.count("out")) out = std::make_unique<AtomicFile>(vm["out"].as<std::string>());
  if (vm.count("predictions")) predictions = std::make_unique<AtomicFile>(vm["predictions"].as<std::string>());
  std::cout << "perfmodel fit: ";
  print_fit(std::cout, f, rows);
  if (f.cross_validation)
    print_cross_validation(std::cout, *f.cross_validation, f.cross_validation_by_kind, f.machine.backend);
  if (out) pm::write_fit(out->stream(), f), out->commit();
  if (predictions) write_predictions(predictions->stream(), f, rows, nullptr, f.preferred), predictions->commit();
  if (out) std::cout << "wrote " << vm["out"].as<std::string>() << "\n";
  return 0;
}

int perfmodel_validate(const Args& args) {
  po::options_description d = fit_options("cellgraph perfmodel validate");
  d.add_options()("holdout-cells-above", po::value<std::string>(), "hold out rows of more cells than this (2^26, 67108864)")(
      "holdout-ranks-above", po::value<unsigned>(), "hold out rows on more ranks than this")(
      "holdout-source", po::value<std::vector<std::string>>(), "hold out rows whose source contains this text (repeatable)")(
      "holdout-file", po::value<std::vector<std::string>>(),
      "hold out every row of this CSV, read besides the timings (repeatable): fit on the timings, predict these")(
      "holdout-each-source", po::bool_switch(),
      "hold out each source in turn (leave one source out): fit on the others, predict its rows; every graph as "
      "'another graph'")(
      "tolerance", po::value<double>()->default_value(0.10, "0.1"), "largest relative error of a held-out prediction that passes")(
      "view", po::value<std::string>(), "predict with this view (cycles, bytes or two-term); default: the fit's preferred one");
  po::variables_map vm;
  if (!parse_perfmodel_options(args, d, "timings",
                               "usage: cellgraph perfmodel validate TIMINGS.csv... --holdout-cells-above N | "
                               "--holdout-ranks-above K | --holdout-source TEXT | --holdout-file CSV | --holdout-each-source "
                               "[--tolerance 0.1]",
                               vm))
    return 0;
  std::vector<pm::Measurement> rows = read_all(vm);
  pm::Holdout holdout;
  if (vm.count("holdout-cells-above")) holdout.cells_above = parse_count(vm["holdout-cells-above"].as<std::string>(), "--holdout-cells-above");
  if (vm.count("holdout-ranks-above")) holdout.ranks_above = vm["holdout-ranks-above"].as<unsigned>();
  if (vm.count("holdout-source")) holdout.sources = vm["holdout-source"].as<std::vector<std::string>>();
  if (vm.count("holdout-file")) {
    const std::vector<std::string>& timings = vm["timings"].as<std::vector<std::string>>();
    for (const std::string& path : vm["holdout-file"].as<std::vector<std::string>>()) {
      // A file named among the timings too is read once (its rows are held out all the same).
      if (std::find(timings.begin(), timings.end(), path) == timings.end()) {
        const std::vector<pm::Measurement> more = pm::read_measurements(path);
        rows.insert(rows.end(), more.begin(), more.end());
      }
      holdout.files.push_back(path);
    }
  }
  const double tolerance = vm["tolerance"].as<double>();
  if (!(tolerance > 0)) throw Error("--tolerance must be positive");
  const pm::FitOptions options = fit_options_from(vm);
  std::optional<pm::View> view;
  if (vm.count("view")) view = pm::parse_view(vm["view"].as<std::string>());
  if (vm["holdout-each-source"].as<bool>()) {
    if (holdout.cells_above || holdout.ranks_above || !holdout.sources.empty() || !holdout.files.empty())
      throw Error("--holdout-each-source holds out every source in turn: give no other --holdout option");
    if (vm.count("out")) throw Error("--out writes one fit; --holdout-each-source makes one per source (use `perfmodel fit`)");
    return validate_each_source(rows, tolerance, options, view, vm);
  }
  const pm::Validation v = pm::validate(rows, holdout, tolerance, options, view);
  std::unique_ptr<AtomicFile> out, predictions;
  if (vm.count("out")) out = std::make_unique<AtomicFile>(vm["out"].as<std::string>());
  if (vm.count("predictions")) predictions = std::make_unique<AtomicFile>(vm["predictions"].as<std::string>());

  std::vector<pm::Measurement> kept;
  for (const pm::Measurement& m : rows)
    if (!holdout.holds_out(m)) kept.push_back(m);
  std::cout << "perfmodel validate: fitted on ";
  print_fit(std::cout, v.fit, kept);
  std::cout << "\nheld out (" << v.held_out.size() << " rows), predicted with the " << pm::view_name(v.view)
            << " view; tolerance " << percent(tolerance) << ":\n";
  print_validation_header(std::cout);
  std::vector<double> measured, predicted;
  for (const pm::ValidatedRow& r : v.held_out) {
    print_validated_row(std::cout, r);
    if (r.prediction && r.why.empty()) {
      measured.push_back(r.row.seconds_per_step);
      predicted.push_back(r.prediction->seconds_per_step);
    }
  }
  const pm::Agreement a = pm::agreement(measured, predicted);
  std::cout << "held-out rows: mean |error| " << percent(a.mean_abs_rel) << ", max " << percent(a.max_abs_rel)
            << ", pearson " << figure(a.pearson, 4) << "\n"
            << (v.pass ? "validation passed: every held-out row within " : "validation FAILED: not every held-out row within ")
            << percent(tolerance) << "\n";
  if (out) pm::write_fit(out->stream(), v.fit), out->commit();
  if (predictions) write_predictions(predictions->stream(), v.fit, rows, &holdout, v.view), predictions->commit();
  return v.pass ? 0 : 3;
}

int perfmodel_command(const Args& args) {
  if (args.empty()) {
    std::cerr << kUsage;
    return 2;
  }
  const std::string& command = args[0];
  if (command == "--help" || command == "-h" || command == "help") {
    std::cout << kUsage;
    return 0;
  }
  const Args rest(args.begin() + 1, args.end());
  if (command == "measure") return perfmodel_measure(rest);
  if (command == "fit") return perfmodel_fit(rest);
  if (command == "validate") return perfmodel_validate(rest);
  if (command == "predict") return perfmodel_predict(rest);
  if (command == "annotate") return perfmodel_annotate(rest);
  std::cerr << "cellgraph perfmodel: unknown command '" << command << "'\n\n" << kUsage;
  return 2;
}

}  // namespace cellgraph::cli
