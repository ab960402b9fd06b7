// Random models against exact published results, with tolerances of several standard errors.
#include <doctest/doctest.h>

#include <cmath>

#include "cellgraph/source/generators.hpp"
#include "cellgraph/source/source.hpp"
#include "model_runs.hpp"

using namespace cellgraph;
using namespace cellgraph::test;

namespace {

const double kCriticalTemperature = 2.0 / std::log(1.0 + std::sqrt(2.0));

// Onsager (1944), Yang (1952): spontaneous magnetization per site of the square lattice, J = 1.
double onsager_magnetization(double T) {
  return T >= kCriticalTemperature ? 0.0 : std::pow(1.0 - std::pow(std::sinh(2.0 / T), -4.0), 0.125);
}

// Onsager's internal energy per site: -coth(2/T) [1 + (2/pi)(2 tanh^2(2/T) - 1) K(k)],
// k = 2 sinh(2/T) / cosh^2(2/T), K the complete elliptic integral of the first kind.
double onsager_energy(double T) {
  const double b = 2.0 / T, k = 2.0 * std::sinh(b) / (std::cosh(b) * std::cosh(b));
  return -(1.0 / std::tanh(b)) * (1.0 + 2.0 / M_PI * (2.0 * std::tanh(b) * std::tanh(b) - 1.0) * std::comp_ellint_1(k));
}

struct IsingAverages {
  double abs_magnetization = 0, energy = 0;
};

// A periodic L x L lattice from all spins up, `equilibrate` sweeps, then averages over `measure`.
IsingAverages run_ising(int L, double T, const char* dynamics, int equilibrate, int measure, std::uint64_t seed) {
  auto sim = make_model("ising", {{"T", std::to_string(T)}, {"dynamics", dynamics}},
                        build_grid_graph(square_grid(L, L, von_neumann_stencil(2, 1))), with_update("colored", seed));
  sim->set_states(std::vector<std::uint32_t>(std::size_t(L) * L, 1));
  sim->advance(equilibrate);
  IsingAverages a;
  for (int i = 0; i < measure; ++i) {
    sim->advance(1);
    const auto o = sim->observables();
    a.abs_magnetization += std::fabs(o[0]) / measure;
    a.energy += o[1] / measure;
  }
  return a;
}

// Newman (2002): on a graph with Poisson(c) degrees, the final size S of an SIR epidemic of
// transmissibility T solves S = 1 - exp(-c T S).
double newman_final_size(double c, double T) {
  double S = 1.0;
  for (int i = 0; i < 10000; ++i) S = 1.0 - std::exp(-c * T * S);
  return S;
}

// Ever-infected fraction after an SIR run on an Erdos-Renyi graph, from `seeds` random cells.
double sir_final_size(std::uint32_t n, double c, double beta, int tau, std::uint64_t seed) {
  auto sim = make_model("sir", {{"beta", std::to_string(beta)}, {"tau", std::to_string(tau)}},
                        erdos_renyi_graph(n, c, seed), with_update("sync", seed));
  sim->set_states(random_fill(n, 0.0005, seed));
  while (sim->census()[1] > 0) sim->advance(10);
  return double(sim->census()[2]) / n;
}

}  // namespace

// At T = 1.5 and 2.0 the correlation length is a few sites, so a 48 x 48 torus is as good as
// infinite; 1500 sweeps give errors of about 0.002 in |m| and in e (autocorrelation
// included): the tolerances are about 3 of those. Above T_c, |m| of a finite lattice is only
// its fluctuation, a few times N^-1/2 = 0.02.
TEST_CASE("ising: magnetization and energy per site agree with Onsager's exact results") {
  for (const char* dynamics : {"metropolis", "glauber"})
    for (double T : {1.5, 2.0}) {
      const IsingAverages a = run_ising(48, T, dynamics, 300, 1500, 7);
      INFO(dynamics, " at T = ", T);
      CHECK(a.abs_magnetization == doctest::Approx(onsager_magnetization(T)).epsilon(0.008));
      CHECK(a.energy == doctest::Approx(onsager_energy(T)).epsilon(0.004));
    }
  const IsingAverages hot = run_ising(48, 3.5, "metropolis", 300, 500, 7);
  CHECK(hot.abs_magnetization < 0.1);
  CHECK(hot.energy == doctest::Approx(onsager_energy(3.5)).epsilon(0.02));
}

// 200000 vertices: the final size fluctuates by about 0.002; the 0.05% initially infected add
// at most that much again. Tolerance: 1% (0.008 and 0.005).
TEST_CASE("sir: final epidemic size on Erdos-Renyi graphs solves Newman's equation") {
  struct Case {
    double c, beta;
    int tau;
  };
  for (Case k : {Case{4, 0.3, 2}, Case{5, 0.1, 3}}) {
    const double T = 1.0 - std::pow(1.0 - k.beta, k.tau);
    INFO("c = ", k.c, ", beta = ", k.beta, ", tau = ", k.tau, ", cT = ", k.c * T);
    CHECK(sir_final_size(200000, k.c, k.beta, k.tau, 3) == doctest::Approx(newman_final_size(k.c, T)).epsilon(0.01));
  }
  // Below the threshold (cT = 0.76) the outbreak stays small: about seeds / (1 - cT).
  CHECK(sir_final_size(200000, 4, 0.1, 2, 3) < 0.005);
}
