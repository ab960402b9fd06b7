// Golly rule files as a model: the rule tree's lookup by grid slot, where rule files are
// found, and the parameters (reading: golly_rule_file.*, tables to trees: golly_tree.*; the
// registration: golly.model.cpp).
#include "models/golly.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "cellgraph/error.hpp"
#include "cellgraph/source/grid.hpp"
#include "models/lifelike.hpp"
#include "models/registry.hpp"

namespace cellgraph::models {

const std::vector<ParamInfo>& golly_params() {
  static const std::vector<ParamInfo> params = {
      {"rule", "", "the rule's name, read from DIR/NAME.rule (a pattern's own rule line names it too)"},
      {"file", "", "a .rule file to read instead (its @RULE name must be the rule's, if one is named)"},
      {"dir", "",
       "folders to look for NAME.rule in first (':' between them); then the pattern's folder, data/rules, "
       "$CELLGRAPH_DATA_DIR/rules and cellgraph's own rules"},
  };
  return params;
}

namespace {

// The offsets of a grid's slots, known by their number (as the rulenumber model knows them):
// 2D Moore, hexagonal and von Neumann grids, and 1D grids of range 1.
std::vector<Offset> grid_slots(std::uint32_t slots) {
  switch (slots) {
    case 8:
      return moore_stencil(2, 1);
    case 6:
      return hexagonal_stencil();
    case 4:
      return von_neumann_stencil(2, 1);
    case 2:
      return moore_stencil(1, 1);
    default:
      return {};
  }
}

std::string grids_for(GollyNeighborhood n) {
  switch (n) {
    case GollyNeighborhood::moore:
      return "a 2D grid with --neighborhood moore (the default)";
    case GollyNeighborhood::von_neumann:
      return "a 2D grid with --neighborhood vonneumann or moore";
    case GollyNeighborhood::hexagonal:
      return "a 2D grid with --neighborhood hex or moore";
    case GollyNeighborhood::one_dimensional:
      return "a 1D grid, or a 2D grid (each row on its own, as in Golly)";
  }
  return "";
}

}  // namespace

RuleTree load_golly_rule_tree(const Params& params) {
  const std::string path = golly_rule_path(params);
  const GollyRuleFile file = read_golly_rule_file(path);
  if (params.count("rule") && !params.at("rule").empty() && params.at("rule") != file.name)
    throw Error("model golly: the rule asked for (by --rule or the pattern) is " + quoted_text(params.at("rule")) +
                ", but " + path + " holds rule " + quoted_text(file.name));
  return golly_rule_tree(file);
}

std::vector<std::string> golly_rule_folders(const Params& params) {
  std::vector<std::string> folders;
  auto add = [&](const std::string& folder) {
    if (!folder.empty() && std::find(folders.begin(), folders.end(), folder) == folders.end())
      folders.push_back(folder);
  };
  if (params.count("dir"))
    for (std::size_t start = 0; start <= params.at("dir").size();) {
      const std::size_t colon = std::min(params.at("dir").find(':', start), params.at("dir").size());
      add(params.at("dir").substr(start, colon - start));
      start = colon + 1;
    }
  add("data/rules");
  if (const char* data = std::getenv("CELLGRAPH_DATA_DIR"); data && *data) add(std::string(data) + "/rules");
  add(CELLGRAPH_INSTALLED_DATA_DIR "/rules");
  // An installed tree moved, or installed under another prefix: share/ beside the program's bin/.
  std::error_code no_program;
  const std::filesystem::path program = std::filesystem::read_symlink("/proc/self/exe", no_program);
  if (!no_program) {
    const std::filesystem::path beside = program.parent_path().parent_path() / "share/cellgraph/rules";
    if (std::filesystem::is_directory(beside, no_program)) add(beside.string());  // else not worth listing
  }
  add(CELLGRAPH_SOURCE_DATA_DIR "/rules");
  return folders;
}

namespace {

// A folder as a message lists it: printable, and past 60 characters "..." and its last 57 (a
// folder can come from a file's content, as a pattern's folder does; its end tells the most).
std::string folder_text(const std::string& folder) {
  const std::string shown = printable_text(folder, 4096);
  return shown.size() <= 60 ? shown : "..." + shown.substr(shown.size() - 57);
}

}  // namespace

std::string golly_rule_folders_text(const Params& params) {
  constexpr std::size_t kListedAtMost = 160;  // characters: the message stays short
  const std::vector<std::string> folders = golly_rule_folders(params);
  std::string text;
  for (std::size_t i = 0; i < folders.size(); ++i) {
    const std::string next = (text.empty() ? "" : ", ") + folder_text(folders[i]);
    if (text.size() + next.size() > kListedAtMost)
      return text + " and " + std::to_string(folders.size() - i) + " more folders";
    text += next;
  }
  return text;
}

std::string golly_rule_path(const Params& params) {
  const ParamReader read("golly", params, golly_params());
  if (!read.text("file").empty()) return read.text("file");
  const std::string rule = read.text("rule");
  const std::vector<std::string> folders = golly_rule_folders(params);
  const std::string looked = golly_rule_folders_text(params);
  if (rule.empty())
    throw Error("model golly needs a rule file: --rule NAME (NAME.rule, looked for in " + looked +
                "; --param dir=DIR adds a folder) or --param file=PATH");
  if (rule.find_first_of("/\\") == std::string::npos)
    for (const std::string& folder : folders) {
      const std::string path = (std::filesystem::path(folder) / (rule + ".rule")).string();
      std::error_code ignored;
      if (std::filesystem::is_regular_file(path, ignored)) return path;
    }
  throw Error("model golly: no rule file " + printable_text(rule) + ".rule for rule " + quoted_text(rule) + " in " +
              looked + " (--param dir=DIR adds a folder, --param file=PATH names the file)");
}

bool names_golly_rule_file(const Params& params) {
  if (!params.count("rule")) return false;
  try {
    parse_lifelike_rule(params.at("rule"));
    return false;
  } catch (const Error&) {
  }
  try {
    golly_rule_path(params);  // the parameters are golly's, and the file is there
    return true;
  } catch (const Error&) {
    return false;
  }
}

GollyRule golly_rule_model(const RuleTree& tree, const Layout& layout) {
  const std::string rule = "model golly: rule " + tree.name + " reads the " +
                           golly_neighborhood_name(tree.neighborhood) + " neighborhood, which needs " +
                           grids_for(tree.neighborhood);
  if (!layout.slotted) throw Error(rule + "; Golly's rules tell neighbors apart by position, which graphs do not");
  const auto [low, high] = std::minmax_element(layout.degree.begin(), layout.degree.end());
  const std::uint32_t slots = layout.degree.empty() ? 0 : *high;
  const std::vector<Offset> offsets = grid_slots(slots);
  if (offsets.empty() || *low != *high)
    throw Error(rule + "; this grid's cells have " + std::to_string(slots) + " neighbor slots");

  GollyRule model;
  model.table = {tree.nodes.data(), tree.nodes.size()};
  model.root = tree.root;
  model.inputs = std::uint32_t(tree.inputs.size());
  model.states = tree.num_states;
  std::vector<bool> fed(tree.inputs.size(), false);
  for (std::uint32_t slot = 0; slot < slots; ++slot)
    for (std::size_t k = 0; k < tree.inputs.size(); ++k)
      if (offsets[slot].dx == tree.inputs[k].dx && offsets[slot].dy == tree.inputs[k].dy && offsets[slot].dz == 0) {
        model.input_of_slot[slot] = std::uint8_t(k);
        fed[k] = true;
      }
  if (std::find(fed.begin(), fed.end(), false) != fed.end())
    throw Error(rule + "; this grid's " + std::to_string(slots) + " neighbor slots lack some of its neighbors");
  return model;
}

}  // namespace cellgraph::models
