// The performance model (docs/PERFORMANCE_MODEL.md): how long a step takes on one device and
// on a partitioned run, fitted by least squares from timings that `cellgraph perfmodel
// measure` writes, and used to predict other sizes, graphs and GPU counts.
//
// Per step on one device (rank), with N_p the largest part's cells and u the rank's parallel
// units (1 GPU, or its CPU threads), three views of the per-cell cost:
//   T = T_launch + a * N_p / u                            (cycles view: a = C / (f * N_SM))
//   T = T_launch + a * N_p * B / u                        (bytes view:  a = 1 / bandwidth)
//   T = T_launch + (c_cell + c_byte * B) * N_p / u        (two-term view)
// B the bytes a cell update moves (state read and written, stored neighbor indices). The
// two-term view adds a cost per cell that no byte pays (the rule, the state write, the slice
// walk); it needs rows whose B differs (several stencils, graph degrees). The per-byte cost
// takes one value while the working set N_p * B fits the device's cache (L2, or the CPU's
// last level) and another beyond it, when rows of both regimes were measured (the two-term
// view's per-cell cost is one: the cache changes what bytes cost, not what a cell does).
// Two latency terms (all views): a step costs T_launch per kernel launch it makes (1 for a
// synchronous step, one per color class for a colored one: T_launch * launches) and c_depth
// per entry of the longest serial chain of neighbor loads (depth: the widest slice a thread
// walks; a hub's degree / 32 for a warp, a giant's / 256 for a block; summed over the classes
// of a colored step), which bounds a small step that does not fill the GPU. A colored step of
// several launches also pays c_class * launches * work: each class's sweep reads about the
// whole index array (its vertices are scattered over the slices). Scattered neighbor reads
// cost c_gather per 32-byte sector a warp touches (gathers per cell x N_p, StepShape::gathers:
// about 0.3 on a 2D grid, the degree on a random graph; a transaction of the multiprocessor's
// L1) and, on a GPU, c_miss per sector that misses the L1 (missed_gathers per cell x N_p: a
// sector brought from L2), where every row records them.
// On a GPU, a step also pays c_wave per wave of blocks: a launch of n vertices runs in
// ceil(n / wave_cells) waves (wave_cells = multiprocessors x resident blocks per multiprocessor
// x vertices per block), each paying a latency that bandwidth does not hide; a colored step
// counts its launches' waves (classes taken as equal: launches x ceil(N / (launches x wave_cells))).
// A GPU step of fewer cells than saturation_cells (multiprocessors x saturation blocks x vertices
// per block) costs as much work as one of saturation_cells: with too few threads resident the
// loads in flight cannot cover the memory latency, so the bandwidth falls with the cells
// (Little's law) and the time does not (work counts max(N_p, saturation_cells)).
// Partitioned runs add
//   T_trans = T_round * exchanges + T_lat * messages + halo_cells / bw
// of the busiest part: exchanges per step (1; a colored step exchanges after each class; 0 for
// a part without peers), each a round trip (through the host, or the device path's wait, push
// and signal); messages = exchanges * variables rounds of messages (a part
// posts one to every peer at once: on 4 H200s a part of 3 peers paid about what one of 1 did);
// halo_cells = the part's halo cells * exchanges (the paper's N_boundary: the device path writes
// a cell's variables in one transfer, and Life and SIR, 1 and 3 bytes a cell, traded a random
// graph's halo of 2 million cells in the same time on 2 and on 4 H100s). These constants belong
// to the machine, not to a model.
#pragma once
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "cellgraph/coloring.hpp"
#include "cellgraph/graph.hpp"
#include "cellgraph/layout.hpp"
#include "cellgraph/simulation.hpp"
#include "cellgraph/source/grid.hpp"
#include "cellgraph/sweep_plan.hpp"

namespace cellgraph::perfmodel {

// ---------------------------------------------------------------------------------------------
// Timings: one row of the CSV per timed configuration.

// One part's own work in a partitioned synchronous step. The step waits for its slowest part,
// which need not be the one of the most cells: parts balanced by work differ in cells, and a
// part under the packing threshold gathers bytes where the others gather packed signals (a
// part of R-MAT 18/16 on 4 H100s). Priced part by part, the step takes the most of them;
// priced from each quantity's largest over the parts, it took a packing pass from one part
// and another's misses of the L1 (+33% to +44%).
struct PartWork {
  std::uint64_t cells = 0;                 // its vertices
  std::uint64_t indices = 0;               // its stored neighbor indices, padding included
  double depth = 0;                        // StepShape's, of its own step
  double gathers = 0, missed_gathers = 0;  // per cell of its own
  bool packed_signals = false;
};
// The CSV's `parts` field: "cells:indices:depth:gathers:missed:packed|bytes" of each part in
// rank order, separated by ';'. parse_parts throws Error saying what is wrong.
std::string format_parts(const std::vector<PartWork>& parts);
std::vector<PartWork> parse_parts(const std::string& text);

struct Measurement {
  std::string source;   // "grid:4096x4096:moore", "rgg:1048576:8", "rmat:20:16", "graph:4elt.graph"
  std::string kind;     // layout kind: grid, graph (no hubs), hubs
  std::string model;    // model spec: "lifelike", "sir:beta=0.05:tau=8"
  std::string update;   // sync, colored, alpha:A
  std::string backend;  // cpu, cuda
  std::uint32_t ranks = 1;
  std::uint32_t threads = 1;         // parallel units per rank: CPU threads; cuda: 1 (one GPU)
  std::uint64_t cells = 0;           // of the whole graph
  std::uint64_t part_cells_max = 0;  // the largest part's (= cells on one rank)
  double bytes_per_cell = 0;         // B: state read + written, 4 per stored index (+4 colored)
  double state_bytes = 0;            // every state variable of a cell
  std::uint32_t variables = 1;       // state variables (one message each per peer)
  std::uint64_t halo_cells_max = 0;  // the largest halo of a part
  std::uint32_t peers_max = 0;       // the most peers of a part
  std::uint32_t exchanges = 0;       // halo exchanges per step (0 on one rank)
  std::uint64_t steps = 0;           // per timed run
  double seconds_per_step = 0;       // the slowest rank's median
  std::string device;                // "NVIDIA H100 80GB HBM3", the CPU's model name
  std::uint32_t sm_count = 0;        // multiprocessors (cuda) or the host's cores (cpu)
  double clock_mhz = 0;              // 0: unknown
  double cache_bytes = 0;            // L2 (cuda) or last-level cache (cpu); 0: unknown
  double copy_gbps = 0;              // copy bandwidth measured in the same run, read + write
  // Kernel launches (sweeps) of a step: 1 synchronous, the color classes colored; 0: unknown
  // (a CSV without the column: its colored rows), counted as 1.
  std::uint32_t launches = 0;
  // The longest serial chain of neighbor entries a thread walks in a step, summed over its
  // launches (see StepShape); 0: unknown (a CSV without the column).
  double depth = 0;
  // Sectors of neighbor state a cell's update touches (StepShape::gathers, the busiest rank's);
  // 0: unknown (a CSV without the column).
  double gathers = 0;
  // Of those, the sectors per cell that miss the L1 (StepShape::missed_gathers, the busiest
  // rank's); 0: unknown (a CSV without the column, or a CPU row).
  double missed_gathers = 0;
  // Bytes the busiest part's step moves (B of each part over its own cells and stored indices,
  // the largest); 0: unknown (one rank, or a CSV without the column): part_cells_max x B.
  // Parts of equal cells can differ in neighbor entries several times over (hubs).
  double part_bytes_max = 0;
  // How the halo went: "device" (peers write it into each other's memory: no messages) or
  // "host" (MPI messages); empty: one rank, or unknown (a CSV without the column: host).
  std::string halo_path;
  // The largest boundary of a part (its vertices that read the halo or that peers read: the
  // branch of a device-path step that waits for the peers and that they wait for), as a share
  // of the busiest part's work (vertices + neighbor entries, each the largest over the parts);
  // 0: unknown (one rank, or a CSV without the column).
  double boundary_share = 0;
  std::uint64_t send_cells_max = 0;  // the most cells a part writes to its peers, per reader; 0: unknown
  // What a synchronous GPU step gathers: "packed" (one-bit signals, which a pass of their own
  // packs first) or "bytes" (the state); empty: unknown (a CSV without the column), counted
  // as bytes. A partitioned row: packed where any part packs.
  std::string gather_path;
  // Each part's own work (a synchronous partitioned row); empty: unknown (one rank, a colored
  // row, or a CSV without the column), the step priced from the largest of each column above.
  std::vector<PartWork> parts;
  std::string origin;  // "file:line" it was read from (not a column)

  // Exchanges that trade anything: a part without peers (a split along components) does not
  // trade (the backends skip it), whatever `exchanges` says.
  double trades() const { return double(peers_max > 0) * exchanges; }
  // Rounds of messages: one per exchange and variable, to all peers at once (none without
  // peers, none on the device path).
  double messages() const { return halo_path == "device" ? 0.0 : trades() * variables; }
  bool packs_signals() const { return gather_path == "packed"; }
  // Halo cells received a step, over all exchanges.
  double halo_cells() const { return double(halo_cells_max) * exchanges; }
  // Their variables: a value each (the device path writes each variable of a cell in a store
  // of its own).
  double halo_values() const { return halo_cells() * variables; }
  // Values a part writes to its peers a step (the device path's push): sent cells x variables.
  double send_values() const { return double(send_cells_max) * variables * exchanges; }
  // B of the busiest rank, per cell of the largest part: its work in the bytes view.
  double part_bytes_per_cell() const {
    return part_bytes_max > 0 ? part_bytes_max / double(part_cells_max) : bytes_per_cell;
  }
  // Bytes one rank's step touches: what decides whether it runs from the cache.
  double working_set() const { return double(part_cells_max) * part_bytes_per_cell(); }
  // This row as one of its parts would run alone: the part's cells, bytes and shape.
  Measurement as_part(const PartWork& part) const;
};

// Compulsory traffic of a step over `cells` cells storing `indices` neighbor indices (padding
// included), as `bench` counts it: every state variable read and written, 4 bytes an index, and
// a colored step's class list (4 bytes a cell). Per cell: cells 1, indices per cell.
inline double step_bytes(double cells, double indices, double state_bytes, bool colored) {
  return cells * (2 * state_bytes + (colored ? 4 : 0)) + 4 * indices;
}
// A layout's lists counted as the 4-byte indices whose bytes they take (Layout::index_bytes):
// delta slices count half, stencil slices only their stencil.
inline std::uint64_t stored_indices(const Layout& L) { return (L.index_bytes() + 3) / 4; }

// The CSV: a header naming the columns (any order; all of them but `launches` and `depth`,
// which CSVs written before them lack), then one row each. Fields holding a comma or a quote
// are quoted ("...", "" for a quote). Empty `launches` / `depth` fields, or a CSV without the
// column: unknown (launches 1 for a synchronous row, 0 for another; depth 0).
std::string csv_header();
std::string csv_row(const Measurement& m);
// Throws ParseError "name:line: what is wrong" for malformed input, Error when the file
// cannot be opened.
std::vector<Measurement> parse_measurements(std::istream& in, const std::string& name);
std::vector<Measurement> read_measurements(const std::string& path);

// ---------------------------------------------------------------------------------------------
// Least squares and agreement.

// x minimising sum_i (rows[i] . x - b[i])^2, by Householder QR on unit-scaled columns;
// nullopt when the columns are linearly dependent (or there are fewer rows than columns).
std::optional<std::vector<double>> least_squares(const std::vector<std::vector<double>>& rows,
                                                 const std::vector<double>& b);
// The same with every x_j >= 0: the best of the unconstrained fits over subsets of the columns
// (exact for the few columns used here; at most 10). Dependent subsets are skipped; all-zero
// when nothing fits. Of columns the rows cannot tell apart, the earlier one is kept.
std::vector<double> nonnegative_least_squares(const std::vector<std::vector<double>>& rows,
                                              const std::vector<double>& b);

double pearson(const std::vector<double>& x, const std::vector<double>& y);

// How well predictions match measurements.
struct Agreement {
  std::size_t rows = 0;
  double pearson = 0;       // of measured and predicted seconds
  double pearson_log = 0;   // of their logarithms (every size counts alike)
  double r_squared = 0;     // 1 - SS(residual) / SS(measured about its mean)
  double mean_abs_rel = 0;  // mean |predicted / measured - 1|
  double max_abs_rel = 0;
  double rms_rel = 0;
};
Agreement agreement(const std::vector<double>& measured, const std::vector<double>& predicted);

// ---------------------------------------------------------------------------------------------
// The fitted model.

enum class View { cycles, bytes, two_term };
inline constexpr int kViewCount = 3;
inline constexpr View kViews[kViewCount] = {View::cycles, View::bytes, View::two_term};
const char* view_name(View v);             // "cycles", "bytes", "two-term"
View parse_view(const std::string& text);  // one of those names; throws Error

// T_launch and the per-work cost of one view: seconds per cell (cycles) or per byte (bytes,
// two-term) of one parallel unit, beyond the cache and within it; the two-term view adds
// seconds per cell (per_cell) in both regimes.
struct ComputeConstants {
  double launch = 0;
  double per_cell = 0;  // two-term only (0 in the one-term views)
  double per_work = 0;
  double per_work_cache = 0;  // = per_work unless cache_fitted
  double per_depth = 0;       // seconds per entry of the step's depth (0 unless every row has one)
  double per_gather = 0;  // seconds per sector of neighbor state read (gathers x cells; 0 unless every row has them)
  double per_missed_gather = 0;  // seconds per sector read past the L1 (missed_gathers x cells; likewise)
  double per_class_work = 0;     // seconds per unit of launches x work (colored steps: a class's sweep)
  double per_wave = 0;           // seconds per wave of blocks (GPU fits with a wave shape; else 0)
  double per_pack = 0;           // seconds per step that packs one-bit signals first (0 unless some rows do)
  bool cache_fitted = false;     // rows inside the cache fitted their own cost
  // The rows determine the constants: for two-term, their bytes per cell differ by at least
  // kTwoTermSpread. When not, the two-term constants are the bytes view's (per_cell 0), and
  // predictions with them say so.
  bool identified = true;
  double rms_rel = 0;  // relative RMS error over the rows fitted
};
// The least ratio of the largest to the smallest bytes per cell of a group for a two-term fit:
// below it a cost per cell and a cost per byte cannot be told apart (one layout's B hardly
// varies with the size: an rgg's 34.1 to 34.3).
inline constexpr double kTwoTermSpread = 1.2;

// Constants of one group of rows: one (model, update, kind), or kind "*": every kind of a
// (model, update) sharing one parameter set.
struct GroupFit {
  std::string model, update, kind;
  std::size_t rows = 0;
  double state_bytes = 0;
  std::uint32_t variables = 1;
  double bytes_min = 0, bytes_max = 0;  // bytes per cell over its rows
  ComputeConstants view[kViewCount];    // indexed by View
  const ComputeConstants& of(View v) const { return view[int(v)]; }
};

// The halo exchange of the machine, fitted on every partitioned row given its compute (each
// view's own). Where the rows cannot tell a round trip from a message (one peer and one
// variable everywhere), the round trip takes it: the paper's T_lat per step.
struct ExchangeFit {
  std::size_t rows = 0;
  double round_trip[kViewCount] = {};              // seconds per exchange, by view
  double latency[kViewCount] = {};                 // seconds per round of messages, by view
  double seconds_per_halo_cell[kViewCount] = {};   // 1 / bandwidth in cells, by view
  double seconds_per_halo_value[kViewCount] = {};  // per variable of a halo cell
  // The boundary branch of a device-path step (0 where no row's branch was the longer): its latency (wait, push and
  // signal kernels) per exchange, and its push per value sent. Rows fitted by it (the rest by the terms above).
  double branch_latency[kViewCount] = {};
  double seconds_per_send_value[kViewCount] = {};
  std::size_t branch_rows = 0;  // of the preferred view
  // The least a step that trades with peers lasts (0 where the rows do not show one): on the device path a small part's
  // step is its branch's chain of kernels (wait, boundary sweep, push, signal), however little its compute. Device-path
  // steps only.
  double step_floor[kViewCount] = {};
  std::size_t floor_rows = 0;  // rows set by it, of the preferred view
  // The halo path of the rows fitted that trade with peers ("device", "host"; empty: mixed or
  // unknown): a prediction of a run on several ranks takes it.
  std::string halo_path;
};

struct Machine {
  std::string device, backend;
  std::uint32_t sm_count = 0;
  std::uint32_t threads = 1;  // units of one-rank rows (cpu: threads; cuda: 1)
  double clock_mhz = 0, cache_bytes = 0, copy_gbps = 0;
};

// The machine this process runs on (copy_gbps left 0: the caller measures it). cpu: the
// model name, cores, clock and largest cache from /proc and sysfs, `threads` (0: OpenMP's);
// cuda: the current device's name, multiprocessors, clock and L2.
Machine describe_machine(BackendKind backend, int threads);

// Whether the per-work cost takes a value of its own inside the cache: never (off), where
// the rows show it (evidence: at least two rows each side, and the split lowers the group's
// squared relative error by at least 10%, as two-term must to be preferred), or wherever
// two rows lie each side (always: the behaviour before the wide H100 sweep).
enum class CacheRegime { off, evidence, always };
const char* cache_regime_name(CacheRegime r);             // "off", "evidence", "always"
CacheRegime parse_cache_regime(const std::string& text);  // throws Error

// Resident sweep blocks per multiprocessor assumed by default: an effective shape, fitted (the
// wide H100 sweep fits best at 4 among 2, 4, 6 and 8), not the occupancy (Life's sweep uses 40
// registers on sm_90, which leaves room for 6 blocks of 256 threads).
inline constexpr std::uint32_t kWaveBlocksPerSm = 4;
// Sweep blocks per multiprocessor below which a step's work counts as that many (the
// saturation floor): an effective shape, fitted like the wave's (each of three sweeps, two on an
// H100 and one on an H200, fits best at 2 or 2.5 among 0, 1, 1.5, 2, 2.5, 3; 0 is no floor).
inline constexpr double kSaturationBlocksPerSm = 2;

// Waves of blocks a step runs in, given the cells one wave covers (0: none, no wave term):
// launches x ceil(cells / (launches x wave_cells)), cells those of the busiest rank.
double step_waves(const Measurement& m, double wave_cells);

// The cells a step's work counts (the busiest rank's, per parallel unit): at least
// saturation_cells (0: no floor).
double work_cells(const Measurement& m, double saturation_cells);

// Relative errors of predictions against measurements (|predicted / measured - 1|): how many,
// over how many sources, and their spread.
struct ErrorSummary {
  std::size_t rows = 0, sources = 0;
  double mean = 0, median = 0, p90 = 0, max = 0;  // of |error|; p90: 9 of 10 rows within it
  double tolerance = 0.10;
  double within = 0;  // the share of rows within the tolerance
};
// Of errors (predicted / measured - 1) over `sources` sources; nearest-rank percentiles.
ErrorSummary summarize_errors(const std::vector<double>& errors, std::size_t sources, double tolerance);

// A kind of run: the source's layout kind (grid, graph, hubs), the update, one rank or several.
// Predictions err differently for each (R-MAT's parts far more than grids'; the table is in
// docs/PERFORMANCE_MODEL.md), so a prediction is told the spread of its own kind where there is one.
struct RunKind {
  std::string kind, update;
  bool several_ranks = false;
  bool operator==(const RunKind& o) const {
    return kind == o.kind && update == o.update && several_ranks == o.several_ranks;
  }
};
RunKind run_kind_of(const Measurement& m);
// "hubs layout, sync update, several GPUs" (`unit`: GPU or rank).
std::string describe_run(const RunKind& run, const std::string& unit);
// A kind of run's errors; their `sources` are those with a row of this kind predicted.
struct KindErrors {
  RunKind run;
  ErrorSummary errors;
};

struct FittedModel {
  Machine machine;
  View preferred = View::bytes;
  CacheRegime cache_regime = CacheRegime::evidence;
  double wave_cells = 0;                // cells one wave of blocks covers; 0: no wave term
  double saturation_cells = 0;          // the least cells a step's work counts; 0: no floor
  std::vector<GroupFit> groups;         // per (model, update, kind)
  std::vector<GroupFit> shared;         // per (model, update): kind "*"
  std::optional<ExchangeFit> exchange;  // none without partitioned rows
  std::vector<std::string> notes;       // groups left out and why
  // How far to trust a prediction for a graph the fit has not seen: its rows' errors when each
  // source was left out in turn (cross_validate); none unless asked for (`fit --cross-validate`).
  std::optional<ErrorSummary> cross_validation;
  // The same errors, of each kind of run among the rows.
  std::vector<KindErrors> cross_validation_by_kind;
  // A kind of run's own errors where at least kTrustRows of its rows, of kTrustSources sources,
  // were predicted (a source's rows share a fold, so their errors go together); else null (the
  // whole cross_validation speaks for it).
  static constexpr std::size_t kTrustRows = 10, kTrustSources = 5;
  const ErrorSummary* errors_of_kind(const RunKind& run) const;

  const GroupFit* group(const std::string& model, const std::string& update, const std::string& kind) const;
  const GroupFit* shared_group(const std::string& model, const std::string& update) const;
  // The fitted model spec that `spec` (canonical: name[:k=v...]) stands for: itself, or the
  // only fitted spec of the same model name. Throws Error naming what was fitted.
  std::string resolve_model(const std::string& spec, const std::string& update) const;
};

struct FitOptions {
  CacheRegime cache_regime = CacheRegime::evidence;
  bool depth = true;           // fit c_depth where every row of a group records its depth
  bool gathers = true;         // fit c_gather where every row of a group records its gathers
  bool missed_gathers = true;  // fit c_miss where every row of a group records its missed gathers
  bool packing = true;         // fit c_pack where some rows of a group pack their signals (gather_path)
  bool branch = true;          // fit the device path's boundary branch where rows record their boundary share
  bool step_floor = true;      // fit the least a step with peers lasts, where rows bound by latency show it
  // Resident blocks per multiprocessor of the wave term (GPU timings only; 0: no wave term):
  // a wave covers sm_count x this x a sweep block's vertices (SweepTuning) cells.
  std::uint32_t wave_blocks_per_sm = kWaveBlocksPerSm;
  // Sweep blocks per multiprocessor of the saturation floor (GPU timings only; 0: no floor):
  // work counts at least sm_count x this x a sweep block's vertices cells.
  double saturation_blocks_per_sm = kSaturationBlocksPerSm;
};

// Fits every group with at least two sizes (groups with fewer are noted and predicted through
// the shared fit), the shared fits, and the exchange from partitioned rows. The preferred view
// is the one whose shared fits (one parameter set across layouts) err less; two-term only
// where every shared fit identifies it. Throws Error when
// the rows come from several devices or backends, or when no one-rank rows fit anything.
FittedModel fit(const std::vector<Measurement>& rows, const FitOptions& options = {});

struct Prediction {
  double seconds_per_step = 0, compute = 0, exchange = 0;
  // "lifelike|sync|grid", or "lifelike|sync|*" (shared fit); with " (bytes)" appended when
  // the two-term view was asked for and the group does not identify it (its bytes constants).
  std::string basis;
  bool exchange_fitted = true;  // false: partitioned, but the fit has no exchange constants
};
// What a partitioned step adds to its compute (the seconds of its busiest part's sweeps): the
// frame (round trip, messages, halo), or, where longer, a device-path step's boundary branch;
// and, for a synchronous device-path step with peers, at least what it takes to reach the step floor.
double exchange_seconds(const ExchangeFit& e, const Measurement& row, View view, double compute);
// The step time of a configuration (a Measurement's fields; its timing is ignored). Throws
// Error when the fit has no constants for its model and update.
Prediction predict(const FittedModel& fit, const Measurement& row, View view);

// Agreement of a view over rows (rows it cannot predict are left out).
Agreement agreement_over(const FittedModel& fit, const std::vector<Measurement>& rows, View view);

// The fit file: "key = value" lines, [machine], [group], [exchange] sections, '#' comments.
void write_fit(std::ostream& out, const FittedModel& fit);
// Throws ParseError "path:line: ..." for a malformed file, Error when it cannot be opened.
FittedModel read_fit(const std::string& path);
FittedModel parse_fit(std::istream& in, const std::string& name);

// ---------------------------------------------------------------------------------------------
// Validation on rows left out of the fit.

struct Holdout {
  std::uint64_t cells_above = 0;     // rows with more cells (0: none by size)
  std::uint32_t ranks_above = 0;     // rows on more ranks (0: none by rank count)
  std::vector<std::string> sources;  // rows whose source contains one of these
  std::vector<std::string> files;    // rows read from one of these (Measurement::origin "file:line")
  bool holds_out(const Measurement& m) const;
};

struct ValidatedRow {
  Measurement row;
  std::optional<Prediction> prediction;  // nullopt: the fit cannot predict it
  std::string why;                       // when it cannot
  double rel_error = 0;                  // predicted / measured - 1
  bool within = false;
};

struct Validation {
  FittedModel fit;          // on the rows kept
  View view = View::bytes;  // the view the held-out rows were predicted with
  std::vector<ValidatedRow> held_out;
  Agreement fitted_agreement;  // the fit on its own rows
  bool pass = false;           // every held-out row within the tolerance
};
// Fits on the rows `holdout` keeps and predicts the others with `view` (default: the fit's
// preferred one). Throws Error when no row is held out or none is kept.
Validation validate(const std::vector<Measurement>& rows, const Holdout& holdout, double tolerance,
                    const FitOptions& options = {}, std::optional<View> view = std::nullopt);

// Another graph, every graph in turn (leave one source out): each source's rows (on every rank
// count) predicted by a fit on the other sources' rows, with that fit's preferred view (or
// `view`). A source is a row's exact label, so another size of a grid or generator counts as
// another graph, as in the blind sets. Rows a fold cannot predict (its model or kind fitted
// nowhere else) keep their reason and stay out of the summary.
struct CrossValidationFold {
  std::string source;
  std::optional<FittedModel> fit;  // none: nothing was left to fit (why in each row)
  View view = View::bytes;
  std::vector<ValidatedRow> rows;
};
struct CrossValidation {
  std::vector<CrossValidationFold> folds;  // in the order of each source's first row
  ErrorSummary summary;                    // of the rows predicted
  std::vector<KindErrors> by_kind;         // the same, of each kind of run, in the folds' order
  bool pass = false;                       // every row predicted, and within the tolerance
};
// Throws Error when the rows hold fewer than two sources.
CrossValidation cross_validate(const std::vector<Measurement>& rows, double tolerance, const FitOptions& options = {},
                               std::optional<View> view = std::nullopt);

// ---------------------------------------------------------------------------------------------
// What a prediction needs to know about a source and a split.

// grid (a slotted grid), hubs (vertices of hub degree: warp- or block-walked lists), or graph.
std::string layout_kind(const Graph& g, const CompileOptions& options);

// The latency shape of a step on a layout: its kernel launches and its depth, the longest
// serial chain of neighbor entries one thread walks (an ordinary vertex's thread walks its
// slice's width, padding included; a hub's warp degree / 32 entries each lane, rounded up; a
// giant's block degree / 256). Synchronous (classes null): one launch, the largest of these
// over the layout (the hub kernels run beside the ordinary one). Colored: one launch per
// class, and the sum over the classes of each class's largest (they run one after another).
// gathers: how scattered the neighbor reads are, the 32-byte sectors of what the step gathers
// (one-byte states: 32 cells a sector; packed signals: 256) that a warp's reads of one list
// position touch (distinct among its lanes), summed over the positions and divided by the
// warp's cells, averaged over (a sample of) the vertices: about 0.3 on a 2D grid (a warp reads
// a few rows), 1 per neighbor on a random graph. A synchronous step's warp is a slice; a
// colored step's, 32 vertices of one class (scattered over the slices).
// missed_gathers: of those sectors, the ones per cell that miss a multiprocessor's L1 (on a
// GPU: gather.multiprocessors > 0), by simulating the L1 (least recently used, empty at each
// launch) over the blocks (and hub blocks) that 8 multiprocessors spread over the GPU's run. The
// simulated L1 keeps sectors; the hardware allocates 128-byte lines, so scattered reads fit
// fewer than simulated. A partitioned step's two sweeps (boundary, interior) count as one.
struct GatherPath {
  bool packed_signals = false;        // the step gathers packed one-bit signals (gathers_scattered)
  std::uint32_t multiprocessors = 0;  // blocks are dealt round-robin over them; 0: no L1 (a CPU)
  std::uint32_t block_vertices = kSweepTuning.vertices_per_block();  // ordinary vertices of a sweep block
  std::size_t l1_bytes = kL1Bytes;
  // What a multiprocessor's L1 holds for the sweeps: Hopper's L1 and shared memory are 256 KiB,
  // less the driver's shared-memory carveout. Random graphs of 2^21 vertices, whose packed
  // signals are 256 KiB, ran 40% slower a cell than at 2^20 on an H100 (not held); 192 KiB
  // predicted a fresh sweep's sources left out in turn best of 128, 192 and 256.
  static constexpr std::size_t kL1Bytes = 192 << 10;
};
struct StepShape {
  std::uint32_t launches = 1;
  double depth = 0;
  double gathers = 0;
  double missed_gathers = 0;
  bool packed_signals = false;  // gathered from packed signals (GatherPath::packed_signals)
};
StepShape step_shape(const Layout& layout, const ColorClasses* classes = nullptr, const GatherPath& gather = {});
// The shape's columns of a row: launches, depth, gathers, missed gathers and the gather path.
void record_shape(Measurement& m, const StepShape& shape);
// The CUDA backend's plan for a step of `model` on `layout` (plan_sweeps, sweep_plan.hpp),
// colored or synchronous: what the performance model prices of it (the gather path) does not
// depend on the device. `scattered`: the layout stands for a larger one (a slab of a large
// grid) whose gathers_scattered this is.
SweepPlan step_plan(const Layout& layout, const SweepModelTraits& model, bool colored,
                    SignalPacking packing = SignalPacking::automatic, std::optional<bool> scattered = std::nullopt);
// The gather path of a step run by `plan`; a CPU step (multiprocessors 0): bytes, no L1.
GatherPath gather_path(const SweepPlan& plan, std::uint32_t multiprocessors);

// Each part's own work in a partitioned synchronous step (Measurement::parts), each on the
// gather path the CUDA backend takes for it (gathers_scattered: a part's cells, halo included,
// decide).
PartWork part_work(const Layout& part, const StepShape& shape);
std::vector<PartWork> part_works(const std::vector<Layout>& parts, const SweepModelTraits& model,
                                 std::uint32_t multiprocessors);
// The columns of a partitioned step's shape, each the largest over its parts: the longest walk,
// the most gathers and missed gathers a part reads per cell of the largest part (cells_max),
// packed where any part packs.
StepShape busiest_part_shape(const std::vector<PartWork>& parts, std::uint64_t cells_max);
// The bytes the busiest part's synchronous step moves (Measurement::part_bytes_max): each part's
// own cells and stored indices, padding included.
double busiest_part_bytes(const std::vector<Layout>& parts, double state_bytes);

struct PartShape {
  std::uint64_t cells_max = 0, halo_max = 0;
  std::uint32_t peers_max = 0;
  double bytes_max = 0;              // the busiest part's step (Measurement::part_bytes_max); 0: unknown
  double boundary_share = 0;         // Measurement::boundary_share; 0: unknown
  std::uint64_t send_cells_max = 0;  // Measurement::send_cells_max; 0: unknown
  // The busiest part's depth and gathers (busiest_part_shape); none: the whole layout's.
  std::optional<StepShape> step = std::nullopt;
  std::vector<PartWork> parts = {};  // each part's own (part_works); empty: unknown
};
// The block split of a grid into `parts` slabs of consecutive cell ids (what runs use for
// grids), from its shape alone: the largest part, and the halo and peers of a part inside the
// grid (the ids reached below and above a slab). nullopt when slabs would be thinner than
// the stencil's reach (then partition the graph itself).
std::optional<PartShape> grid_slab_estimate(const GridSpec& grid, std::uint32_t parts);

// A split of a source into `ranks` parts, and the predictions for several splits. `base`
// gives the model, update, kind, bytes per cell, state, variables, cache size and the
// exchanges per step of a partitioned run (1; colored: the classes), and the depth and gathers
// of a split without its step's shape; the rest is replaced. A
// GPU rank has a GPU; CPU ranks share the fitted host's cores (sm_count), as runs do: one
// rank takes them all, K ranks cores / K threads each (K at most the cores).
struct Split {
  std::uint32_t ranks = 1;
  PartShape shape;
};
std::vector<Prediction> predict_splits(const FittedModel& fit, const Measurement& base,
                                       const std::vector<Split>& splits, View view);
// The index of the fastest prediction (the fewest ranks among equals).
std::size_t fastest(const std::vector<Prediction>& predictions);

// ---------------------------------------------------------------------------------------------
// Model specs of the sweep: "NAME[:key=value...][@UPDATE]", e.g. "sir:beta=0.05:tau=8",
// "ising@colored", "lifelike:rule=B36/S23@alpha:0.5".
struct ModelSpec {
  std::string name;
  std::vector<std::pair<std::string, std::string>> params;  // sorted by key
  std::string update;                                       // empty: the model's default
  std::string key() const;                                  // name[:k=v...], the CSV's model column
};
ModelSpec parse_model_spec(const std::string& text);  // throws Error

}  // namespace cellgraph::perfmodel
