#include "models/params.hpp"

#include <charconv>

#include "cellgraph/error.hpp"

namespace cellgraph::models {
namespace {

// The option a parameter's value came from, as the CLI knows it: --rule, or --param NAME=VALUE.
std::string option_name(const std::string& parameter) { return parameter == "rule" ? "rule" : "param " + parameter; }

}  // namespace

std::string number_text(double x) {
  char text[32];
  const auto [end, ec] = std::to_chars(text, text + sizeof text, x);
  return ec == std::errc() ? std::string(text, end) : std::to_string(x);
}

ParamReader::ParamReader(const std::string& model, const Params& params, const std::vector<ParamInfo>& known)
    : model_(model), params_(params), known_(known) {
  for (const auto& [name, value] : params) {
    bool listed = false;
    std::string names;
    for (const ParamInfo& p : known) {
      listed |= p.name == name;
      names += (names.empty() ? "" : ", ") + p.name;
    }
    if (!listed)
      throw OptionError(option_name(name), "model " + model + " has no parameter " + quoted_text(name) +
                                               (names.empty() ? " (it takes none)" : " (it takes: " + names + ")"));
  }
}

std::string ParamReader::text(const std::string& name) const {
  if (auto it = params_.find(name); it != params_.end()) return it->second;
  for (const ParamInfo& p : known_)
    if (p.name == name) return p.default_value;
  throw Error("model " + model_ + ": no parameter " + quoted_text(name));  // a bug in the model's list
}

double ParamReader::number(const std::string& name, double low, double high) const {
  const std::string value = text(name);
  double x = 0;
  const char* last = value.data() + value.size();
  auto [end, ec] = std::from_chars(value.data(), last, x);
  if (value.empty() || ec != std::errc() || end != last || !(x >= low && x <= high))
    throw OptionError(option_name(name), "model " + model_ + ": " + name + " must be a number from " +
                                             number_text(low) + " to " + number_text(high) + ", not " +
                                             quoted_text(value));
  return x;
}

double ParamReader::positive(const std::string& name, double high) const {
  const std::string value = text(name);
  double x = 0;
  const char* last = value.data() + value.size();
  auto [end, ec] = std::from_chars(value.data(), last, x);
  if (value.empty() || ec != std::errc() || end != last || !(x > 0 && x <= high))
    throw OptionError(option_name(name), "model " + model_ + ": " + name + " must be a number above 0, at most " +
                                             number_text(high) + ", not " + quoted_text(value));
  return x;
}

std::uint32_t ParamReader::whole(const std::string& name, std::uint32_t low, std::uint32_t high) const {
  const std::string value = text(name);
  std::uint32_t x = 0;
  const char* last = value.data() + value.size();
  auto [end, ec] = std::from_chars(value.data(), last, x);
  if (value.empty() || ec != std::errc() || end != last || x < low || x > high)
    throw OptionError(option_name(name), "model " + model_ + ": " + name + " must be a whole number from " +
                                             std::to_string(low) + " to " + std::to_string(high) + ", not " +
                                             quoted_text(value));
  return x;
}

std::size_t ParamReader::choice(const std::string& name, const std::vector<std::string>& choices) const {
  const std::string value = text(name);
  std::string listed;
  for (std::size_t i = 0; i < choices.size(); ++i) {
    if (choices[i] == value) return i;
    listed += (i ? ", " : "") + choices[i];
  }
  throw OptionError(option_name(name),
                    "model " + model_ + ": " + name + " must be one of " + listed + ", not " + quoted_text(value));
}

}  // namespace cellgraph::models
