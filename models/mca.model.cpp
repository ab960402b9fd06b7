// The movable cellular automaton (MCA) of bonded discs or spheres (models/mca.hpp: the rule;
// docs/MCA.md: the model, one step, the parameters, the example), registered as "mca" with the
// cracking plate of models/mca_plate.hpp as its starting state. nvcc compiles this file when
// the CUDA backend is built, so the model runs on both backends from the one rule.
#include <cmath>

#include "cellgraph/error.hpp"
#include "models/mca.hpp"
#include "models/mca_plate.hpp"
#include "models/model_api.hpp"
#include "models/movable_registry.hpp"
#include "partition/movable/make_movable.hpp"

namespace cellgraph::models {
namespace {

const std::vector<ParamInfo> kMcaParams = {
    {"d", "1", "disc (sphere) diameter: the bonds' rest length, the contact distance, the plate's spacing"},
    {"m", "1", "particle mass"},
    {"k", "1", "bond stiffness: force k (r - d) along the line of centers"},
    {"kc", "1", "contact stiffness: unlinked pairs closer than d repel with force kc (d - r)"},
    {"damping", "0", "gamma: each interacting pair's relative velocity along its line damped by gamma (0: none)"},
    {"dt", "0.05", "time step (velocity Verlet)"},
    {"break", "0.05", "a bond breaks once its strain (r - d) / d exceeds this; the neighbor radius is d (1 + break)"},
    {"form", "1",
     "unlinked particles closer than form x d link (a handshake: one new bond per particle per step); "
     "0: bonds never form; at most 1 + break"},
    {"columns", "0", "plate: particles per row (0: about twice as wide as high)"},
    {"layers", "1", "plate, 3D: hexagonal layers stacked as fcc (2D: 1)"},
    {"notch", "0.25", "plate: the fraction of its rows, from the bottom, whose bonds across the middle are cut"},
    {"grip", "2", "plate: columns at each end driven outward along x at speed pull (0: none)"},
    {"pull", "0.01", "plate: the grips' speed"},
    {"thermal", "0", "plate: the other particles' velocity components uniform in [-thermal, thermal)"},
};

double mca_radius(const ParamReader& read) { return read.positive("d", 1e9) * (1.0 + read.number("break", 0, 10)); }

template <int D>
mca::Mca<D> mca_from(const Params& params, const Box& box) {
  const ParamReader read("mca", params, kMcaParams);
  mca::Mca<D> m;
  m.box = box;
  m.diameter = read.positive("d", 1e9);
  m.mass = read.positive("m", 1e12);
  m.stiffness = read.positive("k", 1e12);
  m.contact_stiffness = read.number("kc", 0, 1e12);
  m.damping = read.number("damping", 0, 1e12);
  m.dt = read.positive("dt", 1e6);
  m.half_dt = 0.5 * m.dt;
  const double strain = read.number("break", 0, 10);
  const double form = read.number("form", 0, 11);
  if (form > 1.0 + strain)
    throw Error("model mca: form = " + number_text(form) + " must be at most 1 + break = " + number_text(1.0 + strain) +
                ": a bond formed farther out would break at once");
  // Stable for any packing within capacity: dt below 2 / omega_max, omega_max^2 at most
  // 2 K max(k, kc) / m (Gershgorin over the K bonds or contacts of a particle).
  const double omega2 = 2.0 * mca::bond_capacity(D) * std::max(m.stiffness, m.contact_stiffness) / m.mass;
  if (!(m.dt * std::sqrt(omega2) < 2.0))
    throw Error("model mca: dt = " + number_text(m.dt) + " is too long for k, kc and m: velocity Verlet needs dt < " +
                number_text(2.0 / std::sqrt(omega2)) + " here");
  m.radius = mca_radius(read);
  m.break_r2 = cutoff_squared<double>(m.radius);  // the neighbor lists' own cutoff: a listed bond holds
  m.form_r2 = (form * m.diameter) * (form * m.diameter);
  m.diameter_r2 = m.diameter * m.diameter;
  return m;
}

mca::PlateSpec plate_from(const Params& params) {
  const ParamReader read("mca", params, kMcaParams);
  mca::PlateSpec spec;
  spec.diameter = read.positive("d", 1e9);
  spec.columns = read.whole("columns", 0, 1u << 30);
  spec.layers = read.whole("layers", 1, 1u << 20);
  spec.notch = read.number("notch", 0, 1);
  spec.grip = read.whole("grip", 0, 1u << 29);
  spec.pull = read.number("pull", -1e9, 1e9);
  spec.thermal = read.number("thermal", 0, 1e9);
  return spec;
}

MovableModelInfo mca_model_info() {
  MovableModelInfo info;
  info.name = "mca";
  info.summary =
      "movable cellular automaton (movable): bonded discs or spheres, springs along the line of centers "
      "that break past a strain and form on contact, velocity Verlet; starts as a notched plate pulled "
      "apart at its ends; statistics: energies, momentum, bonds";
  info.params = kMcaParams;
  info.dims = {2, 3};
  info.make = [](const Params& params, const Box& box, std::uint32_t particles, const MovableOptions& movable,
                 const SimulationOptions& options) -> std::unique_ptr<MovableSimulation> {
    if (box.dims == 2) return make_movable_simulation_for(mca_from<2>(params, box), particles, movable, options);
    if (box.dims == 3) return make_movable_simulation_for(mca_from<3>(params, box), particles, movable, options);
    throw Error("model mca runs in 2 or 3 dimensions, not " + std::to_string(box.dims));
  };
  info.initial_state = [](const Params& params, const Box& box, std::uint32_t particles, std::uint64_t seed) {
    return mca::plate_state(plate_from(params), box, particles, seed);
  };
  info.radius = [](const Params& params) { return mca_radius(ParamReader("mca", params, kMcaParams)); };
  info.point_arrays = [](int dims) {
    return std::vector<PointArray>{{"velocity", dims, dims}, {"flags", 2 * dims + 1, 1}};
  };
  return info;
}

const bool registered = register_movable_model(mca_model_info());

}  // namespace
}  // namespace cellgraph::models
