// cellgraph perfmodel fit and validate: the model's constants fitted to timings CSVs (and
// written for `predict`), and checked on rows left out of the fit: held out by size, rank
// count, source or file, or every source in turn.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>

#include "cellgraph/error.hpp"
#include "cellgraph/output/atomic_file.hpp"
#include "cellgraph/perfmodel.hpp"
#include "tools/cellgraph/perfmodel/commands.hpp"

namespace cellgraph::cli {
namespace {

namespace pm = perfmodel;

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

po::options_description fit_options(const char* caption) {
  po::options_description d(caption);
  d.add_options()("help,h", "show this help")("timings", po::value<std::vector<std::string>>(),
                                              "CSV file(s) of `perfmodel measure` (the positional arguments)")(
      "out", po::value<std::string>(), "write the fitted constants here (for `perfmodel predict`)")(
      "predictions", po::value<std::string>(),
      "write every row measured against predicted here (for tools/plot_perfmodel.py)")(
      "cache-regime", po::value<std::string>(),
      "separate per-work costs inside and beyond the cache: off, evidence (default: where the rows show it, the "
      "split lowering a group's squared error by 10% or more) or always (where two rows lie each side)")(
      "no-cache-regime", po::bool_switch(),
      "the same as --cache-regime off: one cost whatever the working set (the paper's model)")(
      "no-depth", po::bool_switch(), "leave the depth term out (T = launch x launches + ...; for comparison)")(
      "no-gathers", po::bool_switch(),
      "leave the gather terms out (the sectors of neighbor state a step reads, and those past the L1; for comparison)")(
      "no-missed-gathers", po::bool_switch(),
      "leave the L1 miss term out (the sectors of it read past the L1; for comparison)")(
      "no-packing", po::bool_switch(),
      "leave the packing pass's term out (steps that pack one-bit signals first; for comparison)")(
      "no-branch", po::bool_switch(),
      "leave the boundary branch out (a device-path step priced by its frame alone; for comparison)")(
      "no-step-floor", po::bool_switch(),
      "leave the step floor out (the least a step with peers lasts; for comparison)")(
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

// validate --holdout-each-source: every source held out in turn.
int validate_each_source(const std::vector<pm::Measurement>& rows, double tolerance, const pm::FitOptions& options,
                         std::optional<pm::View> view, const po::variables_map& vm) {
  std::unique_ptr<AtomicFile> predictions;
  if (vm.count("predictions")) predictions = std::make_unique<AtomicFile>(vm["predictions"].as<std::string>());
  const pm::CrossValidation cv = pm::cross_validate(rows, tolerance, options, view);
  std::cout << "perfmodel validate: each of " << cv.folds.size() << " sources held out in turn, fitted on the others "
            << "and predicted with that fit's "
            << (view ? std::string(pm::view_name(*view)) + " view" : "preferred view") << "; tolerance "
            << percent(tolerance) << ":\n";
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
  if (!parse_perfmodel_options(
          args, d, "timings",
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
  d.add_options()("holdout-cells-above", po::value<std::string>(),
                  "hold out rows of more cells than this (2^26, 67108864)")(
      "holdout-ranks-above", po::value<unsigned>(), "hold out rows on more ranks than this")(
      "holdout-source", po::value<std::vector<std::string>>(),
      "hold out rows whose source contains this text (repeatable)")(
      "holdout-file", po::value<std::vector<std::string>>(),
      "hold out every row of this CSV, read besides the timings (repeatable): fit on the timings, predict these")(
      "holdout-each-source", po::bool_switch(),
      "hold out each source in turn (leave one source out): fit on the others, predict its rows; every graph as "
      "'another graph'")("tolerance", po::value<double>()->default_value(0.10, "0.1"),
                         "largest relative error of a held-out prediction that passes")(
      "view", po::value<std::string>(),
      "predict with this view (cycles, bytes or two-term); default: the fit's preferred one");
  po::variables_map vm;
  if (!parse_perfmodel_options(
          args, d, "timings",
          "usage: cellgraph perfmodel validate TIMINGS.csv... --holdout-cells-above N | "
          "--holdout-ranks-above K | --holdout-source TEXT | --holdout-file CSV | --holdout-each-source "
          "[--tolerance 0.1]",
          vm))
    return 0;
  std::vector<pm::Measurement> rows = read_all(vm);
  pm::Holdout holdout;
  if (vm.count("holdout-cells-above"))
    holdout.cells_above = parse_count(vm["holdout-cells-above"].as<std::string>(), "--holdout-cells-above");
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
    if (vm.count("out"))
      throw Error("--out writes one fit; --holdout-each-source makes one per source (use `perfmodel fit`)");
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
            << (v.pass ? "validation passed: every held-out row within "
                       : "validation FAILED: not every held-out row within ")
            << percent(tolerance) << "\n";
  if (out) pm::write_fit(out->stream(), v.fit), out->commit();
  if (predictions) write_predictions(predictions->stream(), v.fit, rows, &holdout, v.view), predictions->commit();
  return v.pass ? 0 : 3;
}

}  // namespace cellgraph::cli
