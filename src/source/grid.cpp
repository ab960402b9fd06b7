#include "cellgraph/source/grid.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <limits>

#include "cellgraph/error.hpp"
#include "cellgraph/layout.hpp"

namespace cellgraph {
namespace {

bool parse_int(std::string_view text, std::int64_t& value) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && end == text.data() + text.size();
}

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  for (std::size_t start = 0;;) {
    std::size_t at = text.find(sep, start);
    parts.push_back(text.substr(start, at - start));
    if (at == std::string_view::npos) return parts;
    start = at + 1;
  }
}

template <class Accept>
std::vector<Offset> box_stencil(int dims, int range, Accept accept) {
  std::vector<Offset> s;
  const int rz = dims >= 3 ? range : 0, ry = dims >= 2 ? range : 0;
  for (int dz = -rz; dz <= rz; ++dz)
    for (int dy = -ry; dy <= ry; ++dy)
      for (int dx = -range; dx <= range; ++dx)
        if ((dx || dy || dz) && accept(dx, dy, dz)) s.push_back({dx, dy, dz});
  return s;
}

// Maps a coordinate outside [0, n) back in, or returns -1 for the boundary cell.
std::int64_t wrap(std::int64_t c, std::int64_t n, BoundaryKind kind) {
  if (c >= 0 && c < n) return c;
  switch (kind) {
    case BoundaryKind::periodic:
      return ((c % n) + n) % n;
    case BoundaryKind::fixed:
      return -1;
    case BoundaryKind::reflective: {
      // Mirror about the edge with the edge cell repeated; period 2n covers any distance.
      std::int64_t m = ((c % (2 * n)) + 2 * n) % (2 * n);
      return m < n ? m : 2 * n - 1 - m;
    }
  }
  return -1;
}

}  // namespace

std::vector<Offset> moore_stencil(int dims, int range) {
  return box_stencil(dims, range, [](int, int, int) { return true; });
}

std::vector<Offset> von_neumann_stencil(int dims, int range) {
  return box_stencil(dims, range,
                     [range](int dx, int dy, int dz) { return std::abs(dx) + std::abs(dy) + std::abs(dz) <= range; });
}

std::vector<Offset> hexagonal_stencil() {
  return {{-1, -1, 0}, {0, -1, 0}, {-1, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
}

std::vector<Offset> cloud_stencil() {
  return box_stencil(3, 2, [](int dx, int dy, int dz) {
    const int reach = std::abs(dx) + std::abs(dy) + std::abs(dz);
    const bool on_axis = reach == std::max({std::abs(dx), std::abs(dy), std::abs(dz)});
    return on_axis && (reach == 1 || (reach == 2 && dz != 2));
  });
}

std::vector<Offset> parse_stencil(const std::string& text, int dims) {
  auto colon = text.find(':');
  std::string kind = text.substr(0, colon);
  std::string arg = colon == std::string::npos ? "" : text.substr(colon + 1);
  auto range = [&]() -> int {
    if (arg.empty()) return 1;
    std::int64_t r;
    if (!parse_int(arg, r) || r < 1 || r > 64)
      throw Error("neighborhood " + quoted_text(text) + ": the range must be an integer from 1 to 64");
    return static_cast<int>(r);
  };
  if (kind == "moore") return moore_stencil(dims, range());
  if (kind == "vonneumann" || kind == "von-neumann") return von_neumann_stencil(dims, range());
  if (kind == "hex" || kind == "hexagonal") {
    if (dims != 2 || !arg.empty()) throw Error("neighborhood 'hex' needs a 2D grid and no range");
    return hexagonal_stencil();
  }
  if (kind == "cloud") {
    if (dims != 3 || !arg.empty()) throw Error("neighborhood 'cloud' needs a 3D grid (WxHxD, z up) and no range");
    return cloud_stencil();
  }
  if (kind == "custom") {
    std::vector<Offset> s;
    for (auto item : split(arg, ';')) {
      auto coords = split(item, ',');
      std::int64_t c[3] = {0, 0, 0};
      bool ok = coords.size() >= 1 && coords.size() <= 3;
      for (std::size_t i = 0; ok && i < coords.size(); ++i)
        ok = parse_int(coords[i], c[i]) && std::abs(c[i]) <= 1 << 20;
      if (!ok || int(coords.size()) > std::max(dims, 1) || (c[0] == 0 && c[1] == 0 && c[2] == 0))
        throw Error("neighborhood " + quoted_text(text) + ": bad offset " + quoted_text(item) + " (want " +
                    std::to_string(dims) + " integers, not all zero, like 1,0;-1,0)");
      s.push_back({int(c[0]), int(c[1]), int(c[2])});
    }
    return s;
  }
  throw Error("unknown neighborhood " + quoted_text(text) + " (moore[:r], vonneumann[:r], hex, cloud, custom:x,y;...)");
}

std::array<std::int64_t, 3> parse_grid_size(const std::string& text, int* dims) {
  auto parts = split(text, 'x');
  std::array<std::int64_t, 3> size{1, 1, 1};
  bool ok = parts.size() >= 1 && parts.size() <= 3;
  for (std::size_t i = 0; ok && i < parts.size(); ++i) ok = parse_int(parts[i], size[i]) && size[i] >= 1;
  if (!ok) throw Error("bad grid size " + quoted_text(text) + " (want positive integers like 512x512 or 64x64x64)");
  if (dims) *dims = static_cast<int>(parts.size());
  return size;
}

Boundary parse_boundary(const std::string& text) {
  if (text == "periodic" || text == "torus") return {BoundaryKind::periodic, 0};
  if (text == "reflective") return {BoundaryKind::reflective, 0};
  if (text == "open" || text == "fixed") return {BoundaryKind::fixed, 0};
  if (text.rfind("fixed:", 0) == 0) {
    std::int64_t v;
    if (parse_int(std::string_view(text).substr(6), v) && v >= 0 && v <= 0xFFFF)
      return {BoundaryKind::fixed, static_cast<std::uint32_t>(v)};
  }
  throw Error("unknown boundary " + quoted_text(text) + " (periodic, fixed[:state], open, reflective)");
}

void check_grid(const GridSpec& spec) {
  if (spec.dims < 1 || spec.dims > 3) throw Error("grids have 1, 2 or 3 dimensions");
  for (int a = 0; a < 3; ++a)
    if (spec.size[a] < 1 || (a >= spec.dims && spec.size[a] != 1)) throw Error("grid sizes must be positive");
  const std::uint64_t cells = spec.cell_count();
  if (spec.size[0] > (1 << 30) || spec.size[1] > (1 << 30) || spec.size[2] > (1 << 30) || cells > kMaxVertices)
    throw Error("grid of " + std::to_string(cells) + " cells is too large (at most " + std::to_string(kMaxVertices) +
                ")");
  if (spec.stencil.empty()) throw Error("the neighborhood is empty");
  for (const Offset& o : spec.stencil) {
    const int d[3] = {o.dx, o.dy, o.dz};
    for (int a = 0; a < 3; ++a) {
      if (a >= spec.dims && d[a] != 0)
        throw Error("neighborhood offset reaches into a dimension the grid does not have");
    }
  }
}

Graph build_grid_graph(const GridSpec& spec) {
  check_grid(spec);
  const auto [X, Y, Z] = spec.size;
  const std::size_t k = spec.stencil.size();
  Graph g;
  g.slotted = true;
  // Wrapped (periodic) and mirrored (reflective) edges pair up like inner ones: cell a reads b
  // through offset d, and b reads a through -d, or through d itself where mirrored.
  g.symmetric = std::all_of(spec.stencil.begin(), spec.stencil.end(), [&](const Offset& o) {
    return std::find(spec.stencil.begin(), spec.stencil.end(), Offset{-o.dx, -o.dy, -o.dz}) != spec.stencil.end();
  });
  g.offsets.resize(spec.cell_count() + 1);
  for (std::uint64_t v = 0; v <= spec.cell_count(); ++v) g.offsets[v] = v * k;
  g.neighbors.resize(spec.cell_count() * k);
  const BoundaryKind kind = spec.boundary.kind;
  VertexId* out = g.neighbors.data();
  for (std::int64_t z = 0; z < Z; ++z)
    for (std::int64_t y = 0; y < Y; ++y)
      for (std::int64_t x = 0; x < X; ++x)
        for (const Offset& o : spec.stencil) {
          std::int64_t nx = wrap(x + o.dx, X, kind), ny = wrap(y + o.dy, Y, kind), nz = wrap(z + o.dz, Z, kind);
          *out++ = (nx < 0 || ny < 0 || nz < 0) ? kBoundaryVertex : static_cast<VertexId>(spec.cell_id(nx, ny, nz));
        }
  return g;
}

}  // namespace cellgraph
