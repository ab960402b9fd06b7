// The Ising model on any graph: spins s = +-1 (state 1 up, 0 down), energy
// E = -J sum_<ij> s_i s_j - h sum_i s_i. A cell proposes to flip its spin, which changes the
// energy by dE = 2 s (J sum_j s_j + h), and accepts with probability min(1, e^(-dE/T))
// (Metropolis) or 1 / (1 + e^(dE/T)) (Glauber). Run it with colored updates (the default
// for this model): synchronous flips of neighbors do not sample the Boltzmann distribution. On a
// grid it takes the von Neumann neighborhood unless --neighborhood names another.
#include "models/model_api.hpp"

namespace cellgraph::models {
namespace {

struct Ising {
  using Vars = Variables<std::uint8_t>;  // 1: up, 0: down
  using Acc = std::int32_t;              // sum of the neighbors' spins
  static constexpr int num_observables = 2;

  double inverse_temperature = 1.0 / 2.0;  // 1 / T (k_B = 1)
  double coupling = 1.0;                   // J
  double field = 0.0;                      // h
  bool glauber = false;                    // false: Metropolis

  static constexpr const char* name = "ising";
  static constexpr const char* summary =
      "Ising model, Metropolis or Glauber dynamics; statistics add magnetization and energy per site";
  static std::vector<ParamInfo> params() {
    return {
        {"T", "2.0", "temperature (k_B = 1); the square lattice orders below 2 / ln(1 + sqrt 2) = 2.269"},
        {"J", "1", "coupling: > 0 ferromagnetic, < 0 antiferromagnetic"},
        {"h", "0", "external field"},
        {"dynamics", "metropolis", "metropolis or glauber"},
    };
  }
  static std::vector<std::string> state_names() { return {"down", "up"}; }
  static UpdateRule default_update() { return {UpdateMode::colored, 1.0}; }
  // On a grid, the lattice of Onsager's solution: each spin coupled to its 4 (2D) or 6 (3D)
  // nearest neighbors, not Moore's 8.
  static std::string grid_neighborhood() { return "vonneumann"; }
  static Ising from_params(const ParamReader& read) {
    Ising model;
    model.inverse_temperature = 1.0 / read.positive("T", 1e9);
    model.coupling = read.number("J", -1e9, 1e9);
    model.field = read.number("h", -1e9, 1e9);
    model.glauber = read.choice("dynamics", {"metropolis", "glauber"}) == 1;
    return model;
  }

  std::uint32_t num_states() const { return 2; }

  CG_HD static std::int32_t spin(std::uint8_t state) { return state ? 1 : -1; }

  CG_HD Acc init() const { return 0; }
  CG_HD bool signal(const CellRead<Vars>& cell) const { return get<0>(cell) != 0; }  // spin up
  CG_HD void gather(Acc& sum, bool neighbor_up, std::uint32_t) const { sum += neighbor_up ? 1 : -1; }
  CG_HD void combine(Acc& sum, const Acc& more) const { sum += more; }
  CG_HD void apply(const CellRead<Vars>& self, const Acc& sum, CellWrite<Vars>& out, const CellContext& context) const {
    const std::uint8_t state = get<0>(self);
    const double energy_change = 2.0 * spin(state) * (coupling * sum + field);
    double accept;
    if (glauber) accept = 1.0 / (1.0 + portable_exp(energy_change * inverse_temperature));
    else accept = energy_change <= 0 ? 1.0 : portable_exp(-energy_change * inverse_temperature);
    const bool flips = accept >= 1.0 || context.random().uniform() < accept;
    set<0>(out, flips ? std::uint8_t(1 - state) : state);
  }

  // Integer terms: s_i, and s_i times its neighbors' sum (each bond counted from both ends).
  CG_HD void observe(const CellRead<Vars>& self, const Acc& sum, std::int64_t* terms) const {
    const std::int32_t s = spin(get<0>(self));
    terms[0] += s;
    terms[1] += std::int64_t(s) * sum;
  }
  std::vector<std::string> observable_names() const { return {"magnetization", "energy"}; }
  // Per site: m = sum s_i / N, e = (-J bonds / 2 - h sum s_i) / N.
  std::vector<double> observable_values(const std::int64_t* sums, std::uint64_t vertices) const {
    const double n = double(vertices ? vertices : 1);
    return {double(sums[0]) / n, (-coupling * double(sums[1]) / 2.0 - field * double(sums[0])) / n};
  }
};

const bool registered = register_model(model_info<Ising>());

}  // namespace
}  // namespace cellgraph::models
