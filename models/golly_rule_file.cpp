#include "models/golly_rule_file.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <string_view>

#include "cellgraph/error.hpp"
#include "src/source/line_reader.hpp"
#include "src/source/pattern_text.hpp"

namespace cellgraph::models {
namespace {

using pattern_text::trim;

struct NumberedLine {
  std::string text;
  std::size_t number;
};

bool starts_with_keyword(std::string_view line, std::string_view keyword) {  // case-insensitive, as Golly
  if (line.size() < keyword.size()) return false;
  for (std::size_t i = 0; i < keyword.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(line[i])) != std::tolower(static_cast<unsigned char>(keyword[i])))
      return false;
  return true;
}

std::vector<std::string_view> split_any(std::string_view text, std::string_view separators) {
  std::vector<std::string_view> tokens;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t start = text.find_first_not_of(separators, i);
    if (start == std::string_view::npos) break;
    const std::size_t end = std::min(text.find_first_of(separators, start), text.size());
    tokens.push_back(text.substr(start, end - start));
    i = end;
  }
  return tokens;
}

bool parse_whole(std::string_view text, std::uint64_t& value) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return !text.empty() && ec == std::errc() && end == text.data() + text.size();
}

std::string shown(std::string_view text) { return quoted_text(text); }

// The lines of one section: from just after its @ line to the next line starting with '@'.
class Section {
 public:
  // `header`: the index of the section's @ line.
  Section(const std::vector<NumberedLine>& lines, std::size_t header, std::string file)
      : lines_(lines), at_(header + 1), header_line_(lines[header].number), file_(std::move(file)) {}

  bool next(std::string_view& line) {
    if (at_ >= lines_.size() || (!lines_[at_].text.empty() && lines_[at_].text[0] == '@')) return false;
    line = lines_[at_].text;
    number_ = lines_[at_++].number;
    return true;
  }
  std::size_t number() const { return number_; }
  std::size_t header_line() const { return header_line_; }
  [[noreturn]] void fail(const std::string& what) const { throw ParseError(file_, number_, what); }
  [[noreturn]] void fail_at(std::size_t line, const std::string& what) const { throw ParseError(file_, line, what); }

 private:
  const std::vector<NumberedLine>& lines_;
  std::size_t at_;
  std::size_t header_line_;
  std::string file_;
  std::size_t number_ = 0;
};

// --- @TABLE ----------------------------------------------------------------------------------

const std::map<std::string, GollyNeighborhood> kNeighborhoods = {
    {"vonNeumann", GollyNeighborhood::von_neumann},
    {"Moore", GollyNeighborhood::moore},
    {"hexagonal", GollyNeighborhood::hexagonal},
    {"oneDimensional", GollyNeighborhood::one_dimensional},
};

// The symmetries Golly accepts for each neighborhood (its RuleTable algorithm).
std::vector<std::string> symmetries_of(GollyNeighborhood n) {
  switch (n) {
    case GollyNeighborhood::von_neumann:
      return {"none", "rotate4", "rotate4reflect", "reflect_horizontal", "permute"};
    case GollyNeighborhood::moore:
      return {"none", "rotate4", "rotate8", "rotate4reflect", "rotate8reflect", "reflect_horizontal", "permute"};
    case GollyNeighborhood::hexagonal:
      return {"none", "rotate2", "rotate3", "rotate6", "rotate6reflect", "permute"};
    case GollyNeighborhood::one_dimensional:
      return {"none", "reflect", "permute"};
  }
  return {};
}

std::string joined(const std::vector<std::string>& words) {
  std::string text;
  for (const std::string& w : words) text += (text.empty() ? "" : ", ") + w;
  return text;
}

class TableReader {
 public:
  explicit TableReader(Section& section) : s_(section) {}

  GollyTable read() {
    std::string_view raw;
    while (s_.next(raw)) {
      const std::string_view line = trim(raw.substr(0, raw.find('#')));
      if (line.empty()) continue;
      if (starts_with_keyword(line, "n_states:")) read_num_states(trim(line.substr(9)));
      else if (starts_with_keyword(line, "neighborhood:")) read_neighborhood(trim(line.substr(13)));
      else if (starts_with_keyword(line, "symmetries:")) read_symmetries(trim(line.substr(11)));
      else if (starts_with_keyword(line, "var ")) {
        require_descriptors("a variable");
        read_variable(trim(line.substr(4)));
      } else {
        require_descriptors("a transition");
        read_transition(line);
      }
    }
    if (!have_states_ || !have_neighborhood_ || !have_symmetries_)
      s_.fail_at(s_.header_line(), "the @TABLE section lacks " + missing_descriptors());
    return table_;
  }

 private:
  // Each descriptor once: variables and transitions read after it are checked against it.
  void require_first(bool given, const char* descriptor) {
    if (given) s_.fail(std::string(descriptor) + " is given twice; a @TABLE section has one");
  }

  void read_num_states(std::string_view value) {
    require_first(have_states_, "n_states");
    std::uint64_t n = 0;
    if (!parse_whole(value, n) || n < 2 || n > kGollyMaxStates)
      s_.fail("n_states must be a whole number from 2 to 256, not " + shown(value));
    table_.num_states = std::uint32_t(n);
    have_states_ = true;
  }

  void read_neighborhood(std::string_view value) {
    require_first(have_neighborhood_, "neighborhood");
    const auto it = kNeighborhoods.find(std::string(value));
    if (it == kNeighborhoods.end())
      s_.fail("unknown neighborhood " + shown(value) + " (vonNeumann, Moore, hexagonal or oneDimensional)");
    table_.neighborhood = it->second;
    inputs_ = 1 + std::uint32_t(golly_table_neighbors(it->second).size());
    have_neighborhood_ = true;
  }

  void read_symmetries(std::string_view value) {
    require_first(have_symmetries_, "symmetries");
    if (!have_neighborhood_) s_.fail("symmetries must come after neighborhood");
    const std::vector<std::string> known = symmetries_of(table_.neighborhood);
    if (std::find(known.begin(), known.end(), value) == known.end())
      s_.fail("symmetries " + shown(value) + " do not apply to the " + golly_neighborhood_name(table_.neighborhood) +
              " neighborhood (" + joined(known) + ")");
    table_.symmetries = std::string(value);
    have_symmetries_ = true;
  }

  std::string missing_descriptors() const {
    std::vector<std::string> missing;
    if (!have_states_) missing.push_back("n_states");
    if (!have_neighborhood_) missing.push_back("neighborhood");
    if (!have_symmetries_) missing.push_back("symmetries");
    return joined(missing);
  }

  void require_descriptors(const std::string& what) {
    if (!have_states_ || !have_neighborhood_ || !have_symmetries_)
      s_.fail(missing_descriptors() + " must come before " + what);
  }

  std::uint8_t state(std::string_view token) const {
    std::uint64_t s = 0;
    if (!parse_whole(token, s)) s_.fail(shown(token) + " is neither a state nor a variable defined above");
    if (s >= table_.num_states)
      s_.fail("state " + std::string(token) + " is out of range (n_states is " + std::to_string(table_.num_states) +
              ")");
    return std::uint8_t(s);
  }

  // "var a={0,1,2}" (after "var "): states and variables defined before.
  void read_variable(std::string_view text) {
    const std::size_t equals = text.find('=');
    const std::string_view name = trim(text.substr(0, equals));
    const std::string_view list = equals == std::string_view::npos ? "" : trim(text.substr(equals + 1));
    if (equals == std::string_view::npos || list.size() < 2 || list.front() != '{' || list.back() != '}')
      s_.fail("a variable reads 'var NAME={STATE,STATE,...}'");
    if (name.empty() || name.find_first_of(" \t,{}") != std::string_view::npos)
      s_.fail("bad variable name " + shown(name));
    if (std::isdigit(static_cast<unsigned char>(name[0])))
      s_.fail("variable name " + shown(name) + " starts with a digit, like a state");
    std::vector<std::uint8_t> states;
    for (std::string_view item : split_any(list.substr(1, list.size() - 2), ", \t")) {
      if (auto it = variables_.find(std::string(item)); it != variables_.end())
        states.insert(states.end(), it->second.begin(), it->second.end());
      else states.push_back(state(item));
    }
    if (states.empty()) s_.fail("variable " + shown(name) + " has no states");
    variables_[std::string(name)] = std::move(states);  // a later definition replaces an earlier one, as in Golly
  }

  GollyTable::Term term(std::string_view token) const {
    if (auto it = variables_.find(std::string(token)); it != variables_.end()) return {it->second, std::string(token)};
    return {{state(token)}, ""};
  }

  // "C,N,E,S,W,C'" (any neighborhood's order), or, with at most 10 states and no variables
  // defined, the same digits without commas ("012345").
  void read_transition(std::string_view line) {
    std::vector<std::string_view> tokens;
    const bool compact = table_.num_states <= 10 && variables_.empty() && line.find(',') == std::string_view::npos;
    if (compact) {
      for (std::size_t i = 0; i < line.size(); ++i) tokens.push_back(line.substr(i, 1));
    } else {
      tokens = split_any(line, ", \t");
    }
    if (tokens.size() != inputs_ + 1)
      s_.fail("a transition of the " + golly_neighborhood_name(table_.neighborhood) + " neighborhood has " +
              std::to_string(inputs_ + 1) + " entries (" + std::to_string(inputs_) +
              " inputs and the new state), not " + std::to_string(tokens.size()) +
              (compact ? " (digits without commas)" : ""));
    GollyTable::Transition t;
    t.line = s_.number();
    for (std::size_t i = 0; i < inputs_; ++i) t.inputs.push_back(term(tokens[i]));
    t.output = term(tokens[inputs_]);
    // A variable named twice (the output included) is bound: it takes one value throughout.
    if (!t.output.variable.empty() && t.output.states.size() > 1) {
      const bool bound = std::any_of(t.inputs.begin(), t.inputs.end(),
                                     [&](const GollyTable::Term& in) { return in.variable == t.output.variable; });
      if (!bound)
        s_.fail("the new state " + shown(t.output.variable) +
                " must be a state, a one-state variable or a variable that also appears among the inputs");
    }
    table_.transitions.push_back(std::move(t));
  }

  Section& s_;
  GollyTable table_;
  std::map<std::string, std::vector<std::uint8_t>> variables_;
  std::uint32_t inputs_ = 0;  // the cell and its neighbors
  bool have_states_ = false, have_neighborhood_ = false, have_symmetries_ = false;
};

// --- @TREE -----------------------------------------------------------------------------------

class TreeReader {
 public:
  explicit TreeReader(Section& section) : s_(section) {}

  GollyTree read() {
    std::string_view raw;
    while (s_.next(raw)) {
      const std::string_view line = trim(raw);
      if (line.empty() || line[0] == '#') continue;
      if (const std::size_t equals = line.find('='); equals != std::string_view::npos)
        read_parameter(trim(line.substr(0, equals)), trim(line.substr(equals + 1)));
      else read_node(line);
    }
    if (tree_.depth.empty()) s_.fail_at(s_.header_line(), "the @TREE section has no nodes");
    if (tree_.depth.size() != num_nodes_)
      s_.fail_at(s_.header_line(), "the @TREE section declares num_nodes=" + std::to_string(num_nodes_) + " but has " +
                                       std::to_string(tree_.depth.size()) + " node lines");
    if (tree_.depth.back() != tree_.num_neighbors + 1)
      s_.fail_at(tree_.lines.back(), "the last node is the root, of depth " + std::to_string(tree_.num_neighbors + 1) +
                                         ", not " + std::to_string(tree_.depth.back()));
    return tree_;
  }

 private:
  void read_parameter(std::string_view key, std::string_view value) {
    if (!tree_.depth.empty()) s_.fail(shown(key) + " must come before the first node");
    std::uint64_t n = 0;
    if (!parse_whole(value, n)) s_.fail(printable_text(key) + " must be a whole number, not " + shown(value));
    if (key == "num_states") {
      if (n < 2 || n > kGollyMaxStates) s_.fail("num_states must be from 2 to 256, not " + std::string(value));
      tree_.num_states = std::uint32_t(n);
    } else if (key == "num_neighbors") {
      if (n != 4 && n != 8) s_.fail("num_neighbors must be 4 or 8, not " + std::string(value));
      tree_.num_neighbors = std::uint32_t(n);
    } else if (key == "num_nodes") {
      if (n < 1 || n > (std::uint64_t(1) << 32) / kGollyMaxStates)
        s_.fail("num_nodes must be from 1 to 16777216, not " + std::string(value));
      num_nodes_ = n;
    } else {
      s_.fail("unknown parameter " + shown(key) + " (num_states, num_neighbors, num_nodes)");
    }
  }

  void read_node(std::string_view line) {
    if (!tree_.num_states || !tree_.num_neighbors || !num_nodes_)
      s_.fail("num_states, num_neighbors and num_nodes must come before the first node");
    if (tree_.depth.size() == num_nodes_) s_.fail("more nodes than num_nodes=" + std::to_string(num_nodes_));
    const std::vector<std::string_view> tokens = split_any(line, " \t");
    if (tokens.size() != tree_.num_states + 1)
      s_.fail("a node line has its depth and num_states=" + std::to_string(tree_.num_states) + " values, not " +
              std::to_string(tokens.size()) + " numbers");
    std::uint64_t depth = 0;
    if (!parse_whole(tokens[0], depth) || depth < 1 || depth > tree_.num_neighbors + 1)
      s_.fail("node depth " + shown(tokens[0]) + " is not from 1 to " + std::to_string(tree_.num_neighbors + 1));
    const std::uint32_t node_count = std::uint32_t(tree_.depth.size());
    for (std::size_t i = 1; i < tokens.size(); ++i) {
      std::uint64_t v = 0;
      if (!parse_whole(tokens[i], v)) s_.fail("node value " + shown(tokens[i]) + " is not a whole number");
      if (depth == 1 && v >= tree_.num_states)
        s_.fail("state " + std::string(tokens[i]) + " is out of range (num_states is " +
                std::to_string(tree_.num_states) + ")");
      if (depth > 1 && v >= node_count)
        s_.fail("node " + std::string(tokens[i]) + " is not defined above (nodes are numbered from 0 in file order)");
      if (depth > 1 && tree_.depth[v] != depth - 1)
        s_.fail("node " + std::string(tokens[i]) + " has depth " + std::to_string(tree_.depth[v]) +
                "; the children of a node of depth " + std::to_string(depth) + " have depth " +
                std::to_string(depth - 1));
      tree_.values.push_back(std::uint32_t(v));
    }
    tree_.depth.push_back(std::uint32_t(depth));
    tree_.lines.push_back(s_.number());
  }

  Section& s_;
  GollyTree tree_;
  std::uint64_t num_nodes_ = 0;
};

}  // namespace

std::vector<GollyOffset> golly_table_neighbors(GollyNeighborhood neighborhood) {
  switch (neighborhood) {
    case GollyNeighborhood::von_neumann:
      return {{0, -1}, {1, 0}, {0, 1}, {-1, 0}};
    case GollyNeighborhood::moore:
      return {{0, -1}, {1, -1}, {1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}};
    case GollyNeighborhood::hexagonal:
      return {{0, -1}, {1, 0}, {1, 1}, {0, 1}, {-1, 0}, {-1, -1}};
    case GollyNeighborhood::one_dimensional:
      return {{-1, 0}, {1, 0}};
  }
  return {};
}

std::string golly_neighborhood_name(GollyNeighborhood neighborhood) {
  for (const auto& [name, n] : kNeighborhoods)
    if (n == neighborhood) return name;
  return "?";
}

GollyRuleFile read_golly_rule(std::istream& in, const std::string& name) {
  std::vector<NumberedLine> lines;
  pattern_text::LineReader reader(in);
  for (std::string line; reader.next(line);) lines.push_back({line, reader.number()});
  if (in.bad()) throw ParseError(name, lines.size() + 1, "read error");

  GollyRuleFile file;
  if (lines.empty() || !lines[0].text.starts_with("@RULE"))
    throw ParseError(name, 1, "a rule file starts with '@RULE NAME'");
  file.name = std::string(trim(std::string_view(lines[0].text).substr(5)));
  if (file.name.empty() || file.name.find_first_of(" \t:") != std::string::npos)
    throw ParseError(name, 1, "the rule's name after @RULE must be one word without colons, not " + shown(file.name));

  // Sections start with '@' at the start of a line. Golly uses the first @TABLE or @TREE and
  // ignores any others.
  for (std::size_t i = 1; i < lines.size(); ++i) {
    if (!lines[i].text.starts_with('@')) continue;
    const std::string_view keyword = split_any(lines[i].text, " \t")[0];
    if (keyword != "@TABLE" && keyword != "@TREE") continue;
    Section section(lines, i, name);
    if (keyword == "@TABLE") file.table = TableReader(section).read();
    else file.tree = TreeReader(section).read();
    return file;
  }
  throw ParseError(name, 0, "no @TABLE or @TREE section: the file has no rule to run");
}

GollyRuleFile read_golly_rule_file(const std::string& path) {
  std::ifstream in = detail::open_input(path);
  return detail::naming_file_when_out_of_memory(
      path, [] { return std::size_t{0}; }, [&] { return read_golly_rule(in, path); });
}

}  // namespace cellgraph::models
