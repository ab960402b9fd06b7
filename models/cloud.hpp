// The cloud model of Dobashi, Kaneda, Yamashita, Okita and Nishita, "A Simple, Efficient Method
// for Realistic Animation of Clouds" (SIGGRAPH 2000), after Nagel and Raschke (1992). Each
// cell has three bits, stored as three state variables: cld (cloud; variable 0, what censuses,
// pictures and --fill see), hum (vapor) and act (phase transition). One step:
//
//   growth, the paper's transition rules, f_act = OR of act over the neighbors:
//     hum1 = hum AND NOT act
//     cld1 = cld OR act
//     act1 = NOT act AND hum AND f_act
//   then the paper's extinction and supply rules, applied to the growth's result in the same
//   generation, each from its own uniform draw:
//     cld' = cld1 AND NOT (rnd_ext < p_ext)     the paper's IS(rnd > p_ext)
//     hum' = hum1 OR (rnd_hum < p_hum)
//     act' = act1 OR (rnd_act < p_act)
//
// On grids the neighborhood is `--neighborhood cloud` (grid.hpp: cloud_stencil): distance 1
// along every axis, distance 2 in x+-2, y+-2 and z-2, not z+2, so that activation climbs two
// cells a step and sinks one (z is up). Since f_act is an OR, slots do not matter, and on any
// other stencil or graph the model ORs whatever neighbors there are.
//
// Random numbers: a step's draws are the first three words of the cell's CellRandom (Philox
// block 0 of (seed, cell, step, stream model)), in the order ext, hum, act, each compared as
// cellgraph::bernoulli compares a word (an event has probability floor(p 2^32) / 2^32; p = 0
// never, p = 1 always, so the paper's strict rnd > p_ext differs only in that p_ext = 0 never
// removes a cloud). With all three probabilities 0 nothing is drawn. The dense kernels
// (dense/cloud_*) draw the same words through cloud_step_words.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "cellgraph/model.hpp"
#include "cellgraph/philox.hpp"
#include "models/params.hpp"

namespace cellgraph::models {

// A step's three words for cell `id`: Philox block 0 of (seed, id, step, model), which is
// what CellContext::random() yields first; grids beyond 2^32 cells (dense kernels only) key
// the high half of the id as the block.
CG_HD inline Philox4x32 cloud_step_words(std::uint64_t seed, std::uint64_t id, std::uint32_t step) {
  return random_words(seed, std::uint32_t(id), step, RandomStream::model, std::uint32_t(id >> 32));
}

// The initial vapor (word 0) and activation (word 1) of cell `id`: their own stream, so they
// are independent of --fill's draw (the initial cld).
CG_HD inline Philox4x32 cloud_initial_words(std::uint64_t seed, std::uint64_t id) {
  return random_words(seed, std::uint32_t(id), 0, RandomStream::model_initial, std::uint32_t(id >> 32));
}

struct Cloud {
  using Vars = Variables<std::uint8_t, std::uint8_t, std::uint8_t>;  // cld, hum, act: 0 or 1
  static constexpr int kCld = 0, kHum = 1, kAct = 2;
  using Acc = std::uint8_t;  // f_act: 1 when a neighbor is active
  static constexpr int num_observables = 2;

  double extinction = 0;  // p_ext
  double vapor = 0;       // p_hum
  double activation = 0;  // p_act

  std::uint32_t num_states() const { return 2; }  // of cld
  CG_HD bool stochastic() const { return extinction > 0 || vapor > 0 || activation > 0; }

  CG_HD Acc init() const { return 0; }
  CG_HD void gather(Acc& near, const CellRead<Vars>& neighbor, std::uint32_t) const { near |= get<kAct>(neighbor); }
  CG_HD void combine(Acc& near, const Acc& more) const { near |= more; }
  CG_HD void apply(const CellRead<Vars>& self, const Acc& near, CellWrite<Vars>& out,
                   const CellContext& context) const {
    const bool cld = get<kCld>(self), hum = get<kHum>(self), act = get<kAct>(self);
    bool next_hum = hum && !act, next_cld = cld || act, next_act = !act && hum && near;
    if (stochastic()) {
      CellRandom random = context.random();
      const std::uint32_t ext_word = random.word(), hum_word = random.word(), act_word = random.word();
      next_cld = next_cld && !bernoulli(ext_word, extinction);
      next_hum = next_hum || bernoulli(hum_word, vapor);
      next_act = next_act || bernoulli(act_word, activation);
    }
    set<kCld>(out, std::uint8_t(next_cld));
    set<kHum>(out, std::uint8_t(next_hum));
    set<kAct>(out, std::uint8_t(next_act));
  }

  // Cells with vapor and active cells, counted (the census counts clear and cloudy cells).
  CG_HD void observe(const CellRead<Vars>& self, const Acc&, std::int64_t* terms) const {
    terms[0] += get<kHum>(self);
    terms[1] += get<kAct>(self);
  }
  std::vector<std::string> observable_names() const { return {"humid", "active"}; }
  std::vector<double> observable_values(const std::int64_t* sums, std::uint64_t) const {
    return {double(sums[0]), double(sums[1])};
  }
};

// The model and its initial densities from --param p_ext=, p_hum=, p_act=, hum0=, act0=
// (probabilities from 0 to 1); throws Error naming a bad or unknown parameter.
struct CloudSettings {
  Cloud model;
  double hum0 = 0, act0 = 0;  // initial densities of vapor and activation
};
CloudSettings read_cloud_params(const Params& params);

// Every variable of the initial state in user order (cld, hum, act: a byte per cell, what
// Simulation::import_state takes): cld from `cld` (--fill, --states, ...; 0 or 1, else Error),
// hum and act drawn with densities hum0 and act0 from cloud_initial_words.
std::vector<std::vector<std::uint8_t>> cloud_initial_variables(const std::vector<std::uint32_t>& cld, double hum0,
                                                               double act0, std::uint64_t seed);

}  // namespace cellgraph::models
