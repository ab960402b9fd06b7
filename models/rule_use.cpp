#include "models/rule_use.hpp"

#include "cellgraph/error.hpp"
#include "models/golly.hpp"
#include "models/lifelike.hpp"

namespace cellgraph::models {

void check_rule(const std::string& rule, RuleUse use, const std::string& golly_dirs) {
  if (use == RuleUse::ignored) return;
  std::string not_lifelike;
  if (use != RuleUse::golly) {
    try {
      parse_lifelike_rule(rule);
      return;
    } catch (const Error& e) {
      not_lifelike = e.what();
    }
    // A rule file's name has no '/': such a rule can only be Life-like.
    if (use == RuleUse::lifelike || rule.find('/') != std::string::npos) throw Error(not_lifelike);
  }
  const Params params = {{"rule", rule}, {"dir", golly_dirs}};
  try {
    golly_rule_path(params);
    return;
  } catch (const Error&) {
  }
  // The Life-like parser's message already quotes the rule: the file's name is not repeated.
  const std::string folders = golly_rule_folders_text(params);
  throw Error(not_lifelike.empty()
                  ? "rule " + quoted_text(rule) + ": no Golly rule file " + printable_text(rule) + ".rule in " + folders
                  : not_lifelike + "; nor is there a Golly rule file of that name in " + folders);
}

}  // namespace cellgraph::models
