#include "tools/cellgraph/ensemble.hpp"

#include <cmath>
#include <iomanip>
#include <set>
#include <sstream>

#include "cellgraph/error.hpp"
#include "tools/cellgraph/cli.hpp"

namespace cellgraph::cli {

po::options_description ensemble_options() {
  po::options_description d("Ensembles (the graph compiled once, its neighbor lists read once a step for all)");
  d.add_options()(
      "replicas", unsigned_value<std::uint32_t>(1),
      "realizations of each parameter point; replica r of point p draws from its own seed, derived from --seed, p "
      "and r (docs/USER_GUIDE.md)")(
      "sweep", po::value<std::vector<std::string>>()->composing(),
      "NAME=v1,v2,... or NAME=a:b:n (n values from a to b): a model parameter to vary; repeatable (the product of "
      "the sweeps, the last varying fastest)")(
      "summary", po::value<std::string>(),
      "CSV per sweep point and step: mean, sd, standard error and 95% interval (Student's t) over the replicas of "
      "each --stats column")(
      "member", unsigned_value<std::uint32_t>(0),
      "the member (point x replicas + replica) whose final state, pictures and snapshots --states-out, --rle, "
      "--png, --gif, --frames and --vtk write");
  return d;
}

bool asks_for_ensemble(const po::variables_map& vm) {
  return get_unsigned<std::uint32_t>(vm, "replicas") != 1 || vm.count("sweep") || vm.count("summary") ||
         !vm["member"].defaulted();
}

std::pair<std::string, std::vector<std::string>> parse_sweep(const std::string& text) {
  const auto bad = [&](const std::string& why) {
    return OptionError("sweep", "--sweep " + text + ": " + why + " (NAME=v1,v2,... or NAME=a:b:n)");
  };
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) throw bad("no NAME=");
  const std::string name = text.substr(0, eq), rest = text.substr(eq + 1);
  std::vector<std::string> values;
  if (rest.find(':') != std::string::npos) {
    const std::size_t c1 = rest.find(':'), c2 = rest.find(':', c1 + 1);
    if (c2 == std::string::npos || rest.find(':', c2 + 1) != std::string::npos) throw bad("a range needs a:b:n");
    double a = 0, b = 0;
    std::size_t n = 0;
    try {
      std::size_t used = 0;
      a = std::stod(rest.substr(0, c1), &used);
      if (used != c1) throw bad("a is not a number");
      b = std::stod(rest.substr(c1 + 1, c2 - c1 - 1), &used);
      if (used != c2 - c1 - 1) throw bad("b is not a number");
      const std::string count = rest.substr(c2 + 1);
      if (count.empty() || count.find_first_not_of("0123456789") != std::string::npos) throw bad("n is not a count");
      n = std::stoul(count);
    } catch (const std::logic_error&) {
      throw bad("a, b and n must be numbers");
    }
    if (n == 0 || n > 1000000) throw bad("n must be 1 to 10^6");
    if (n == 1 && a != b) throw bad("one value needs a = b");
    if (!std::isfinite(a) || !std::isfinite(b)) throw bad("a and b must be finite");
    // The ends as typed, the values between to 12 significant digits: 2.15:2.39:9 gives 2.18,
    // not 2.1799999999999997, and the model runs with the value the text says.
    for (std::size_t i = 0; i < n; ++i) {
      std::ostringstream value;
      value << std::setprecision(12) << a + (b - a) * double(i) / double(n - 1);
      values.push_back(i == 0 ? rest.substr(0, c1) : i + 1 == n ? rest.substr(c1 + 1, c2 - c1 - 1) : value.str());
    }
  } else {
    std::size_t at = 0;
    while (true) {
      const std::size_t comma = rest.find(',', at);
      const std::string value = rest.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
      if (value.empty()) throw bad("an empty value");
      values.push_back(value);
      if (comma == std::string::npos) break;
      at = comma + 1;
    }
  }
  return {name, values};
}

EnsemblePlan ensemble_plan(const po::variables_map& vm, const models::Params& params) {
  EnsemblePlan plan;
  std::vector<std::pair<std::string, std::vector<std::string>>> sweeps;
  plan.replicas = get_unsigned<std::uint32_t>(vm, "replicas");
  if (plan.replicas == 0) throw OptionError("replicas", "--replicas must be at least 1");
  std::uint64_t members = plan.replicas;  // counted before any point is built
  if (vm.count("sweep"))
    for (const std::string& text : vm["sweep"].as<std::vector<std::string>>()) {
      sweeps.push_back(parse_sweep(text));
      members *= sweeps.back().second.size();
      if (members > 0xFFFFFFFFull)
        throw OptionError("sweep", "--replicas x the sweep points is more than 2^32 members");
    }
  const models::Params given = model_params(vm);  // a pattern's rule is not given: a sweep may replace it
  if (vm.count("summary")) plan.summary = vm["summary"].as<std::string>();
  plan.points = {params};
  plan.columns.values = {{}};
  for (const auto& [name, values] : sweeps) {
    for (const std::string& earlier : plan.columns.names)
      if (earlier == name) throw OptionError("sweep", "--sweep names " + name + " twice");
    if (given.count(name)) throw OptionError("sweep", "--sweep " + name + " and --param " + name + " both set " + name);
    plan.columns.names.push_back(name);
    std::vector<models::Params> points;
    std::vector<std::vector<std::string>> columns;
    for (std::size_t p = 0; p < plan.points.size(); ++p)
      for (const std::string& value : values) {
        points.push_back(plan.points[p]);
        points.back()[name] = value;
        columns.push_back(plan.columns.values[p]);
        columns.back().push_back(value);
      }
    plan.points = std::move(points);
    plan.columns.values = std::move(columns);
  }
  plan.member = get_unsigned<std::uint32_t>(vm, "member");
  if (plan.member >= members)
    throw OptionError("member", "--member " + std::to_string(plan.member) + ": the ensemble has " +
                                    std::to_string(members) + " members (0 to " + std::to_string(members - 1) + ")");
  return plan;
}

}  // namespace cellgraph::cli
