// Shared by the movable tests (CPU and GPU): random particle configurations, Vicsek runs
// through the registry, and comparisons of graphs and layouts.
#pragma once
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "cellgraph/movable/movable_simulation.hpp"
#include "cellgraph/movable/neighbor_search.hpp"
#include "cellgraph/philox.hpp"
#include "models/movable_registry.hpp"

namespace cellgraph::test {

// Particles as one array per axis.
template <class T>
struct Particles {
  std::vector<T> axis[3];
  std::uint32_t count() const { return std::uint32_t(axis[0].size()); }
  PointsView<T> view() const {
    PointsView<T> v;
    for (int a = 0; a < 3; ++a) v.axis[a] = axis[a].empty() ? nullptr : axis[a].data();
    v.count = count();
    return v;
  }
};

// n particles uniform in the box (Philox keyed by the seed), then particles on its edges:
// at 0, at the largest coordinate below the length (periodic) or at the length (closed), and
// pairs exactly the cutoff apart (coordinates on a grid of 1/4 when the cutoff is a multiple).
template <class T>
Particles<T> random_particles(const Box& box, std::uint32_t n, std::uint64_t seed, double cutoff) {
  Particles<T> p;
  for (int a = 0; a < box.dims; ++a) p.axis[a].resize(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    CellRandom rng(seed, i, 0, RandomStream::initial_fill);
    for (int a = 0; a < box.dims; ++a) {
      T x = T(rng.uniform() * box.length[a]);
      if (!(x < T(box.length[a]))) x = 0;
      p.axis[a][i] = x;
    }
  }
  for (int a = 0; a < box.dims; ++a) {
    const T top = box.periodic ? std::nextafter(T(box.length[a]), T(0)) : T(box.length[a]);
    for (T edge : {T(0), top, T(box.length[a] * 0.5)}) {
      for (int b = 0; b < box.dims; ++b) p.axis[b].push_back(b == a ? edge : T(std::floor(box.length[b]) / 4));
      // a partner exactly `cutoff` away along the next axis, when that stays inside
      const int c = (a + 1) % box.dims;
      const T along = p.axis[c].back() + T(cutoff);
      if (along < T(box.length[c]))
        for (int b = 0; b < box.dims; ++b) p.axis[b].push_back(b == c ? along : p.axis[b][p.axis[b].size() - 1]);
    }
  }
  return p;
}

inline Box make_box(int dims, double lx, double ly, double lz, bool periodic) {
  Box b;
  b.dims = dims;
  b.length[0] = lx, b.length[1] = ly, b.length[2] = dims == 3 ? lz : 1.0;
  b.periodic = periodic;
  return b;
}

inline bool same_graph(const Graph& a, const Graph& b) { return a.offsets == b.offsets && a.neighbors == b.neighbors; }

// Every array and number of two compiled layouts.
inline void check_same_layout(const Layout& a, const Layout& b) {
  CHECK(a.num_vertices == b.num_vertices);
  CHECK(a.num_halo == b.num_halo);
  CHECK(a.num_hub_slices == b.num_hub_slices);
  CHECK(a.num_giant_hubs == b.num_giant_hubs);
  CHECK(a.hub_degree == b.hub_degree);
  CHECK(a.giant_degree == b.giant_degree);
  CHECK(a.interior_begin == b.interior_begin);
  CHECK(a.slice_begin == b.slice_begin);
  CHECK(a.slice_width == b.slice_width);
  CHECK(a.hub_row_begin == b.hub_row_begin);
  CHECK(a.degree == b.degree);
  CHECK(a.local_to_user == b.local_to_user);
  CHECK(a.user_to_local == b.user_to_local);
  REQUIRE(a.neighbors.size() == b.neighbors.size());
  CHECK(std::memcmp(a.neighbors.data(), b.neighbors.data(), a.neighbors.size() * sizeof(std::uint32_t)) == 0);
}

struct VicsekRun {
  Box box;
  std::uint32_t particles = 0;
  double eta = 0.5, r = 1.0, v0 = 0.03, skin = 0.0;
  std::uint64_t seed = 1;
  BackendKind backend = BackendKind::cpu;
  int threads = 0;
  CompileOptions compile;  // small hub thresholds put lists in hub rows
};

// The options a run (VicsekRun, McaRun: skin, compile, backend, seed, threads) gives the
// registry, as the CLI sets them; the Vicsek and MCA tests share them.
template <class Run>
MovableOptions movable_options_of(const Run& run) {
  MovableOptions movable;
  movable.skin = run.skin;
  movable.compile = run.compile;
  return movable;
}

template <class Run>
SimulationOptions simulation_options_of(const Run& run) {
  SimulationOptions options;
  options.backend = run.backend;
  options.seed = run.seed;
  options.threads = run.threads;
  return options;
}

// The model parameters of a Vicsek run (--param NAME=VALUE).
inline models::Params vicsek_params(const VicsekRun& run) {
  return {{"eta", std::to_string(run.eta)}, {"r", std::to_string(run.r)}, {"v0", std::to_string(run.v0)}};
}

// A Vicsek simulation from its random start, made through the registry as the CLI makes it.
inline std::unique_ptr<MovableSimulation> make_vicsek(const VicsekRun& run) {
  const models::MovableModelInfo* info = models::find_movable_model("vicsek");
  REQUIRE(info);
  const models::Params params = vicsek_params(run);
  auto sim = info->make(params, run.box, run.particles, movable_options_of(run), simulation_options_of(run));
  sim->import_state(info->initial_state(params, run.box, run.particles, run.seed), 0);
  return sim;
}

// A periodic square at density 4 (Vicsek et al.'s): side sqrt(N / 4).
inline Box density_four_square(std::uint32_t particles) {
  const double side = std::sqrt(particles / 4.0);
  return make_box(2, side, side, 1, true);
}

}  // namespace cellgraph::test
