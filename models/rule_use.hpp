// A rule given as text (--rule, a pattern's own rule) checked as the run will read it, before
// the run starts: a Life-like rule, the name of a Golly rule file, or either.
#pragma once
#include <string>

namespace cellgraph::models {

// How a run will read a rule (the CLI says, from --model): not at all (another model reads
// it), as a Life-like rule, as the name of a Golly rule file, or as either (the default
// model: Life-like, else a rule file).
enum class RuleUse { ignored, lifelike, golly, lifelike_or_golly };

// Throws Error when `rule` is not one a run reading it as `use` can take; Golly rule files are
// looked for in `golly_dirs` (':' between folders) and where the golly model looks.
void check_rule(const std::string& rule, RuleUse use, const std::string& golly_dirs);

}  // namespace cellgraph::models
