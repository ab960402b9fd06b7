#include "models/registry.hpp"

#include <algorithm>

#include "cellgraph/error.hpp"

namespace cellgraph::models {
namespace {

// Built on first use, so that registrations from other files' static initializers, which run
// in an unspecified order, always find it constructed.
struct Registry {
  std::vector<ModelInfo> models;
  std::string error;  // the first failed registration
};

Registry& registry() {
  static Registry r;
  return r;
}

}  // namespace

void insert_model(std::vector<ModelInfo>& models, ModelInfo info) {
  if (info.name.empty()) throw Error("a model was registered without a name");
  if (!info.make) throw Error("model " + info.name + " was registered without a make function");
  auto at = std::lower_bound(models.begin(), models.end(), info.name,
                             [](const ModelInfo& m, const std::string& name) { return m.name < name; });
  if (at != models.end() && at->name == info.name)
    throw Error("two models are registered as " + quoted_text(info.name) + ": model names must be unique");
  models.insert(at, std::move(info));
}

bool register_model(ModelInfo info) {
  Registry& r = registry();
  try {
    insert_model(r.models, std::move(info));
  } catch (const Error& e) {
    if (r.error.empty()) r.error = e.what();
  }
  return true;
}

const std::vector<ModelInfo>& registered_models() {
  const Registry& r = registry();
  if (!r.error.empty()) throw Error(r.error);
  return r.models;
}

const ModelInfo& find_model(const std::string& name) {
  std::string known;
  for (const ModelInfo& m : registered_models()) {
    if (m.name == name) return m;
    known += (known.empty() ? "" : ", ") + m.name;
  }
  throw Error("unknown model " + quoted_text(name) + " (known: " + known + ")");
}

std::string parameters_text(const ModelInfo& model, Params params) {
  if (model.rule_text) params["rule"] = model.rule_text(params);
  if (model.name == "golly") params.erase("dir");
  std::string text;
  for (const auto& [key, value] : params) text += (text.empty() ? "" : ";") + key + "=" + value;
  return text;
}

}  // namespace cellgraph::models
