// Fitting the model's constants to timings, and predicting step times from them.
//
// Every fit minimises relative errors (each row divided by its measured time): the sweep spans
// four orders of magnitude of step time, and a launch-bound 2^16-cell step matters as much
// to a user as a 2^28-cell one. Constants are kept non-negative (a negative launch overhead
// or latency would predict nonsense outside the measured range).
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "cellgraph/error.hpp"
#include "cellgraph/perfmodel.hpp"

namespace cellgraph::perfmodel {
namespace {

double units(const Measurement& m) { return double(std::max(1u, m.threads)); }

// Cells per parallel unit of the busiest rank.
double cells(const Measurement& m) { return double(m.part_cells_max) / units(m); }

// What a fit's rows share besides their constants: the GPU's wave of blocks and saturation
// floor (both 0 on a CPU, or when not asked for).
struct Shape {
  double wave_cells = 0, saturation_cells = 0;
};
Shape shape_of(const FittedModel& f) { return {f.wave_cells, f.saturation_cells}; }

// The regressor of the per-work cost: cells (cycles), or bytes (bytes, two-term), of at least
// the saturation floor's cells.
double work(const Measurement& m, View v, const Shape& s) {
  const double c = work_cells(m, s.saturation_cells);
  return v == View::cycles ? c : c * m.part_bytes_per_cell();
}

bool in_cache(const Measurement& m) { return m.cache_bytes > 0 && m.working_set() <= m.cache_bytes; }

// Kernel launches of a step: recorded, else 1 (a synchronous step; a colored row of a CSV without the column).
double launches(const Measurement& m) { return m.launches ? double(m.launches) : 1.0; }

// A step that gathers packed signals first packs them: a pass of its own over the cells, a
// launch and a round trip to memory that the sweep waits for (2.6 to 4.5 us on an H100 whatever
// the cells, 2^17 to 2^23; more than a launch, so a constant of its own).
double packs(const Measurement& m) { return m.packs_signals() ? 1.0 : 0.0; }

// Work a colored step repeats per class: its classes' vertices are scattered over the slices, so
// each class's sweep reads about the whole index array (a sector per index); launches x work.
// Zero for a step of one launch.
double class_work(const Measurement& m, View v, const Shape& s) {
  return m.launches > 1 ? double(m.launches) * work(m, v, s) : 0.0;
}

// Sectors of neighbor state a step's reads touch: gathers per cell x cells, and of those the
// ones read past the L1. The cells themselves, not the saturation floor's: the floor prices the
// latency too few loads in flight leave uncovered, while a sector is a transfer whatever the
// size (counted at the floor, the sectors of copter2, 55,476 cells, were priced 2.4 times over:
// +58% on an H200).
double gathered(const Measurement& m) { return m.gathers * cells(m); }
double missed(const Measurement& m) { return m.missed_gathers * cells(m); }

double own_compute_seconds(const ComputeConstants& c, const Measurement& m, View v, const Shape& s) {
  return c.launch * launches(m) + c.per_pack * packs(m) + c.per_depth * m.depth +
         c.per_wave * step_waves(m, s.wave_cells) + c.per_cell * work_cells(m, s.saturation_cells) +
         (in_cache(m) ? c.per_work_cache : c.per_work) * work(m, v, s) + c.per_class_work * class_work(m, v, s) +
         c.per_gather * gathered(m) + c.per_missed_gather * missed(m);
}

// A step's sweeps: a partitioned step's slowest part's, where the row records each part's work.
double compute_seconds(const ComputeConstants& c, const Measurement& m, View v, const Shape& s) {
  if (m.parts.empty()) return own_compute_seconds(c, m, v, s);
  double slowest = 0;
  for (const PartWork& p : m.parts) slowest = std::max(slowest, own_compute_seconds(c, m.as_part(p), v, s));
  return slowest;
}

using Rows = std::vector<const Measurement*>;

// Of the rows' sizes (no floor): a group needs two to be fitted.
std::size_t distinct_work(const Rows& rows, View v) {
  std::set<double> values;
  for (const Measurement* m : rows) values.insert(work(*m, v, {}));
  return values.size();
}

double rms_rel(const ComputeConstants& c, const Rows& rows, View v, const Shape& s) {
  double sum = 0;
  for (const Measurement* m : rows) {
    const double rel = compute_seconds(c, *m, v, s) / m->seconds_per_step - 1;
    sum += rel * rel;
  }
  return std::sqrt(sum / double(rows.size()));
}

// The optional columns of a group's fit.
struct Columns {
  bool split = false;    // a per-work cost of its own inside the cache
  bool depth = false;    // every row records its depth
  bool gathers = false;  // ... its gathers
  bool misses = false;   // ... its missed gathers
  bool classes = false;  // some rows are colored steps of several launches
  bool packing = false;  // some rows pack their signals first
};

// T = launch * launches [+ per_depth * depth] [+ per_wave * waves] [+ per_pack * packs]
// [+ per_cell * cells] + per_work * work [+ per_class_work * class work] [+ per_gather *
// gathered + per_missed_gather * missed]. Columns in that order: of two the rows cannot tell
// apart, the earlier is kept (a depth that does not vary within the group goes to the launch, as
// do the waves of rows of one wave each and a packing pass every row makes, and gathers in
// proportion to the work go to the work). The waves only with a wave shape.
ComputeConstants fit_compute_with(const Rows& rows, View v, const Columns& k, const Shape& s) {
  const bool two_term = v == View::two_term;
  std::vector<std::vector<double>> a;
  std::vector<double> b;
  for (const Measurement* m : rows) {
    const double t = m->seconds_per_step, w = work(*m, v, s);
    std::vector<double> columns{launches(*m) / t};
    if (k.depth) columns.push_back(m->depth / t);
    if (s.wave_cells > 0) columns.push_back(step_waves(*m, s.wave_cells) / t);
    if (k.packing) columns.push_back(packs(*m) / t);
    if (two_term) columns.push_back(work_cells(*m, s.saturation_cells) / t);
    if (k.split) columns.push_back(in_cache(*m) ? 0 : w / t), columns.push_back(in_cache(*m) ? w / t : 0);
    else columns.push_back(w / t);
    if (k.classes) columns.push_back(class_work(*m, v, s) / t);
    if (k.gathers) columns.push_back(gathered(*m) / t);
    if (k.misses) columns.push_back(missed(*m) / t);
    a.push_back(std::move(columns));
    b.push_back(1);
  }
  const std::vector<double> x = nonnegative_least_squares(a, b);
  ComputeConstants c;
  std::size_t j = 0;
  c.launch = x[j++];
  if (k.depth) c.per_depth = x[j++];
  if (s.wave_cells > 0) c.per_wave = x[j++];
  if (k.packing) c.per_pack = x[j++];
  if (two_term) c.per_cell = x[j++];
  c.per_work = x[j++];
  c.per_work_cache = k.split ? x[j++] : c.per_work;
  if (k.classes) c.per_class_work = x[j++];
  if (k.gathers) c.per_gather = x[j++];
  if (k.misses) c.per_missed_gather = x[j++];
  c.cache_fitted = k.split;
  c.rms_rel = rms_rel(c, rows, v, s);
  return c;
}

// The fit of a view, with the cache regime as FitOptions asks: a split needs at least two rows
// on each side of the cache, and (evidence) a squared relative error at least 10% below the
// fit without it.
ComputeConstants fit_compute(const Rows& rows, View v, const FitOptions& options, const Shape& s) {
  std::size_t inside = 0;
  Columns k;
  k.depth = options.depth, k.gathers = options.gathers, k.misses = options.missed_gathers;
  for (const Measurement* m : rows) {
    inside += in_cache(*m), k.classes = k.classes || m->launches > 1;
    k.packing = k.packing || (options.packing && m->packs_signals());
    k.depth = k.depth && m->depth > 0, k.gathers = k.gathers && m->gathers > 0,
    k.misses = k.misses && m->missed_gathers > 0;
  }
  const bool can_split = options.cache_regime != CacheRegime::off && inside >= 2 && rows.size() - inside >= 2;
  const ComputeConstants one = fit_compute_with(rows, v, k, s);
  if (!can_split) return one;
  k.split = true;
  const ComputeConstants two = fit_compute_with(rows, v, k, s);
  if (options.cache_regime == CacheRegime::always) return two;
  return two.rms_rel * two.rms_rel < 0.9 * one.rms_rel * one.rms_rel - 1e-18 ? two : one;
}

GroupFit fit_group(const Rows& rows, const std::string& kind, const FitOptions& options, const Shape& s) {
  GroupFit g;
  g.model = rows[0]->model;
  g.update = rows[0]->update;
  g.kind = kind;
  g.rows = rows.size();
  g.state_bytes = rows[0]->state_bytes;
  g.variables = rows[0]->variables;
  g.bytes_min = g.bytes_max = rows[0]->part_bytes_per_cell();
  for (const Measurement* m : rows) {
    g.bytes_min = std::min(g.bytes_min, m->part_bytes_per_cell());
    g.bytes_max = std::max(g.bytes_max, m->part_bytes_per_cell());
  }
  for (View v : {View::cycles, View::bytes}) g.view[int(v)] = fit_compute(rows, v, options, s);
  // A cost per cell and one per byte are told apart only by rows of different bytes per cell.
  if (g.bytes_max >= kTwoTermSpread * g.bytes_min) {
    g.view[int(View::two_term)] = fit_compute(rows, View::two_term, options, s);
  } else {
    ComputeConstants& c = g.view[int(View::two_term)];
    c = g.of(View::bytes);
    c.identified = false;
  }
  return g;
}

// The group a row is predicted with: its own (model, update, kind), else the shared fit. A
// group whose two-term view is not identified predicts with its bytes constants: the own
// kind's costs matter more than the second term (on an H100 the shared fit's per-byte cost,
// set by the grids, predicted a graph 50% fast where the graph group's bytes view erred 35%).
const GroupFit* group_for(const FittedModel& fit, const Measurement& m, View v, std::string& basis) {
  const GroupFit* own = fit.group(m.model, m.update, m.kind);
  const GroupFit* g = own ? own : fit.shared_group(m.model, m.update);
  if (!g) return nullptr;
  basis = m.model + "|" + m.update + "|" + (g == own ? m.kind : "*");
  if (!g->of(v).identified) basis += " (bytes)";
  return g;
}

// The exchange of a partitioned step, beside the compute it is added to. A device-path step
// runs its boundary branch (wait for the peers, sweep the boundary, push, signal) beside the
// interior sweep, and takes the longer of the two (Nsight Compute on 2 H100s: the branch sets
// R-MAT's and random graphs' steps, whose boundary holds most of a part's work, the interior an
// rgg's; docs/PERFORMANCE_MODEL.md). The frame terms (round trip, messages, halo) price a step
// the interior sets; the branch its latency and push, less the interior's share of the compute.
double frame_seconds(const ExchangeFit& e, const Measurement& m, View v) {
  const int i = int(v);
  return e.round_trip[i] * m.trades() + e.latency[i] * m.messages() + e.seconds_per_halo_cell[i] * m.halo_cells() +
         e.seconds_per_halo_value[i] * m.halo_values();
}
// A synchronous device-path step that trades with peers: it runs a boundary branch, and lasts
// at least the step floor (measured there: its branch's chain of kernels; a host-path step's
// least time is its round trip, which the frame prices).
bool floored(const Measurement& m) { return m.halo_path == "device" && m.update == "sync" && m.trades() > 0; }
bool has_branch(const Measurement& m) { return floored(m) && m.boundary_share > 0; }
double branch_seconds(const ExchangeFit& e, const Measurement& m, View v, double compute) {
  return e.branch_latency[int(v)] * m.trades() + e.seconds_per_send_value[int(v)] * m.send_values() -
         (1 - m.boundary_share) * compute;
}

// The frame, or where longer the branch: the exchange before the step floor.
double unfloored_exchange(const ExchangeFit& e, const Measurement& m, View v, double compute) {
  const double frame = frame_seconds(e, m, v);  // a branch of no constants is never the longer
  return has_branch(m) ? std::max(frame, branch_seconds(e, m, v, compute)) : frame;
}

struct ExchangeRow {
  const Measurement* m;
  double compute;  // its group's compute prediction
};

// Fits view v's exchange constants. Which term sets a row is not known before the constants
// are: rows start on the branch where the boundary holds half a part's work or more, and each
// round refits both terms on their rows and moves every row to the longer, until none moves.
// Without `branch`, every row by the frame.
void fit_exchange_view(const std::vector<ExchangeRow>& parts, View v, bool branch, ExchangeFit& e) {
  const int i = int(v);
  std::vector<bool> on_branch(parts.size());
  for (std::size_t r = 0; r < parts.size(); ++r)
    on_branch[r] = branch && has_branch(*parts[r].m) && parts[r].m->boundary_share >= 0.5;
  for (int round = 0; round < 32; ++round) {
    std::vector<std::vector<double>> a, a_branch;
    std::vector<double> b, b_branch;
    for (std::size_t r = 0; r < parts.size(); ++r) {
      const Measurement& m = *parts[r].m;
      const double t = m.seconds_per_step, c = parts[r].compute;
      if (on_branch[r]) {
        a_branch.push_back({m.trades() / t, m.send_values() / t});
        b_branch.push_back((t - m.boundary_share * c) / t);
      } else {
        a.push_back({m.trades() / t, m.messages() / t, m.halo_cells() / t, m.halo_values() / t});
        b.push_back((t - c) / t);
      }
    }
    const std::vector<double> x = a.empty() ? std::vector<double>(4, 0.0) : nonnegative_least_squares(a, b);
    const std::vector<double> y =
        a_branch.empty() ? std::vector<double>(2, 0.0) : nonnegative_least_squares(a_branch, b_branch);
    e.round_trip[i] = x[0], e.latency[i] = x[1], e.seconds_per_halo_cell[i] = x[2], e.seconds_per_halo_value[i] = x[3];
    e.branch_latency[i] = y[0], e.seconds_per_send_value[i] = y[1];
    e.branch_rows = a_branch.size();
    bool moved = false;
    for (std::size_t r = 0; r < parts.size(); ++r) {
      const Measurement& m = *parts[r].m;
      const bool longer =
          has_branch(m) && e.branch_rows > 0 && branch_seconds(e, m, v, parts[r].compute) > frame_seconds(e, m, v);
      moved = moved || longer != on_branch[r];
      on_branch[r] = longer;
    }
    if (!moved) return;
  }
}

// Whether a row can tell the step floor: it trades with peers in a synchronous step, and its
// compute is under half its time (the rest is latency the frame may not explain).
bool bound_by_latency(const ExchangeRow& r) { return floored(*r.m) && r.compute < 0.5 * r.m->seconds_per_step; }
bool on_floor(const ExchangeFit& e, const ExchangeRow& r, View v) {
  return floored(*r.m) && e.step_floor[int(v)] > r.compute + unfloored_exchange(e, *r.m, v, r.compute);
}

double exchange_error(const std::vector<ExchangeRow>& parts, View v, const ExchangeFit& e) {
  double sum = 0;
  for (const ExchangeRow& r : parts) {
    const double relative = (r.compute + exchange_seconds(e, *r.m, v, r.compute)) / r.m->seconds_per_step - 1;
    sum += relative * relative;
  }
  return sum;
}

// The step floor of view v, added to the frame and branch as they were fitted on every row.
// Only rows bound by latency can show a floor: with 4 or more, each one's time is tried, and
// the floor of least squared error over every row kept where it lowers that error. A sweep of
// large parts has no such rows, and no floor. (The frame refitted on the rows a floor does not
// set took their latency from the mid-size rows instead: on the rows of bench/perfmodel/h100.fit
// the round trip fell from 5.4 to 4.8 us, and 4 GPUs fitted on 1 and 2 came 19 of 36 within 10%
// against 26.)
void fit_step_floor(const std::vector<ExchangeRow>& parts, View v, ExchangeFit& e) {
  const int i = int(v);
  e.step_floor[i] = 0;
  if (std::count_if(parts.begin(), parts.end(), bound_by_latency) < 4) return;
  double least = exchange_error(parts, v, e), chosen = 0;
  for (const ExchangeRow& r : parts) {
    if (!bound_by_latency(r)) continue;
    e.step_floor[i] = r.m->seconds_per_step;
    const double error = exchange_error(parts, v, e);
    if (error < least * (1 - 1e-9) - 1e-12) least = error, chosen = e.step_floor[i];  // not rounding's gain
  }
  e.step_floor[i] = chosen;
}

std::string fitted_list(const FittedModel& fit) {
  std::set<std::string> names;
  for (const GroupFit& g : fit.shared) names.insert(g.model + " (" + g.update + ")");
  for (const GroupFit& g : fit.groups) names.insert(g.model + " (" + g.update + ")");
  std::string list;
  for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
  return list.empty() ? "nothing" : list;
}

}  // namespace

double work_cells(const Measurement& m, double saturation_cells) { return std::max(cells(m), saturation_cells); }

double step_waves(const Measurement& m, double wave_cells) {
  if (wave_cells <= 0) return 0;
  const double l = launches(m);
  return l * std::ceil(cells(m) / (l * wave_cells));
}

const char* view_name(View v) {
  switch (v) {
    case View::cycles:
      return "cycles";
    case View::bytes:
      return "bytes";
    case View::two_term:
      return "two-term";
  }
  return "?";
}

const char* cache_regime_name(CacheRegime r) {
  switch (r) {
    case CacheRegime::off:
      return "off";
    case CacheRegime::evidence:
      return "evidence";
    case CacheRegime::always:
      return "always";
  }
  return "?";
}

CacheRegime parse_cache_regime(const std::string& text) {
  for (CacheRegime r : {CacheRegime::off, CacheRegime::evidence, CacheRegime::always})
    if (text == cache_regime_name(r)) return r;
  throw Error("the cache regime must be off, evidence or always, not " + quoted_text(text));
}

View parse_view(const std::string& text) {
  for (View v : kViews)
    if (text == view_name(v)) return v;
  throw Error("the view must be cycles, bytes or two-term, not " + quoted_text(text));
}

const GroupFit* FittedModel::group(const std::string& model, const std::string& update, const std::string& kind) const {
  for (const GroupFit& g : groups)
    if (g.model == model && g.update == update && g.kind == kind) return &g;
  return nullptr;
}

const GroupFit* FittedModel::shared_group(const std::string& model, const std::string& update) const {
  for (const GroupFit& g : shared)
    if (g.model == model && g.update == update) return &g;
  return nullptr;
}

const ErrorSummary* FittedModel::errors_of_kind(const RunKind& run) const {
  for (const KindErrors& k : cross_validation_by_kind)
    if (k.run == run) return k.errors.rows >= kTrustRows && k.errors.sources >= kTrustSources ? &k.errors : nullptr;
  return nullptr;
}

RunKind run_kind_of(const Measurement& m) { return {m.kind, m.update, m.ranks > 1}; }

std::string describe_run(const RunKind& run, const std::string& unit) {
  return run.kind + " layout, " + run.update + " update, " +
         (run.several_ranks ? "several " + unit + "s" : "one " + unit);
}

std::string FittedModel::resolve_model(const std::string& spec, const std::string& update) const {
  std::set<std::string> same_name;
  const std::string name = spec.substr(0, spec.find(':'));
  for (const auto* list : {&shared, &groups})
    for (const GroupFit& g : *list) {
      if (g.update != update) continue;
      if (g.model == spec) return spec;
      if (g.model.substr(0, g.model.find(':')) == name) same_name.insert(g.model);
    }
  if (same_name.size() == 1) return *same_name.begin();
  if (same_name.empty())
    throw Error("the fit has no constants for model " + spec + " with update " + update + " (it has " +
                fitted_list(*this) + ")");
  std::string list;
  for (const std::string& s : same_name) list += (list.empty() ? "" : ", ") + s;
  throw Error("the fit has several parameter sets of " + name + " (" + list + "): name one with --param");
}

FittedModel fit(const std::vector<Measurement>& rows, const FitOptions& options) {
  if (rows.empty()) throw Error("no timings to fit");
  FittedModel f;
  f.cache_regime = options.cache_regime;
  const Measurement* first_single = nullptr;
  for (const Measurement& m : rows) {
    if (m.device != rows[0].device || m.backend != rows[0].backend)
      throw Error("the timings come from several machines (" + rows[0].backend + " on " + rows[0].device + " at " +
                  rows[0].origin + ", " + m.backend + " on " + m.device + " at " + m.origin +
                  "): fit one machine at a time");
    if (m.ranks == 1 && !first_single) first_single = &m;
  }
  if (!first_single) throw Error("no timings on one rank: the per-cell cost and the launch overhead come from them");
  f.machine = {first_single->device,    first_single->backend,     first_single->sm_count, 1,
               first_single->clock_mhz, first_single->cache_bytes, first_single->copy_gbps};
  for (const Measurement& m : rows)
    if (m.ranks == 1) f.machine.threads = std::max(f.machine.threads, m.threads);
  // Waves of blocks and the saturation floor: a GPU's, from its multiprocessors and the sweep's
  // block shape.
  if (f.machine.backend == "cuda" && f.machine.sm_count > 0) {
    const double block_vertices = kSweepTuning.vertices_per_block();  // the kernels' block (sweep_tuning.hpp)
    f.wave_cells = double(f.machine.sm_count) * options.wave_blocks_per_sm * block_vertices;
    f.saturation_cells = double(f.machine.sm_count) * options.saturation_blocks_per_sm * block_vertices;
  }
  const Shape shape = shape_of(f);

  // One-rank rows by (model, update, kind) and by (model, update).
  std::map<std::tuple<std::string, std::string, std::string>, Rows> by_group;
  std::map<std::pair<std::string, std::string>, Rows> by_model, partitioned;
  for (const Measurement& m : rows) {
    if (m.ranks > 1) {
      partitioned[{m.model, m.update}].push_back(&m);
      continue;
    }
    by_group[{m.model, m.update, m.kind}].push_back(&m);
    by_model[{m.model, m.update}].push_back(&m);
  }
  auto fittable = [](const Rows& r) {
    return distinct_work(r, View::cycles) >= 2 && distinct_work(r, View::bytes) >= 2;
  };
  for (const auto& [key, group] : by_group) {
    const auto& [model, update, kind] = key;
    if (fittable(group)) f.groups.push_back(fit_group(group, kind, options, shape));
    else
      f.notes.push_back(model + " (" + update + ") on " + kind + ": " + std::to_string(group.size()) +
                        " row(s) of one size, too few to fit; predicted by the fit shared over layouts");
  }
  for (const auto& [key, group] : by_model) {
    if (fittable(group)) f.shared.push_back(fit_group(group, "*", options, shape));
    else f.notes.push_back(key.first + " (" + key.second + "): fewer than two sizes on one rank, no fit");
  }
  if (f.groups.empty() && f.shared.empty())
    throw Error("nothing to fit: every model needs timings of at least two sizes on one rank");

  // The preferred view: the lower relative error when one parameter set serves every layout
  // of a model (the per-group fits differ little, since a group's bytes per cell vary little).
  // Two-term holds the bytes view as its special case (per_cell 0), so it never errs more
  // where identified: it is preferred only where every judged fit identifies it and its
  // squared error is at least 10% below the better one-term view's (the parameter earns it).
  auto total = [&](View v, const std::vector<GroupFit>& list) {
    double sum = 0;
    for (const GroupFit& g : list) sum += g.of(v).rms_rel * g.of(v).rms_rel * double(g.rows);
    return sum;
  };
  const std::vector<GroupFit>& judged = f.shared.empty() ? f.groups : f.shared;
  f.preferred = total(View::cycles, judged) < total(View::bytes, judged) * (1 - 1e-9) ? View::cycles : View::bytes;
  const bool two_term_everywhere =
      std::all_of(judged.begin(), judged.end(), [](const GroupFit& g) { return g.of(View::two_term).identified; });
  if (two_term_everywhere && total(View::two_term, judged) < 0.9 * total(f.preferred, judged) - 1e-12)
    f.preferred = View::two_term;

  // Exchange: what partitioned rows take beyond their compute, per round trip, per message, per
  // halo cell and per halo value (a cell's variable). Columns in that order: where two are
  // indistinguishable, the earlier is kept. A device-path row whose boundary share is known may
  // instead be set by its boundary branch (fit_exchange_view).
  ExchangeFit e;
  std::size_t branch_rows = 0, floor_rows = 0;
  std::set<std::string> paths;
  for (const Measurement& m : rows)  // a split without peers trades nothing, on neither path
    if (m.ranks > 1 && m.trades() > 0) paths.insert(m.halo_path.empty() ? "host" : m.halo_path);
  if (paths.size() == 1) e.halo_path = *paths.begin();
  for (View v : kViews) {
    std::vector<ExchangeRow> parts;
    for (const Measurement& m : rows) {
      std::string basis;
      if (const GroupFit* g = m.ranks > 1 ? group_for(f, m, v, basis) : nullptr)
        parts.push_back({&m, compute_seconds(g->of(v), m, v, shape)});
    }
    if (parts.empty()) break;
    e.rows = parts.size();
    fit_exchange_view(parts, v, options.branch, e);
    if (options.step_floor) fit_step_floor(parts, v, e);
    if (v == f.preferred) {  // the counts reported are the preferred view's
      branch_rows = e.branch_rows;
      floor_rows = std::size_t(
          std::count_if(parts.begin(), parts.end(), [&](const ExchangeRow& r) { return on_floor(e, r, v); }));
    }
  }
  e.branch_rows = branch_rows, e.floor_rows = floor_rows;
  if (e.rows) f.exchange = e;
  for (const auto& [key, group] : partitioned)
    if (std::string basis; !group_for(f, *group[0], View::bytes, basis))
      f.notes.push_back(key.first + " (" + key.second +
                        "): partitioned rows but no one-rank fit: not in the exchange fit");
  return f;
}

double exchange_seconds(const ExchangeFit& e, const Measurement& row, View view, double compute) {
  const double exchange = unfloored_exchange(e, row, view, compute);
  return floored(row) ? std::max(exchange, e.step_floor[int(view)] - compute) : exchange;
}

Prediction predict(const FittedModel& fit, const Measurement& row, View view) {
  Prediction p;
  const GroupFit* g = group_for(fit, row, view, p.basis);
  if (!g)
    throw Error("the fit has no constants for model " + row.model + " with update " + row.update + " (it has " +
                fitted_list(fit) + ")");
  p.compute = compute_seconds(g->of(view), row, view, shape_of(fit));
  if (row.ranks > 1) {
    if (const std::optional<ExchangeFit>& e = fit.exchange) p.exchange = exchange_seconds(*e, row, view, p.compute);
    else p.exchange_fitted = false;
  }
  p.seconds_per_step = p.compute + p.exchange;
  return p;
}

Agreement agreement_over(const FittedModel& fit, const std::vector<Measurement>& rows, View view) {
  std::vector<double> measured, predicted;
  for (const Measurement& m : rows) {
    try {
      const Prediction p = predict(fit, m, view);
      if (m.ranks > 1 && !p.exchange_fitted) continue;
      predicted.push_back(p.seconds_per_step);
      measured.push_back(m.seconds_per_step);
    } catch (const Error&) {
      // a row the fit cannot predict: left out
    }
  }
  return agreement(measured, predicted);
}

namespace {

// A row predicted by a fit that did not see it.
ValidatedRow validated_row(const FittedModel& f, const Measurement& m, View view, double tolerance) {
  ValidatedRow r;
  r.row = m;
  try {
    r.prediction = predict(f, m, view);
    r.rel_error = r.prediction->seconds_per_step / m.seconds_per_step - 1;
    if (m.ranks > 1 && !r.prediction->exchange_fitted) r.why = "no exchange constants (no partitioned rows kept)";
    r.within = r.why.empty() && std::abs(r.rel_error) <= tolerance;
  } catch (const Error& e) {
    r.prediction.reset();
    r.why = e.what();
  }
  return r;
}

}  // namespace

bool Holdout::holds_out(const Measurement& m) const {
  if (cells_above && m.cells > cells_above) return true;
  if (ranks_above && m.ranks > ranks_above) return true;
  for (const std::string& s : sources)
    if (!s.empty() && m.source.find(s) != std::string::npos) return true;
  for (const std::string& f : files)
    if (m.origin.size() > f.size() && m.origin.compare(0, f.size(), f) == 0 && m.origin[f.size()] == ':') return true;
  return false;
}

Validation validate(const std::vector<Measurement>& rows, const Holdout& holdout, double tolerance,
                    const FitOptions& options, std::optional<View> view) {
  std::vector<Measurement> kept, out;
  for (const Measurement& m : rows) (holdout.holds_out(m) ? out : kept).push_back(m);
  if (out.empty())
    throw Error(
        "no row is held out: give --holdout-cells-above, --holdout-ranks-above, --holdout-source or --holdout-file");
  if (kept.empty()) throw Error("every row is held out: nothing is left to fit");
  Validation v;
  v.fit = fit(kept, options);
  v.view = view ? *view : v.fit.preferred;
  v.fitted_agreement = agreement_over(v.fit, kept, v.view);
  v.pass = true;
  for (const Measurement& m : out) {
    v.held_out.push_back(validated_row(v.fit, m, v.view, tolerance));
    v.pass = v.pass && v.held_out.back().within;
  }
  return v;
}

ErrorSummary summarize_errors(const std::vector<double>& errors, std::size_t sources, double tolerance) {
  ErrorSummary s;
  s.rows = errors.size(), s.sources = sources, s.tolerance = tolerance;
  if (errors.empty()) return s;
  std::vector<double> size;
  for (double e : errors) size.push_back(std::abs(e));
  std::sort(size.begin(), size.end());
  auto rank = [&](double share) { return size[std::size_t(std::ceil(share * double(size.size()))) - 1]; };
  for (double e : size) s.mean += e / double(size.size()), s.within += double(e <= tolerance) / double(size.size());
  s.median = rank(0.5), s.p90 = rank(0.9), s.max = size.back();
  return s;
}

CrossValidation cross_validate(const std::vector<Measurement>& rows, double tolerance, const FitOptions& options,
                               std::optional<View> view) {
  std::vector<std::string> sources;
  for (const Measurement& m : rows)
    if (std::find(sources.begin(), sources.end(), m.source) == sources.end()) sources.push_back(m.source);
  if (sources.size() < 2)
    throw Error("cross-validation leaves one source out at a time: the rows hold only one source");
  CrossValidation cv;
  cv.pass = true;
  std::vector<double> errors;
  struct OfKind {
    RunKind run;
    std::vector<double> errors;
    std::set<std::string> sources;
  };
  std::vector<OfKind> kinds;
  for (const std::string& source : sources) {
    CrossValidationFold fold;
    fold.source = source;
    std::vector<Measurement> kept;
    for (const Measurement& m : rows)
      if (m.source != source) kept.push_back(m);
    std::string why;
    try {
      fold.fit = fit(kept, options);
      fold.view = view ? *view : fold.fit->preferred;
    } catch (const Error& e) {
      why = std::string("the other sources fit nothing: ") + e.what();
    }
    for (const Measurement& m : rows) {
      if (m.source != source) continue;
      ValidatedRow r;
      if (fold.fit) r = validated_row(*fold.fit, m, fold.view, tolerance);
      else r.row = m, r.why = why;
      if (r.why.empty()) {
        errors.push_back(r.rel_error);
        const RunKind run = run_kind_of(m);
        auto k = std::find_if(kinds.begin(), kinds.end(), [&](const OfKind& o) { return o.run == run; });
        if (k == kinds.end()) k = kinds.insert(kinds.end(), OfKind{run, {}, {}});
        k->errors.push_back(r.rel_error), k->sources.insert(m.source);
      }
      cv.pass = cv.pass && r.within;
      fold.rows.push_back(std::move(r));
    }
    cv.folds.push_back(std::move(fold));
  }
  cv.summary = summarize_errors(errors, sources.size(), tolerance);
  for (const OfKind& k : kinds) cv.by_kind.push_back({k.run, summarize_errors(k.errors, k.sources.size(), tolerance)});
  return cv;
}

std::vector<Prediction> predict_splits(const FittedModel& fit, const Measurement& base,
                                       const std::vector<Split>& splits, View view) {
  std::vector<Prediction> out;
  for (const Split& split : splits) {
    Measurement m = base;
    m.ranks = split.ranks;
    m.part_cells_max = split.shape.cells_max;
    m.part_bytes_max = split.shape.bytes_max;
    m.boundary_share = split.shape.boundary_share;
    m.send_cells_max = split.shape.send_cells_max;
    if (split.shape.step) record_shape(m, *split.shape.step);
    m.parts = m.ranks > 1 ? split.shape.parts : std::vector<PartWork>{};
    if (fit.exchange) m.halo_path = fit.exchange->halo_path;
    m.halo_cells_max = split.shape.halo_max;
    m.peers_max = split.shape.peers_max;
    m.exchanges = m.ranks > 1 ? std::max(1u, base.exchanges) : 0;
    // A GPU rank has its own GPU. CPU ranks share the host's cores, as runs do (one rank takes
    // them all; K ranks cores / K each), each thread at the fitted cost of one.
    const std::uint32_t cores = fit.machine.sm_count ? fit.machine.sm_count : fit.machine.threads;
    m.threads = fit.machine.backend == "cpu" ? std::max(1u, cores / m.ranks) : 1;
    out.push_back(predict(fit, m, view));
  }
  return out;
}

std::size_t fastest(const std::vector<Prediction>& predictions) {
  std::size_t best = 0;
  for (std::size_t k = 1; k < predictions.size(); ++k)
    if (predictions[k].seconds_per_step < predictions[best].seconds_per_step) best = k;
  return best;
}

}  // namespace cellgraph::perfmodel
