// Ensembles: every member equals, bit for bit, the plain run of its sweep point's model with
// its member seed, for every registered model and update mode.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <set>

#include "cellgraph/source/generators.hpp"
#include "cellgraph/source/source.hpp"
#include "data_path.hpp"
#include "ensemble_runs.hpp"

using namespace cellgraph;
using namespace cellgraph::test;

TEST_CASE("ensemble members have distinct seeds, derived from the run's seed alone") {
  std::set<std::uint64_t> seeds;
  for (std::uint32_t p = 0; p < 8; ++p)
    for (std::uint32_t r = 0; r < 64; ++r) seeds.insert(member_seed(5, p, r));
  CHECK(seeds.size() == 8 * 64);
  CHECK(member_seed(5, 1, 2) == member_seed(5, 1, 2));
  CHECK(member_seed(5, 1, 2) != member_seed(6, 1, 2));
}

TEST_CASE("every member of an ensemble equals the plain run of its point with its seed") {
  const Graph grid = build_grid_graph(square_grid(23, 17, moore_stencil(2, 1), {BoundaryKind::fixed, 1}));
  const Graph hubs = rmat_graph(10, 16, 9);
  for (const char* update : {"sync", "alpha:0.6", "colored"}) {
    check_members("sir", {{{"beta", "0.2"}, {"tau", "4"}}, {{"beta", "0.5"}, {"tau", "2"}}}, grid, update);
    check_members("sis", {{{"beta", "0.1"}, {"gamma", "0.2"}}}, hubs, update, small_hubs());
    // One member, fewer than the threads: colored steps share its classes out, not the members.
    check_members("ising", {{{"T", "2.0"}}}, grid, update, {}, 1);
    check_members("forestfire", {{{"p", "0.02"}, {"f", "0.0005"}}, {{"p", "0.1"}, {"f", "0.01"}}}, grid, update);
    check_members("ising", {{{"T", "1.5"}}, {{"T", "2.2"}}, {{"T", "1.8"}, {"dynamics", "glauber"}, {"h", "0.05"}}},
                  grid, update);
    check_members("lifelike", {{{"rule", "B3/S23"}}, {{"rule", "B36/S23"}, {"p", "0.8"}}}, hubs, update, small_hubs());
    check_members("greenberghastings", {{{"threshold", "1"}, {"refractory", "3"}, {"p", "0.01"}}}, grid, update);
    check_members("rulenumber", {{{"kind", "totalistic"}, {"rule", "0x1e6"}}}, hubs, update, small_hubs());
  }
}

TEST_CASE("members that finish stop being stepped and stay their plain runs") {
  const Graph torus = build_grid_graph(square_grid(20, 16));
  const Graph infecting = build_grid_graph(square_grid(20, 16, moore_stencil(2, 1), {BoundaryKind::fixed, 1}));
  const std::initializer_list<std::uint64_t> chunks = {3, 13, 24, 1, 19};
  for (const char* update : {"sync", "alpha:0.7", "colored"}) {
    // Outbreaks that die out within a few steps: most members finish, some late.
    CHECK(check_members("sir", {{{"beta", "0.05"}, {"tau", "2"}}, {{"beta", "0.3"}, {"tau", "3"}}}, torus, update, {},
                        6, chunks, 0.02) > 0);
    CHECK(check_members("sis", {{{"beta", "0.05"}, {"gamma", "0.5"}}}, torus, update, {}, 6, chunks, 0.02) > 0);
    // An infected boundary keeps reinfecting: never finished, though no cell is infected at times.
    CHECK(check_members("sir", {{{"beta", "0.05"}, {"tau", "1"}}}, infecting, update, {}, 4, chunks, 0.0,
                        BackendKind::cpu, 1) == 0);
    // Life dies out on small soups; B0 births from nothing, so an empty B0 member never finishes.
    check_members("lifelike", {{{"rule", "B3/S23"}}, {{"rule", "B03/S2"}}}, torus, update, {}, 4, chunks, 0.05);
    check_members("greenberghastings", {{{"refractory", "2"}}, {{"refractory", "2"}, {"p", "0.001"}}}, torus, update,
                  {}, 4, chunks, 0.01);
  }
}

TEST_CASE("Golly rule files and the cloud model run as ensembles") {
  GridSpec torus = square_grid(20, 20);
  torus.boundary = {BoundaryKind::periodic, 0};
  check_members("golly", {{{"rule", "BriansBrain"}, {"dir", data_path("rules")}}}, build_grid_graph(torus), "sync");
  GridSpec cloud;
  cloud.dims = 3;
  cloud.size = {9, 8, 5};
  cloud.stencil = cloud_stencil();
  cloud.boundary = {BoundaryKind::fixed, 0};
  check_members("cloud", {{}, {{"p_ext", "0.2"}}}, build_grid_graph(cloud), "sync");
}

TEST_CASE("an ensemble refuses what it cannot run") {
  auto layout = std::make_shared<const Layout>(compile(path_graph(10)));
  const models::ModelInfo& life = models::find_model("lifelike");
  CHECK_THROWS_WITH_AS(life.make_ensemble({{}}, 0, layout, {}), doctest::Contains("at least one"), Error);
  CHECK_THROWS_WITH_AS(life.make_ensemble({}, 2, layout, {}), doctest::Contains("at least one"), Error);
  CHECK_THROWS_WITH_AS(life.make_ensemble({{{"nonsense", "1"}}}, 2, layout, {}), doctest::Contains("nonsense"), Error);
  auto ensemble = life.make_ensemble({{}}, 2, layout, {});
  CHECK_THROWS_WITH_AS(ensemble->census(2), doctest::Contains("member 2"), Error);
}

// Newman (2002), "Spread of epidemic disease on networks": on an Erdos-Renyi graph of mean
// degree k, an SIR outbreak with transmissibility T from one infected vertex is large with
// probability S and then reaches a share S of the graph, S = 1 - exp(-k T S). Here each
// infected vertex stays infected tau steps and infects each neighbor with probability beta a
// step: T = 1 - (1 - beta)^tau.
TEST_CASE("SIR ensemble final sizes on an Erdos-Renyi graph agree with Newman's percolation result") {
  const std::uint32_t n = 10000, replicas = 300;
  const double k = 3, beta = 0.3, tau = 3, T = 1 - std::pow(1 - beta, tau);  // T k = 1.97
  double S = 0.5;
  for (int i = 0; i < 200; ++i) S = 1 - std::exp(-k * T * S);
  auto layout = std::make_shared<const Layout>(compile(erdos_renyi_graph(n, k, 1)));
  SimulationOptions options;
  options.seed = 3;
  auto ensemble = models::find_model("sir").make_ensemble({{{"beta", "0.3"}, {"tau", "3"}}}, replicas, layout, options);
  for (std::uint32_t m = 0; m < replicas; ++m) ensemble->set_states(m, random_fill_count(n, 1, ensemble->seed(m)));
  ensemble->advance(300);
  std::vector<double> large;
  for (std::uint32_t m = 0; m < replicas; ++m) {
    const auto census = ensemble->census(m);  // S, I, R
    REQUIRE(census[1] == 0);                  // every outbreak is over
    if (census[2] > n / 10) large.push_back(double(census[2]));
  }
  double mean = 0, squares = 0;
  for (double x : large) mean += x / double(large.size());
  for (double x : large) squares += (x - mean) * (x - mean);
  const double se = std::sqrt(squares / double(large.size() - 1) / double(large.size()));
  INFO("large outbreaks ", large.size(), " of ", replicas, ", mean size ", mean, " +- ", se, ", Newman ", S * n);
  CHECK(std::abs(mean - S * n) < 3 * se);
  const double share = double(large.size()) / replicas, share_se = std::sqrt(S * (1 - S) / replicas);
  CHECK(std::abs(share - S) < 3 * share_se);
}

// The Binder cumulant U = 1 - <m^4> / (3 <m^2>^2) of the 2D Ising model takes one value at Tc
// whatever the lattice (Binder 1981): the curves U_L(T) of L = 8, 16 and 32 cross at Onsager's
// Tc = 2 / ln(1 + sqrt 2) = 2.269. One ensemble per L sweeps T over the replicas, Metropolis
// with colored updates (the model's default), averaging over replicas and steps.
TEST_CASE("Ising ensembles: Binder cumulants of L = 8, 16, 32 cross within 2% of Onsager's Tc") {
  const std::vector<double> temperatures{2.15, 2.27, 2.39};
  const std::uint32_t replicas = 24, burn_in = 500, steps = 2500, every = 10;
  const double onsager = 2 / std::log(1 + std::sqrt(2.0));
  std::vector<std::vector<double>> binder;  // [L][T]
  for (std::int64_t L : {8, 16, 32}) {
    GridSpec grid = square_grid(L, L, von_neumann_stencil(2, 1));
    grid.boundary = {BoundaryKind::periodic, 0};
    auto layout = std::make_shared<const Layout>(compile(build_grid_graph(grid)));
    std::vector<models::Params> points;
    for (double T : temperatures) points.push_back({{"T", std::to_string(T)}});
    SimulationOptions options = with_update("colored", 11);
    auto ensemble = models::find_model("ising").make_ensemble(points, replicas, layout, options);
    for (std::uint32_t m = 0; m < ensemble->members(); ++m)
      ensemble->set_states(m, std::vector<std::uint32_t>(std::size_t(L * L), 1));
    std::vector<double> m2(points.size()), m4(points.size());
    ensemble->advance(burn_in);
    for (std::uint32_t step = burn_in; step < steps; step += every) {
      ensemble->advance(every);
      for (std::uint32_t m = 0; m < ensemble->members(); ++m) {
        const double x = ensemble->observables(m)[0];  // magnetization per site
        m2[m / replicas] += x * x;
        m4[m / replicas] += x * x * x * x;
      }
    }
    binder.emplace_back();
    const double samples = double(replicas) * double((steps - burn_in) / every);
    for (std::size_t p = 0; p < points.size(); ++p)
      binder.back().push_back(1 - (m4[p] / samples) / (3 * (m2[p] / samples) * (m2[p] / samples)));
  }
  // Where U_small - U_large changes sign, by linear interpolation between temperatures.
  for (std::size_t small = 0; small + 1 < binder.size(); ++small) {
    const auto& a = binder[small];
    const auto& b = binder[small + 1];
    double crossing = 0;
    for (std::size_t i = 0; i + 1 < temperatures.size(); ++i) {
      const double d0 = a[i] - b[i], d1 = a[i + 1] - b[i + 1];
      if ((d0 <= 0) != (d1 <= 0)) crossing = temperatures[i] + (temperatures[i + 1] - temperatures[i]) * d0 / (d0 - d1);
    }
    INFO("L = ", 8 << small, " and ", 16 << small, ": U = ", a[0], ", ", a[1], ", ", a[2], " and ", b[0], ", ", b[1],
         ", ", b[2], "; crossing at T = ", crossing);
    CHECK(std::abs(crossing - onsager) < 0.02 * onsager);
  }
}
