#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

#include "cellgraph/error.hpp"
#include "cellgraph/memory_budget.hpp"
#include "cellgraph/source/generators.hpp"
#include "models/rule_use.hpp"
#include "tools/cellgraph/cli.hpp"

namespace cellgraph::cli {
namespace {

// Where vm keeps the origins of the options read from a config file (Boost lets a program
// keep values of its own in a variables_map; no option can have this name). Stored as a
// default, so that code looking for options the user gave passes over it.
constexpr const char* kConfigOrigins = "<config file origins>";
using ConfigOrigins = std::map<std::string, ConfigOrigin>;

std::string trimmed(std::string s) {
  s.erase(0, s.find_first_not_of(" \t\r"));
  s.erase(s.find_last_not_of(" \t\r") + 1);
  return s;
}

// The key an option's line is known by in a config file: its name, or for --param (which
// repeats, one NAME each) "param NAME".
std::string origin_key(const std::string& key, const std::string& value) {
  return key == "param" ? "param " + value.substr(0, value.find('=')) : key;
}

// Whether the option may be given more than once (Boost refuses a second value of a scalar).
bool repeatable(const po::options_description& desc, const std::string& key) {
  try {
    po::variables_map scratch;
    po::store(po::command_line_parser(Args{"--" + key + "=0", "--" + key + "=1"}).options(desc).run(), scratch);
    return true;
  } catch (const po::error&) {
    return false;
  }
}

// The number of one-character insertions, deletions, substitutions and swaps of neighbors that
// turn `a` into `b` (optimal string alignment distance).
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

// The options of `desc` that an unknown name (no dashes) probably meant: those nearest by edit
// distance, where it is at most 2, less than half the name's length, and the two begin with
// the same two characters (a typo seldom starts a word: "stpes" is steps, "speed" is not
// seed); else those the name begins (from 3 characters on: "neighbor"); at most 3, shortest
// first. Empty: none is close.
std::vector<std::string> meant_options(const std::string& name, const po::options_description& desc) {
  std::vector<std::pair<std::size_t, std::string>> near, prefixed;
  for (const auto& option : desc.options()) {
    const std::string& known = option->long_name();
    if (known.empty() || known == name) continue;
    const std::size_t distance = edit_distance(name, known);
    const bool same_start = name.size() >= 2 && known.compare(0, 2, name, 0, 2) == 0;
    if (distance <= 2 && 2 * distance < name.size() && same_start) near.emplace_back(distance, known);
    else if (name.size() >= 3 && known.compare(0, name.size(), name) == 0) prefixed.emplace_back(known.size(), known);
  }
  std::sort(near.begin(), near.end());
  std::sort(prefixed.begin(), prefixed.end());
  std::vector<std::string> names;
  for (const auto& [distance, known] : near)
    if (distance == near.front().first && names.size() < 3) names.push_back(known);
  for (const auto& [length, known] : prefixed)
    if (near.empty() && names.size() < 3) names.push_back(known);
  return names;
}

// "; did you mean --steps?" ("--a or --b", "--a, --b or --c"), each option as `spell` writes
// it; "" when no option is close to `name`.
template <class Spell>
std::string did_you_mean(const std::string& name, const po::options_description& desc, Spell spell) {
  const std::vector<std::string> names = meant_options(name, desc);
  if (names.empty()) return "";
  std::string text = "; did you mean ";
  for (std::size_t i = 0; i < names.size(); ++i)
    text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + spell(names[i]);
  return text + "?";
}

struct ConfigLine {
  std::string key, value;
  std::size_t line;
  bool flag;  // an on/off option: no value
};

// One "key = value" line, checked against `desc` on its own so that errors name the line.
// Returns false for a line with no option (a comment, a section, a flag set to false).
bool read_config_line(const std::string& path, std::size_t number, const std::string& line,
                      const po::options_description& desc, ConfigLine& out) {
  const auto first = line.find_first_not_of(" \t\r");
  if (first == std::string::npos || line[first] == '#' || line[first] == ';' || line[first] == '[') return false;
  const auto eq = line.find('=');
  if (eq == std::string::npos) throw ParseError(path, number, "expected 'key = value'");
  const std::string key = trimmed(line.substr(0, eq)), value = trimmed(line.substr(eq + 1));
  if (key.empty()) throw ParseError(path, number, "expected 'key = value': the key is missing");
  if (key == "config") throw ParseError(path, number, "config files cannot include others");
  const po::option_description* known = desc.find_nothrow(key, false);
  if (!known) {
    const std::string meant =
        did_you_mean(key, desc, [](const std::string& name) { return quoted_text(name) + " (--" + name + ")"; });
    throw ParseError(path, number,
                     "unknown key " + quoted_text(key) +
                         (meant.empty() ? " (keys are the command's options without dashes; see --help)" : meant));
  }
  // On/off flags take true/false (yes/no, 1/0) in a file.
  const bool flag = known->semantic()->max_tokens() == 0;
  if (flag) {
    if (value == "false" || value == "no" || value == "0") return false;
    if (value != "true" && value != "yes" && value != "1")
      throw ParseError(path, number, quoted_text(key) + " is on or off: true or false, not " + quoted_text(value));
  }
  const Args one_option = flag ? Args{"--" + key} : Args{"--" + key + "=" + value};
  try {
    po::variables_map one;
    po::store(po::command_line_parser(one_option).options(desc).run(), one);
  } catch (const po::error&) {
    throw ParseError(path, number, quoted_text(value) + " is not a value " + key + " takes (see --help)");
  }
  out = {key, value, number, flag};
  return true;
}

// INI files mirror the flags: "key = value" per line, '#' or ';' comments, [sections] ignored
// (so one file can hold several commands' settings). A key given twice is an error naming both
// lines (--param twice only for the same NAME). Where each value came from is kept in `vm`
// for config_origin.
void read_config(const std::string& path, const po::options_description& desc, po::variables_map& vm) {
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored)) throw Error("cannot open config file " + path + ": it is a folder");
  std::ifstream in(path);
  if (!in) throw Error("cannot open config file " + path);
  std::vector<po::option> collected;
  std::map<std::string, std::size_t> first_line;  // origin_key -> line
  ConfigOrigins origins;
  std::string text;
  for (std::size_t number = 1; std::getline(in, text); ++number) {
    ConfigLine line;
    if (!read_config_line(path, number, text, desc, line)) continue;
    const std::string origin = origin_key(line.key, line.value);
    if (const auto [at, first] = first_line.emplace(origin, number);
        !first && (line.key == "param" || !repeatable(desc, line.key)))
      throw ParseError(path, number,
                       quoted_text(origin) + " is given twice: on line " + std::to_string(at->second) + " and here");
    // Flags given on the command line are already stored and win over the file.
    const bool from_command_line = line.key != "param" && vm.count(line.key) && !vm[line.key].defaulted();
    if (!from_command_line) origins.emplace(origin, ConfigOrigin{path, number});
    collected.push_back(
        po::option(line.key, line.flag ? std::vector<std::string>{} : std::vector<std::string>{line.value}));
  }
  po::parsed_options parsed(&desc);
  parsed.options = collected;
  po::store(parsed, vm);
  vm.insert({kConfigOrigins, po::variable_value(origins, true)});
}

// An Error from parsing an option's value, as an OptionError about that option.
template <class Parse>
auto parsing_option(const std::string& option, Parse parse) -> decltype(parse()) {
  try {
    return parse();
  } catch (const OptionError&) {
    throw;
  } catch (const Error& e) {
    throw OptionError(option, e.what());
  }
}

}  // namespace

std::optional<ConfigOrigin> config_origin(const po::variables_map& vm, const std::string& option) {
  const auto origins = vm.find(kConfigOrigins);
  if (origins == vm.end()) return std::nullopt;
  const auto& map = origins->second.as<ConfigOrigins>();
  const auto at = map.find(option);
  if (at == map.end()) return std::nullopt;
  return at->second;
}

bool parse_options(const Args& args, const po::options_description& desc, const std::string& usage,
                   po::variables_map& vm, const char* positional) {
  try {
    po::positional_options_description unnamed;
    if (positional) unnamed.add(positional, -1);
    po::store(po::command_line_parser(args).options(desc).positional(unnamed).style(kSpelledOutStyle).run(), vm);
    if (vm.count("help")) {
      std::cout << usage << "\n\n" << desc << "\n";
      return false;
    }
    if (desc.find_nothrow("config", false) && vm.count("config")) read_config(vm["config"].as<std::string>(), desc, vm);
    po::notify(vm);
  } catch (const po::unknown_option& e) {
    // "--step" or "--step=10": the name is what comes between the dashes and any '='.
    const std::string token = e.get_option_name();
    std::string meant;
    if (token.rfind("--", 0) == 0)
      meant =
          did_you_mean(token.substr(2, token.find('=') - 2), desc, [](const std::string& name) { return "--" + name; });
    throw Error(e.what() + meant);
  } catch (const po::error& e) {
    throw Error(e.what());
  }
  return true;
}

VtkEncoding vtk_encoding(const po::variables_map& vm) {
  const std::string compression = vm["vtk-compression"].as<std::string>();
  if (const std::optional<VtkEncoding> encoding = vtk_encoding_for_compression(compression)) return *encoding;
  throw OptionError("vtk-compression", "--vtk-compression must be zlib or none, not " + quoted_text(compression));
}

std::vector<std::string> option_texts(const boost::any& value, const std::string& name) {
  if (const auto* text = boost::any_cast<std::string>(&value)) return {*text};
  if (const auto* texts = boost::any_cast<std::vector<std::string>>(&value)) return *texts;
  if (const auto* number = boost::any_cast<int>(&value)) return {std::to_string(*number)};
  if (const auto* number = boost::any_cast<Unsigned<std::uint64_t>>(&value)) return {std::to_string(number->value)};
  if (const auto* number = boost::any_cast<Unsigned<std::uint32_t>>(&value)) return {std::to_string(number->value)};
  if (const auto* number = boost::any_cast<double>(&value)) {
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, *number).ptr;
    return {std::string(text, end)};
  }
  throw Error("--" + name + ": its value has a type that cannot be written as text");
}

po::options_description source_options() {
  po::options_description d("Source (one of --grid/--pattern, --graph, --mesh, --generate)");
  d.add_options()("grid", po::value<std::string>(), "regular grid: W (1D), WxH (2D) or WxHxD (3D)")(
      "neighborhood", po::value<std::string>()->default_value("moore"),
      "grid stencil: moore[:r], vonneumann[:r] (the ising model's default), hex (2D), cloud (3D: Dobashi et "
      "al.'s, the cloud model's default), custom:dx,dy[,dz];... (slot k of a cell = k-th offset; "
      "moore/vonneumann/cloud list offsets in raster order)")(
      "boundary", po::value<std::string>()->default_value("periodic"),
      "grid boundary: periodic, fixed[:state] (open = fixed:0), reflective (edge cell mirrored); "
      "the cloud model's default: open")(
      "pattern", po::value<std::string>(),
      "initial pattern for a 2D grid: Golly RLE, Life 1.05/1.06, placed as Golly places it "
      "on a bounded grid; its rule is used unless --rule is given. Without --grid the grid is the rule's bounded "
      "grid (:T, :P) or else the pattern's bounding box with a margin of max(16, half its side) cells on each "
      "side, each side rounded up to a multiple of 8, the pattern in the middle (a glider: 40x40)")(
      "graph", po::value<std::string>(),
      "graph file: METIS .graph, Matrix Market .mtx, GraphML .graphml, or an edge list (blank-, comma- or "
      "tab-separated, a header line of column names allowed; numbered or named vertices)")(
      "mesh", po::value<std::string>(), "mesh file: Gmsh .msh (2.2, 4.1; ASCII, binary), METIS .mesh, VTK .vtk/.vtu")(
      "mesh-graph", po::value<std::string>()->default_value("dual"),
      "cells of a mesh run: dual (elements; neighbors share a face) or nodal (nodes; neighbors share an element)")(
      "element-dim", po::value<int>()->default_value(-1),
      "mesh elements of this dimension (1 lines, 2 surfaces, 3 volumes); -1: the highest in the file")(
      "ncommon", po::value<int>()->default_value(0),
      "dual graph: elements sharing at least this many nodes are neighbors; 0: a whole face")(
      "generate", po::value<std::string>(),
      "synthetic graph: rgg:N[:mean_degree] (random geometric, mesh-like), "
      "rmat:SCALE[:edge_factor] (Graph500 Kronecker, hubs) or er:N[:mean_degree] "
      "(Erdos-Renyi); seeded by --graph-seed")("graph-seed", unsigned_value<std::uint64_t>(1), "seed of --generate")(
      "format", po::value<std::string>()->default_value("auto"), "graph file format: auto, metis, mtx, edges, graphml")(
      "vertex-ids", po::value<std::string>()->default_value("compact"),
      "edge-list vertices: compact (the ids and names the file holds, numeric ids in increasing order, names in "
      "order of first appearance; outputs name them so) or index (numeric ids are vertex numbers, 0- or 1-based: "
      "ids the file skips are isolated vertices)")(
      "base", po::value<int>()->default_value(-1),
      "edge-list numbering under --vertex-ids index (given alone, it implies it): 0, 1, or -1 to detect (0 if "
      "any id is 0)")(
      "max-memory", po::value<std::string>(),
      "refuse a source whose run would need more memory than this (512M, 8G, 1.5T; powers of 1024), before "
      "allocating it; default: the memory this machine has available");
  return d;
}

namespace {

// How `cellgraph run` reads the rule (run.cpp's model_name): the default model takes a Life-like
// rule or a Golly rule file's name, lifelike and golly named with --model their own kind, and
// other models give it other meanings. Commands without --model read none.
models::RuleUse rule_use(const po::variables_map& vm) {
  using models::RuleUse;
  if (!vm.count("model")) return RuleUse::ignored;
  const std::string model = vm["model"].as<std::string>();
  if (model == "lifelike") return vm["model"].defaulted() ? RuleUse::lifelike_or_golly : RuleUse::lifelike;
  return model == "golly" ? RuleUse::golly : RuleUse::ignored;
}

// Golly's --param dir, then the pattern's folder: where a run looks for NAME.rule.
std::string golly_rule_dirs(const po::variables_map& vm, const models::Params& params) {
  const std::string dirs = params.count("dir") ? params.at("dir") : "";
  return vm.count("pattern") ? rule_dirs_beside_pattern(dirs, vm["pattern"].as<std::string>()) : dirs;
}

// The rule --rule or --param rule gives, checked as the run will read it, so that one from a
// config file is reported at its line there.
void check_rule_option(const po::variables_map& vm, const models::Params& params) {
  if (!params.count("rule") || params.count("file")) return;
  parsing_option(vm.count("rule") ? "rule" : "param rule",
                 [&] { models::check_rule(params.at("rule"), rule_use(vm), golly_rule_dirs(vm, params)); });
}

// Where no --rule and no --param rule overrides it, the pattern's own rule is the run's: the
// source checks it at its line in the pattern file.
void set_pattern_rule_use(const po::variables_map& vm, const models::ModelInfo* model, SourceSpec& s) {
  if (s.pattern_file.empty() || !model) return;
  const models::Params params = model_params(vm);
  if (params.count("rule") || params.count("file")) return;
  const models::RuleUse use = rule_use(vm);
  if (use != models::RuleUse::ignored)
    s.check_pattern_rule = [use](const std::string& rule, const std::string& dirs) {
      models::check_rule(rule, use, dirs);
    };
  if (params.count("dir")) s.golly_rule_dirs = params.at("dir");
}

// --vertex-ids; a --base of 0 or 1 numbers vertices by their ids, so alone it means index.
VertexIds vertex_ids(const po::variables_map& vm) {
  const std::string ids = vm["vertex-ids"].as<std::string>();
  const bool base_given = vm["base"].as<int>() != -1;
  if (ids == "index" || (ids == "compact" && base_given && vm["vertex-ids"].defaulted())) return VertexIds::index;
  if (ids != "compact")
    throw OptionError("vertex-ids", "--vertex-ids must be compact or index, not " + quoted_text(ids));
  if (base_given) throw OptionError("base", "--base numbers vertices by their ids: it needs --vertex-ids index");
  return VertexIds::compact;
}

// Values load_source would refuse later, checked now so that a value from a config file is
// reported at its line there.
void check_source_values(const SourceSpec& s) {
  if (!s.grid.empty() || !s.pattern_file.empty()) {
    GridSpec grid;
    if (!s.grid.empty()) grid.size = parsing_option("grid", [&] { return parse_grid_size(s.grid, &grid.dims); });
    grid.boundary = parsing_option("boundary", [&] { return parse_boundary(s.boundary); });
    grid.stencil = parsing_option("neighborhood", [&] { return parse_stencil(s.neighborhood, grid.dims); });
    if (!s.grid.empty()) {
      parsing_option("grid", [&] {
        check_grid(grid);
        check_grid_memory(grid);
      });
    }
  }
  if (!s.generator.empty()) parsing_option("generate", [&] { return generated_size(s.generator); });
}

}  // namespace

SourceSpec source_spec(const po::variables_map& vm, const models::ModelInfo* model) {
  return naming_config_origin(vm, [&] {
    SourceSpec s;
    if (vm.count("max-memory"))
      set_memory_limit(
          parsing_option("max-memory", [&] { return parse_byte_size(vm["max-memory"].as<std::string>()); }));
    else set_memory_limit(0);
    if (vm.count("grid")) s.grid = vm["grid"].as<std::string>();
    s.neighborhood = vm["neighborhood"].as<std::string>();
    s.boundary = vm["boundary"].as<std::string>();
    if (model && vm["neighborhood"].defaulted() && !model->grid_neighborhood.empty())
      s.neighborhood = model->grid_neighborhood;
    if (model && vm["boundary"].defaulted() && !model->grid_boundary.empty()) s.boundary = model->grid_boundary;
    if (vm.count("pattern")) s.pattern_file = vm["pattern"].as<std::string>();
    if (vm.count("graph")) s.graph_file = vm["graph"].as<std::string>();
    if (vm.count("generate")) s.generator = vm["generate"].as<std::string>();
    if (vm.count("mesh")) s.mesh_file = vm["mesh"].as<std::string>();
    const std::string mesh_graph = vm["mesh-graph"].as<std::string>();
    if (mesh_graph == "dual") s.mesh_options.kind = MeshGraphKind::dual;
    else if (mesh_graph == "nodal") s.mesh_options.kind = MeshGraphKind::nodal;
    else throw OptionError("mesh-graph", "--mesh-graph must be dual or nodal, not " + quoted_text(mesh_graph));
    s.mesh_options.element_dim = vm["element-dim"].as<int>();
    s.mesh_options.ncommon = vm["ncommon"].as<int>();
    if (s.mesh_options.element_dim < -1 || s.mesh_options.element_dim > 3)
      throw OptionError("element-dim", "--element-dim must be -1, 0, 1, 2 or 3");
    if (s.mesh_options.ncommon < 0 || s.mesh_options.ncommon > 64)
      throw OptionError("ncommon", "--ncommon must be from 0 to 64");
    s.generator_seed = get_unsigned<std::uint64_t>(vm, "graph-seed");
    const std::string format = vm["format"].as<std::string>();
    if (format == "auto") s.graph_options.format = GraphFormat::automatic;
    else if (format == "metis") s.graph_options.format = GraphFormat::metis;
    else if (format == "mtx") s.graph_options.format = GraphFormat::matrix_market;
    else if (format == "edges") s.graph_options.format = GraphFormat::edge_list;
    else if (format == "graphml") s.graph_options.format = GraphFormat::graphml;
    else throw OptionError("format", "--format must be auto, metis, mtx, edges or graphml, not " + quoted_text(format));
    s.graph_options.vertex_ids = vertex_ids(vm);
    s.graph_options.edge_list_base = vm["base"].as<int>();
    if (s.graph_options.edge_list_base < -1 || s.graph_options.edge_list_base > 1)
      throw OptionError("base", "--base must be 0, 1 or -1");
    check_source_values(s);
    set_pattern_rule_use(vm, model, s);
    return s;
  });
}

po::options_description layout_options() {
  po::options_description d("Compiled layout");
  d.add_options()("order", po::value<std::string>()->default_value("input"),
                  "vertex order within the degree-sort windows: input (the file's ids), hilbert (along a "
                  "Hilbert curve through the coordinates of a mesh or rgg) or rcm (reverse Cuthill-McKee)")(
      "sort-window", unsigned_value<std::uint32_t>(CompileOptions{}.sort_window),
      "vertices are sorted by degree within windows of this many (locality vs padding)")(
      "degree-quantum", unsigned_value<std::uint32_t>(1),
      "sort by degree rounded up to a multiple of this (coarser: better locality, more padding)")(
      "hub-degree", unsigned_value<std::uint32_t>(0),
      "vertices of at least this degree are hubs walked by a whole warp; 0: max(256, 16 x mean), on graphs under "
      "2^20 vertices 1 + max(24, 2 x mean rounded down to a multiple of 8)")(
      "giant-degree", unsigned_value<std::uint32_t>(0),
      "hubs of at least this degree are walked by a whole block; 0: max(1024, 32 x mean)")(
      "index-encoding", po::value<std::string>()->default_value("auto"),
      "how slices of 32 store their neighbor lists: auto (no indices where every lane reads itself plus the same "
      "offsets, as inside a grid; 4-byte ids elsewhere), delta (also 2-byte deltas where the neighbors lie within "
      "32,767 ids: fewer bytes, not yet faster on a GPU) or explicit (4-byte ids everywhere); the results are the "
      "same");
  return d;
}

CompileOptions compile_options(const po::variables_map& vm) {
  return naming_config_origin(vm, [&] {
    CompileOptions o;
    const std::string order = vm["order"].as<std::string>();
    if (order == "hilbert") o.order = VertexOrder::hilbert;
    else if (order == "rcm") o.order = VertexOrder::rcm;
    else if (order != "input")
      throw OptionError("order", "--order must be input, hilbert or rcm, not " + quoted_text(order));
    o.sort_window = get_unsigned<std::uint32_t>(vm, "sort-window");
    o.hub_degree = get_unsigned<std::uint32_t>(vm, "hub-degree");
    o.degree_quantum = get_unsigned<std::uint32_t>(vm, "degree-quantum");
    if (o.degree_quantum == 0) throw OptionError("degree-quantum", "--degree-quantum must be at least 1");
    o.giant_degree = get_unsigned<std::uint32_t>(vm, "giant-degree");
    if (o.sort_window == 0) throw OptionError("sort-window", "--sort-window must be at least 1");
    const std::string encoding = vm["index-encoding"].as<std::string>();
    if (encoding == "explicit") o.index_encoding = IndexEncoding::explicit_ids;
    else if (encoding == "delta") o.index_encoding = IndexEncoding::deltas;
    else if (encoding != "auto")
      throw OptionError("index-encoding",
                        "--index-encoding must be auto, delta or explicit, not " + quoted_text(encoding));
    return o;
  });
}

po::options_description model_options() {
  po::options_description d("Model");
  d.add_options()("model", po::value<std::string>()->default_value("lifelike"),
                  "model name (see `cellgraph models`); left out, golly when the rule names a Golly rule file")(
      "rule", po::value<std::string>(),
      "the model's rule (lifelike: B3/S23, /2/3, highlife, ...; golly: a .rule file's name, WireWorld)")(
      "param", po::value<std::vector<std::string>>()->composing(),
      "model parameter NAME=VALUE (repeatable; a name's first value counts, the command line's before a config "
      "file's)")(
      "update", po::value<std::string>(),
      "how a step updates the cells: sync (all at once), colored (color classes in turn, in place: "
      "asynchronous), or alpha:A (each cell with probability A); default: the model's (sync; ising: colored)");
  return d;
}

models::Params model_params(const po::variables_map& vm) {
  models::Params p;
  // --param composes the command line's values with a config file's, the command line's first:
  // the first value of a name wins, so that flags override the file as every other option does.
  return naming_config_origin(vm, [&] {
    if (vm.count("param"))
      for (const std::string& kv : vm["param"].as<std::vector<std::string>>()) {
        auto eq = kv.find('=');
        if (eq == std::string::npos || eq == 0)
          throw OptionError("param " + kv.substr(0, eq), "--param wants NAME=VALUE, not " + quoted_text(kv));
        p.emplace(kv.substr(0, eq), kv.substr(eq + 1));
      }
    if (vm.count("rule")) p["rule"] = vm["rule"].as<std::string>();
    check_rule_option(vm, p);
    return p;
  });
}

UpdateRule update_rule(const po::variables_map& vm, const models::ModelInfo& model) {
  if (!vm.count("update")) return model.default_update;
  return naming_config_origin(
      vm, [&] { return parsing_option("update", [&] { return parse_update_rule(vm["update"].as<std::string>()); }); });
}

po::options_description backend_options() {
  po::options_description d("Backend");
  d.add_options()("backend", po::value<std::string>()->default_value("auto"),
                  "cpu (vectorized), reference (the plain CPU walk every backend is tested against), cuda, "
                  "or auto (cuda when there is a GPU, else cpu)")("threads", po::value<int>()->default_value(0),
                                                                  "CPU threads (0: all)")(
      "seed", unsigned_value<std::uint64_t>(1), "random seed (initial fill, random models)")(
      "signal-bits", po::value<std::string>()->default_value("auto"),
      "cuda: gather one-bit neighbor signals (Life, SIR, ...) from packed words: auto, on, off")(
      "l2-residency", po::value<std::string>()->default_value("auto"),
      "cuda: keep the state neighbors are read from in the L2 cache's persisting part where it fits: auto, off")(
      "fused-sweep", po::value<std::string>()->default_value("auto"),
      "cuda: run a sweep's hubs and ordinary vertices as one kernel launch: auto (graphs, or a rank's part, with "
      "hubs under 2^20 vertices), on, off (movable runs have kernels of their own)")(
      "halo", po::value<std::string>()->default_value("auto"),
      "cuda under mpirun: trade the halo device to device (each GPU writes into its peers' memory, ranks on one "
      "host) or through host memory and MPI: auto (device where every GPU maps the others'), device, host");
  return d;
}

SimulationOptions simulation_options(const po::variables_map& vm) {
  return naming_config_origin(vm, [&] {
    // "--NAME must be A, B or C, not 'VALUE'" about option NAME.
    const auto not_one_of = [](const std::string& name, const std::string& choices, const std::string& value) {
      return OptionError(name, "--" + name + " must be " + choices + ", not " + quoted_text(value));
    };
    SimulationOptions o;
    const std::string backend = vm["backend"].as<std::string>();
    if (backend == "auto") o.backend = cuda_device_available() ? BackendKind::cuda : BackendKind::cpu;
    else if (backend == "cpu") o.backend = BackendKind::cpu;
    else if (backend == "reference") o.backend = BackendKind::reference;
    else if (backend == "cuda") o.backend = BackendKind::cuda;
    else throw not_one_of("backend", "cpu, reference, cuda or auto", backend);
    o.threads = vm["threads"].as<int>();
    if (o.threads < 0) throw OptionError("threads", "--threads must be 0 or more");
    o.seed = get_unsigned<std::uint64_t>(vm, "seed");
    const std::string packing = vm["signal-bits"].as<std::string>();
    if (packing == "auto") o.signal_packing = SignalPacking::automatic;
    else if (packing == "on") o.signal_packing = SignalPacking::always;
    else if (packing == "off") o.signal_packing = SignalPacking::never;
    else throw not_one_of("signal-bits", "auto, on or off", packing);
    const std::string residency = vm["l2-residency"].as<std::string>();
    if (residency != "auto" && residency != "off") throw not_one_of("l2-residency", "auto or off", residency);
    o.l2_residency = residency == "auto";
    const std::string fusion = vm["fused-sweep"].as<std::string>();
    if (fusion == "auto") o.sweep_fusion = SweepFusion::automatic;
    else if (fusion == "on") o.sweep_fusion = SweepFusion::always;
    else if (fusion == "off") o.sweep_fusion = SweepFusion::never;
    else throw not_one_of("fused-sweep", "auto, on or off", fusion);
    const std::string halo = vm["halo"].as<std::string>();
    if (halo == "auto") o.halo_path = HaloPath::automatic;
    else if (halo == "host") o.halo_path = HaloPath::host;
    else if (halo == "device") o.halo_path = HaloPath::device;
    else throw not_one_of("halo", "auto, device or host", halo);
    return o;
  });
}

}  // namespace cellgraph::cli
