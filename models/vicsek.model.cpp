// The Vicsek model (Vicsek, Czirok, Ben-Jacob, Cohen and Shochet, "Novel type of phase
// transition in a system of self-driven particles", PRL 75, 1226 (1995)): particles move at a
// constant speed v0; each step a particle takes the mean heading of the particles within
// radius r, itself included, turned by a random angle in [-eta/2, eta/2), then moves along it.
// A movable model (include/cellgraph/movable/movable_simulation.hpp): the state is the
// position and the heading as a unit vector, one variable per component (x, y, ux, uy; in 3D
// x, y, z, ux, uy, uz). In 3D the new heading is uniform on the cap of half-angle eta/2 around
// the mean heading. The box is periodic (positions wrap) or closed (walls reflect).
//
// The neighbors' headings are summed in ascending particle id (the order of the lists), then
// the particle's own; square roots and divisions round alike everywhere and the turn's sine
// and cosine come from exact_trig.hpp, so runs are bit-identical on the CPU and the GPU. The
// order parameter |sum of headings| / N (Vicsek et al.'s v_a) is the statistics column
// "order", its sums taken in fixed point (2^-30) so that they are exact in any order.
#include <cmath>

#include "cellgraph/error.hpp"
#include "cellgraph/exact_trig.hpp"
#include "models/model_api.hpp"
#include "models/movable_registry.hpp"
#include "partition/movable/make_movable.hpp"

namespace cellgraph::models {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kOrderScale = 1073741824.0;  // 2^30

template <int D>
struct VicsekVariables;
template <>
struct VicsekVariables<2> {
  using type = Variables<double, double, double, double>;
};
template <>
struct VicsekVariables<3> {
  using type = Variables<double, double, double, double, double, double>;
};

template <int D>
struct Vicsek {
  static constexpr int dims = D;
  using Coordinate = double;
  using Vars = typename VicsekVariables<D>::type;  // position, then heading
  struct Acc {
    double sum[D];  // of the neighbors' headings
  };

  Box box;
  double radius = 1.0;
  double speed = 0.03;   // v0: the distance moved per step
  double eta = 0.5;      // the noise: the widest turn (2D), the cap's full angle (3D)
  double cap_cos = 1.0;  // 3D: cos(eta / 2), computed once on the host

  static constexpr int num_observables = D;

  std::uint32_t num_states() const { return 0; }
  CG_HD Acc init() const {
    Acc acc;
    for (int a = 0; a < D; ++a) acc.sum[a] = 0.0;
    return acc;
  }
  CG_HD void gather(Acc& acc, const CellRead<Vars>& neighbor, std::uint32_t /*slot*/) const {
    double u[D];
    heading(neighbor, u);
    for (int a = 0; a < D; ++a) acc.sum[a] += u[a];
  }
  CG_HD void combine(Acc& acc, const Acc& more) const {
    for (int a = 0; a < D; ++a) acc.sum[a] += more.sum[a];
  }

  CG_HD void apply(const CellRead<Vars>& self, const Acc& acc, CellWrite<Vars>& out, const CellContext& context) const {
    double x[D], u[D], mean[D], next[D];
    position(self, x);
    heading(self, u);
    double norm2 = 0.0;
    for (int a = 0; a < D; ++a) {
      mean[a] = acc.sum[a] + u[a];
      norm2 += mean[a] * mean[a];
    }
    if (norm2 > 0.0) {
      const double norm = sqrt(norm2);
      for (int a = 0; a < D; ++a) mean[a] = mean[a] / norm;
    } else {  // headings that cancel exactly: keep one's own
      for (int a = 0; a < D; ++a) mean[a] = u[a];
    }
    CellRandom rng = context.random();
    turn(mean, rng, next);
    for (int a = 0; a < D; ++a) {
      x[a] = x[a] + speed * next[a];
      keep_inside(box.periodic, x[a], next[a], box.length[a]);  // v0 < L
    }
    set<0>(out, x[0]);
    set<1>(out, x[1]);
    set<D>(out, next[0]);
    set<D + 1>(out, next[1]);
    if constexpr (D == 3) {
      set<2>(out, x[2]);
      set<5>(out, next[2]);
    }
  }

  CG_HD void observe(const CellRead<Vars>& self, const Acc&, std::int64_t* terms) const {
    double u[D];
    heading(self, u);
    for (int a = 0; a < D; ++a) terms[a] += static_cast<std::int64_t>(u[a] * kOrderScale);
  }
  std::vector<std::string> observable_names() const { return {"order"}; }
  std::vector<double> observable_values(const std::int64_t* sums, std::uint64_t particles) const {
    double norm2 = 0.0;
    for (int a = 0; a < D; ++a) norm2 += double(sums[a]) * double(sums[a]);
    return {particles ? std::sqrt(norm2) / (kOrderScale * double(particles)) : 0.0};
  }

 private:
  CG_HD static void position(const CellRead<Vars>& c, double* x) {
    x[0] = get<0>(c);
    x[1] = get<1>(c);
    if constexpr (D == 3) x[2] = get<2>(c);
  }
  CG_HD static void heading(const CellRead<Vars>& c, double* u) {
    u[0] = get<D>(c);
    u[1] = get<D + 1>(c);
    if constexpr (D == 3) u[2] = get<5>(c);
  }

  // The mean heading turned at random: by an angle uniform in [-eta/2, eta/2) in 2D; in 3D to a
  // direction uniform on the cap of half-angle eta/2 around it (cos theta uniform in
  // [cos(eta/2), 1], the azimuth uniform).
  CG_HD void turn(const double* mean, CellRandom& rng, double* next) const {
    if constexpr (D == 2) {
      const SinCos t = portable_sincos(eta * (rng.uniform() - 0.5));
      next[0] = t.cos * mean[0] - t.sin * mean[1];
      next[1] = t.sin * mean[0] + t.cos * mean[1];
    } else {
      const double cos_theta = 1.0 - rng.uniform() * (1.0 - cap_cos);
      const double sin2 = 1.0 - cos_theta * cos_theta;
      const double sin_theta = sin2 > 0.0 ? sqrt(sin2) : 0.0;
      const SinCos phi = portable_sincos(2.0 * kPi * rng.uniform());
      // e1, e2: an orthonormal pair perpendicular to the mean, from the axis least along it.
      const bool use_x = mean[0] * mean[0] < 0.5;
      double e1[3] = {use_x ? 0.0 : -mean[2], use_x ? mean[2] : 0.0, use_x ? -mean[1] : mean[0]};
      const double n1 = sqrt(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2]);
      for (double& c : e1) c = c / n1;
      const double e2[3] = {mean[1] * e1[2] - mean[2] * e1[1], mean[2] * e1[0] - mean[0] * e1[2],
                            mean[0] * e1[1] - mean[1] * e1[0]};
      for (int a = 0; a < 3; ++a) next[a] = cos_theta * mean[a] + sin_theta * (phi.cos * e1[a] + phi.sin * e2[a]);
    }
  }
};

const std::vector<ParamInfo> kVicsekParams = {
    {"eta", "0.5", "noise: each turn is uniform in [-eta/2, eta/2) (3D: within a cap of that angle), 0 to 2 pi"},
    {"r", "1", "interaction radius: a particle aligns with those within r"},
    {"v0", "0.03", "speed: the distance moved per step, below the box's shortest side"},
};

template <int D>
Vicsek<D> vicsek_from(const Params& params, const Box& box) {
  const ParamReader read("vicsek", params, kVicsekParams);
  Vicsek<D> m;
  m.box = box;
  m.eta = read.number("eta", 0, 2 * kPi);
  m.radius = read.positive("r", 1e9);
  double shortest = box.length[0];
  for (int a = 1; a < D; ++a) shortest = std::min(shortest, box.length[a]);
  m.speed = read.number("v0", 0, 1e9);
  if (!(m.speed < shortest))
    throw Error("model vicsek: v0 = " + number_text(m.speed) + " must be below the box's shortest side (" +
                number_text(shortest) + ")");
  m.cap_cos = portable_cos(0.5 * m.eta);
  return m;
}

// Positions uniform in the box, headings uniform on the circle (sphere), from the seed and the
// particle id (Philox stream model_initial), the same whatever the backend.
std::vector<std::vector<std::uint8_t>> vicsek_initial_state(const Box& box, std::uint32_t particles,
                                                            std::uint64_t seed) {
  const int d = box.dims;
  std::vector<std::vector<double>> values(2 * d, std::vector<double>(particles));
  for (std::uint32_t p = 0; p < particles; ++p) {
    CellRandom rng(seed, p, 0, RandomStream::model_initial);
    for (int a = 0; a < d; ++a) {
      double x = rng.uniform() * box.length[a];
      if (x >= box.length[a]) x = 0.0;
      values[a][p] = x;
    }
    if (d == 2) {
      const SinCos t = portable_sincos(2.0 * kPi * rng.uniform());
      values[2][p] = t.cos, values[3][p] = t.sin;
    } else {
      const double z = 2.0 * rng.uniform() - 1.0, rho = std::sqrt(std::max(0.0, 1.0 - z * z));
      const SinCos t = portable_sincos(2.0 * kPi * rng.uniform());
      values[3][p] = rho * t.cos, values[4][p] = rho * t.sin, values[5][p] = z;
    }
  }
  std::vector<std::vector<std::uint8_t>> bytes;
  for (const std::vector<double>& v : values) {
    const auto* first = reinterpret_cast<const std::uint8_t*>(v.data());
    bytes.emplace_back(first, first + v.size() * sizeof(double));
  }
  return bytes;
}

MovableModelInfo vicsek_model_info() {
  MovableModelInfo info;
  info.name = "vicsek";
  info.summary =
      "Vicsek et al. 1995 self-driven particles (movable): constant speed v0, the mean heading of the "
      "particles within r plus uniform noise eta; 2D or 3D, periodic or closed box; statistics: the "
      "order parameter";
  info.params = kVicsekParams;
  info.dims = {2, 3};
  info.make = [](const Params& params, const Box& box, std::uint32_t particles, const MovableOptions& movable,
                 const SimulationOptions& options) -> std::unique_ptr<MovableSimulation> {
    if (box.dims == 2) return make_movable_simulation_for(vicsek_from<2>(params, box), particles, movable, options);
    if (box.dims == 3) return make_movable_simulation_for(vicsek_from<3>(params, box), particles, movable, options);
    throw Error("model vicsek runs in 2 or 3 dimensions, not " + std::to_string(box.dims));
  };
  info.initial_state = [](const Params& params, const Box& box, std::uint32_t particles, std::uint64_t seed) {
    const ParamReader read("vicsek", params, kVicsekParams);  // refuses unknown parameters
    return vicsek_initial_state(box, particles, seed);
  };
  info.radius = [](const Params& params) { return ParamReader("vicsek", params, kVicsekParams).positive("r", 1e9); };
  info.point_arrays = [](int dims) { return std::vector<PointArray>{{"heading", dims, dims}}; };
  return info;
}

const bool registered = register_movable_model(vicsek_model_info());

}  // namespace
}  // namespace cellgraph::models
