// The movable cellular automaton (models/mca.hpp) on the CPU: the plate, one step against a
// plainly written all-pairs step, momentum and energy (velocity Verlet's dt^2), bonds that
// break and form symmetrically and within capacity, and runs that do not depend on the thread
// count, the skin or hub rows.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "cellgraph/error.hpp"
#include "mca_check.hpp"

using namespace cellgraph;
using namespace cellgraph::test;
using models::mca::kNoParticle;

namespace {

// The pair distance as the model (and the neighbor lists) take it: nearest image, summed in
// axis order.
double squared_distance(const McaState& s, const Box& box, std::uint32_t p, std::uint32_t q, double* d = nullptr) {
  double r2 = 0;
  for (int a = 0; a < s.dims; ++a) {
    const double delta = axis_delta(s.position[a][p], s.position[a][q], box.length[a], box.periodic);
    if (d) d[a] = delta;
    r2 += delta * delta;
  }
  return r2;
}

// A plate of grip-free particles with random velocities in a periodic box: only internal
// forces act.
McaRun thermal_plate(int dims, double thermal) {
  McaRun run;
  run.box = dims == 2 ? make_box(2, 40, 30, 1, true) : make_box(3, 26, 16, 12, true);
  run.particles = dims == 2 ? 420 : 540;
  run.params = {{"grip", "0"}, {"thermal", std::to_string(thermal)}};
  if (dims == 3) run.params["layers"] = "3";
  run.seed = 7;
  return run;
}

std::vector<double> momentum(const McaState& s) {  // of the half-step velocities, m = 1
  std::vector<double> p(s.dims, 0.0);
  for (int a = 0; a < s.dims; ++a)
    for (double v : s.velocity[a]) p[a] += v;
  return p;
}

double observable(MovableSimulation& sim, const std::string& name) {
  const std::vector<std::string> names = sim.observable_names();
  const std::vector<double> values = sim.observables();
  const auto it = std::find(names.begin(), names.end(), name);
  REQUIRE(it != names.end());
  return values[std::size_t(it - names.begin())];
}

// One step of the model written plainly from docs/MCA.md (2D, no damping): every pair within
// the radius, partners in ascending id, as the lists give them.
McaState reference_step(const McaState& s, const Box& box, double dt, double d, double k, double kc, double strain,
                        double form) {
  const double radius = d * (1.0 + strain), break_r2 = radius * radius, form_r2 = (form * d) * (form * d);
  const std::uint32_t n = s.count();
  const int K = models::mca::bond_capacity(2);
  McaState next = s;
  for (std::uint32_t i = 0; i < n; ++i) {
    double force[2] = {0, 0}, best_r2 = form_r2;
    std::uint32_t kept = 0, formed = kNoParticle, best = kNoParticle;
    auto pull = [&](const double* dv, double r2, double stiffness) {
      if (r2 == 0) return;
      const double r = std::sqrt(r2), c = stiffness * (r - d) / r;
      for (int a = 0; a < 2; ++a) force[a] += c * dv[a];
    };
    for (std::uint32_t j = 0; j < n; ++j) {
      double dv[2];
      const double r2 = j == i ? 0 : squared_distance(s, box, i, j, dv);
      if (j == i || r2 > break_r2) continue;
      int slot = -1;
      for (int b = 0; b < K; ++b)
        if (s.bonds[b][i] == j) slot = b;
      if (slot >= 0) {
        kept |= 1u << slot;
        pull(dv, r2, 1.0 * k);
      } else if (r2 < form_r2 && s.proposal[i] == j && s.proposal[j] == i && s.held(i) < 6 && s.held(j) < 6) {
        formed = j;
        pull(dv, r2, k);
      } else {
        if (r2 < d * d) pull(dv, r2, kc);
        if (r2 < form_r2 && (r2 < best_r2 || (r2 == best_r2 && j < best)) && s.held(j) < 6) best = j, best_r2 = r2;
      }
    }
    for (int a = 0; a < 2; ++a) {
      double v = s.velocity[a][i];
      if (!(s.flags[i] & models::mca::kDriven)) {
        const double accel = force[a] / 1.0;
        v = (v + 0.5 * dt * accel) + 0.5 * dt * accel;
      }
      double x = s.position[a][i] + dt * v;
      if (x < 0) x = -x, v = -v;  // closed box
      if (x > box.length[a]) x = 2 * box.length[a] - x, v = -v;
      next.position[a][i] = x, next.velocity[a][i] = v;
    }
    std::uint32_t held = 0;
    for (int b = 0; b < K; ++b) {
      std::uint32_t partner = (kept >> b) & 1 ? s.bonds[b][i] : kNoParticle;
      if (partner == kNoParticle && formed != kNoParticle) partner = formed, formed = kNoParticle;
      next.bonds[b][i] = partner;
      held += partner != kNoParticle;
    }
    next.proposal[i] = held < 6 ? best : kNoParticle;
  }
  return next;
}

}  // namespace

TEST_CASE("mca: the plate starts with every touching pair bonded, but across the notch") {
  McaRun run;
  run.box = make_box(2, 60, 30, 1, false);
  run.particles = 600;  // 32 columns x 19 rows less 8
  run.params = {{"columns", "32"}, {"notch", "0.5"}};
  auto sim = make_mca(run);
  const McaState s(sim->export_state(), 2);
  CHECK(check_bonds_symmetric(s) == 0);
  std::uint32_t six = 0, driven = 0, cut = 0;
  for (std::uint32_t p = 0; p < s.count(); ++p) {
    six += s.held(p) == 6;
    driven += (s.flags[p] & models::mca::kDriven) != 0;
    CHECK(s.proposal[p] == kNoParticle);
    for (std::uint32_t q = p + 1; q < s.count(); ++q)
      if (std::abs(std::sqrt(squared_distance(s, run.box, p, q)) - 1.0) < 1e-9) cut += !s.bonded(p, q);
  }
  CHECK(six > 400);
  CHECK(driven == 2 * 2 * 19 - 2);  // two columns at each end; the last row's right end is missing
  CHECK(cut == 2 * 10);             // rows 0 .. 9 (half of 19, rounded): the pair within the row, the diagonal above
  CHECK(observable(*sim, "bonds") == double(s.bond_ends() / 2));
  CHECK(observable(*sim, "potential") < 1e-20);

  McaRun solid = run;
  solid.box = make_box(3, 30, 20, 12, true);
  solid.particles = 3 * 300;
  solid.params = {{"columns", "20"}, {"layers", "3"}, {"notch", "0"}};
  const McaState s3(make_mca(solid)->export_state(), 3);
  CHECK(check_bonds_symmetric(s3) == 0);
  std::uint32_t twelve = 0;
  for (std::uint32_t p = 0; p < s3.count(); ++p) twelve += s3.held(p) == 12;
  CHECK(twelve > 150);  // the middle layer's interior: fcc
}

TEST_CASE("mca: a step equals a plainly written all-pairs step, bit for bit, while the plate cracks") {
  McaRun run;
  run.box = make_box(2, 50, 26, 1, false);
  run.particles = 700;
  run.params = {{"pull", "0.1"}, {"kc", "2"}, {"break", "0.03"}, {"form", "1.02"}, {"thermal", "0.02"}};
  auto sim = make_mca(run);
  const McaState start(sim->export_state(), 2);
  int checked = 0;
  for (std::uint64_t steps : {1, 40, 200, 300}) {
    sim->advance(steps - 1);
    const McaState before(sim->export_state(), 2);
    sim->advance(1);
    const McaState after(sim->export_state(), 2);
    const McaState expected = reference_step(before, run.box, 0.05, 1.0, 1.0, 2.0, 0.03, 1.02);
    INFO("step ", sim->step());
    CHECK(after.bytes() == expected.bytes());
    ++checked;
  }
  const McaState end(sim->export_state(), 2);
  std::uint64_t formed = 0, broken = 0;  // since the start
  for (std::uint32_t p = 0; p < end.count(); ++p)
    for (std::size_t b = 0; b < end.bonds.size(); ++b) {
      formed += end.bonds[b][p] != kNoParticle && !start.bonded(p, end.bonds[b][p]);
      broken += start.bonds[b][p] != kNoParticle && !end.bonded(p, start.bonds[b][p]);
    }
  CHECK(checked == 4);
  CHECK(broken > 0);
  CHECK(formed > 0);
}

TEST_CASE("mca: total momentum is conserved to rounding with only internal forces (2D, 3D, damped or not)") {
  for (int dims : {2, 3})
    for (const std::string damping : {"0", "0.3"}) {
      McaRun run = thermal_plate(dims, 0.12);
      run.params["damping"] = damping;
      run.skin = 0.2;
      auto sim = make_mca(run);
      const McaState start(sim->export_state(), dims);
      const std::vector<double> p0 = momentum(start);
      const double px0 = observable(*sim, "px"), kinetic0 = observable(*sim, "kinetic");
      sim->advance(1500);
      const McaState end(sim->export_state(), dims);
      const std::vector<double> p1 = momentum(end);
      INFO(dims, "D, damping ", damping, ": momentum ", p0[0], " ", p0[1], " then ", p1[0], " ", p1[1]);
      double scale = 0;  // sum of |m v|: what rounding is relative to
      for (int a = 0; a < dims; ++a)
        for (double v : start.velocity[a]) scale += std::abs(v);
      for (int a = 0; a < dims; ++a) CHECK(std::abs(p1[a] - p0[a]) < 1e-13 * scale);
      // the observable (fixed point, 2^-32 per particle) agrees
      CHECK(std::abs(observable(*sim, "px") - px0) < 2.0 * run.particles / 4294967296.0 + 1e-13 * scale);
      // and forces did act: energy moved, bonds broke
      CHECK(std::abs(observable(*sim, "kinetic") - kinetic0) > 0.01 * kinetic0);
      CHECK(end.bonds != start.bonds);
      CHECK(check_bonds_symmetric(end) == 0);
    }
}

TEST_CASE("mca: energy drift of purely elastic bonds shrinks about 4x per halving of dt (velocity Verlet)") {
  for (int dims : {2, 3}) {
    std::vector<double> drift;
    double energy = 0;
    for (double dt : {0.08, 0.04, 0.02}) {
      McaRun run = thermal_plate(dims, 0.08);
      run.params["dt"] = std::to_string(dt);
      run.params["notch"] = "0";    // no unlinked pair touches: every force is a bond's
      run.params["break"] = "0.5";  // none breaks
      run.params["form"] = "0";     // none forms
      run.skin = 0.3;
      auto sim = make_mca(run);
      const McaState start(sim->export_state(), dims);
      energy = observable(*sim, "energy");
      double worst = 0;
      const std::uint64_t steps = std::uint64_t(std::llround(12.0 / dt));  // the same time span
      for (std::uint64_t i = 0; i < steps; i += 5) {
        sim->advance(5);
        worst = std::max(worst, std::abs(observable(*sim, "energy") - energy));
      }
      CHECK(McaState(sim->export_state(), dims).bond_ends() == start.bond_ends());
      drift.push_back(worst);
    }
    INFO(dims, "D: energy ", energy, ", drift ", drift[0], " ", drift[1], " ", drift[2]);
    CHECK(drift[0] < 0.05 * energy);
    CHECK(drift[2] > 1e2 * 2 * 540 / 4294967296.0);  // well above the observables' rounding
    for (int i = 0; i + 1 < 3; ++i) {
      const double ratio = drift[i] / drift[i + 1];
      CHECK(ratio > 3.0);
      CHECK(ratio < 5.0);
    }
  }
}

TEST_CASE("mca: a bond breaks just past the strain threshold, and touching discs link by handshake") {
  McaRun run;
  run.box = make_box(2, 12, 12, 1, true);
  run.particles = 2;
  run.params = {{"break", "0.05"}};
  const double break_r2 = 1.05 * 1.05;
  auto sim = make_mca_empty(run);
  McaState s(mca_info().initial_state({{"grip", "0"}, {"columns", "2"}}, run.box, 2, 1), 2);
  REQUIRE(s.bonded(0, 1));
  s.velocity[0][0] = -0.2, s.velocity[0][1] = 0.2;  // flying apart along the bond
  sim->import_state(s.bytes(), 0);
  int broke_at = -1;
  for (int step = 0; step < 60 && broke_at < 0; ++step) {
    const McaState before(sim->export_state(), 2);
    sim->advance(1);
    const McaState after(sim->export_state(), 2);
    CHECK(check_bonds_symmetric(after) == 0);
    CHECK(after.bonded(0, 1) == (squared_distance(before, run.box, 0, 1) <= break_r2));
    if (!after.bonded(0, 1)) broke_at = step;
  }
  CHECK(broke_at > 0);  // held for a while, stretched, then broke

  // Unlinked, approaching head on: both propose on the first step they overlap, link on the next.
  McaState apart = s;
  for (auto& slot : apart.bonds) slot[0] = slot[1] = kNoParticle;
  apart.position[0][0] = 4.0, apart.position[0][1] = 5.5;
  apart.position[1][0] = apart.position[1][1] = 6.0;
  apart.velocity[0][0] = 0.05, apart.velocity[0][1] = -0.05;
  sim->import_state(apart.bytes(), 0);
  int proposed_at = -1, linked_at = -1;
  for (int step = 0; step < 200 && linked_at < 0; ++step) {
    const McaState before(sim->export_state(), 2);
    sim->advance(1);
    const McaState after(sim->export_state(), 2);
    CHECK(check_bonds_symmetric(after) == 0);
    const bool touching = squared_distance(before, run.box, 0, 1) < 1.0;
    if (proposed_at < 0 && touching) {
      proposed_at = step;
      CHECK(after.proposal[0] == 1);
      CHECK(after.proposal[1] == 0);
      CHECK(!after.bonded(0, 1));
    } else if (proposed_at >= 0 && after.bonded(0, 1)) {
      linked_at = step;
    }
    if (proposed_at < 0) CHECK(!after.bonded(0, 1));
  }
  CHECK(proposed_at > 0);
  CHECK(linked_at == proposed_at + 1);
}

TEST_CASE("mca: crowded contacts link one bond per particle per step, symmetrically and within capacity") {
  for (int dims : {2, 3}) {
    const int around = dims == 2 ? 9 : 18;  // more than the K slots of the middle particle
    McaRun run;
    run.box = dims == 2 ? make_box(2, 10, 10, 1, true) : make_box(3, 10, 10, 10, true);
    run.particles = std::uint32_t(around + 1);
    run.params = {{"form", "1.05"}, {"kc", "2"}, {"damping", "0.5"}};
    auto sim = make_mca_empty(run);
    McaState s(mca_info().initial_state({{"grip", "0"}, {"columns", "2"}, {"thermal", "0"}},
                                        make_box(dims, 40, 40, 40, false), run.particles, 1),
               dims);
    for (auto& slot : s.bonds) std::fill(slot.begin(), slot.end(), kNoParticle);
    for (int a = 0; a < dims; ++a) s.position[a][0] = 5.0;
    for (int i = 0; i < around; ++i) {  // on a circle (2D) or a Fibonacci sphere (3D) of radius 0.8
      const double t = 2.39996322972865332 * i, z = dims == 3 ? 1.0 - 2.0 * (i + 0.5) / around : 0.0;
      const double rho = std::sqrt(1.0 - z * z), angle = dims == 2 ? 6.283185307179586 * i / around : t;
      s.position[0][i + 1] = 5.0 + 0.8 * rho * std::cos(angle);
      s.position[1][i + 1] = 5.0 + 0.8 * rho * std::sin(angle);
      if (dims == 3) s.position[2][i + 1] = 5.0 + 0.8 * z;
    }
    sim->import_state(s.bytes(), 0);
    std::uint32_t most = 0;
    for (int step = 0; step < 150; ++step) {
      const McaState before(sim->export_state(), dims);
      sim->advance(1);
      const McaState after(sim->export_state(), dims);
      INFO(dims, "D step ", step);
      REQUIRE(check_bonds_symmetric(after) == 0);
      for (std::uint32_t p = 0; p < after.count(); ++p) {
        int fresh = 0;
        for (const auto& slot : after.bonds) fresh += slot[p] != kNoParticle && !before.bonded(p, slot[p]);
        CHECK(fresh <= 1);
      }
      most = std::max(most, after.held(0));
    }
    CHECK(most >= 3);  // the middle particle linked with several, one step at a time
  }
}

TEST_CASE("mca: runs do not depend on the thread count or the skin") {
  McaRun run;
  run.box = make_box(2, 150, 80, 1, false);
  run.particles = 10000;  // above the sweep's parallel minimum
  run.params = {{"thermal", "0.05"}, {"pull", "0.05"}, {"form", "1.02"}};
  std::vector<std::vector<std::uint8_t>> expected;
  std::vector<double> observables;
  for (double skin : {0.0, 0.3})
    for (int threads : {1, 2, 3}) {
      run.skin = skin;
      run.threads = threads;
      auto sim = make_mca(run);
      sim->advance(60);
      INFO("skin ", skin, ", ", threads, " threads");
      if (expected.empty()) {
        expected = sim->export_state();
        observables = sim->observables();
        CHECK(check_bonds_symmetric(McaState(expected, 2)) == 0);
      } else {
        CHECK(sim->export_state() == expected);
        CHECK(sim->observables() == observables);
      }
    }
}

TEST_CASE("mca: lists in hub rows (partial folds from the same self, combined) give the same bonds and motion") {
  McaRun run;
  run.box = make_box(2, 60, 40, 1, false);
  run.particles = 1500;
  run.params = {{"thermal", "0.05"}, {"pull", "0.05"}, {"form", "1.02"}, {"damping", "0.1"}};
  run.skin = 0.25;
  auto plain = make_mca(run);
  run.compile.hub_degree = 4;
  run.compile.giant_degree = 6;
  auto hubs = make_mca(run);
  for (std::uint64_t steps : {1, 30, 60}) {
    plain->advance(steps);
    hubs->advance(steps);
    const Layout layout = hubs->rebuilt_layout();
    CHECK(layout.num_hub_slices > 0);
    CHECK(layout.num_giant_hubs > 0);
    const McaState a(plain->export_state(), 2), b(hubs->export_state(), 2);
    INFO("step ", plain->step());
    CHECK(a.bonds == b.bonds);
    CHECK(a.proposal == b.proposal);
    double worst = 0;  // force sums in another order: rounding only
    for (int axis = 0; axis < 2; ++axis)
      for (std::uint32_t p = 0; p < a.count(); ++p)
        worst = std::max(worst, std::abs(a.position[axis][p] - b.position[axis][p]));
    CHECK(worst < 1e-12);
    CHECK(std::abs(observable(*plain, "energy") - observable(*hubs, "energy")) < 1e-6);
  }
}

TEST_CASE("mca: parameters and plates that cannot be honoured are refused") {
  McaRun run;
  run.box = make_box(2, 40, 30, 1, false);
  run.particles = 200;
  auto refused = [&](const models::Params& params, const std::string& message) {
    run.params = params;
    INFO(message);
    CHECK_THROWS_WITH_AS(make_mca(run), doctest::Contains(message.c_str()), Error);
  };
  refused({{"form", "1.2"}, {"break", "0.1"}}, "form = 1.2 must be at most 1 + break");
  refused({{"dt", "0.7"}}, "dt = 0.7 is too long");
  refused({{"kc", "50"}, {"dt", "0.1"}}, "is too long");
  refused({{"layers", "2"}}, "layers is for 3D plates");
  refused({{"columns", "4"}, {"grip", "2"}}, "leave nothing between two grips");
  refused({{"columns", "60"}}, "give a larger --box");
  refused({{"spring", "1"}}, "has no parameter 'spring'");
  refused({{"break", "-0.1"}}, "break must be a number");
  run.params = {};
  run.particles = 5000;
  CHECK_THROWS_WITH_AS(make_mca(run), doctest::Contains("long along x, the box only 40"), Error);
}
