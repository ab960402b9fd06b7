// cellgraph perfmodel, the command front end of the performance model (src/perfmodel/ is the
// model): measure.cpp times a sweep into a CSV, fit_validate.cpp fits and validates,
// predict.cpp predicts a run, annotate.cpp adds the shape columns to old timings; report.cpp
// prints a fit; command.cpp dispatches (perfmodel_command, declared in tools/cellgraph/cli.hpp).
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

#include "cellgraph/perfmodel.hpp"
#include "tools/cellgraph/cli.hpp"

namespace cellgraph::cli {

int perfmodel_measure(const Args& args);
int perfmodel_fit(const Args& args);
int perfmodel_validate(const Args& args);
int perfmodel_predict(const Args& args);
int perfmodel_annotate(const Args& args);

// What the sweep plan needs of a model (name[:key=value...], as CSVs and fits name it): the
// gather path of its GPU steps depends on it.
SweepModelTraits sweep_traits(const std::string& model_key);

// Parses a subcommand's options, its positional arguments (if `positional` names an option)
// included. Prints help and returns false for --help; throws Error for bad options, and for an
// output that would replace an input or another output.
bool parse_perfmodel_options(const Args& args, const po::options_description& desc, const char* positional,
                             const std::string& usage, po::variables_map& vm);

// "2^26" or a plain whole number (a cell count).
std::uint64_t parse_count(const std::string& text, const std::string& option);

// What fit and validate print (report.cpp).
std::string figure(double x, int digits = 3);  // "-" where undefined, "inf"
std::string percent(double x);                 // "7.51%"
// The constants, the agreement of measured and predicted over `rows`; returns whether the
// preferred view correlates at 0.99 or more (of seconds and of their logarithms).
bool print_fit(std::ostream& out, const perfmodel::FittedModel& f, const std::vector<perfmodel::Measurement>& rows);
// The errors of each source left out in turn, of every row and of each kind of run.
void print_cross_validation(std::ostream& out, const perfmodel::ErrorSummary& c,
                            const std::vector<perfmodel::KindErrors>& by_kind, const std::string& backend);
void print_validation_header(std::ostream& out);
void print_validated_row(std::ostream& out, const perfmodel::ValidatedRow& r);
// The CSV tools/plot_perfmodel.py draws: each row measured against each view's prediction.
void write_predictions_header(std::ostream& out);
void write_prediction(std::ostream& out, const perfmodel::FittedModel& f, const perfmodel::Measurement& m,
                      bool held_out, perfmodel::View preferred);
void write_predictions(std::ostream& out, const perfmodel::FittedModel& f,
                       const std::vector<perfmodel::Measurement>& rows, const perfmodel::Holdout* holdout,
                       perfmodel::View preferred);

}  // namespace cellgraph::cli
