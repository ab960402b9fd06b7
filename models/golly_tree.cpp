#include "models/golly_tree.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <numeric>
#include <unordered_map>
#include <unordered_set>

#include "cellgraph/error.hpp"

namespace cellgraph::models {
namespace {

using StateSet = std::array<std::uint64_t, kGollyMaxStates / 64>;  // bit s: state s matches

bool contains(const StateSet& set, std::uint32_t s) { return set[s / 64] >> (s % 64) & 1; }

struct VectorHash {
  std::size_t operator()(const std::vector<std::uint32_t>& v) const {
    std::uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a over the words
    for (std::uint32_t x : v) h = (h ^ x) * 0x100000001b3ull;
    return std::size_t(h);
  }
};
using VectorSet = std::unordered_set<std::vector<std::uint32_t>, VectorHash>;
template <class T>
using VectorMap = std::unordered_map<std::vector<std::uint32_t>, T, VectorHash>;

// One transition with its bound variables given values and one symmetry applied: the set of
// states each level accepts (by id), in the tree's level order, the cell last.
struct Row {
  std::vector<std::uint32_t> sets;
  std::uint8_t output;
};

// The table as rows in priority order: transitions in file order; each one's bindings in
// Golly's order (bound variables sorted by name, the first changing fastest); each binding's
// symmetric variants. A row whose sets equal an earlier row's can never match first and is
// dropped.
class RowExpander {
 public:
  RowExpander(const GollyTable& table, const std::string& name) : name_(name), permute_(table.symmetries == "permute") {
    if (!permute_) permutations_ = golly_symmetry_permutations(table.neighborhood, table.symmetries);
    const std::vector<GollyOffset> written = golly_table_neighbors(table.neighborhood);
    const std::vector<GollyOffset> levels = golly_tree_inputs(table.neighborhood);
    for (const GollyOffset& o : written)
      level_of_neighbor_.push_back(
          int(std::find_if(levels.begin(), levels.end(),
                           [&](const GollyOffset& l) { return l.dx == o.dx && l.dy == o.dy; }) -
              levels.begin()));
    for (const GollyTable::Transition& t : table.transitions) expand(t);
  }

  std::vector<Row> rows;
  std::vector<StateSet> sets;  // by id

 private:
  std::uint32_t set_id(const std::vector<std::uint8_t>& states) {
    StateSet set{};
    for (std::uint8_t s : states) set[s / 64] |= std::uint64_t(1) << (s % 64);
    auto [it, added] = set_ids_.emplace(set, std::uint32_t(sets.size()));
    if (added) sets.push_back(set);
    return it->second;
  }

  void expand(const GollyTable::Transition& t) {
    std::map<std::string, int> uses;  // sorted by name, as Golly enumerates bound variables
    for (const GollyTable::Term& term : t.inputs)
      if (!term.variable.empty()) ++uses[term.variable];
    if (!t.output.variable.empty()) ++uses[t.output.variable];
    std::vector<std::string> bound;
    std::vector<const std::vector<std::uint8_t>*> values;
    for (const auto& [name, count] : uses) {
      if (count < 2) continue;
      bound.push_back(name);
      const GollyTable::Term* named = &t.output;
      for (const GollyTable::Term& term : t.inputs)
        if (term.variable == name) {
          named = &term;
          break;
        }
      values.push_back(&named->states);
    }
    planned_ += planned_rows(t, values);
    if (planned_ > kMaxRows)
      throw Error("rule " + name_ + ": its @TABLE stands for more than " + std::to_string(std::uint64_t(kMaxRows)) +
                  " transitions once bound variables and symmetries are expanded (line " + std::to_string(t.line) +
                  "), too many to compile");
    std::vector<std::size_t> pick(bound.size(), 0);
    auto states_of = [&](const GollyTable::Term& term) {
      for (std::size_t b = 0; b < bound.size(); ++b)
        if (term.variable == bound[b]) return std::vector<std::uint8_t>{(*values[b])[pick[b]]};
      return term.states;
    };
    for (;;) {
      std::vector<std::uint32_t> written;
      for (const GollyTable::Term& term : t.inputs) written.push_back(set_id(states_of(term)));
      add_variants(written, states_of(t.output)[0]);
      std::size_t b = 0;  // the next binding: an odometer, bound[0] the fastest wheel
      for (; b < pick.size(); ++b) {
        if (++pick[b] < values[b]->size()) break;
        pick[b] = 0;
      }
      if (b == pick.size()) break;
    }
  }

  // `written`: set ids in Golly's order, the cell first.
  void add_variants(const std::vector<std::uint32_t>& written, std::uint8_t output) {
    std::vector<std::uint32_t> neighbors(written.begin() + 1, written.end());
    if (permute_) {  // every distinct arrangement of the neighbors' terms
      std::sort(neighbors.begin(), neighbors.end());
      do add_row(written[0], neighbors, output);
      while (std::next_permutation(neighbors.begin(), neighbors.end()));
      return;
    }
    for (const std::vector<int>& p : permutations_) {
      for (std::size_t i = 0; i < neighbors.size(); ++i) neighbors[i] = written[1 + p[i]];
      add_row(written[0], neighbors, output);
    }
  }

  void add_row(std::uint32_t cell, const std::vector<std::uint32_t>& neighbors, std::uint8_t output) {
    Row row{std::vector<std::uint32_t>(neighbors.size() + 1), output};
    for (std::size_t i = 0; i < neighbors.size(); ++i) row.sets[level_of_neighbor_[i]] = neighbors[i];
    row.sets.back() = cell;
    if (seen_.insert(row.sets).second) rows.push_back(std::move(row));
  }

  // At most this many rows are expanded (a few seconds, under a gigabyte); the count is
  // estimated before a transition is expanded, so that too large a table fails at once.
  static constexpr double kMaxRows = double(std::uint64_t(1) << 23);

  // Rows a transition expands to, at most: the values of its bound variables times its
  // arrangements (distinct orders of its neighbor entries under permute).
  double planned_rows(const GollyTable::Transition& t,
                      const std::vector<const std::vector<std::uint8_t>*>& values) const {
    double rows = 1;
    for (const auto* v : values) rows *= double(v->size());
    if (!permute_) return rows * double(permutations_.size());
    std::map<std::pair<std::string, std::uint8_t>, int> alike;  // entries written the same way
    for (std::size_t i = 1; i < t.inputs.size(); ++i) ++alike[{t.inputs[i].variable, t.inputs[i].states[0]}];
    double arrangements = 1;  // (n)! / (k1! k2! ...)
    for (std::size_t i = 2; i < t.inputs.size(); ++i) arrangements *= double(i);
    for (const auto& [entry, k] : alike)
      for (int i = 2; i <= k; ++i) arrangements /= i;
    return rows * arrangements;
  }

  std::string name_;
  double planned_ = 0;
  bool permute_;
  std::vector<std::vector<int>> permutations_;
  std::vector<int> level_of_neighbor_;  // Golly's neighbor i -> the tree level that reads it
  std::map<StateSet, std::uint32_t> set_ids_;
  VectorSet seen_;
};

// Builds the tree top down. A subtree depends only on the rows still possible and on what
// they ask of the remaining levels, so it is built once per distinct such list (the "key":
// each row's remaining sets and output, interned as one id; duplicates dropped; rows of equal
// output next to each other sorted, since which of them matches first makes no difference).
// Nodes with equal children are stored once.
class TreeBuilder {
 public:
  // `levels`: the neighbors and the cell.
  TreeBuilder(std::uint32_t num_states, std::uint32_t levels, const RowExpander& table)
      : states_(num_states), levels_(levels), rows_(table.rows), sets_(table.sets), memo_(levels) {
    suffix_.resize(rows_.size());
    for (std::size_t r = 0; r < rows_.size(); ++r) {
      suffix_[r].resize(levels_);
      std::uint32_t id = intern_suffix(kEnd, rows_[r].output);
      for (std::uint32_t level = levels_; level-- > 0;)
        suffix_[r][level] = id = intern_suffix(rows_[r].sets[level], id);
    }
  }

  // The root's offset; the rows are in `nodes`.
  std::uint32_t build() {
    std::vector<std::uint32_t> all(rows_.size());
    std::iota(all.begin(), all.end(), 0u);
    return build_level(0, all);
  }

  std::vector<std::uint32_t> nodes;

 private:
  static constexpr std::uint32_t kEnd = ~0u;

  std::uint32_t intern_suffix(std::uint32_t set, std::uint32_t rest) {
    return suffix_ids_.emplace(std::pair(set, rest), std::uint32_t(suffix_ids_.size())).first->second;
  }

  std::uint32_t build_level(std::uint32_t level, const std::vector<std::uint32_t>& rows) {
    std::vector<std::uint32_t> kept;  // one row per distinct remainder, in priority order
    std::unordered_set<std::uint32_t> seen;
    for (std::uint32_t r : rows)
      if (seen.insert(suffix_[r][level]).second) kept.push_back(r);
    for (std::size_t i = 0, j; i < kept.size(); i = j) {
      for (j = i; j < kept.size() && rows_[kept[j]].output == rows_[kept[i]].output;) ++j;
      std::sort(kept.begin() + i, kept.begin() + j,
                [&](std::uint32_t a, std::uint32_t b) { return suffix_[a][level] < suffix_[b][level]; });
    }
    std::vector<std::uint32_t> key;
    for (std::uint32_t r : kept) key.push_back(suffix_[r][level]);
    if (auto it = memo_[level].find(key); it != memo_[level].end()) return it->second;

    std::vector<std::uint32_t> children(states_ + 1);
    children[states_] = level;  // node identity includes the level
    std::vector<std::uint32_t> matching;
    for (std::uint32_t s = 0; s < states_; ++s) {
      matching.clear();
      for (std::uint32_t r : kept)
        if (contains(sets_[rows_[r].sets[level]], s)) matching.push_back(r);
      if (level + 1 == levels_)  // the cell's own state: the first match's output, else no change
        children[s] = matching.empty() ? s : rows_[matching[0]].output;
      else children[s] = build_level(level + 1, matching);
    }
    const std::uint32_t offset = add_node(children);
    memo_[level].emplace(std::move(key), offset);
    return offset;
  }

  std::uint32_t add_node(const std::vector<std::uint32_t>& children_and_level) {
    auto [it, added] = node_offsets_.emplace(children_and_level, std::uint32_t(nodes.size()));
    if (added) {
      if (nodes.size() + states_ > std::uint64_t(~0u)) throw Error("the rule's tree needs more than 2^32 entries");
      nodes.insert(nodes.end(), children_and_level.begin(), children_and_level.end() - 1);
    }
    return it->second;
  }

  std::uint32_t states_, levels_;
  const std::vector<Row>& rows_;
  const std::vector<StateSet>& sets_;
  std::vector<std::vector<std::uint32_t>> suffix_;  // [row][level]: what the row asks of levels >= level
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> suffix_ids_;
  std::vector<VectorMap<std::uint32_t>> memo_;  // per level: key -> node offset
  VectorMap<std::uint32_t> node_offsets_;
};

}  // namespace

std::vector<GollyOffset> golly_tree_inputs(GollyNeighborhood neighborhood) {
  const GollyOffset nw{-1, -1}, n{0, -1}, ne{1, -1}, w{-1, 0}, e{1, 0}, sw{-1, 1}, s{0, 1}, se{1, 1};
  switch (neighborhood) {
    case GollyNeighborhood::von_neumann:
      return {n, w, e, s};
    case GollyNeighborhood::moore:
      return {nw, ne, sw, se, n, w, e, s};
    case GollyNeighborhood::hexagonal:
      return {nw, se, n, w, e, s};
    case GollyNeighborhood::one_dimensional:
      return {w, e};
  }
  return {};
}

std::vector<std::vector<int>> golly_symmetry_permutations(GollyNeighborhood neighborhood,
                                                          const std::string& symmetries) {
  const int n = int(golly_table_neighbors(neighborhood).size());
  std::vector<int> identity(n);
  std::iota(identity.begin(), identity.end(), 0);
  if (symmetries == "permute") {
    std::vector<std::vector<int>> all;
    do all.push_back(identity);
    while (std::next_permutation(identity.begin(), identity.end()));
    return all;
  }
  if (neighborhood == GollyNeighborhood::one_dimensional)  // W, E: "reflect" swaps them
    return symmetries == "reflect" ? std::vector<std::vector<int>>{{0, 1}, {1, 0}}
                                   : std::vector<std::vector<int>>{{0, 1}};
  // The other neighborhoods' neighbors form a clockwise ring starting at N: rotations shift it,
  // the reflection reverses it about N (the mirror x -> -x).
  int turns = 1;  // rotations in the group
  bool reflect = symmetries == "reflect_horizontal";
  if (symmetries.starts_with("rotate")) {
    turns = symmetries[6] - '0';
    reflect = symmetries.ends_with("reflect");
  }
  std::vector<std::vector<int>> group;
  for (int mirrored = 0; mirrored <= int(reflect); ++mirrored)
    for (int t = 0; t < turns; ++t) {
      std::vector<int> p(n);
      for (int i = 0; i < n; ++i) p[i] = ((mirrored ? n - i : i) + t * (n / turns)) % n;
      group.push_back(p);
    }
  return group;
}

RuleTree tree_from_golly_tree(const GollyTree& tree, const std::string& name) {
  RuleTree result;
  result.name = name;
  result.neighborhood = tree.num_neighbors == 4 ? GollyNeighborhood::von_neumann : GollyNeighborhood::moore;
  result.num_states = tree.num_states;
  result.inputs = golly_tree_inputs(result.neighborhood);
  result.nodes.reserve(tree.values.size());
  for (std::size_t node = 0; node < tree.depth.size(); ++node)
    for (std::uint32_t s = 0; s < tree.num_states; ++s) {
      const std::uint32_t v = tree.values[node * tree.num_states + s];
      result.nodes.push_back(tree.depth[node] == 1 ? v : v * tree.num_states);  // node number -> row offset
    }
  result.root = std::uint32_t(tree.depth.size() - 1) * tree.num_states;
  return result;
}

RuleTree compile_golly_table(const GollyTable& table, const std::string& name) {
  RuleTree result;
  result.name = name;
  result.neighborhood = table.neighborhood;
  result.num_states = table.num_states;
  result.inputs = golly_tree_inputs(table.neighborhood);
  const RowExpander rows(table, name);
  TreeBuilder builder(table.num_states, std::uint32_t(result.inputs.size() + 1), rows);
  result.root = builder.build();
  result.nodes = std::move(builder.nodes);
  return result;
}

RuleTree golly_rule_tree(const GollyRuleFile& file) {
  if (file.tree) return tree_from_golly_tree(*file.tree, file.name);
  if (file.table) return compile_golly_table(*file.table, file.name);
  throw Error("rule " + file.name + " has neither a @TABLE nor a @TREE");
}

}  // namespace cellgraph::models
