// The starting state of the MCA example (models/mca.hpp, docs/MCA.md): a plate of equal discs in
// hexagonal packing (3D: hexagonal layers stacked ABC, the fcc packing), every touching pair
// bonded, except across a pre-crack (the notch) in the middle of its lower rows; the columns at
// its two ends (the grips) driven outward along x. Plain host code.
#pragma once
#include <cstdint>
#include <vector>

#include "cellgraph/movable/box.hpp"

namespace cellgraph::models::mca {

struct PlateSpec {
  double diameter = 1.0;      // the spacing: bonded neighbors are exactly at rest
  std::uint32_t columns = 0;  // particles per row; 0: about twice as wide as high
  std::uint32_t layers = 1;   // 3D: hexagonal layers (2D: 1)
  double notch = 0.25;        // fraction of the rows (from the bottom) cut at mid-width
  std::uint32_t grip = 2;     // driven columns at each end
  double pull = 0.01;         // the grips' speed, outward
  double thermal = 0.0;       // other velocity components uniform in [-thermal, thermal)
};

// Every variable of `particles` particles in particle id order, as
// MovableSimulation::import_state takes it: particle p is layer p / (rows x columns), then row,
// then column, the plate centred in the box. Random velocities (thermal) come from Philox keyed
// by (seed, p). Throws Error when the plate does not fit the box or the spec is inconsistent.
std::vector<std::vector<std::uint8_t>> plate_state(const PlateSpec& spec, const Box& box, std::uint32_t particles,
                                                   std::uint64_t seed);

// The plate's columns for `particles` particles in `layers` layers (the spec's, or the automatic
// choice), for messages and tests.
std::uint32_t plate_columns(const PlateSpec& spec, std::uint32_t particles);

}  // namespace cellgraph::models::mca
