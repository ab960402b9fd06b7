// The cloud model (Dobashi et al. 2000): its neighborhood, the model against a plain triple
// loop written here from the paper's equations (same Philox draws), the bit-packed CPU kernel
// against the graph engine, the top-view picture, and the command line.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>

#include "cellgraph/dense/automaton.hpp"
#include "cellgraph/error.hpp"
#include "cellgraph/output/column_view.hpp"
#include "cellgraph/output/png.hpp"
#include "cellgraph/source/source.hpp"
#include "cli_run.hpp"
#include "cloud_check.hpp"
#include "data_path.hpp"
#include "models/cloud.hpp"
#include "models/registry.hpp"
#include "scratch.hpp"

using namespace cellgraph;

namespace {

// ---- The reference: plain arrays and loops, nothing shared with the engine but Philox. ----

struct Field {
  std::int64_t X = 0, Y = 0, Z = 0;
  std::vector<std::uint8_t> hum, act, cld;
  std::size_t at(std::int64_t x, std::int64_t y, std::int64_t z) const { return std::size_t(x + X * (y + Y * z)); }
};

// The cell coordinate c of an axis of n cells stands for, or -1 outside an open boundary.
std::int64_t axis(std::int64_t c, std::int64_t n, BoundaryKind kind) {
  if (kind == BoundaryKind::periodic) return ((c % n) + n) % n;
  if (kind == BoundaryKind::fixed) return c >= 0 && c < n ? c : -1;
  while (c < 0 || c >= n) c = c < 0 ? -1 - c : 2 * n - 1 - c;  // mirrored, the edge cell repeated
  return c;
}

// An event of probability p happens when the word is below p 2^32 (p = 1: always).
bool happens(std::uint32_t word, double p) {
  if (p >= 1) return true;
  return std::uint64_t(word) < std::uint64_t(std::floor(std::ldexp(p, 32)));
}

struct Chances {
  double ext = 0, hum = 0, act = 0;
};

Field reference_start(std::int64_t X, std::int64_t Y, std::int64_t Z, std::uint64_t seed, double fill, double hum0,
                      double act0) {
  Field f{X, Y, Z, {}, {}, {}};
  const std::size_t n = std::size_t(X * Y * Z);
  f.hum.resize(n), f.act.resize(n), f.cld.resize(n);
  for (std::uint32_t id = 0; id < n; ++id) {
    f.cld[id] = happens(random_words(seed, id, 0, RandomStream::initial_fill).v[0], fill);
    const Philox4x32 w = random_words(seed, id, 0, RandomStream::model_initial);
    f.hum[id] = happens(w.v[0], hum0);
    f.act[id] = happens(w.v[1], act0);
  }
  return f;
}

// One generation: growth (hum, cld, act from f_act), then extinction and supply on its result.
Field reference_step(const Field& f, BoundaryKind kind, const Chances& p, std::uint64_t seed, std::uint32_t step) {
  static const int kNeighbors[11][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1},
                                        {2, 0, 0}, {-2, 0, 0}, {0, 2, 0}, {0, -2, 0}, {0, 0, -2}};
  Field next = f;
  for (std::int64_t z = 0; z < f.Z; ++z)
    for (std::int64_t y = 0; y < f.Y; ++y)
      for (std::int64_t x = 0; x < f.X; ++x) {
        bool f_act = false;
        for (const auto& o : kNeighbors) {
          const std::int64_t nx = axis(x + o[0], f.X, kind), ny = axis(y + o[1], f.Y, kind),
                             nz = axis(z + o[2], f.Z, kind);
          if (nx >= 0 && ny >= 0 && nz >= 0) f_act = f_act || f.act[f.at(nx, ny, nz)];
        }
        const std::size_t id = f.at(x, y, z);
        const bool hum = f.hum[id], act = f.act[id], cld = f.cld[id];
        bool h = hum && !act, c = cld || act, a = !act && hum && f_act;
        if (p.ext > 0 || p.hum > 0 || p.act > 0) {
          const Philox4x32 w = random_words(seed, std::uint32_t(id), step, RandomStream::model);
          c = c && !happens(w.v[0], p.ext);
          h = h || happens(w.v[1], p.hum);
          a = a || happens(w.v[2], p.act);
        }
        next.hum[id] = h, next.act[id] = a, next.cld[id] = c;
      }
  return next;
}

// ---- The model as `cellgraph run` builds it. ----

GridSpec cloud_grid(std::int64_t X, std::int64_t Y, std::int64_t Z, BoundaryKind kind) {
  GridSpec g;
  g.dims = 3;
  g.size = {X, Y, Z};
  g.stencil = cloud_stencil();
  g.boundary = {kind, 0};
  return g;
}

std::unique_ptr<Simulation> cloud_run(const GridSpec& grid, const models::Params& params, std::uint64_t seed,
                                      double fill, int threads) {
  const models::ModelInfo& info = models::find_model("cloud");
  SimulationOptions options;
  options.seed = seed;
  options.threads = threads;
  auto sim = info.make(params, std::make_shared<const Layout>(compile(build_grid_graph(grid))), options);
  sim->import_state(info.initial_variables(params, random_fill(std::uint32_t(grid.cell_count()), fill, seed), seed), 0);
  return sim;
}

std::string number(double x) {
  std::ostringstream out;
  out << x;
  return out.str();
}

}  // namespace

TEST_CASE("cloud: the neighborhood is distance 1 on every axis, x+-2, y+-2 and z-2, not z+2") {
  const std::vector<Offset> s = cloud_stencil();
  REQUIRE(s.size() == 11);
  for (const Offset& o :
       {Offset{1, 0, 0}, Offset{-1, 0, 0}, Offset{0, 1, 0}, Offset{0, -1, 0}, Offset{0, 0, 1}, Offset{0, 0, -1},
        Offset{2, 0, 0}, Offset{-2, 0, 0}, Offset{0, 2, 0}, Offset{0, -2, 0}, Offset{0, 0, -2}})
    CHECK(std::count(s.begin(), s.end(), o) == 1);
  CHECK(s.front() == Offset{0, 0, -2});  // raster order: z, then y, then x
  CHECK(s.back() == Offset{0, 0, 1});
  CHECK(parse_stencil("cloud", 3) == s);
  CHECK_THROWS_WITH_AS(parse_stencil("cloud", 2), doctest::Contains("needs a 3D grid"), Error);
  CHECK_THROWS_AS(parse_stencil("cloud:2", 3), Error);
}

TEST_CASE("cloud: the bit-sliced rule of the dense kernels is the model's apply") {
  // Every (cld, hum, act, f_act) and every outcome of the three draws (p = 0: never, 1: always).
  using Vars = models::Cloud::Vars;
  for (std::uint32_t draws = 0; draws < 8; ++draws) {
    models::Cloud model;
    model.extinction = draws & 1, model.vapor = draws >> 1 & 1, model.activation = draws >> 2 & 1;
    for (std::uint32_t cell = 0; cell < 16; ++cell) {
      std::uint8_t cld = cell & 1, hum = cell >> 1 & 1, act = cell >> 2 & 1, near = cell >> 3 & 1;
      std::uint8_t out[3] = {9, 9, 9};
      StateRef<Vars> in{{&cld, &hum, &act}}, next{{&out[0], &out[1], &out[2]}};
      CellWrite<Vars> write{next, 0};
      model.apply(CellRead<Vars>{in, 0}, near, write, CellContext{7, 3, 11, 11});
      // Lane 5 of 64-bit words holds the cell; the other lanes hold its complement.
      auto lane = [](std::uint32_t bit) { return bit ? std::uint64_t(1) << 5 : ~(std::uint64_t(1) << 5); };
      const auto words = dense::cloud_next<std::uint64_t>({lane(hum), lane(act), lane(cld)}, lane(near),
                                                          lane(draws & 1), lane(draws >> 1 & 1), lane(draws >> 2 & 1));
      INFO("cld ", int(cld), " hum ", int(hum), " act ", int(act), " f_act ", int(near), " draws ", draws);
      CHECK((words.cld >> 5 & 1) == out[0]);
      CHECK((words.hum >> 5 & 1) == out[1]);
      CHECK((words.act >> 5 & 1) == out[2]);
    }
  }
}

TEST_CASE("cloud: the model equals a plain triple loop, with and without extinction and supply") {
  struct Case {
    Chances p;
    double hum0, act0, fill;
  } cases[] = {
      {{0, 0, 0}, 0.4, 0.02, 0.0},          // pure growth
      {{0, 0, 0}, 0.9, 0.001, 0.3},         // pure growth, a few seeds in much vapor
      {{0.2, 0.05, 0.01}, 0.3, 0.02, 0.2},  // extinction and supply
      {{1, 0.5, 0}, 0.5, 0.1, 0.5},         // every cloud cleared each step
  };
  const std::array<std::int64_t, 3> sizes[] = {{9, 7, 6}, {16, 5, 9}, {1, 5, 4}, {3, 2, 3}};
  const std::uint64_t seed = 33;
  for (const Case& c : cases)
    for (const auto& size : sizes)
      for (BoundaryKind kind : {BoundaryKind::fixed, BoundaryKind::periodic, BoundaryKind::reflective})
        for (int threads : {1, 3}) {
          const models::Params params = {{"p_ext", number(c.p.ext)},
                                         {"p_hum", number(c.p.hum)},
                                         {"p_act", number(c.p.act)},
                                         {"hum0", number(c.hum0)},
                                         {"act0", number(c.act0)}};
          auto sim = cloud_run(cloud_grid(size[0], size[1], size[2], kind), params, seed, c.fill, threads);
          Field reference = reference_start(size[0], size[1], size[2], seed, c.fill, c.hum0, c.act0);
          for (std::uint32_t step = 0; step < 12; ++step) {
            INFO("size ", size[0], "x", size[1], "x", size[2], " boundary ", int(kind), " p_ext ", c.p.ext, " p_hum ",
                 c.p.hum, " p_act ", c.p.act, " threads ", threads, " step ", step);
            REQUIRE(sim->export_state() ==
                    std::vector<std::vector<std::uint8_t>>{reference.cld, reference.hum, reference.act});
            reference = reference_step(reference, kind, c.p, seed, step);
            sim->advance(1);
          }
        }
}

TEST_CASE("cloud: activation climbs two cells a step and sinks one") {
  // A column of vapor, one active cell at z = 5, open boundaries: act moves to z = 5 - k
  // below and z = 5 + 2k - 1, 5 + 2k above; every cell it leaves is cloud without vapor.
  auto sim = cloud_run(cloud_grid(1, 1, 16, BoundaryKind::fixed), {{"hum0", "1"}, {"act0", "0"}}, 1, 0, 1);
  std::vector<std::vector<std::uint8_t>> v = sim->export_state();
  v[models::Cloud::kAct][5] = 1;
  sim->import_state(v, 0);
  for (int k = 1; k <= 4; ++k) {
    sim->advance(1);
    v = sim->export_state();
    std::vector<std::uint8_t> act(16, 0), cld(16, 0), hum(16, 1);
    for (int z : {5 - k, 5 + 2 * k - 1, 5 + 2 * k})
      if (z >= 0 && z < 16) act[std::size_t(z)] = 1;
    for (int z = 5 - k + 1; z <= std::min(15, 5 + 2 * (k - 1)); ++z) cld[std::size_t(z)] = 1, hum[std::size_t(z)] = 0;
    INFO("after ", k, " steps");
    CHECK(v[models::Cloud::kAct] == act);
    CHECK(v[models::Cloud::kCld] == cld);
    CHECK(v[models::Cloud::kHum] == hum);
  }
}

TEST_CASE("cloud: extinction and supply happen at their rates, the seed changes them, threads do not") {
  const GridSpec grid = cloud_grid(64, 64, 16, BoundaryKind::periodic);
  const models::Params params = {{"hum0", "0"}, {"act0", "0"}, {"p_ext", "0.25"}, {"p_hum", "0.1"}, {"p_act", "0.05"}};
  auto sim = cloud_run(grid, params, 4, 1.0, 2);
  sim->advance(1);
  // From all cloud, no vapor, nothing active: one step is the draws alone.
  const auto v = sim->export_state();
  const double n = double(grid.cell_count());
  auto share = [&](int variable) { return double(std::count(v[variable].begin(), v[variable].end(), 1)) / n; };
  auto near = [&](double observed, double p) { return std::abs(observed - p) < 5 * std::sqrt(p * (1 - p) / n); };
  CHECK(near(share(models::Cloud::kCld), 0.75));
  CHECK(near(share(models::Cloud::kHum), 0.1));
  CHECK(near(share(models::Cloud::kAct), 0.05));
  CHECK(sim->observable_names() == std::vector<std::string>{"humid", "active"});
  CHECK(sim->observables() == std::vector<double>{share(models::Cloud::kHum) * n, share(models::Cloud::kAct) * n});
  CHECK(sim->census() == std::vector<std::uint64_t>{std::uint64_t(n - share(models::Cloud::kCld) * n),
                                                    std::uint64_t(share(models::Cloud::kCld) * n)});
  auto same_seed = cloud_run(grid, params, 4, 1.0, 1), other_seed = cloud_run(grid, params, 5, 1.0, 2);
  same_seed->advance(1);
  other_seed->advance(1);
  CHECK(same_seed->export_state() == v);
  CHECK(other_seed->export_state() != v);
}

TEST_CASE("cloud: model parameters and boundaries are checked") {
  const models::ModelInfo& info = models::find_model("cloud");
  auto layout = std::make_shared<const Layout>(compile(build_grid_graph(cloud_grid(4, 4, 4, BoundaryKind::fixed))));
  CHECK_THROWS_WITH_AS(info.make({{"p_ext", "1.5"}}, layout, {}), doctest::Contains("p_ext must be a number from 0"),
                       Error);
  CHECK_THROWS_WITH_AS(info.make({{"p", "0.1"}}, layout, {}), doctest::Contains("has no parameter 'p'"), Error);
  SimulationOptions fixed_one;
  fixed_one.boundary_value = 1;
  CHECK_THROWS_WITH_AS(info.make({}, layout, fixed_one), doctest::Contains("fixed:0 (open)"), Error);
  CHECK_THROWS_WITH_AS(info.initial_variables({}, std::vector<std::uint32_t>(64, 2), 1),
                       doctest::Contains("is not a state of the cloud model"), Error);
}

TEST_CASE("cloud: the bit-packed CPU kernel equals the graph engine cell for cell") {
  using dense::Edge;
  const dense::CloudRule growth{0, 0, 0, 0.35, 0.02}, stochastic{0.15, 0.04, 0.01, 0.3, 0.01};
  for (auto [w, h, d] :
       {std::array<std::int64_t, 3>{70, 9, 11}, {64, 5, 6}, {129, 3, 4}, {1, 7, 5}, {2, 3, 3}, {65, 4, 7}})
    for (Edge edge : {Edge::fixed, Edge::periodic, Edge::reflective}) {
      test::check_cloud_kernel_against_graph(dense::Device::cpu, test::cloud_shape(w, h, d, edge), growth, {1, 2, 9},
                                             0.1);
      test::check_cloud_kernel_against_graph(dense::Device::cpu, test::cloud_shape(w, h, d, edge), stochastic,
                                             {1, 5, 14}, 0.2);
    }
  // set_states takes codes and gives them back; codes of 8 and more are refused.
  auto k = dense::make_cloud_automaton(dense::Device::cpu, test::cloud_shape(67, 3, 2, Edge::periodic), growth, {1});
  std::vector<std::uint8_t> codes(67 * 3 * 2);
  for (std::size_t i = 0; i < codes.size(); ++i) codes[i] = std::uint8_t(i * 7 % 8);
  k->set_states(codes);
  CHECK(k->states() == codes);
  CHECK(k->hash() == dense::states_hash(codes));
  CHECK_THROWS_AS(k->set_states(std::vector<std::uint8_t>(codes.size(), 8)), Error);
  CHECK_THROWS_WITH_AS(dense::make_cloud_automaton(dense::Device::cpu, dense::GridShape{}, growth),
                       doctest::Contains("the cloud model runs on 3D grids"), Error);
}

TEST_CASE("cloud: the top view shades each column by its cells not in state 0") {
  GridSpec grid = cloud_grid(3, 2, 4, BoundaryKind::fixed);
  std::vector<std::uint32_t> states(24, 0);
  for (int z = 0; z < 4; ++z) states[std::size_t(0 + 3 * (0 + 2 * z))] = 1;  // column (0, 0): full
  states[std::size_t(2 + 3 * (1 + 2 * 2))] = 1;                              // column (2, 1): one cell
  states[std::size_t(1 + 3 * (1 + 2 * 0))] = 2;                              // column (1, 1): one cell
  CHECK(column_counts(states, grid) == std::vector<std::uint32_t>{4, 0, 0, 0, 1, 1});
  auto shade = [](double count) { return std::uint8_t(std::lround(255 * (1 - std::pow(7.0 / 8, count)))); };
  const IndexedImage image = column_picture(states, grid, 2, 100);
  REQUIRE(image.width == 6);
  REQUIRE(image.height == 4);
  CHECK(image.pixels[0] == shade(4));
  CHECK(image.pixels[1 * 6 + 1] == shade(4));
  CHECK(image.pixels[2] == 0);
  CHECK(image.pixels[3 * 6 + 5] == shade(1));
  const IndexedImage small = column_picture(states, grid, 1, 2);  // blocks of 2 x 2 columns: mean counts
  REQUIRE(small.width == 2);
  REQUIRE(small.height == 1);
  CHECK(small.pixels == std::vector<std::uint8_t>{shade((4 + 0 + 0 + 1) / 4.0), shade((0 + 1) / 2.0)});
  CHECK(column_palette().front() == Rgb{70, 130, 200});
  CHECK(column_palette().back() == Rgb{255, 255, 255});
  CHECK_THROWS_AS(column_counts(states, cloud_grid(3, 2, 3, BoundaryKind::fixed)), Error);
}

TEST_CASE("cloud: cellgraph run writes statistics, VTK with every variable, a top view, restarts continue") {
  ScratchDir dir;
  const std::string run =
      "run --backend cpu --model cloud --grid 20x16x10 --param hum0=0.5 --param act0=0.05 "
      "--param p_ext=0.1 --param p_hum=0.02 --param p_act=0.005 --seed 3 ";
  auto r = test::run_cli(run + "--steps 6 --stats " + dir / "s.csv --vtk " + dir / "v --png " +
                         dir / "top.png --png-scale 2");
  REQUIRE_MESSAGE(r.status == 0, r.out);
  CHECK(r.out.find("of cloud on grid 20x16x10 cloud fixed:0") != std::string::npos);
  const std::string stats = read_file(dir / "s.csv");
  CHECK(stats.rfind("step,clear,cloud,humid,active\n0,3200,0,", 0) == 0);
  const std::string vti = read_file(dir / "v_000006.vti");
  for (const char* name : {"Name=\"state\"", "Name=\"hum\"", "Name=\"act\""})
    CHECK(vti.find(name) != std::string::npos);
  const RgbImage top = read_png(dir / "top.png");
  CHECK(top.width == 40);
  CHECK(top.height == 32);

  // Ten steps at once equal five, a checkpoint and five more: hum and act are in it.
  REQUIRE(test::run_cli(run + "--steps 10 --checkpoint " + dir / "a.ckpt").status == 0);
  REQUIRE(test::run_cli(run + "--steps 5 --checkpoint " + dir / "b.ckpt").status == 0);
  REQUIRE(test::run_cli(run + "--steps 10 --restart " + dir / "b.ckpt --checkpoint " + dir / "c.ckpt").status == 0);
  CHECK(read_file(dir / "a.ckpt") == read_file(dir / "c.ckpt"));

  // The example config runs (its outputs redirected here, fewer steps).
  auto example = test::run_cli("run --backend cpu --config " + data_path("examples/cloud.ini") + " --steps 2 --stats " +
                               dir / "e.csv --png " + dir / "e.png --vtk " + dir / "e");
  CHECK_MESSAGE(example.status == 0, example.out);
  CHECK(example.out.find("of cloud on grid 128x128x64 cloud fixed:0") != std::string::npos);
  CHECK(read_png(dir / "e.png").width == 512);
  // A --param flag overrides the file's value of the same name.
  REQUIRE(test::run_cli("run --backend cpu --config " + data_path("examples/cloud.ini") + " --steps 0 --stats " +
                        dir / "e0.csv --png " + dir / "e.png --vtk " + dir / "e --param act0=0.5")
              .status == 0);
  const std::string row = read_file(dir / "e0.csv").substr(std::string("step,clear,cloud,humid,active\n").size());
  const double active = std::stod(row.substr(row.rfind(',') + 1));
  CHECK(std::abs(active - 0.5 * 1048576) < 5 * std::sqrt(0.25 * 1048576));

  for (const auto& entry : {std::pair{"--model cloud --grid 16x16", "neighborhood 'cloud' needs a 3D grid"},
                            std::pair{"--model cloud --grid 8x8x8 --boundary fixed:1", "fixed:0 (open)"},
                            std::pair{"--model cloud --grid 8x8x8 --param q=1", "has no parameter 'q'"}}) {
    const char *args = entry.first, *message = entry.second;  // clang 14 cannot capture bindings
    auto bad = test::run_cli(std::string("run --backend cpu --steps 1 ") + args);
    INFO(args, " -> ", bad.out);
    CHECK(bad.status == 1);
    CHECK(bad.out.find(message) != std::string::npos);
  }
}

TEST_CASE("cloud: cellgraph compare checks the bit-packed kernel against the graph engine") {
  auto ok = test::run_cli(
      "compare --model cloud --grid 67x9x7 --steps 12 --check-every 4 --backend cpu "
      "--param p_ext=0.1 --param p_act=0.01 --fill 0.1 --threads 2");
  CHECK_MESSAGE(ok.status == 0, ok.out);
  CHECK(ok.out.find("on 67x9x7 cloud fixed:0") != std::string::npos);
  CHECK(ok.out.find("step 12: hash") != std::string::npos);
  CHECK(ok.out.find(", all 2 agree\n") != std::string::npos);
  CHECK(ok.out.find("note: byte: skipped") != std::string::npos);
  for (const char* bad : {"--model cloud --grid 8x8", "--model cloud --grid 8x8x8 --rule B3/S23",
                          "--model cloud --grid 8x8x8 --neighborhood moore", "--grid 8x8 --fill 0.5 --param p=1",
                          "--model cloud --grid 8x8x8 --param p_act=2", "--model smoke --grid 8x8x8"}) {
    auto r = test::run_cli(std::string("compare --backend cpu ") + bad);
    CHECK_MESSAGE(r.status == 1, bad);
    CHECK(r.out.find("error:") != std::string::npos);
  }
}
