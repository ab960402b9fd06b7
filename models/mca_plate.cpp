#include "models/mca_plate.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "cellgraph/error.hpp"
#include "cellgraph/movable/neighbor_search.hpp"
#include "cellgraph/philox.hpp"
#include "models/mca.hpp"

namespace cellgraph::models::mca {
namespace {

std::uint32_t per_layer(const PlateSpec& spec, std::uint32_t particles) {
  return std::uint32_t((std::uint64_t(particles) + spec.layers - 1) / spec.layers);
}

template <class T>
std::vector<std::uint8_t> bytes_of(const std::vector<T>& values) {
  std::vector<std::uint8_t> bytes(values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

}  // namespace

std::uint32_t plate_columns(const PlateSpec& spec, std::uint32_t particles) {
  if (spec.columns) return spec.columns;
  // columns = sqrt(3) rows makes the plate twice as wide as high (rows are sqrt(3)/2 d apart)
  const double columns = std::round(std::sqrt(std::sqrt(3.0) * double(per_layer(spec, particles))));
  return std::uint32_t(std::max(1.0, columns));
}

std::vector<std::vector<std::uint8_t>> plate_state(const PlateSpec& spec, const Box& box, std::uint32_t particles,
                                                   std::uint64_t seed) {
  const int dims = box.dims;
  if (dims != 2 && dims != 3) throw Error("model mca runs in 2 or 3 dimensions, not " + std::to_string(dims));
  if (particles == 0) throw Error("model mca: the plate needs at least one particle");
  if (dims == 2 && spec.layers != 1) throw Error("model mca: layers is for 3D plates; in 2D it must be 1");
  if (spec.layers > particles) throw Error("model mca: more layers than particles");
  const double d = spec.diameter;
  const std::uint32_t columns = plate_columns(spec, particles);
  const std::uint32_t layer_size = per_layer(spec, particles);
  const std::uint32_t rows = (layer_size + columns - 1) / columns;
  if (spec.grip && 2 * std::uint64_t(spec.grip) >= columns)
    throw Error("model mca: the plate's " + std::to_string(columns) + " columns leave nothing between two grips of " +
                std::to_string(spec.grip) + " columns");

  // Hexagonal rows sqrt(3)/2 d apart, odd rows shifted by d/2; layer l shifted by (l mod 3)
  // times the triangle centre (d/2, d/(2 sqrt 3)) and lifted by sqrt(2/3) d: fcc.
  const double row_height = d * std::sqrt(3.0) / 2, layer_height = d * std::sqrt(2.0 / 3.0);
  const double extent[3] = {(columns - 1) * d + (rows > 1 ? d / 2 : 0) + (spec.layers > 1 ? d : 0),
                            (rows - 1) * row_height + (spec.layers > 1 ? d / std::sqrt(3.0) : 0),
                            (spec.layers - 1) * layer_height};
  double origin[3] = {0, 0, 0};
  for (int a = 0; a < dims; ++a) {
    // room for the plate and a bond's reach to spare, so that no pair meets through a wall or
    // a periodic boundary
    if (!(extent[a] + 3 * d < box.length[a]))
      throw Error("model mca: the plate of " + std::to_string(columns) + " columns x " + std::to_string(rows) +
                  " rows x " + std::to_string(spec.layers) + " layers is " + std::to_string(extent[a]) +
                  " long along " + "xyz"[a] + ", the box only " + std::to_string(box.length[a]) +
                  ": give a larger --box, or set columns (and layers)");
    origin[a] = 0.5 * (box.length[a] - extent[a]);
  }

  const int K = bond_capacity(dims);
  const int count = 2 * dims + 3 + K;
  std::vector<std::vector<double>> real(2 * dims, std::vector<double>(particles, 0.0));
  std::vector<std::vector<std::uint32_t>> whole(count - 2 * dims, std::vector<std::uint32_t>(particles, kNoParticle));
  std::vector<std::uint32_t> row_of(particles);
  for (std::uint32_t p = 0; p < particles; ++p) {
    const std::uint32_t layer = p / layer_size, q = p % layer_size, row = q / columns, column = q % columns;
    const std::uint32_t shift = layer % 3;
    real[0][p] = origin[0] + column * d + (row % 2 ? d / 2 : 0) + shift * (d / 2);
    real[1][p] = origin[1] + row * row_height + shift * (d / (2 * std::sqrt(3.0)));
    if (dims == 3) real[2][p] = origin[2] + layer * layer_height;
    row_of[p] = row;
    whole[0][p] = p;  // id
    const bool left = column < spec.grip, right = columns - column <= spec.grip;
    whole[1][p] = left || right ? kDriven : 0u;  // flags
    if (left || right) {
      real[dims][p] = left ? -spec.pull : spec.pull;
    } else if (spec.thermal > 0) {
      CellRandom rng(seed, p, 0, RandomStream::model_initial);
      for (int a = 0; a < dims; ++a) real[dims + a][p] = spec.thermal * (2.0 * rng.uniform() - 1.0);
    }
  }

  // Bonds: every pair at the spacing (the next shell lies at sqrt(2) d or beyond), except across
  // the notch: the vertical line a quarter spacing right of the middle, where no particle sits.
  PointsView<double> points;
  for (int a = 0; a < dims; ++a) points.axis[a] = real[a].data();
  points.count = particles;
  const Graph touching = in_particle_ids(find_neighbors(box, 1.1 * d, points));
  const double cut_x = origin[0] + (columns / 2) * d + d / 4;
  const std::uint32_t notch_rows = std::uint32_t(std::lround(spec.notch * rows));
  for (std::uint32_t p = 0; p < particles; ++p) {
    int held = 0;
    for (EdgeOffset e = touching.offsets[p]; e < touching.offsets[p + 1]; ++e) {
      const std::uint32_t q = touching.neighbors[e];
      const bool across = (real[0][p] - cut_x) * (real[0][q] - cut_x) < 0;
      if (across && std::min(row_of[p], row_of[q]) < notch_rows) continue;
      if (held == K)
        throw Error("model mca: particle " + std::to_string(p) + " touches more than " + std::to_string(K));
      whole[3 + held++][p] = q;
    }
  }

  std::vector<std::vector<std::uint8_t>> state;
  for (const auto& v : real) state.push_back(bytes_of(v));
  for (const auto& v : whole) state.push_back(bytes_of(v));
  return state;
}

}  // namespace cellgraph::models::mca
