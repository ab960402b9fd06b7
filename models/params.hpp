// Reading a model's parameters (NAME=VALUE strings from --param, --rule or a config file):
// every name must be one the model lists, values are checked, and defaults come from the
// model's own ParamInfo list, the one `cellgraph models` prints.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace cellgraph::models {

using Params = std::map<std::string, std::string>;

struct ParamInfo {
  std::string name, default_value, help;
};

// The shortest text that reads back as `x` ("0", "0.5", "1e-09", "6.283185307179586"): numbers
// in messages as the checks compare them, where std::to_string would print 1e-09 as 0.000000.
std::string number_text(double x);

// Errors name the parameter and are OptionErrors about "param NAME" ("rule" for the rule), so
// that the CLI can say which config file line a value came from.
class ParamReader {
 public:
  // Throws Error naming the model's parameters when `params` has a name not among `known`.
  ParamReader(const std::string& model, const Params& params, const std::vector<ParamInfo>& known);

  std::string text(const std::string& name) const;
  // A number in [low, high]; throws Error naming the parameter and both bounds, written in the
  // shortest form that reads back as the bound the check uses (1e-09, not 0.000000).
  double number(const std::string& name, double low, double high) const;
  // A number in (0, high]: a length, a temperature, a mass.
  double positive(const std::string& name, double high) const;
  std::uint32_t whole(const std::string& name, std::uint32_t low, std::uint32_t high) const;
  // One of `choices`; returns its index.
  std::size_t choice(const std::string& name, const std::vector<std::string>& choices) const;

 private:
  std::string model_;
  const Params& params_;
  const std::vector<ParamInfo>& known_;
};

}  // namespace cellgraph::models
