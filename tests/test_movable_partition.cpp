// Partitioned movable runs inside one test process (partition/movable/): the spatial
// decomposition, and Vicsek runs split over 2 to 4 parts on threads, trading particles through
// the in-process mailbox, equal to the one-process run bit for bit while particles cross the
// part borders many times. The same runs under mpirun are in test_partition_mpi.cpp.
#include <doctest/doctest.h>

#include <functional>
#include <thread>

#include "movable_check.hpp"
#include "partition/movable/spatial_decomposition.hpp"
#include "partitioned_runs.hpp"

using namespace cellgraph;
using namespace cellgraph::test;

namespace {

// The parts of one Vicsek run, as `mpirun -np parts` sets them up: each made through the
// registry, with its own mailbox transport, stepped on a thread of its own.
class VicsekParts {
 public:
  VicsekParts(const VicsekRun& run, std::uint32_t parts) {
    const models::MovableModelInfo* info = models::find_movable_model("vicsek");
    REQUIRE(info);
    const models::Params params = vicsek_params(run);
    const auto mailbox = std::make_shared<Mailbox>();
    for (std::uint32_t p = 0; p < parts; ++p) {
      MovableOptions movable = movable_options_of(run);
      movable.part = p;
      movable.parts = parts;
      SimulationOptions options = simulation_options_of(run);
      options.threads = 1;
      options.halo = std::make_shared<MailboxTransport>(mailbox, p);
      parts_.push_back(info->make(params, run.box, run.particles, movable, options));
    }
    const auto start = info->initial_state(params, run.box, run.particles, run.seed);
    on_every_part([&](std::uint32_t, MovableSimulation& s) { s.import_state(start, 0); });
  }

  // Every part at once (their collectives wait for each other); the first exception rethrown.
  void on_every_part(const std::function<void(std::uint32_t, MovableSimulation&)>& work) {
    std::vector<std::exception_ptr> failed(parts_.size());
    std::vector<std::thread> threads;
    for (std::uint32_t p = 0; p < parts_.size(); ++p)
      threads.emplace_back([&, p] {
        try {
          work(p, *parts_[p]);
        } catch (...) {
          failed[p] = std::current_exception();
        }
      });
    for (std::thread& t : threads) t.join();
    for (const auto& e : failed)
      if (e) std::rethrow_exception(e);
  }

  void advance(std::uint64_t steps) {
    on_every_part([&](std::uint32_t, MovableSimulation& s) { s.advance(steps); });
  }
  // Part 0's answers to the collective observers (the whole run's).
  std::vector<std::vector<std::uint8_t>> export_state() {
    std::vector<std::vector<std::uint8_t>> whole;
    on_every_part([&](std::uint32_t p, MovableSimulation& s) {
      auto mine = s.export_state();
      if (p == 0) whole = std::move(mine);
    });
    return whole;
  }
  std::vector<double> observables() {
    std::vector<std::vector<double>> each(parts_.size());
    on_every_part([&](std::uint32_t p, MovableSimulation& s) { each[p] = s.observables(); });
    for (const auto& values : each) CHECK(values == each[0]);  // every part gets the sums
    return each[0];
  }
  Graph current_neighbors() {
    Graph whole;
    on_every_part([&](std::uint32_t p, MovableSimulation& s) {
      Graph mine = s.current_neighbors();
      if (p == 0) whole = std::move(mine);
    });
    return whole;
  }
  MovableSimulation& part(std::uint32_t p) { return *parts_[p]; }
  std::uint32_t count() const { return std::uint32_t(parts_.size()); }

 private:
  std::vector<std::unique_ptr<MovableSimulation>> parts_;
};

struct Crossings {
  std::uint64_t migrated = 0, halo = 0;
};

// The split run equals the whole run after each chunk of steps: every variable of every
// particle, the observables and the neighbor lists. Returns how many particles changed parts.
Crossings check_split_identity(const VicsekRun& run, std::uint32_t parts) {
  auto whole = make_vicsek(run);
  VicsekParts split(run, parts);
  CHECK(split.observables() == whole->observables());
  for (std::uint64_t steps : {1, 4, 15, 40}) {
    whole->advance(steps);
    split.advance(steps);
    INFO("at step ", whole->step());
    REQUIRE(split.export_state() == whole->export_state());
    CHECK(split.observables() == whole->observables());
  }
  CHECK(same_graph(split.current_neighbors(), whole->current_neighbors()));
  Crossings c;
  std::uint64_t owned = 0;
  for (std::uint32_t p = 0; p < parts; ++p) {
    const RebuildStats stats = split.part(p).rebuild_stats();
    CHECK(stats.rebuilds == whole->rebuild_stats().rebuilds);  // the same Verlet decisions
    if (run.skin > 0) CHECK(stats.rebuilds < whole->step());
    c.migrated += stats.migrated;
    c.halo += stats.halo;
    const Layout L = split.part(p).rebuilt_layout();
    CHECK(L.num_vertices > 0);
    owned += L.num_vertices;
  }
  CHECK(owned == run.particles);
  return c;
}

}  // namespace

TEST_CASE("movable partition: RCB regions tile the bins, balance the particles and own their points") {
  for (int dims : {2, 3})
    for (bool periodic : {true, false})
      for (std::uint32_t parts : {1u, 2u, 3u, 5u, 8u}) {
        const Box box = dims == 2 ? make_box(2, 17.3, 9.1, 1, periodic) : make_box(3, 7.7, 6.2, 5.4, periodic);
        const Particles<double> p = random_particles<double>(box, 4000, 7 + parts, 1.0);
        std::vector<const double*> axes;
        for (int a = 0; a < dims; ++a) axes.push_back(p.axis[a].data());
        const SpatialDecomposition d(box, 1.1, parts, axes, p.count());
        INFO(d.describe());
        REQUIRE(d.parts() == parts);
        std::uint64_t bins = 1;
        for (int a = 0; a < dims; ++a) bins *= d.bins()[a];
        // Every bin in exactly one region: the volumes add up, and regions do not overlap.
        std::uint64_t volume = 0;
        for (std::uint32_t q = 0; q < parts; ++q) {
          std::uint64_t v = 1;
          for (int a = 0; a < dims; ++a) v *= d.region(q).end_bin[a] - d.region(q).first_bin[a];
          volume += v;
        }
        CHECK(volume == bins);
        std::vector<std::uint64_t> count(parts, 0);
        for (std::uint32_t i = 0; i < p.count(); ++i) {
          double x[3] = {0, 0, 0};
          for (int a = 0; a < dims; ++a) x[a] = p.axis[a][i];
          const std::uint32_t owner = d.owner(x);
          ++count[owner];
          CHECK(d.near(owner, x, 0.0));  // inside its own region
          for (std::uint32_t q = 0; q < parts; ++q)
            if (q != owner && d.near(q, x, 0.0)) {
              // At distance 0 from another region only on its border (a bin plane, to rounding;
              // 0 and L are one plane in a periodic box).
              bool on_plane = false;
              for (int a = 0; a < dims; ++a) {
                const double L = box.length[a], bin = L / d.bins()[a], ulps = 1e-12 * L;
                for (double plane : {d.region(q).first_bin[a] * bin, d.region(q).end_bin[a] * bin})
                  for (double image : {plane - L, plane, plane + L})
                    on_plane = on_plane || (std::abs(x[a] - image) < ulps && (periodic || image == plane));
              }
              CHECK(on_plane);
            }
        }
        // Balanced to within a few bins' worth of particles.
        const double mean = double(p.count()) / parts;
        for (std::uint64_t c : count) CHECK(std::abs(double(c) - mean) < 0.25 * mean + 200);
      }
}

TEST_CASE("movable partition: near() measures the distance to a region by the nearest image") {
  const Box box = make_box(2, 10.0, 10.0, 1, true);
  std::vector<double> xs = {4.5, 5.5}, ys = {5.0, 5.0};
  const SpatialDecomposition d(box, 1.0, 2, {xs.data(), ys.data()}, 2);
  // Two slabs across x: [0, 5) and [5, 10).
  REQUIRE(d.region(0).end_bin[0] == 5);
  const double near_wall[2] = {9.6, 5.0};  // 0.4 from part 0 through the periodic wall
  CHECK(d.owner(near_wall) == 1);
  CHECK(d.near(0, near_wall, 0.5));
  CHECK(!d.near(0, near_wall, 0.3));
  Box closed = box;
  closed.periodic = false;
  const SpatialDecomposition c(closed, 1.0, 2, {xs.data(), ys.data()}, 2);
  CHECK(!c.near(0, near_wall, 0.5));       // no wrapping in a closed box
  const double outside[2] = {10.0, -3.0};  // on the far wall, below the floor: still owned
  CHECK(c.owner(outside) == 1);
  CHECK(c.near(1, outside, 0.0));
}

TEST_CASE(
    "movable partition: a split Vicsek run equals the whole run (2 to 4 parts, 2D, 3D, periodic, closed, skins)") {
  for (int dims : {2, 3})
    for (bool periodic : {true, false})
      for (double skin : {0.0, 1.0}) {
        VicsekRun run;
        run.particles = dims == 2 ? 500 : 700;
        run.box = dims == 2 ? make_box(2, 12.5, 10.0, 1, periodic) : make_box(3, 6.5, 5.75, 5.0, periodic);
        run.eta = 2.0;
        run.v0 = 0.3;  // fast: many border crossings in 60 steps; with the skin, lists kept 2 steps
        run.skin = skin;
        run.seed = 11;
        for (std::uint32_t parts : {2u, 3u, 4u}) {
          INFO(dims, "D ", std::string(periodic ? "periodic" : "closed"), ", skin ", skin, ", ", parts, " parts");
          const Crossings c = check_split_identity(run, parts);
          CHECK(c.migrated > run.particles / 2);  // hundreds of border crossings
          CHECK(c.halo > 0);
        }
      }
}

TEST_CASE("movable partition: bad splits, backends and hub lists are refused with a message") {
  VicsekRun run;
  run.particles = 60;
  run.box = make_box(2, 3.0, 3.0, 1, true);  // 2 x 2 bins of r + skin = 1.25
  run.skin = 0.25;
  CHECK_THROWS_WITH_AS(
      VicsekParts(run, 5),
      doctest::Contains("cannot split the box into 5 parts: regions are whole bins at least r + skin = "
                        "1.250000 wide, and the box has 2x2 bins (at most 4 parts)"),
      Error);
  CHECK_NOTHROW(VicsekParts(run, 4));
  run.backend = BackendKind::cuda;
  CHECK_THROWS_WITH_AS(VicsekParts(run, 2), doctest::Contains("run on the CPU backend only"), Error);
  // Lists at or above the hub threshold: every part stops at the same rebuild, none waits.
  run.backend = BackendKind::cpu;
  run.particles = 400;
  run.box = make_box(2, 10.0, 10.0, 1, true);
  run.compile.hub_degree = 8;
  VicsekParts dense(run, 3);
  CHECK_THROWS_WITH_AS(dense.advance(1), doctest::Contains("neighbors within r + skin (the hub threshold"), Error);
}
