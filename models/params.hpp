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

class ParamReader {
 public:
  // Throws Error naming the model's parameters when `params` has a name not among `known`.
  ParamReader(const std::string& model, const Params& params, const std::vector<ParamInfo>& known);

  std::string text(const std::string& name) const;
  // A number in [low, high]; throws Error naming the parameter otherwise.
  double number(const std::string& name, double low, double high) const;
  std::uint32_t whole(const std::string& name, std::uint32_t low, std::uint32_t high) const;
  // One of `choices`; returns its index.
  std::size_t choice(const std::string& name, const std::vector<std::string>& choices) const;

 private:
  std::string model_;
  const Params& params_;
  const std::vector<ParamInfo>& known_;
};

}  // namespace cellgraph::models
