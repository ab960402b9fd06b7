// METIS k-way and block partitions, .part files and the partition report.
#include "cellgraph/partition.hpp"

#include <metis.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "cellgraph/error.hpp"
#include "cellgraph/output/atomic_file.hpp"
#include "src/source/line_reader.hpp"

namespace cellgraph {
namespace {

// Calls f(u) for each neighbor of v that is a vertex (not a grid's boundary slot).
template <class F>
void for_each_vertex_neighbor(const Graph& g, VertexId v, F&& f) {
  for (EdgeOffset e = g.offsets[v]; e < g.offsets[v + 1]; ++e)
    if (g.neighbors[e] != kBoundaryVertex) f(g.neighbors[e]);
}

std::vector<std::uint32_t> metis_partition(const Graph& g, std::uint32_t parts, const PartitionOptions& o) {
  // METIS wants a symmetric graph without loops or repeated edges: grids with custom stencils
  // or tiny periodic sizes have both.
  std::vector<std::pair<VertexId, VertexId>> edges;
  edges.reserve(g.num_entries());
  for (VertexId v = 0; v < g.num_vertices(); ++v)
    for_each_vertex_neighbor(g, v, [&](VertexId u) { edges.emplace_back(v, u); });
  const Graph s = graph_from_edges(g.num_vertices(), edges);
  edges = {};
  if (s.num_entries() > EdgeOffset(std::numeric_limits<idx_t>::max()))
    throw Error("the graph has too many edges for METIS's 32-bit indices");
  std::vector<idx_t> xadj(s.offsets.begin(), s.offsets.end()), adjncy(s.neighbors.begin(), s.neighbors.end());
  // Balancing work: a vertex weighs 1 + its entries in the graph (boundary slots too: the
  // layout stores them).
  const bool by_work = o.balance == PartitionBalance::work;
  idx_t n = idx_t(s.num_vertices()), ncon = 1, nparts = idx_t(parts), objval = 0;
  std::vector<idx_t> weights;
  if (by_work) {
    if (g.num_entries() + g.num_vertices() > EdgeOffset(std::numeric_limits<idx_t>::max()))
      throw Error("the graph has too many entries for METIS's 32-bit weights");
    weights.resize(std::size_t(n));
    for (VertexId v = 0; v < g.num_vertices(); ++v) weights[v] = idx_t(1 + g.offsets[v + 1] - g.offsets[v]);
  }
  real_t tolerance = real_t(o.imbalance);
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_OBJTYPE] = o.objective == PartitionObjective::volume ? METIS_OBJTYPE_VOL : METIS_OBJTYPE_CUT;
  options[METIS_OPTION_CONTIG] = o.contiguous ? 1 : 0;
  options[METIS_OPTION_SEED] = idx_t(o.seed % std::uint64_t(std::numeric_limits<idx_t>::max()));
  options[METIS_OPTION_UFACTOR] = idx_t(std::lround((o.imbalance - 1.0) * 1000.0));
  options[METIS_OPTION_NUMBERING] = 0;
  std::vector<idx_t> part(n);
  const int status = METIS_PartGraphKway(&n, &ncon, xadj.data(), adjncy.data(), by_work ? weights.data() : nullptr,
                                         nullptr, nullptr, &nparts, nullptr, &tolerance, options, &objval, part.data());
  if (status != METIS_OK)
    throw Error(std::string("METIS_PartGraphKway failed: ") +
                (status == METIS_ERROR_MEMORY  ? "out of memory"
                 : status == METIS_ERROR_INPUT ? "bad input (a contiguous partition of a disconnected graph?)"
                                               : "error"));
  return std::vector<std::uint32_t>(part.begin(), part.end());
}

}  // namespace

std::vector<std::uint32_t> partition_graph(const Graph& g, std::uint32_t parts, const PartitionOptions& o) {
  const VertexId n = g.num_vertices();
  if (parts == 0) throw Error("a partition needs at least one part");
  if (parts > n)
    throw Error(std::to_string(parts) + " parts for " + std::to_string(n) + " vertices: a part would be empty");
  if (!(o.imbalance >= 1.0 && o.imbalance <= 10.0)) throw Error("the imbalance must be from 1 to 10");
  if (parts == 1) return std::vector<std::uint32_t>(n, 0);
  if (o.method == PartitionMethod::metis) return metis_partition(g, parts, o);
  std::vector<std::uint32_t> part(n);
  for (VertexId v = 0; v < n; ++v) part[v] = std::uint32_t(std::uint64_t(v) * parts / n);
  return part;
}

std::vector<std::uint32_t> read_partition(const std::string& path, VertexId vertices, std::uint32_t parts) {
  std::ifstream in = detail::open_input(path);
  detail::LineReader reader(in, path);
  std::vector<std::uint32_t> part;
  part.reserve(detail::reserve_hint(vertices));
  std::vector<std::uint64_t> sizes(parts, 0);
  while (reader.next("%#")) {
    if (part.size() == vertices) reader.fail("more lines than vertices (" + std::to_string(vertices) + ")");
    if (reader.size() != 1) reader.fail("expected one part id per line, " + reader.fields_found());
    const std::uint64_t p = reader.parse_unsigned(reader[0], "part id", std::numeric_limits<std::uint32_t>::max());
    if (p >= parts)
      reader.fail("part id " + std::to_string(p) + " is out of range 0.." + std::to_string(parts - 1) + " (" +
                  std::to_string(parts) + " parts)");
    ++sizes[p];
    part.push_back(std::uint32_t(p));
  }
  // Reported at the last line, where the missing part ids would have followed.
  if (part.size() != vertices)
    reader.fail("the file ends after " + std::to_string(part.size()) + (part.size() == 1 ? " part id" : " part ids") +
                "; expected one per vertex (" + std::to_string(vertices) + ")");
  for (std::uint32_t p = 0; p < parts; ++p)
    if (sizes[p] == 0) reader.fail_at(0, "part " + std::to_string(p) + " of " + std::to_string(parts) + " is empty");
  return part;
}

void write_partition(const std::string& path, const std::vector<std::uint32_t>& part) {
  AtomicFile file(path);
  std::string text;
  text.reserve(part.size() * 3);
  for (std::uint32_t p : part) text += std::to_string(p) + '\n';
  file.stream() << text;
  file.commit();
}

std::uint64_t PartitionReport::total_halo() const {
  std::uint64_t total = 0;
  for (std::uint64_t h : halo) total += h;
  return total;
}

double PartitionReport::boundary_share() const {
  std::uint64_t boundary_work = 0, work = 0;
  for (std::uint32_t p = 0; p < parts; ++p) {
    boundary_work = std::max(boundary_work, boundary[p] + boundary_entries[p]);
    work = std::max(work, vertices[p] + entries[p]);
  }
  return work ? double(boundary_work) / double(work) : 0.0;
}

std::uint64_t PartitionReport::sends_max() const {
  return sends.empty() ? 0 : *std::max_element(sends.begin(), sends.end());
}

PartitionReport partition_report(const Graph& g, const std::vector<std::uint32_t>& part, std::uint32_t parts) {
  if (part.size() != g.num_vertices()) throw Error("a partition of the wrong length");
  PartitionReport r;
  r.parts = parts;
  r.vertices.assign(parts, 0);
  r.entries.assign(parts, 0);
  r.halo.assign(parts, 0);
  r.sends.assign(parts, 0);
  r.boundary.assign(parts, 0);
  r.boundary_entries.assign(parts, 0);
  r.peers.assign(parts, 0);
  std::vector<std::pair<std::uint32_t, VertexId>> reads;       // (part, foreign cell it reads)
  std::vector<std::pair<std::uint32_t, std::uint32_t>> links;  // (part, peer)
  std::vector<bool> on_boundary(g.num_vertices(), false);      // reads the halo, or a peer reads it
  std::uint64_t cut_entries = 0;
  for (VertexId v = 0; v < g.num_vertices(); ++v) {
    ++r.vertices[part[v]];
    for_each_vertex_neighbor(g, v, [&](VertexId u) {
      ++r.entries[part[v]];
      if (part[u] == part[v]) return;
      ++cut_entries;
      on_boundary[v] = on_boundary[u] = true;
      reads.emplace_back(part[v], u);
      links.emplace_back(part[v], part[u]);
      links.emplace_back(part[u], part[v]);
    });
  }
  for (VertexId v = 0; v < g.num_vertices(); ++v)
    if (on_boundary[v]) ++r.boundary[part[v]], r.boundary_entries[part[v]] += g.degree(v);
  r.edge_cut = cut_entries / 2;  // symmetric graphs list each cut edge from both ends
  std::sort(links.begin(), links.end());
  links.erase(std::unique(links.begin(), links.end()), links.end());
  std::sort(reads.begin(), reads.end());
  reads.erase(std::unique(reads.begin(), reads.end()), reads.end());
  for (auto [p, u] : reads) ++r.halo[p], ++r.sends[part[u]];
  for (auto [p, q] : links) ++r.peers[p];
  const double mean = double(g.num_vertices()) / parts;
  r.imbalance = mean > 0 ? double(*std::max_element(r.vertices.begin(), r.vertices.end())) / mean : 0.0;
  return r;
}

CompileRows part_rows(const Graph& g, const std::vector<std::uint32_t>& part, std::uint32_t parts, std::uint32_t me) {
  if (part.size() != g.num_vertices()) throw Error("a partition of the wrong length");
  CompileRows rows;
  std::vector<std::vector<VertexId>> halo_from(parts), send_to(parts);
  for (VertexId v = 0; v < g.num_vertices(); ++v) {
    const std::uint32_t p = part[v];
    if (p == me) rows.owned.push_back(v);
    for_each_vertex_neighbor(g, v, [&](VertexId u) {
      const std::uint32_t q = part[u];
      if (p == me && q != me) halo_from[q].push_back(u);
      else if (p != me && q == me) send_to[p].push_back(u);  // p's vertex v reads our u
    });
  }
  for (std::uint32_t q = 0; q < parts; ++q) {
    for (auto* list : {&halo_from[q], &send_to[q]}) {
      std::sort(list->begin(), list->end());
      list->erase(std::unique(list->begin(), list->end()), list->end());
    }
    if (halo_from[q].empty() && send_to[q].empty()) continue;
    HaloPeer peer;
    peer.part = q;
    peer.send_begin = std::uint32_t(rows.send.size());
    peer.send_count = std::uint32_t(send_to[q].size());
    peer.halo_begin = std::uint32_t(rows.owned.size() + rows.halo.size());
    peer.halo_count = std::uint32_t(halo_from[q].size());
    rows.peers.push_back(peer);
    rows.send.insert(rows.send.end(), send_to[q].begin(), send_to[q].end());
    rows.halo.insert(rows.halo.end(), halo_from[q].begin(), halo_from[q].end());
  }
  return rows;
}

}  // namespace cellgraph
