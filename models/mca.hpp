// Movable cellular automata (MCA; Psakhie et al.): equal discs (2D) or spheres (3D) of
// diameter d and mass m, linked in pairs by elastic bonds. docs/MCA.md describes the model,
// one step, the parameters and the cracking-plate example; this header is the rule, written
// once as CG_HD code for the CPU and the GPU (C++17: nvcc compiles the model file).
//
// Pairs are linked (bonded) or unlinked. A bond is a spring along the line of centers with rest
// length d and stiffness k: force k (r - d) toward the partner. Unlinked pairs that overlap
// (r < d) repel with stiffness kc. Optional damping adds gamma ((v_j - v_i) . n) n for every
// interacting pair (off by default). A bond breaks once r > d (1 + break); unlinked particles
// closer than form x d link by a handshake (below).
//
// Bonds without per-edge arrays: each particle keeps K slots of partner ids (K = 6 in 2D, 12
// in 3D: the kissing numbers, the coordination of the hexagonal and fcc packings) and its own
// permanent id, as state variables, so bonds move with their cells through every rebuild. Both
// ends of a pair take every decision from bitwise-equal quantities: d = x_j - x_i is exactly the
// negation of x_i - x_j (also by nearest image), so r^2, r and every threshold test agree, and
// the pair force is c d on one end and c (-d) on the other, exact negations: momentum is
// conserved up to the rounding of the per-particle sums.
//
// Forming bonds within capacity, symmetrically: a particle proposes to at most one partner, its
// nearest unlinked candidate (smallest r^2, then lowest id) closer than form x d with a free
// slot, and only while it has a free slot itself; the proposal is a state variable. The next
// step a pair links when both proposed to each other, both still have a free slot (before this
// step's breaks) and they are still closer than form x d: every test reads what both ends see
// alike. Each particle forms at most one bond per step, so no slot is ever oversubscribed
// however many contacts it has; the crowded ones link over the following steps.
//
// One step (velocity Verlet, one synchronous sweep): the state holds x_n and the half-step
// velocity v_{n-1/2} (for the initial state: the velocity given). The fold at x_n decides the
// bonds (kept, broken, formed) and sums the forces F_n; apply() then does
//   v_n = v_{n-1/2} + dt/2 F_n / m       (closing half-kick)
//   v_{n+1/2} = v_n + dt/2 F_n / m       (opening half-kick)
//   x_{n+1} = x_n + dt v_{n+1/2}         (drift; wrapped in a periodic box, reflected at walls)
// and writes the new bonds and proposal. Forces use the bonds the step keeps or forms. Driven
// particles (flag bit 0) ignore forces and keep their velocity: the grips of the example.
// Observables recompute v_n from the same fold, so energies and momenta are those of time n.
#pragma once
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cellgraph/hd.hpp"
#include "cellgraph/model.hpp"
#include "cellgraph/movable/box.hpp"

namespace cellgraph::models::mca {

inline constexpr std::uint32_t kNoParticle = 0xFFFFFFFFu;  // an empty bond slot, no proposal
inline constexpr std::uint32_t kDriven = 1u;               // flag: moves at its own velocity
inline constexpr double kFixedScale = 4294967296.0;        // 2^32: observables in fixed point

// Bond slots per particle.
constexpr int bond_capacity(int dims) { return dims == 2 ? 6 : 12; }

// Where each variable sits: position (double x D), half-step velocity (double x D), permanent
// id, flags, proposal, then the K bond slots (partner ids), all std::uint32_t.
template <int D>
struct VariableIndex {
  static constexpr int position = 0;
  static constexpr int velocity = D;
  static constexpr int id = 2 * D;
  static constexpr int flags = 2 * D + 1;
  static constexpr int proposal = 2 * D + 2;
  static constexpr int first_bond = 2 * D + 3;
  static constexpr int capacity = bond_capacity(D);
  static constexpr int count = first_bond + capacity;
};

template <int D, class Sequence>
struct MakeVariables;
template <int D, std::size_t... I>
struct MakeVariables<D, std::index_sequence<I...>> {
  using type = Variables<std::conditional_t<(int(I) < 2 * D), double, std::uint32_t>...>;
};

// A double as an integer number of 2^-32: exact to sum in any order. Saturates (NaN reads as
// the top) so that a blown-up run stays defined and alike on every backend.
CG_HD inline std::int64_t to_fixed(double value) {
  constexpr double kLimit = 4611686018427387904.0;  // 2^62
  double scaled = value * kFixedScale;
  if (!(scaled < kLimit)) scaled = kLimit;
  if (scaled < -kLimit) scaled = -kLimit;
  return static_cast<std::int64_t>(scaled);
}

template <int D>
struct Mca {
  static constexpr int dims = D;
  static constexpr int K = bond_capacity(D);
  using Index = VariableIndex<D>;
  using Coordinate = double;
  using Vars = typename MakeVariables<D, std::make_index_sequence<Index::count>>::type;

  // The cell's own state (copied into every partial fold alike), then what its neighbors add.
  struct Acc {
    double x[D], v[D];  // self: position, half-step velocity (read only with damping)
    std::uint32_t id, proposal, bonds_held;
    std::uint32_t bond[K];  // self: partners, kNoParticle where empty
    double force[D];
    double energy;         // half the potential energy of each interacting pair
    std::uint32_t kept;    // bit s: the bond in slot s holds this step
    std::uint32_t formed;  // the partner linked this step (at most one), or kNoParticle
    std::uint32_t best;    // the nearest candidate for the next proposal, or kNoParticle
    double best_r2;
  };

  Box box;
  double radius = 1.05;  // the neighbor radius: the breaking distance d (1 + break)
  double diameter = 1.0, mass = 1.0, stiffness = 1.0, contact_stiffness = 1.0, damping = 0.0;
  double dt = 0.05, half_dt = 0.025;
  // Squared thresholds, computed once on the host so that both backends compare the same bits.
  double break_r2 = 1.1025, form_r2 = 1.0, diameter_r2 = 1.0;

  static constexpr int num_observables = 3 + D;  // kinetic, potential, momentum (D), bond ends
  std::uint32_t num_states() const { return 0; }

  CG_HD Acc init(const CellRead<Vars>& self) const {
    Acc acc;
    for (int a = 0; a < D; ++a) {
      acc.x[a] = read<double>(self, Index::position + a);
      acc.v[a] = damping > 0.0 ? read<double>(self, Index::velocity + a) : 0.0;
      acc.force[a] = 0.0;
    }
    acc.id = read<std::uint32_t>(self, Index::id);
    acc.proposal = read<std::uint32_t>(self, Index::proposal);
    acc.bonds_held = 0;
    for (int s = 0; s < K; ++s) {
      acc.bond[s] = read<std::uint32_t>(self, Index::first_bond + s);
      acc.bonds_held += acc.bond[s] != kNoParticle;
    }
    acc.energy = 0.0;
    acc.kept = 0;
    acc.formed = kNoParticle;
    acc.best = kNoParticle;
    acc.best_r2 = form_r2;  // candidates lie strictly closer
    return acc;
  }

  CG_HD void gather(Acc& acc, const CellRead<Vars>& neighbor, std::uint32_t /*slot*/) const {
    const std::uint32_t other = read<std::uint32_t>(neighbor, Index::id);
    double d[D];
    double r2 = 0.0;  // summed as box.hpp's squared_distance sums it: the lists' own distance
    for (int a = 0; a < D; ++a) {
      d[a] = axis_delta(acc.x[a], read<double>(neighbor, Index::position + a), box.length[a], box.periodic);
      r2 += d[a] * d[a];
    }
    int slot = -1;
    for (int s = 0; s < K; ++s)
      if (acc.bond[s] == other) slot = s;
    if (slot >= 0) {  // linked: the bond holds within the breaking distance, else nothing acts
      if (r2 <= break_r2) {
        acc.kept |= 1u << slot;
        interact(acc, neighbor, d, r2, stiffness);
      }
      return;
    }
    if (r2 < form_r2 && acc.proposal == other && read<std::uint32_t>(neighbor, Index::proposal) == acc.id &&
        acc.bonds_held < std::uint32_t(K) && bonds_held(neighbor) < std::uint32_t(K)) {
      acc.formed = other;  // the handshake: both ends see every term of this test alike
      interact(acc, neighbor, d, r2, stiffness);
      return;
    }
    if (r2 < diameter_r2) interact(acc, neighbor, d, r2, contact_stiffness);  // overlap: repulsion
    if (r2 < form_r2 && (r2 < acc.best_r2 || (r2 == acc.best_r2 && other < acc.best)) &&
        bonds_held(neighbor) < std::uint32_t(K)) {
      acc.best = other;
      acc.best_r2 = r2;
    }
  }

  // Self's part is the same in both: keep it once; add the neighbors' parts.
  CG_HD void combine(Acc& acc, const Acc& more) const {
    for (int a = 0; a < D; ++a) acc.force[a] += more.force[a];
    acc.energy += more.energy;
    acc.kept |= more.kept;
    if (acc.formed == kNoParticle) acc.formed = more.formed;
    if (more.best_r2 < acc.best_r2 || (more.best_r2 == acc.best_r2 && more.best < acc.best)) {
      acc.best = more.best;
      acc.best_r2 = more.best_r2;
    }
  }

  CG_HD void apply(const CellRead<Vars>& self, const Acc& acc, CellWrite<Vars>& out, const CellContext&) const {
    const std::uint32_t flags = read<std::uint32_t>(self, Index::flags);
    double x[D], v[D];
    for (int a = 0; a < D; ++a) {
      x[a] = read<double>(self, Index::position + a);
      v[a] = read<double>(self, Index::velocity + a);
    }
    if (!(flags & kDriven)) {
      for (int a = 0; a < D; ++a) {
        const double accel = acc.force[a] / mass;
        const double synchronous = v[a] + half_dt * accel;  // v_n
        v[a] = synchronous + half_dt * accel;               // v_{n+1/2}
      }
    }
    for (int a = 0; a < D; ++a) {
      x[a] = x[a] + dt * v[a];
      keep_inside(box.periodic, x[a], v[a], box.length[a]);  // |v dt| < L
      write<double>(out, Index::position + a, x[a]);
      write<double>(out, Index::velocity + a, v[a]);
    }
    std::uint32_t formed = acc.formed, held = 0;
    for (int s = 0; s < K; ++s) {
      std::uint32_t partner = (acc.kept >> s) & 1u ? acc.bond[s] : kNoParticle;
      if (partner == kNoParticle && formed != kNoParticle) partner = formed, formed = kNoParticle;  // first free slot
      write<std::uint32_t>(out, Index::first_bond + s, partner);
      held += partner != kNoParticle;
    }
    write<std::uint32_t>(out, Index::id, acc.id);
    write<std::uint32_t>(out, Index::flags, flags);
    write<std::uint32_t>(out, Index::proposal, held < std::uint32_t(K) ? acc.best : kNoParticle);
  }

  CG_HD void observe(const CellRead<Vars>& self, const Acc& acc, std::int64_t* terms) const {
    const bool driven = read<std::uint32_t>(self, Index::flags) & kDriven;
    double speed2 = 0.0;
    for (int a = 0; a < D; ++a) {
      double v = read<double>(self, Index::velocity + a);
      if (!driven) v = v + half_dt * (acc.force[a] / mass);  // v_n, as apply() computes it
      speed2 += v * v;
      terms[2 + a] += to_fixed(mass * v);
    }
    terms[0] += to_fixed(0.5 * mass * speed2);
    terms[1] += to_fixed(acc.energy);
    terms[2 + D] += acc.bonds_held;
  }

  std::vector<std::string> observable_names() const {
    std::vector<std::string> names = {"kinetic", "potential", "energy", "px", "py"};
    if (D == 3) names.push_back("pz");
    names.push_back("bonds");
    return names;
  }
  std::vector<double> observable_values(const std::int64_t* sums, std::uint64_t /*particles*/) const {
    std::vector<double> values = {double(sums[0]) / kFixedScale, double(sums[1]) / kFixedScale,
                                  double(sums[0] + sums[1]) / kFixedScale};
    for (int a = 0; a < D; ++a) values.push_back(double(sums[2 + a]) / kFixedScale);
    values.push_back(double(sums[2 + D] / 2));  // each bond has two ends
    return values;
  }

 private:
  template <class T>
  CG_HD static T read(const CellRead<Vars>& c, int variable) {
    return static_cast<const T*>(c.state.var[variable])[c.index];
  }
  template <class T>
  CG_HD static void write(CellWrite<Vars>& c, int variable, T value) {
    static_cast<T*>(c.state.var[variable])[c.index] = value;
  }
  CG_HD static std::uint32_t bonds_held(const CellRead<Vars>& c) {
    std::uint32_t held = 0;
    for (int s = 0; s < K; ++s) held += read<std::uint32_t>(c, Index::first_bond + s) != kNoParticle;
    return held;
  }

  // The pair force c d (d from self to the neighbor), c the same number on both ends: spring
  // (r - d) with this stiffness, plus damping of the relative velocity along the line.
  CG_HD void interact(Acc& acc, const CellRead<Vars>& neighbor, const double* d, double r2, double k) const {
    if (r2 == 0.0) return;  // coincident: no direction (both ends skip alike)
    const double r = sqrt(r2);
    const double stretch = r - diameter;
    double c = k * stretch / r;
    if (damping > 0.0) {
      double closing = 0.0;  // (v_j - v_i) . d: both ends negate both factors
      for (int a = 0; a < D; ++a) closing += (read<double>(neighbor, Index::velocity + a) - acc.v[a]) * d[a];
      c += damping * closing / r2;
    }
    for (int a = 0; a < D; ++a) acc.force[a] += c * d[a];
    acc.energy += 0.25 * k * stretch * stretch;
  }
};

}  // namespace cellgraph::models::mca
