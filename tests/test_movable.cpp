// Movable cells on the CPU: the cell-list neighbor search against all pairs, its layout, and
// the Vicsek model (against a plain all-pairs step, and Vicsek et al.'s ordered and
// disordered phases).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

#include "cellgraph/error.hpp"
#include "cellgraph/exact_trig.hpp"
#include "movable_check.hpp"

using namespace cellgraph;
using namespace cellgraph::test;

namespace {

constexpr double kPi = 3.14159265358979323846;

struct SearchCase {
  Box box;
  double cutoff;
  double density;  // particles per cutoff^dims
};

// Boxes whose lengths the cutoff does not divide, fewer than three bins along an axis, long
// thin boxes, and densities from sparse to crowded.
std::vector<SearchCase> search_cases() {
  std::vector<SearchCase> cases;
  for (bool periodic : {true, false})
    for (double density : {0.3, 2.0, 7.0}) {
      cases.push_back({make_box(2, 10.37, 7.9, 1, periodic), 1.0, density});
      cases.push_back({make_box(2, 13.1, 2.6, 1, periodic), 0.73, density});  // 3 bins across y
      cases.push_back({make_box(3, 5.3, 4.45, 3.7, periodic), 1.0, density});
      cases.push_back({make_box(3, 2.2, 6.1, 1.9, periodic), 0.9, density});  // 2 bins along x and z
    }
  cases.push_back({make_box(2, 40.0, 1.5, 1, true), 1.0, 3.0});    // one bin across, every pair wraps
  cases.push_back({make_box(3, 1.0, 1.0, 1.0, true), 0.6, 20.0});  // r above L/2: nearest images only
  return cases;
}

std::uint32_t particles_for(const SearchCase& c) {
  double volume = 1;
  for (int a = 0; a < c.box.dims; ++a) volume *= c.box.length[a] / c.cutoff;
  return std::max<std::uint32_t>(8, std::uint32_t(c.density * volume));
}

std::string describe(const SearchCase& c) {
  std::string s = std::to_string(c.box.dims) + "D " + (c.box.periodic ? "periodic " : "closed ");
  for (int a = 0; a < c.box.dims; ++a) s += (a ? "x" : "") + std::to_string(c.box.length[a]);
  return s + " cutoff " + std::to_string(c.cutoff) + " density " + std::to_string(c.density);
}

// Pairs in the graph that are near only through the periodic boundary: the search must find them.
template <class T>
std::uint64_t wrapped_pairs(const Graph& g, const Particles<T>& p, const Box& box) {
  std::uint64_t count = 0;
  for (VertexId u = 0; u < g.num_vertices(); ++u)
    for (EdgeOffset e = g.offsets[u]; e < g.offsets[u + 1]; ++e)
      for (int a = 0; a < box.dims; ++a)
        count += std::abs(double(p.axis[a][u]) - double(p.axis[a][g.neighbors[e]])) > box.length[a] / 2;
  return count;
}

template <class T>
void check_search_against_all_pairs() {
  std::uint64_t seed = 3;
  for (const SearchCase& c : search_cases()) {
    INFO(describe(c), sizeof(T) == 4 ? " float" : " double");
    const Particles<T> p = random_particles<T>(c.box, particles_for(c), seed++, c.cutoff);
    const NeighborGraph found = find_neighbors(c.box, c.cutoff, p.view());
    const Graph expected = all_pairs_neighbors(c.box, c.cutoff, p.view());
    CHECK(expected.num_entries() > 0);
    CHECK(same_graph(in_particle_ids(found), expected));
    if (c.box.periodic) CHECK(wrapped_pairs(expected, p, c.box) > 0);
    // particle_of is a permutation, sorted by bin, each bin by id
    std::vector<VertexId> sorted = found.particle_of;
    std::sort(sorted.begin(), sorted.end());
    std::vector<VertexId> ids(p.count());
    std::iota(ids.begin(), ids.end(), 0u);
    CHECK(sorted == ids);
  }
}

}  // namespace

TEST_CASE("movable: portable sine and cosine are within 2^-52 of the C library's on [-2 pi, 2 pi]") {
  double worst = 0;
  for (int i = -200000; i <= 200000; ++i) {
    const double x = 2 * kPi * i / 200000.0;
    const SinCos t = portable_sincos(x);
    worst = std::max({worst, std::abs(t.sin - std::sin(x)), std::abs(t.cos - std::cos(x))});
  }
  CHECK(worst <= std::ldexp(1.0, -52));
  CHECK(portable_sin(0.0) == 0.0);
  CHECK(portable_cos(0.0) == 1.0);
  CHECK(portable_sin(1e-300) == 1e-300);
  // Away from the zeros, relative accuracy: within 2 ulps on [pi/8, 3 pi/8].
  for (double x = kPi / 8; x < 3 * kPi / 8; x += 1e-4) {
    CHECK(std::abs(portable_sin(x) - std::sin(x)) <= 2 * std::numeric_limits<double>::epsilon() * std::sin(x));
    CHECK(std::abs(portable_cos(x) - std::cos(x)) <= 2 * std::numeric_limits<double>::epsilon() * std::cos(x));
  }
}

TEST_CASE("movable: the cell list finds exactly the pairs all-pairs finds (2D, 3D, periodic, closed, float, double)") {
  check_search_against_all_pairs<double>();
  check_search_against_all_pairs<float>();
}

TEST_CASE("movable: particles at the box's edges and exactly the cutoff apart") {
  const Box box = make_box(2, 4.0, 4.0, 1, true);
  Particles<double> p;
  const double top = std::nextafter(4.0, 0.0);
  // (0,0) sees (top, 0) through the wall, (1,0) at exactly the cutoff, (0, 3) through the other wall
  p.axis[0] = {0.0, top, 1.0, 0.0, 2.0};
  p.axis[1] = {0.0, 0.0, 0.0, 3.0, 2.0};
  const Graph g = in_particle_ids(find_neighbors(box, 1.0, p.view()));
  CHECK(same_graph(g, all_pairs_neighbors(box, 1.0, p.view())));
  CHECK(std::vector<VertexId>(g.neighbors.begin() + std::ptrdiff_t(g.offsets[0]),
                              g.neighbors.begin() + std::ptrdiff_t(g.offsets[1])) == std::vector<VertexId>{1, 2, 3});
  CHECK(g.degree(4) == 0);
  // Closed: no wrapping; a particle exactly on the far wall is inside.
  Box closed = box;
  closed.periodic = false;
  p.axis[0][1] = 4.0;
  const Graph h = in_particle_ids(find_neighbors(closed, 1.0, p.view()));
  CHECK(same_graph(h, all_pairs_neighbors(closed, 1.0, p.view())));
  CHECK(h.degree(0) == 1);  // (1,0) only: (top, 0) and (0,3) are across the box
}

TEST_CASE("movable: the search is the same for any thread count, and its layout lists its rows") {
  const Box box = make_box(3, 9.5, 8.25, 7.0, true);
  const Particles<double> p = random_particles<double>(box, 3000, 11, 1.2);
  const NeighborGraph one = find_neighbors(box, 1.2, p.view(), 1);
  for (int threads : {2, 3, 0}) {
    const NeighborGraph more = find_neighbors(box, 1.2, p.view(), threads);
    CHECK(more.particle_of == one.particle_of);
    CHECK(same_graph(more.graph, one.graph));
  }
  CompileOptions small_windows;
  small_windows.sort_window = 100;
  for (const CompileOptions& options : {CompileOptions{}, small_windows}) {
    const Layout L = compile_neighbors(one, options);
    CHECK(same_graph(lists_in_user_ids(L), in_particle_ids(one)));
    // Neighbors near in space sit near in memory: a list's cells are mostly within a few hundred.
    std::uint64_t near = 0, total = 0;
    for (std::uint32_t v = 0; v < L.num_vertices; ++v)
      for_each_neighbor(L, v, [&](std::uint32_t cell, std::uint32_t) {
        near += (cell > v ? cell - v : v - cell) < 2000;
        ++total;
      });
    CHECK(near > total * 9 / 10);
  }
}

TEST_CASE("movable: bad boxes, cutoffs and positions are refused by name") {
  Particles<double> p;
  p.axis[0] = {0.5, 1.5};
  p.axis[1] = {0.5, 4.0};
  const Box box = make_box(2, 4.0, 4.0, 1, true);
  CHECK_THROWS_WITH_AS(find_neighbors(box, 1.0, p.view()),
                       doctest::Contains("particle 1 lies outside the periodic box"), Error);
  p.axis[1][1] = std::nan("");
  CHECK_THROWS_WITH_AS(find_neighbors(box, 1.0, p.view()), doctest::Contains("not finite"), Error);
  p.axis[1][1] = 1.0;
  CHECK_THROWS_WITH_AS(find_neighbors(box, 0.0, p.view()), doctest::Contains("cutoff must be positive"), Error);
  CHECK_THROWS_WITH_AS(find_neighbors(make_box(4, 1, 1, 1, true), 1.0, p.view()),
                       doctest::Contains("2 or 3 dimensions"), Error);
  CHECK_THROWS_WITH_AS(find_neighbors(make_box(2, -1, 1, 1, true), 1.0, p.view()), doctest::Contains("along x"), Error);
  Box closed = box;
  closed.periodic = false;
  p.axis[0][0] = -3.0;  // closed boxes take positions outside: the outermost bins hold them
  CHECK(same_graph(in_particle_ids(find_neighbors(closed, 1.0, p.view())), all_pairs_neighbors(closed, 1.0, p.view())));
}

namespace {

// Vicsek et al.'s step written plainly for a periodic square: all pairs, neighbors in
// ascending id then the particle itself, the model's random draws and rounding.
struct PlainVicsek {
  double side, r, v0, eta;
  std::uint64_t seed;
  std::vector<double> x, y, ux, uy;

  static double wrap_delta(double a, double b, double length) {
    double d = b - a;
    if (d > length * 0.5) d -= length;
    else if (d < -length * 0.5) d += length;
    return d;
  }

  void step(std::uint32_t t) {
    const std::size_t n = x.size();
    std::vector<double> nx(n), ny(n), nux(n), nuy(n);
    for (std::size_t i = 0; i < n; ++i) {
      double sx = 0, sy = 0;
      for (std::size_t j = 0; j < n; ++j) {
        const double dx = wrap_delta(x[i], x[j], side), dy = wrap_delta(y[i], y[j], side);
        if (j != i && dx * dx + dy * dy <= r * r) sx += ux[j], sy += uy[j];
      }
      sx += ux[i], sy += uy[i];
      const double norm = std::sqrt(sx * sx + sy * sy);
      const double mx = sx / norm, my = sy / norm;
      CellRandom rng(seed, std::uint32_t(i), t, RandomStream::model);
      const SinCos turn = portable_sincos(eta * (rng.uniform() - 0.5));
      nux[i] = turn.cos * mx - turn.sin * my;
      nuy[i] = turn.sin * mx + turn.cos * my;
      nx[i] = x[i] + v0 * nux[i];
      ny[i] = y[i] + v0 * nuy[i];
      for (double* c : {&nx[i], &ny[i]}) {
        if (*c >= side) *c -= side;
        else if (*c < 0) *c += side;
        if (*c >= side) *c = 0;
      }
    }
    x.swap(nx), y.swap(ny), ux.swap(nux), uy.swap(nuy);
  }
};

std::vector<double> as_doubles(const std::vector<std::uint8_t>& bytes) {
  std::vector<double> v(bytes.size() / sizeof(double));
  std::memcpy(v.data(), bytes.data(), bytes.size());
  return v;
}

// The order parameter's mean over `steps` steps after `settle` steps.
double mean_order(MovableSimulation& sim, std::uint64_t settle, std::uint64_t steps) {
  sim.advance(settle);
  double sum = 0;
  for (std::uint64_t s = 0; s < steps; ++s) {
    sim.advance(1);
    sum += sim.observables()[0];
  }
  return sum / double(steps);
}

}  // namespace

TEST_CASE("movable: a Vicsek step equals a plainly written all-pairs step, bit for bit") {
  VicsekRun run;
  run.particles = 400;
  run.box = density_four_square(run.particles);
  run.eta = 1.3;
  run.v0 = 0.25;  // fast: lists change every step
  run.seed = 17;
  for (double skin : {0.0, 0.6}) {
    run.skin = skin;
    auto sim = make_vicsek(run);
    std::vector<std::vector<double>> start;
    for (const auto& bytes : sim->export_state()) start.push_back(as_doubles(bytes));
    PlainVicsek plain{run.box.length[0], run.r, run.v0, run.eta, run.seed, start[0], start[1], start[2], start[3]};
    for (std::uint32_t t = 0; t < 12; ++t) {
      sim->advance(1);
      plain.step(t);
      const auto state = sim->export_state();
      INFO("skin ", skin, " after step ", t);
      CHECK(as_doubles(state[0]) == plain.x);
      CHECK(as_doubles(state[1]) == plain.y);
      CHECK(as_doubles(state[2]) == plain.ux);
      CHECK(as_doubles(state[3]) == plain.uy);
    }
    if (skin > 0) CHECK(sim->rebuild_stats().rebuilds < 12);
    else CHECK(sim->rebuild_stats().rebuilds == 12);
  }
}

TEST_CASE("movable: Vicsek runs do not depend on the skin or the thread count, and Verlet lists hold every neighbor") {
  for (int dims : {2, 3})
    for (bool periodic : {true, false}) {
      VicsekRun run;
      run.particles = 1500;
      run.box = dims == 2 ? make_box(2, 19.5, 17.25, 1, periodic) : make_box(3, 7.5, 6.75, 8.0, periodic);
      run.eta = 0.8;
      run.v0 = 0.1;
      run.seed = 5;
      INFO(dims, "D ", periodic ? "periodic" : "closed");
      run.skin = 0;
      run.threads = 1;
      auto reference = make_vicsek(run);
      reference->advance(30);
      for (double skin : {0.3, 1.1})
        for (int threads : {2, 0}) {
          run.skin = skin;
          run.threads = threads;
          auto sim = make_vicsek(run);
          for (int chunk = 0; chunk < 3; ++chunk) {
            sim->advance(10);
            Particles<double> now;
            for (int a = 0; a < dims; ++a) now.axis[a] = sim->variable(a);
            CHECK(same_graph(sim->current_neighbors(), in_particle_ids(find_neighbors(run.box, run.r, now.view()))));
          }
          CHECK(sim->export_state() == reference->export_state());
          CHECK(sim->rebuild_stats().rebuilds < 30);
          CHECK(sim->rebuild_stats().rebuilds >= 2);
        }
      // Closed boxes keep the particles inside; headings stay unit vectors.
      const std::vector<double> pos = reference->positions();
      for (std::size_t i = 0; i < pos.size(); ++i) {
        CHECK(pos[i] >= 0.0);
        CHECK(pos[i] <= run.box.length[i % dims]);
      }
      for (std::uint32_t p = 0; p < run.particles; p += 97) {
        double norm2 = 0;
        for (int a = 0; a < dims; ++a) norm2 += std::pow(reference->variable(dims + a)[p], 2);
        CHECK(std::abs(norm2 - 1.0) < 1e-12);
      }
    }
}

TEST_CASE("movable: Verlet lists in hub rows hold every neighbor too") {
  VicsekRun run;
  run.particles = 3000;
  run.box = make_box(2, 20.0, 20.0, 1, true);
  run.v0 = 0.1;
  run.skin = 0.5;
  run.compile.hub_degree = 14;  // about half the lists are hubs', a few giants'
  run.compile.giant_degree = 22;
  auto sim = make_vicsek(run);
  for (int chunk = 0; chunk < 4; ++chunk) {
    sim->advance(7);
    Particles<double> now;
    for (int a = 0; a < 2; ++a) now.axis[a] = sim->variable(a);
    CHECK(same_graph(sim->current_neighbors(), in_particle_ids(find_neighbors(run.box, run.r, now.view()))));
    const Layout L = sim->rebuilt_layout();
    CHECK(L.num_hub_slices > 0);
    CHECK(L.num_giant_hubs > 0);
  }
}

TEST_CASE("movable: Vicsek order at density 4: near 1 at low noise, of order 1/sqrt(N) at full noise") {
  // Vicsek et al. 1995, Fig. 2: at rho = 4 the order parameter v_a approaches 1 as eta -> 0
  // and falls to the 1/sqrt(N) of independent headings as eta -> 2 pi.
  VicsekRun run;
  run.particles = 1024;
  run.box = density_four_square(run.particles);  // 16 x 16
  run.skin = 0.3;
  run.eta = 0.1;
  run.seed = 2;
  auto ordered = make_vicsek(run);
  const double start = ordered->observables()[0];
  CHECK(start < 0.1);  // random headings at first
  const double low_noise = mean_order(*ordered, 600, 50);
  CHECK(low_noise > 0.9);

  // At eta = 2 pi every heading is uniform whatever the neighbors: |sum| / N is Rayleigh with
  // mean sqrt(pi / (4 N)), about 0.886 / sqrt(N); its mean over 50 steps is within a few
  // percent of that.
  run.particles = 4096;
  run.box = density_four_square(run.particles);
  run.eta = 2 * kPi;
  auto disordered = make_vicsek(run);
  const double high_noise = mean_order(*disordered, 20, 50);
  const double independent = std::sqrt(kPi / (4.0 * run.particles));
  CHECK(high_noise > 0.6 * independent);
  CHECK(high_noise < 1.5 * independent);
  CHECK(high_noise < 0.15);
}

TEST_CASE("movable: 3D Vicsek orders at low noise and not at full noise") {
  VicsekRun run;
  run.particles = 2000;
  const double side = std::cbrt(run.particles / 4.0);
  run.box = make_box(3, side, side, side, true);
  run.skin = 0.3;
  run.v0 = 0.05;
  run.seed = 9;
  run.eta = 0.2;
  auto ordered = make_vicsek(run);
  CHECK(mean_order(*ordered, 300, 20) > 0.9);
  run.eta = 2 * kPi;
  auto disordered = make_vicsek(run);
  const double high_noise = mean_order(*disordered, 10, 40);
  // Uniform on the sphere: E|sum| / N = sqrt(8 / (3 pi N)).
  const double independent = std::sqrt(8.0 / (3.0 * kPi * run.particles));
  CHECK(high_noise > 0.6 * independent);
  CHECK(high_noise < 1.5 * independent);
}

TEST_CASE("movable: Vicsek's parameters and setup are checked") {
  VicsekRun run;
  run.particles = 10;
  run.box = make_box(2, 4, 4, 1, true);
  run.v0 = 5;
  CHECK_THROWS_WITH_AS(make_vicsek(run), doctest::Contains("v0 = 5 must be below the box's shortest side"), Error);
  run.v0 = 0.1;
  run.eta = 7;
  CHECK_THROWS_WITH_AS(make_vicsek(run), doctest::Contains("eta"), Error);
  run.eta = 0.5;
  run.skin = -1;
  CHECK_THROWS_WITH_AS(make_vicsek(run), doctest::Contains("skin must be 0 or more"), Error);
  run.skin = 0;
  run.particles = 0;
  CHECK_THROWS_WITH_AS(make_vicsek(run), doctest::Contains("at least one particle"), Error);
  // Imported states are checked: a particle outside the periodic box is refused by id.
  run.particles = 10;
  auto sim = make_vicsek(run);
  auto state = sim->export_state();
  const double outside = 4.5;
  std::memcpy(state[1].data() + 3 * sizeof(double), &outside, sizeof outside);
  CHECK_THROWS_WITH_AS(sim->import_state(state, 0), doctest::Contains("particle 3 lies outside"), Error);
}
