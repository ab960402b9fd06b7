#include <charconv>

#include "cellgraph/error.hpp"
#include "cellgraph/update.hpp"

namespace cellgraph {

UpdateRule parse_update_rule(const std::string& text) {
  if (text == "sync" || text == "synchronous") return {};
  if (text == "colored") return {UpdateMode::colored, 1.0};
  if (text.rfind("alpha:", 0) == 0) {
    double alpha = 0;
    const char *first = text.data() + 6, *last = text.data() + text.size();
    auto [end, ec] = std::from_chars(first, last, alpha);
    if (ec == std::errc() && end == last && first != last && alpha > 0 && alpha <= 1)
      return {UpdateMode::alpha_asynchronous, alpha};
    throw Error("update rule " + quoted_text(text) + ": alpha must be a number in (0, 1]");
  }
  throw Error("unknown update rule " + quoted_text(text) + " (sync, colored, alpha:A)");
}

std::string update_rule_text(const UpdateRule& rule) {
  switch (rule.mode) {
    case UpdateMode::synchronous:
      return "sync";
    case UpdateMode::colored:
      return "colored";
    case UpdateMode::alpha_asynchronous: {
      char buffer[32];
      auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, rule.alpha);
      return "alpha:" + std::string(buffer, end);
    }
  }
  return "sync";
}

}  // namespace cellgraph
