// Models written by users: one file, models/NAME.model.cpp, registers itself
// (models/registry.hpp, models/model_api.hpp). The tutorial's model, greenberghastings, against results derived by
// hand, through the library and through the CLI; the tutorial's code and outputs against the
// repository's file and what cellgraph prints.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <queue>
#include <sstream>

#include "cellgraph/error.hpp"
#include "cellgraph/source/generators.hpp"
#include "cellgraph/source/graph_file.hpp"
#include "cli_run.hpp"
#include "data_path.hpp"
#include "model_runs.hpp"
#include "scratch.hpp"

using namespace cellgraph;
using namespace cellgraph::test;

namespace {

constexpr std::uint32_t kResting = 0, kExcited = 1, kRefractory = 2;
const char* const kModel = "greenberghastings";

models::ModelInfo named(const std::string& name) {
  models::ModelInfo info;
  info.name = name;
  info.make = [](const models::Params&, std::shared_ptr<const Layout>, const SimulationOptions&) {
    return std::unique_ptr<Simulation>();
  };
  return info;
}

// Hops from `source` to every vertex (unreachable: UINT32_MAX).
std::vector<std::uint32_t> distances_from(const Graph& g, VertexId source) {
  std::vector<std::uint32_t> d(g.num_vertices(), UINT32_MAX);
  std::queue<VertexId> queue;
  d[source] = 0;
  queue.push(source);
  while (!queue.empty()) {
    const VertexId v = queue.front();
    queue.pop();
    for (EdgeOffset e = g.offsets[v]; e < g.offsets[v + 1]; ++e) {
      const VertexId u = g.neighbors[e];
      if (u != kBoundaryVertex && d[u] == UINT32_MAX) d[u] = d[v] + 1, queue.push(u);
    }
  }
  return d;
}

// A threshold-1 wave from one excited cell, refractory for one step, at step k: excited at
// distance k, refractory at distance k - 1 (they fired the step before), resting elsewhere.
// No cell fires twice: behind the front its neighbors are refractory or resting.
std::vector<std::uint32_t> wave_at(const std::vector<std::uint32_t>& distance, std::uint32_t k) {
  std::vector<std::uint32_t> s(distance.size(), kResting);
  for (std::size_t v = 0; v < s.size(); ++v) {
    if (distance[v] == k) s[v] = kExcited;
    else if (k > 0 && distance[v] == k - 1) s[v] = kRefractory;
  }
  return s;
}

// The tutorial, and the commands it shows run from a scratch folder holding a link to data/
// (outputs land there, paths read as in the tutorial).
std::string tutorial() { return read_file(data_path("../docs/TUTORIAL_MODEL.md")); }

CommandResult run_in(const ScratchDir& dir, const std::string& setup, const std::string& args) {
  std::filesystem::create_directory_symlink(std::filesystem::absolute(data_path("")), dir.path() / "data");
  return run_command("cd " + dir.path().string() + (setup.empty() ? "" : " && " + setup) + " && " + CELLGRAPH_CLI +
                     " " + args);
}

}  // namespace

TEST_CASE("registry: models are kept in name order, a name taken twice is refused") {
  std::vector<models::ModelInfo> list;
  for (const char* name : {"sis", "ising", "zebra", "ants"}) models::insert_model(list, named(name));
  std::vector<std::string> names;
  for (const auto& m : list) names.push_back(m.name);
  CHECK(names == std::vector<std::string>{"ants", "ising", "sis", "zebra"});
  CHECK_THROWS_WITH_AS(models::insert_model(list, named("ising")),
                       doctest::Contains("two models are registered as 'ising'"), Error);
  CHECK_THROWS_AS(models::insert_model(list, named("")), Error);
  models::ModelInfo no_make = named("nomake");
  no_make.make = nullptr;
  CHECK_THROWS_AS(models::insert_model(list, no_make), Error);
  CHECK(list.size() == 4);
}

TEST_CASE("registry: every model file registered itself, and they are listed by name") {
  std::vector<std::string> names;
  for (const auto& m : models::registered_models()) names.push_back(m.name);
  // Each of these registers from its own file; none is listed anywhere else.
  for (const char* name : {"forestfire", "greenberghastings", "ising", "lifelike", "rulenumber", "sir", "sis"})
    CHECK_MESSAGE(std::count(names.begin(), names.end(), name) == 1, name);
  CHECK(std::is_sorted(names.begin(), names.end()));
  const models::ModelInfo& gh = models::find_model(kModel);
  CHECK(gh.state_names == std::vector<std::string>{"resting", "excited", "refractory"});
  CHECK(gh.default_update.mode == UpdateMode::synchronous);
  CHECK(models::find_model("ising").default_update.mode == UpdateMode::colored);  // model_info's optional member
}

TEST_CASE("cli: `cellgraph models` lists the tutorial's model with its parameters, in name order") {
  const CommandResult r = run_cli("models");
  REQUIRE_MESSAGE(r.status == 0, r.out);
  const std::size_t gh = r.out.find("\ngreenberghastings\n");
  REQUIRE(gh != std::string::npos);
  std::vector<std::string> names;  // the lines that start a model: no indent
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);)
    if (!line.empty() && line[0] != ' ') names.push_back(line);
  CHECK(std::is_sorted(names.begin(), names.end()));
  CHECK(names.size() == models::registered_models().size());
  CHECK(gh < r.out.find("\nising\n"));
  for (const char* line : {"  states: 0 resting, 1 excited, 2 refractory\n", "  update (default): sync\n",
                           "  threshold (default 1): ", "  refractory (default 1): ", "  p (default 0): "})
    CHECK_MESSAGE(r.out.find(line, gh) < r.out.find("\nising\n"), line);
}

TEST_CASE("greenberghastings: on a grid a stimulus sends out one ring per step, then all rests") {
  // 9x9, Moore neighborhood, open boundary; the center (4, 4) excited. The cells at Chebyshev
  // distance k fire at step k: a ring of 8k cells.
  const Graph g = build_grid_graph(square_grid(9, 9, moore_stencil(2, 1), {BoundaryKind::fixed, 0}));
  std::vector<std::uint32_t> ring(81);
  for (int y = 0; y < 9; ++y)
    for (int x = 0; x < 9; ++x) ring[9 * y + x] = std::uint32_t(std::max(std::abs(x - 4), std::abs(y - 4)));
  auto sim = make_model(kModel, {}, g);
  sim->set_states(wave_at(ring, 0));
  const std::uint64_t excited[] = {1, 8, 16, 24, 32, 0, 0};
  for (std::uint32_t k = 0; k <= 6; ++k) {
    INFO("step ", k);
    CHECK(sim->states() == wave_at(ring, k));
    CHECK(sim->census()[kExcited] == excited[k]);
    sim->advance(1);
  }
}

TEST_CASE("greenberghastings: threshold and refractory period, by hand on a small graph") {
  // Edges 0-2, 1-2, 0-3, 2-4; vertices 0 and 1 excited. Threshold 2: vertex 2 (two excited
  // neighbors) fires, vertex 3 (one) does not. Refractory 2: two steps refractory, then rest.
  const Graph g = graph_from_edges(5, {{0, 2}, {1, 2}, {0, 3}, {2, 4}});
  auto sim = make_model(kModel, {{"threshold", "2"}, {"refractory", "2"}}, g);
  sim->set_states({1, 1, 0, 0, 0});
  const std::vector<std::vector<std::uint32_t>> expected = {
      {2, 2, 1, 0, 0},  // 0, 1 refractory (first step); 2 fired; 3 and 4 saw one excited neighbor
      {2, 2, 2, 0, 0},  // 0, 1 refractory (second step); 2 refractory
      {0, 0, 2, 0, 0},  // 0, 1 rest again; 2 refractory (second step)
      {0, 0, 0, 0, 0},
  };
  // Variable 1: steps a refractory cell has been refractory before this one.
  const std::vector<std::vector<std::uint8_t>> counters = {
      {0, 0, 0, 0, 0}, {1, 1, 0, 0, 0}, {0, 0, 1, 0, 0}, {0, 0, 0, 0, 0}};
  for (std::size_t k = 0; k < expected.size(); ++k) {
    sim->advance(1);
    INFO("step ", sim->step());
    CHECK(sim->states() == expected[k]);
    CHECK(sim->export_state().at(1) == counters[k]);
  }
  auto threshold_one = make_model(kModel, {}, g);  // the defaults: threshold 1, refractory 1
  threshold_one->set_states({1, 1, 0, 0, 0});
  threshold_one->advance(1);
  CHECK(threshold_one->states() == std::vector<std::uint32_t>{2, 2, 1, 1, 0});
  threshold_one->advance(1);
  CHECK(threshold_one->states() == std::vector<std::uint32_t>{0, 0, 2, 2, 1});
}

TEST_CASE("greenberghastings: on a METIS graph file the wave front is a breadth-first search") {
  const Graph g = read_graph_file(data_path("graphs/metis/github-KarypisLab-METIS/4elt.graph"));
  const std::vector<std::uint32_t> distance = distances_from(g, 0);
  const std::uint32_t farthest = *std::max_element(distance.begin(), distance.end());
  REQUIRE(farthest > 20);
  REQUIRE(farthest < UINT32_MAX);  // connected
  auto sim = make_model(kModel, {}, g);
  sim->set_states(wave_at(distance, 0));
  for (std::uint32_t k = 1; k <= farthest + 2; ++k) {
    sim->advance(1);
    if (sim->states() != wave_at(distance, k)) FAIL("the wave left the breadth-first layers at step ", k);
  }
  CHECK(sim->census()[kResting] == g.num_vertices());
}

TEST_CASE("greenberghastings: the same states for any thread count, layout and update mode") {
  const Graph rmat = rmat_graph(10, 8, 7);  // hubs: partial folds merged by combine()
  const Graph grid = build_grid_graph(square_grid(40, 30));
  CompileOptions other;
  other.sort_window = 5;
  other.hub_degree = 20;
  other.giant_degree = 60;
  const models::Params params = {{"threshold", "2"}, {"refractory", "3"}, {"p", "0.01"}};
  for (const Graph* g : {&rmat, &grid}) {
    std::vector<std::uint32_t> start(g->num_vertices());
    for (std::uint32_t v = 0; v < start.size(); ++v) start[v] = (v * 2654435761u >> 16) % 3;
    for (const char* update : {"sync", "alpha:0.6", "colored"}) {
      INFO(update, " on ", g->num_vertices(), " vertices");
      auto one = make_model(kModel, params, *g, with_update(update, 5, 1));
      auto three = make_model(kModel, params, *g, with_update(update, 5, 3), other);
      auto reseeded = make_model(kModel, params, *g, with_update(update, 6, 3));
      for (auto* s : {one.get(), three.get(), reseeded.get()}) {
        s->set_states(start);
        s->advance(12);
      }
      CHECK(one->export_state() == three->export_state());
      CHECK(one->states() != reseeded->states());  // p > 0: the seed matters
    }
  }
}

TEST_CASE("greenberghastings: parameters are checked by name and range") {
  const Graph g = graph_from_edges(2, {{0, 1}});
  CHECK_THROWS_WITH_AS(make_model(kModel, {{"threshold", "0"}}, g),
                       doctest::Contains("threshold must be a whole number"), Error);
  CHECK_THROWS_WITH_AS(make_model(kModel, {{"refractory", "256"}}, g), doctest::Contains("refractory must be"), Error);
  CHECK_THROWS_AS(make_model(kModel, {{"p", "1.5"}}, g), Error);
  CHECK_THROWS_WITH_AS(make_model(kModel, {{"rule", "B3/S23"}}, g), doctest::Contains("has no parameter 'rule'"),
                       Error);
  CHECK_THROWS_AS(make_model(kModel, {}, g)->set_states({3, 0}), Error);  // three states
}

TEST_CASE("tutorial: its code blocks, in order, are models/greenberg_hastings.model.cpp word for word") {
  const std::string text = tutorial();
  std::string code;
  for (std::size_t at = text.find("```cpp\n"); at != std::string::npos; at = text.find("```cpp\n", at)) {
    at += 7;
    const std::size_t end = text.find("```\n", at);
    REQUIRE(end != std::string::npos);
    code += text.substr(at, end - at);
    at = end;
  }
  CHECK(code == read_file(data_path("../models/greenberg_hastings.model.cpp")));
}

TEST_CASE("tutorial: the outputs it shows are what cellgraph prints") {
  const std::string text = tutorial();
  const CommandResult models = run_cli("models");
  const std::size_t begin = models.out.find("greenberghastings\n"), end = models.out.find("\nising\n");
  REQUIRE(begin < end);
  REQUIRE(end != std::string::npos);
  const std::string entry = models.out.substr(begin, end + 1 - begin);
  CHECK_MESSAGE(text.find("```\n" + entry + "```\n") != std::string::npos, entry);

  struct Run {
    const char* setup;  // a shell command before the run, as the tutorial shows it; or empty
    const char* args;   // as the tutorial shows them, after build/cellgraph
    const char* stats;  // the statistics file the tutorial shows
  };
  const Run runs[] = {
      {"", "run --model greenberghastings --grid 9x9 --boundary open --cells 40 --steps 6 --stats ring.csv",
       "ring.csv"},
      {"",
       "run --model greenberghastings --graph data/graphs/metis/github-KarypisLab-METIS/4elt.graph --cells 0 \\\n"
       "    --steps 60 --stats-every 6 --stats 4elt.csv",
       "4elt.csv"},
      {"awk 'BEGIN { for (y = 0; y < 128; y++) for (x = 0; x < 128; x++) print (y < 64 && x == 64) ? 1 : "
       "(y < 64 && x == 63) ? 2 : 0 }' > broken-wave.txt",
       "run --config data/examples/greenberg-hastings-spiral.ini", "spiral.csv"},
  };
  for (const Run& run : runs) {
    INFO(run.args);
    CHECK(text.find(std::string(run.setup) + "\n") != std::string::npos);
    CHECK(text.find(std::string("build/cellgraph ") + run.args + "\n") != std::string::npos);
    ScratchDir dir;
    std::string args = run.args;  // one line: the shell's continuations joined
    for (std::size_t at; (at = args.find("\\\n")) != std::string::npos;) args.replace(at, 2, " ");
    const CommandResult r = run_in(dir, run.setup, args);
    REQUIRE_MESSAGE(r.status == 0, r.out);
    const std::string csv = read_file(dir / run.stats);
    CHECK_MESSAGE(text.find("```\n" + csv + "```\n") != std::string::npos, csv);
  }
}
