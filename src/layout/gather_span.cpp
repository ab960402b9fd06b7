// The spread of a layout's gathers, sampled from its ordinary slices.
#include <algorithm>
#include <vector>

#include "cellgraph/layout.hpp"

namespace cellgraph {

std::uint64_t median_gather_span(const Layout& L) {
  constexpr std::uint32_t kSampledSlices = 4096;
  const std::uint32_t first = L.num_hub_slices, ordinary = L.num_slices() - first;
  if (ordinary == 0) return 0;
  const std::uint32_t stride = std::max<std::uint32_t>(1, ordinary / kSampledSlices);
  const SliceLists lists = L.lists();
  std::vector<std::uint64_t> spans;
  for (std::uint32_t s = first; s < L.num_slices(); s += stride) {
    std::uint32_t low = L.null_cell(), high = 0;
    const std::uint32_t end = std::min(L.num_vertices, (s + 1) * kSliceWidth);
    for (std::uint32_t v = s * kSliceWidth; v < end; ++v)
      for (std::uint32_t k = 0; k < L.slice_width[s]; ++k) {
        const std::uint32_t cell = lists.entry(v, k);
        if (cell >= L.null_cell()) continue;  // padding and the boundary cell
        low = std::min(low, cell);
        high = std::max(high, cell);
      }
    if (low <= high) spans.push_back(high - low);
  }
  if (spans.empty()) return 0;
  std::nth_element(spans.begin(), spans.begin() + spans.size() / 2, spans.end());
  return spans[spans.size() / 2];
}

bool gathers_scattered(std::uint64_t cells, std::uint64_t median_span) {
  return cells >= kPackedSignalMinimumCells &&
         median_span >= std::min<std::uint64_t>(kPackedSignalMinimumSpan, cells / 2);
}

bool gathers_scattered(const Layout& L) {  // the span only where the cells qualify
  return L.num_cells() >= kPackedSignalMinimumCells && gathers_scattered(L.num_cells(), median_gather_span(L));
}

}  // namespace cellgraph
