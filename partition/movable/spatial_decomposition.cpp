#include "partition/movable/spatial_decomposition.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <sstream>

#include "cellgraph/error.hpp"

namespace cellgraph {

namespace {
// More bins than this along an axis would only make the histograms longer: regions are cut at
// bin planes, and this is finer than any balance needs.
constexpr double kMaxBinsPerAxis = 1 << 16;
}  // namespace

SpatialDecomposition::SpatialDecomposition(const Box& box, double width, std::uint32_t parts,
                                           const std::vector<const double*>& positions, std::uint64_t count)
    : box_(box) {
  if (parts == 0) throw Error("a spatial decomposition needs at least one part");
  if (!(width > 0) || !std::isfinite(width)) throw Error("the decomposition's bin width must be positive");
  if (int(positions.size()) < box.dims) throw Error("the decomposition needs a coordinate array per axis");
  std::uint64_t total_bins = 1;
  for (int a = 0; a < box.dims; ++a) {
    bins_[a] = std::uint32_t(std::clamp(std::floor(box.length[a] / width), 1.0, kMaxBinsPerAxis));
    total_bins *= bins_[a];
  }
  std::ostringstream grid;
  for (int a = 0; a < box.dims; ++a) grid << (a ? "x" : "") << bins_[a];
  const std::string too_many = "cannot split the box into " + std::to_string(parts) +
                               " parts: regions are whole bins " + "at least r + skin = " + std::to_string(width) +
                               " wide, and the box has " + grid.str() + " bins";
  if (total_bins < parts) throw Error(too_many + " (at most " + std::to_string(total_bins) + " parts)");

  regions_.resize(parts);
  std::vector<std::uint64_t> all(count);
  std::iota(all.begin(), all.end(), std::uint64_t(0));
  // Returns the node (>= 0) or the part (-1 - part) that covers `r`.
  std::function<std::int64_t(const Region&, std::vector<std::uint64_t>&, std::uint32_t, std::uint32_t)> split =
      [&](const Region& r, std::vector<std::uint64_t>& inside, std::uint32_t first_part,
          std::uint32_t k) -> std::int64_t {
    if (k == 1) {
      regions_[first_part] = r;
      return -1 - std::int64_t(first_part);
    }
    const std::uint32_t low_parts = k / 2, high_parts = k - low_parts;
    int axes[3] = {0, 1, 2};
    auto side = [&](int a) { return double(r.end_bin[a] - r.first_bin[a]) * box.length[a] / bins_[a]; };
    std::stable_sort(axes, axes + box.dims, [&](int a, int b) { return side(a) > side(b); });
    for (int i = 0; i < box.dims; ++i) {
      const int a = axes[i];
      const std::uint32_t span = r.end_bin[a] - r.first_bin[a];
      std::uint64_t cross = 1;  // bins in one slice across the axis
      for (int b = 0; b < box.dims; ++b)
        if (b != a) cross *= r.end_bin[b] - r.first_bin[b];
      const std::uint64_t low_min = (low_parts + cross - 1) / cross, high_min = (high_parts + cross - 1) / cross;
      if (low_min + high_min > span) continue;  // no cut leaves each side a bin per part
      std::vector<std::uint64_t> per_bin(span, 0);
      for (std::uint64_t p : inside) ++per_bin[bin_along(a, positions[a][p]) - r.first_bin[a]];
      // The cut whose low side is nearest floor(k/2)/k of the particles; of equally good ones
      // (empty bins between), the middle one, so that sparse regions split evenly in space.
      std::uint64_t below = 0;
      for (std::uint32_t b = 0; b < low_min; ++b) below += per_bin[b];
      std::uint64_t best_first = low_min, best_last = low_min;
      unsigned __int128 best_miss = std::numeric_limits<unsigned __int128>::max();
      for (std::uint64_t c = low_min; c + high_min <= span; below += per_bin[c], ++c) {
        const unsigned __int128 have = (unsigned __int128)below * k,
                                want = (unsigned __int128)inside.size() * low_parts;
        const unsigned __int128 miss = have > want ? have - want : want - have;
        if (miss < best_miss) best_miss = miss, best_first = best_last = c;
        else if (miss == best_miss) best_last = c;
      }
      const std::uint32_t cut = r.first_bin[a] + std::uint32_t((best_first + best_last) / 2);
      Region low = r, high = r;
      low.end_bin[a] = cut;
      high.first_bin[a] = cut;
      std::vector<std::uint64_t> low_inside, high_inside;
      for (std::uint64_t p : inside) (bin_along(a, positions[a][p]) < cut ? low_inside : high_inside).push_back(p);
      inside.clear();
      inside.shrink_to_fit();
      const std::size_t node = tree_.size();
      tree_.push_back({a, cut, 0, 0});
      const std::int64_t l = split(low, low_inside, first_part, low_parts);
      const std::int64_t h = split(high, high_inside, first_part + low_parts, high_parts);
      tree_[node].low = l, tree_[node].high = h;
      return std::int64_t(node);
    }
    throw Error(too_many + " (no cut of a region of " + std::to_string(k) + " parts leaves a bin to each)");
  };
  Region whole;
  for (int a = 0; a < box.dims; ++a) whole.end_bin[a] = bins_[a];
  split(whole, all, 0, parts);
}

std::uint32_t SpatialDecomposition::bin_along(int a, double x) const {
  const double q = x * (double(bins_[a]) / box_.length[a]);
  if (!(q >= 0.0)) return 0;
  if (q >= double(bins_[a])) return bins_[a] - 1;
  return std::uint32_t(q);
}

std::uint32_t SpatialDecomposition::owner(const double* x) const {
  if (tree_.empty()) return 0;
  std::int64_t node = 0;
  while (node >= 0) {
    const Cut& c = tree_[std::size_t(node)];
    node = bin_along(c.axis, x[c.axis]) < c.cut ? c.low : c.high;
  }
  return std::uint32_t(-1 - node);
}

bool SpatialDecomposition::near(std::uint32_t part, const double* x, double distance) const {
  const Region& r = regions_[part];
  double sum = 0;
  for (int a = 0; a < box_.dims; ++a) {
    const double L = box_.length[a], bin = L / bins_[a];
    const bool whole_axis = r.first_bin[a] == 0 && r.end_bin[a] == bins_[a];
    if (whole_axis) continue;
    const std::uint32_t b = bin_along(a, x[a]);
    if (b >= r.first_bin[a] && b < r.end_bin[a]) continue;  // inside along this axis, as owner() decides
    const double lo = r.first_bin[a] * bin, hi = r.end_bin[a] * bin;
    double d = b < r.first_bin[a] ? lo - x[a] : x[a] - hi;
    if (box_.periodic) d = std::min(d, L - (hi - lo) - d);  // the other way round
    d = std::max(d, 0.0);                                   // a point rounded into the next bin
    sum += d * d;
  }
  return sum <= distance * distance;
}

std::string SpatialDecomposition::describe() const {
  std::ostringstream s;
  s << "RCB of ";
  for (int a = 0; a < box_.dims; ++a) s << (a ? "x" : "") << bins_[a];
  s << " bins into " << regions_.size() << " regions:";
  for (const Region& r : regions_) {
    s << " ";
    for (int a = 0; a < box_.dims; ++a) s << (a ? "x" : "") << "[" << r.first_bin[a] << "," << r.end_bin[a] << ")";
  }
  return s.str();
}

}  // namespace cellgraph
