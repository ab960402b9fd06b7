#include "cellgraph/source/generators.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "cellgraph/error.hpp"
#include "cellgraph/hilbert.hpp"
#include "cellgraph/layout.hpp"
#include "cellgraph/memory_budget.hpp"
#include "cellgraph/philox.hpp"

namespace cellgraph {
namespace {

double unit(std::uint32_t hi, std::uint32_t lo) {  // 53-bit uniform in [0, 1)
  return double((std::uint64_t(hi) << 21) ^ (lo >> 11)) * 0x1p-53;
}

Philox4x32 draw(std::uint64_t seed, std::uint64_t index) {
  Philox4x32 ctr{{std::uint32_t(index), std::uint32_t(index >> 32), 0x9e4e7a7eu, 0}};
  return philox4x32_10(ctr, std::uint32_t(seed), std::uint32_t(seed >> 32));
}

}  // namespace

Graph random_geometric_graph(std::uint32_t n, double mean_degree, std::uint64_t seed) {
  if (n < 2 || !(mean_degree > 0) || mean_degree > 1000) throw Error("rgg: need n >= 2 and a mean degree in (0, 1000]");
  const double radius = std::sqrt(mean_degree / (M_PI * n));
  // Bins of at least the radius, and no more bins than points.
  const std::uint64_t bins = std::max<std::uint64_t>(1, std::min<double>(1.0 / radius, std::sqrt(double(n))));
  struct Point {
    double x, y;
    std::uint64_t bin;
  };
  std::vector<Point> p(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    Philox4x32 r = draw(seed, i);
    p[i].x = unit(r.v[0], r.v[1]);
    p[i].y = unit(r.v[2], r.v[3]);
    p[i].bin = std::min<std::uint64_t>(bins - 1, std::uint64_t(p[i].y * double(bins))) * bins +
               std::min<std::uint64_t>(bins - 1, std::uint64_t(p[i].x * double(bins)));
  }
  // Number the points bin by bin along a Hilbert curve, so that ids follow space as a mesh
  // generator's renumbering makes them (gmsh and others renumber for locality): neighbors get
  // near ids in both directions, where row-major bins put a row of bins between them.
  int bits = 1;
  while ((std::uint64_t(1) << bits) < bins) ++bits;
  std::vector<std::pair<std::uint64_t, std::uint32_t>> order(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t axes[2] = {std::uint32_t(p[i].bin % bins), std::uint32_t(p[i].bin / bins)};
    order[i] = {hilbert_index(axes, 2, bits), i};
  }
  std::sort(order.begin(), order.end());
  {
    std::vector<Point> sorted(n);
    for (std::uint32_t i = 0; i < n; ++i) sorted[i] = p[order[i].second];
    p.swap(sorted);
  }
  std::vector<std::uint32_t> bin_first(bins * bins, 0), bin_count(bins * bins, 0);  // a bin's points are consecutive
  for (std::uint32_t i = n; i-- > 0;) bin_first[p[i].bin] = i, ++bin_count[p[i].bin];

  std::vector<std::pair<VertexId, VertexId>> edges;
  edges.reserve(std::size_t(n * mean_degree / 2 * 1.1));
  const double r2 = radius * radius;
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::int64_t bx = std::int64_t(p[i].bin % bins), by = std::int64_t(p[i].bin / bins);
    for (std::int64_t dy = -1; dy <= 1; ++dy)
      for (std::int64_t dx = -1; dx <= 1; ++dx) {
        const std::int64_t x = bx + dx, y = by + dy;
        if (x < 0 || y < 0 || x >= std::int64_t(bins) || y >= std::int64_t(bins)) continue;
        const std::uint64_t b = std::uint64_t(y) * bins + std::uint64_t(x);
        for (std::uint32_t j = bin_first[b]; j < bin_first[b] + bin_count[b]; ++j) {
          const double ddx = p[i].x - p[j].x, ddy = p[i].y - p[j].y;
          if (j > i && ddx * ddx + ddy * ddy < r2) edges.emplace_back(i, j);
        }
      }
  }
  Graph g = graph_from_edges(n, edges);
  g.coord_dim = 2;
  g.coords.resize(std::size_t(n) * 2);
  for (std::uint32_t i = 0; i < n; ++i) g.coords[2 * i] = p[i].x, g.coords[2 * i + 1] = p[i].y;
  return g;
}

Graph rmat_graph(int scale, int edge_factor, std::uint64_t seed) {
  if (scale < 1 || scale > 31 || edge_factor < 1 || edge_factor > 1024)
    throw Error("rmat: need 1 <= scale <= 31 and 1 <= edge factor <= 1024");
  const std::uint32_t n = std::uint32_t(1) << scale;
  const std::uint64_t m = std::uint64_t(edge_factor) << scale;
  // Graph500 scrambles ids so that hubs are not all at the start.
  std::vector<VertexId> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  for (std::uint32_t i = n - 1; i > 0; --i) {
    Philox4x32 r = draw(seed ^ 0x5bd1e995u, (std::uint64_t(1) << 40) + i);
    std::swap(perm[i], perm[std::uint64_t(r.v[0]) * (i + 1) >> 32]);
  }
  std::vector<std::pair<VertexId, VertexId>> edges(m);
  constexpr double a = 0.57, b = 0.19, c = 0.19;
  // Edge e descends `scale` levels of the 2x2 Kronecker matrix, one 32-bit draw per level
  // (four per Philox call), so edges are independent and generated in parallel.
#pragma omp parallel for schedule(static)
  for (std::int64_t e = 0; e < std::int64_t(m); ++e) {
    VertexId u = 0, v = 0;
    Philox4x32 r{};
    for (int level = 0; level < scale; ++level) {
      if (level % 4 == 0) r = draw(seed, std::uint64_t(e) * 8 + std::uint64_t(level / 4));
      const double x = double(r.v[level % 4]) * 0x1p-32;
      const int quadrant = x < a ? 0 : x < a + b ? 1 : x < a + b + c ? 2 : 3;
      u = (u << 1) | VertexId(quadrant >> 1);
      v = (v << 1) | VertexId(quadrant & 1);
    }
    edges[std::size_t(e)] = {perm[u], perm[v]};
  }
  return graph_from_edges(n, edges);
}

Graph erdos_renyi_graph(std::uint32_t n, double mean_degree, std::uint64_t seed) {
  if (n < 2 || !(mean_degree > 0) || mean_degree > 1000 || mean_degree >= n - 1)
    throw Error("er: need n >= 2 and a mean degree in (0, min(1000, n - 1))");
  const std::uint64_t m = std::uint64_t(std::llround(mean_degree * n / 2));
  std::vector<std::pair<VertexId, VertexId>> edges(m);
#pragma omp parallel for schedule(static)
  for (std::int64_t e = 0; e < std::int64_t(m); ++e) {
    CellRandom r(seed, std::uint32_t(e), std::uint32_t(std::uint64_t(e) >> 32), RandomStream::initial_fill);
    edges[std::size_t(e)] = {r.below(n), r.below(n)};
  }
  return graph_from_edges(n, edges);  // drops loops, merges duplicates
}

namespace {

enum class Generator { rgg, rmat, er };

struct GeneratorSpec {
  Generator kind;
  std::uint64_t size;  // N, or the scale of rmat
  double degree;       // the mean degree, or rmat's edge factor
};

GeneratorSpec parse_generator(const std::string& spec) {
  const auto bad = [&](const std::string& why) {
    return Error("bad generator " + quoted_text(spec) + ": " + why +
                 " (rgg:N[:mean_degree], rmat:SCALE[:edge_factor] or er:N[:mean_degree])");
  };
  std::vector<std::string> parts;
  for (std::size_t start = 0;;) {
    const std::size_t colon = spec.find(':', start);
    parts.push_back(spec.substr(start, colon - start));
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  auto integer = [&](const std::string& text, std::uint64_t max) {
    std::uint64_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value > max)
      throw bad(quoted_text(text) + " is not an integer up to " + std::to_string(max));
    return value;
  };
  if ((parts[0] == "rgg" || parts[0] == "er") && (parts.size() == 2 || parts.size() == 3)) {
    double degree = parts[0] == "rgg" ? 6.0 : 4.0;
    if (parts.size() == 3) {
      auto [end, ec] = std::from_chars(parts[2].data(), parts[2].data() + parts[2].size(), degree);
      if (parts[2].empty() || ec != std::errc() || end != parts[2].data() + parts[2].size())
        throw bad(quoted_text(parts[2]) + " is not a number");
    }
    return {parts[0] == "rgg" ? Generator::rgg : Generator::er, integer(parts[1], kMaxVertices), degree};
  }
  if (parts[0] == "rmat" && (parts.size() == 2 || parts.size() == 3))
    return {Generator::rmat, integer(parts[1], 31), parts.size() == 3 ? double(integer(parts[2], 1024)) : 16.0};
  throw bad("unknown generator");
}

}  // namespace

Graph generate_graph(const std::string& spec, std::uint64_t seed) {
  const GeneratorSpec g = parse_generator(spec);
  switch (g.kind) {
    case Generator::rgg:
      return random_geometric_graph(std::uint32_t(g.size), g.degree, seed);
    case Generator::er:
      return erdos_renyi_graph(std::uint32_t(g.size), g.degree, seed);
    case Generator::rmat:
      break;
  }
  return rmat_graph(int(g.size), int(g.degree), seed);
}

GeneratedSize generated_size(const std::string& spec) {
  const GeneratorSpec g = parse_generator(spec);
  GeneratedSize size;
  size.vertices = g.kind == Generator::rmat ? std::uint64_t{1} << g.size : g.size;
  // Degrees outside a generator's range are refused when it runs; they imply nothing here.
  const long double degree = g.degree >= 0 && g.degree <= 1024 ? g.degree : 0;
  const long double edges = g.kind == Generator::rmat ? degree * size.vertices : degree * size.vertices / 2;
  size.edges = std::uint64_t(edges);
  // Drawn edges (a pair each), the generator's per-vertex arrays (rgg: points, bins, an order;
  // rmat: a permutation), and the run of the graph with every edge kept.
  const long double per_vertex = g.kind == Generator::rgg ? 64 : 8;
  const long double bytes = edges * 8 + per_vertex * size.vertices +
                            static_cast<long double>(estimated_run_bytes(size.vertices, 2 * size.edges));
  size.bytes = bytes >= 1.8e19L ? std::numeric_limits<std::uint64_t>::max() : std::uint64_t(bytes);
  return size;
}

}  // namespace cellgraph
