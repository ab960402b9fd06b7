// Where each part of a partitioned movable run lives: the box cut into one axis-aligned region
// per part by recursive coordinate bisection (RCB) of a grid of bins at least `width` wide
// (width = radius + skin), balanced by particle count. A region is a box of whole bins; the
// outermost bins of a closed box reach past its walls (positions there belong to them).
//
// RCB: a region of k parts is cut across its longest side, at the bin plane that puts closest
// to floor(k/2)/k of its particles on the low side, and each side is split again. The result
// depends only on the positions it is given (every rank computes the same from the whole
// state), never on the order of the particles. A region is at least one bin wide, so a box of
// fewer bins than parts cannot be split: that is refused with a message.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "cellgraph/movable/box.hpp"

namespace cellgraph {

struct Region {
  std::uint32_t first_bin[3] = {0, 0, 0};  // bins [first_bin, end_bin) along each axis
  std::uint32_t end_bin[3] = {1, 1, 1};
};

class SpatialDecomposition {
 public:
  SpatialDecomposition() = default;
  // Splits `box` into `parts` regions, balancing the points given as one array per axis
  // (positions[a][p]). Throws Error when the box has fewer bins of `width` than parts.
  SpatialDecomposition(const Box& box, double width, std::uint32_t parts, const std::vector<const double*>& positions,
                       std::uint64_t count);

  std::uint32_t parts() const { return std::uint32_t(regions_.size()); }
  const Region& region(std::uint32_t part) const { return regions_[part]; }
  // The bins along each axis (bins[a] = floor(length / width), at least 1).
  const std::uint32_t* bins() const { return bins_; }

  // The part whose region holds this position (coordinates outside a closed box: the nearest).
  std::uint32_t owner(const double* x) const;
  // Whether the position lies within `distance` of the part's region (nearest image in a
  // periodic box): the halo test. Coordinates outside a closed box are measured as they are.
  bool near(std::uint32_t part, const double* x, double distance) const;

  std::string describe() const;  // "RCB of 8x6 bins into 3 regions: [0,4)x[0,6) ..."

 private:
  std::uint32_t bin_along(int axis, double x) const;

  Box box_;
  std::uint32_t bins_[3] = {1, 1, 1};
  std::vector<Region> regions_;
  // The RCB tree, for owner(): node k cuts `axis` at bin `cut`; children are nodes or, when
  // negative, parts (-1 - part).
  struct Cut {
    int axis;
    std::uint32_t cut;
    std::int64_t low, high;
  };
  std::vector<Cut> tree_;
};

}  // namespace cellgraph
