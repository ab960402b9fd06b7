// Shared by the MCA tests (CPU and GPU): runs of the mca model through the registry, as the CLI
// makes them, and reading its state (bonds, velocities) back in particle id order.
#pragma once
#include <doctest/doctest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "cellgraph/movable/movable_simulation.hpp"
#include "models/mca.hpp"
#include "models/movable_registry.hpp"
#include "movable_check.hpp"

namespace cellgraph::test {

struct McaRun {
  Box box;
  std::uint32_t particles = 0;
  models::Params params;  // --param NAME=VALUE
  double skin = 0.0;
  std::uint64_t seed = 1;
  BackendKind backend = BackendKind::cpu;
  int threads = 0;
  CompileOptions compile;
};

inline const models::MovableModelInfo& mca_info() {
  const models::MovableModelInfo* info = models::find_movable_model("mca");
  REQUIRE(info);
  return *info;
}

// The model on its backend, without a state yet.
inline std::unique_ptr<MovableSimulation> make_mca_empty(const McaRun& run) {
  return mca_info().make(run.params, run.box, run.particles, movable_options_of(run), simulation_options_of(run));
}

// The model from its plate.
inline std::unique_ptr<MovableSimulation> make_mca(const McaRun& run) {
  auto sim = make_mca_empty(run);
  sim->import_state(mca_info().initial_state(run.params, run.box, run.particles, run.seed), 0);
  return sim;
}

template <class T>
std::vector<T> values_of(const std::vector<std::uint8_t>& bytes) {
  std::vector<T> v(bytes.size() / sizeof(T));
  if (!v.empty()) std::memcpy(v.data(), bytes.data(), bytes.size());
  return v;
}

template <class T>
std::vector<std::uint8_t> bytes_of(const std::vector<T>& values) {
  std::vector<std::uint8_t> b(values.size() * sizeof(T));
  if (!b.empty()) std::memcpy(b.data(), values.data(), b.size());
  return b;
}

// An exported state, variable by variable (models/mca.hpp: VariableIndex).
struct McaState {
  int dims;
  std::vector<std::vector<double>> position, velocity;  // [axis][particle]
  std::vector<std::uint32_t> id, flags, proposal;
  std::vector<std::vector<std::uint32_t>> bonds;  // [slot][particle]

  McaState(const std::vector<std::vector<std::uint8_t>>& state, int d) : dims(d) {
    REQUIRE(int(state.size()) == 2 * d + 3 + models::mca::bond_capacity(d));
    for (int a = 0; a < d; ++a) {
      position.push_back(values_of<double>(state[a]));
      velocity.push_back(values_of<double>(state[d + a]));
    }
    id = values_of<std::uint32_t>(state[2 * d]);
    flags = values_of<std::uint32_t>(state[2 * d + 1]);
    proposal = values_of<std::uint32_t>(state[2 * d + 2]);
    for (int s = 0; s < models::mca::bond_capacity(d); ++s)
      bonds.push_back(values_of<std::uint32_t>(state[2 * d + 3 + s]));
  }
  std::vector<std::vector<std::uint8_t>> bytes() const {
    std::vector<std::vector<std::uint8_t>> out;
    for (const auto& v : position) out.push_back(bytes_of(v));
    for (const auto& v : velocity) out.push_back(bytes_of(v));
    for (const auto* v : {&id, &flags, &proposal}) out.push_back(bytes_of(*v));
    for (const auto& v : bonds) out.push_back(bytes_of(v));
    return out;
  }
  std::uint32_t count() const { return std::uint32_t(id.size()); }
  bool bonded(std::uint32_t p, std::uint32_t q) const {
    for (const auto& slot : bonds)
      if (slot[p] == q) return true;
    return false;
  }
  std::uint32_t held(std::uint32_t p) const {
    std::uint32_t n = 0;
    for (const auto& slot : bonds) n += slot[p] != models::mca::kNoParticle;
    return n;
  }
  std::uint64_t bond_ends() const {
    std::uint64_t n = 0;
    for (std::uint32_t p = 0; p < count(); ++p) n += held(p);
    return n;
  }
};

// Every bond is held by both its ends, once each, never to itself; ids are the particles' own.
// Returns the number of problems (each also reported).
inline int check_bonds_symmetric(const McaState& s) {
  int problems = 0;
  for (std::uint32_t p = 0; p < s.count(); ++p) {
    if (s.id[p] != p) {
      ++problems;
      FAIL_CHECK("particle ", p, " carries id ", s.id[p]);
    }
    for (std::size_t k = 0; k < s.bonds.size(); ++k) {
      const std::uint32_t q = s.bonds[k][p];
      if (q == models::mca::kNoParticle) continue;
      bool twice = false;
      for (std::size_t j = k + 1; j < s.bonds.size(); ++j) twice |= s.bonds[j][p] == q;
      if (q == p || q >= s.count() || twice || !s.bonded(q, p)) {
        ++problems;
        FAIL_CHECK("particle ", p, "'s bond to ", q, " is not held once by both ends");
      }
    }
  }
  return problems;
}

}  // namespace cellgraph::test
