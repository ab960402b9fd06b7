// Partitions (METIS, blocks, .part files, the report), the layout of one part (owned, sent,
// halo), and partitioned runs equal to the whole run for every model and update mode. The
// parts run in one process here (tests/partitioned_runs.hpp); test_partition_mpi.cpp runs
// them under mpirun.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "cellgraph/error.hpp"
#include "cellgraph/partition.hpp"
#include "cellgraph/source/generators.hpp"
#include "cellgraph/source/graph_file.hpp"
#include "cellgraph/source/source.hpp"
#include "data_path.hpp"
#include "partitioned_runs.hpp"
#include "scratch.hpp"

using namespace cellgraph;
using namespace cellgraph::test;

namespace {

Graph sample_mesh() { return read_graph_file(data_path("graphs/metis/github-KarypisLab-METIS/4elt.graph")); }

std::vector<std::uint64_t> part_sizes(const std::vector<std::uint32_t>& part, std::uint32_t parts) {
  std::vector<std::uint64_t> sizes(parts, 0);
  for (std::uint32_t p : part) ++sizes.at(p);
  return sizes;
}

// Part `me`'s layout: its vertices are exactly the part's; each one's compiled list, in user
// ids, is its CSR row; the halo holds, peer by peer, the peer's cells it reads; the cells it
// sends are exactly those other parts read, updated before the interior.
void check_part_layout(const Graph& g, const std::vector<std::uint32_t>& part, std::uint32_t parts, std::uint32_t me,
                       const CompileOptions& c) {
  const Layout L = compile_rows(g, part_rows(g, part, parts, me), compile_options_for(g, c));
  std::vector<VertexId> owned;
  for (VertexId v = 0; v < g.num_vertices(); ++v)
    if (part[v] == me) owned.push_back(v);
  REQUIRE(L.num_vertices == owned.size());
  for (std::uint32_t i = 0; i < L.num_vertices; ++i) REQUIRE(L.local_to_user[L.user_to_local[i]] == owned[i]);

  std::set<VertexId> read_from_others;
  for (VertexId local = 0; local < L.num_vertices; ++local) {
    const VertexId user = L.local_to_user[local];
    std::vector<VertexId> compiled;
    for_each_neighbor(L, local, [&](std::uint32_t cell, std::uint32_t) {
      REQUIRE(cell != L.null_cell());  // padding is never visited
      compiled.push_back(cell == L.boundary_cell() ? kBoundaryVertex : L.local_to_user.at(cell));
      if (cell >= L.num_vertices && cell < L.num_cells()) read_from_others.insert(L.local_to_user[cell]);
    });
    REQUIRE(compiled ==
            std::vector<VertexId>(g.neighbors.begin() + g.offsets[user], g.neighbors.begin() + g.offsets[user + 1]));
  }
  CHECK(read_from_others.size() == L.num_halo);  // no halo cell goes unread

  std::set<VertexId> sent;  // what other parts read of ours
  for (VertexId v = 0; v < g.num_vertices(); ++v)
    if (part[v] != me)
      for (EdgeOffset e = g.offsets[v]; e < g.offsets[v + 1]; ++e)
        if (g.neighbors[e] != kBoundaryVertex && part[g.neighbors[e]] == me) sent.insert(g.neighbors[e]);
  std::set<VertexId> listed;
  for (const HaloPeer& peer : L.peers) {
    CHECK(peer.part != me);
    for (std::uint32_t k = 0; k < peer.halo_count; ++k) CHECK(part[L.local_to_user[peer.halo_begin + k]] == peer.part);
    for (std::uint32_t k = 0; k < peer.send_count; ++k)
      listed.insert(L.local_to_user[L.send_cells[peer.send_begin + k]]);
  }
  CHECK(listed == sent);
  // The boundary: what peers read and what reads the halo; the interior touches neither.
  for (VertexId local = L.num_hub_vertices(); local < L.num_vertices; ++local) {
    bool reads_halo = false;
    for_each_neighbor(L, local, [&](std::uint32_t cell, std::uint32_t) {
      reads_halo |= cell >= L.num_vertices && cell < L.num_cells();
    });
    REQUIRE((sent.count(L.local_to_user[local]) || reads_halo) == (local < L.interior_begin));
  }
}

struct Case {
  const char* model;
  models::Params params;
};

const Case kCases[] = {
    {"lifelike", {{"rule", "B3/S23"}}},
    {"lifelike", {{"rule", "/2/3"}, {"p", "0.9"}}},
    {"sir", {{"beta", "0.3"}, {"tau", "3"}}},
    {"sis", {{"beta", "0.3"}, {"gamma", "0.2"}}},
    {"forestfire", {{"p", "0.05"}, {"f", "0.001"}}},
    {"ising", {{"T", "2.5"}}},
    {"ising", {{"T", "1.5"}, {"dynamics", "glauber"}, {"h", "0.1"}}},
    {"rulenumber", {{"kind", "outer"}, {"rule", "224"}}},
};

// The model on `parts` parts (CPU, one thread each) equals the whole run.
void check_partitioned_identity(const Case& c, const Graph& g, const std::vector<std::uint32_t>& part,
                                std::uint32_t parts, const std::string& update, const CompileOptions& compile = {}) {
  INFO(c.model, " ", update, " on ", parts, " parts");
  const SimulationOptions options = with_update(update, 17, 1);
  test::check_partitioned_identity(c.model, c.params, g, part, parts, options, options, compile);
}

}  // namespace

TEST_CASE("partition: blocks are slabs, METIS parts cover the graph, balanced, with a smaller cut") {
  const Graph grid = build_grid_graph(square_grid(16, 12));
  const auto blocks = partition_graph(grid, 4, PartitionOptions{PartitionMethod::block});
  for (VertexId v = 0; v < grid.num_vertices(); ++v) REQUIRE(blocks[v] == v / 48);  // 3 rows each

  const Graph mesh = sample_mesh();
  const auto metis = partition_graph(mesh, 5, {});
  const auto sizes = part_sizes(metis, 5);
  CHECK(*std::min_element(sizes.begin(), sizes.end()) > 0);
  const PartitionReport by_metis = partition_report(mesh, metis, 5);
  CHECK(by_metis.imbalance <= 1.035);
  const PartitionReport by_blocks = partition_report(mesh, partition_graph(mesh, 5, {PartitionMethod::block}), 5);
  CHECK(by_metis.edge_cut * 2 < by_blocks.edge_cut);  // 4elt's numbering is far from a partition
  CHECK(by_metis.vertices == std::vector<std::uint64_t>(sizes.begin(), sizes.end()));

  PartitionOptions volume;
  volume.objective = PartitionObjective::volume;
  volume.contiguous = true;
  const auto by_volume = partition_graph(mesh, 5, volume);
  CHECK(part_sizes(by_volume, 5).size() == 5);
  CHECK(partition_graph(mesh, 5, {}) == metis);  // the same seed, the same answer
}

TEST_CASE("partition: METIS balances a step's work (cells and neighbor entries), or cells alone") {
  // R-MAT: hubs. Cells alone put most neighbor entries (the reads of a step) in one part.
  const Graph g = rmat_graph(14, 8, 1);
  PartitionOptions cells;
  cells.balance = PartitionBalance::cells;
  const PartitionReport by_cells = partition_report(g, partition_graph(g, 4, cells), 4);
  const PartitionReport by_work = partition_report(g, partition_graph(g, 4, {}), 4);
  auto most_entries = [&](const PartitionReport& r) {
    return double(*std::max_element(r.entries.begin(), r.entries.end())) / (double(g.num_entries()) / 4);
  };
  CHECK(by_cells.imbalance <= 1.035);
  CHECK(most_entries(by_cells) > 1.5);
  CHECK(most_entries(by_work) <= 1.1);
  std::uint64_t entries = 0;
  for (std::uint64_t e : by_work.entries) entries += e;
  CHECK(entries == g.num_entries());
}

TEST_CASE("partition: bad requests are errors") {
  const Graph g = path_graph(4);
  CHECK_THROWS_WITH_AS(partition_graph(g, 0, {}), doctest::Contains("at least one part"), Error);
  CHECK_THROWS_WITH_AS(partition_graph(g, 5, {}), doctest::Contains("a part would be empty"), Error);
  PartitionOptions loose;
  loose.imbalance = 0.5;
  CHECK_THROWS_WITH_AS(partition_graph(g, 2, loose), doctest::Contains("imbalance"), Error);
  CHECK(partition_graph(g, 1, {}) == std::vector<std::uint32_t>(4, 0));
}

TEST_CASE("partition: the report counts cut edges, halo cells, sends, the boundary and peers") {
  const Graph g = path_graph(6);
  const PartitionReport r = partition_report(g, {0, 0, 1, 1, 2, 2}, 3);
  CHECK(r.edge_cut == 2);
  CHECK(r.vertices == std::vector<std::uint64_t>{2, 2, 2});
  CHECK(r.entries == std::vector<std::uint64_t>{3, 4, 3});
  CHECK(r.halo == std::vector<std::uint64_t>{1, 2, 1});  // 0 reads 2; 1 reads 1 and 4; 2 reads 3
  CHECK(r.peers == std::vector<std::uint32_t>{1, 2, 1});
  CHECK(r.total_halo() == 4);
  CHECK(r.sends == std::vector<std::uint64_t>{1, 2, 1});     // what the others read of each
  CHECK(r.boundary == std::vector<std::uint64_t>{1, 2, 1});  // 1; 2 and 3; 4
  CHECK(r.boundary_entries == std::vector<std::uint64_t>{2, 4, 2});
  CHECK(r.imbalance == 1.0);
  // A cell two peers read is sent twice.
  const PartitionReport middle = partition_report(path_graph(3), {1, 0, 2}, 3);
  CHECK(middle.sends == std::vector<std::uint64_t>{2, 1, 1});
  CHECK(middle.boundary == std::vector<std::uint64_t>{1, 1, 1});
  CHECK(partition_report(g, {0, 0, 0, 0, 0, 1}, 2).imbalance == doctest::Approx(5.0 / 3));
}

TEST_CASE("partition: .part files are read back as written, bad ones name the file and line") {
  ScratchDir dir;
  const std::string path = dir / "g.part.3";
  write_partition(path, {0, 2, 1, 1, 0});
  CHECK(read_file(path) == "0\n2\n1\n1\n0\n");
  CHECK(dir.files() == std::set<std::string>{"g.part.3"});  // no temporary left behind
  CHECK(read_partition(path, 5, 3) == std::vector<std::uint32_t>{0, 2, 1, 1, 0});

  auto error_of = [&](const std::string& text, VertexId vertices, std::uint32_t parts) -> std::string {
    try {
      read_partition(dir.write("bad.part", text), vertices, parts);
    } catch (const Error& e) {
      return e.what();
    }
    return "no error";
  };
  CHECK(error_of("0\n1\n3\n", 3, 3).find("bad.part:3: part id 3 is out of range 0..2") != std::string::npos);
  CHECK(error_of("0\n1\n1\n0\n", 3, 2).find("bad.part:4: more lines than vertices (3)") != std::string::npos);
  CHECK(error_of("0\n1\n", 3, 2).find("bad.part:2: the file ends after 2 part ids; expected one per vertex (3)") !=
        std::string::npos);
  CHECK(error_of("0\n0\n2\n", 3, 3).find("part 1 of 3 is empty") != std::string::npos);
  CHECK(error_of("0\nx\n1\n", 3, 2).find("bad.part:2:") != std::string::npos);
  CHECK(error_of("0 1\n1\n", 2, 2).find("bad.part:1: expected one part id per line") != std::string::npos);
  CHECK_THROWS_AS(read_partition(dir / "missing.part", 3, 2), Error);
}

TEST_CASE("partition: each part owns its vertices, reads its halo and sends what peers read") {
  const Graph grid = build_grid_graph(square_grid(23, 17, moore_stencil(2, 2), {BoundaryKind::fixed, 1}));
  const Graph hubs = rmat_graph(11, 8, 3);
  for (std::uint32_t parts : {2u, 3u, 5u}) {
    INFO(parts, " parts");
    const auto slabs = partition_graph(grid, parts, {PartitionMethod::block});
    const auto metis = partition_graph(hubs, parts, {});
    for (std::uint32_t me = 0; me < parts; ++me) {
      check_part_layout(grid, slabs, parts, me, {});
      check_part_layout(hubs, metis, parts, me, small_hubs());
    }
  }
  // Not symmetric (each vertex reads the next and the third next, around a cycle): the last
  // vertices of a block read the halo but no peer reads them; they are boundary all the same.
  Graph cycle;
  cycle.symmetric = false;
  const VertexId n = 40;
  for (VertexId v = 0; v < n; ++v) {
    cycle.neighbors.push_back((v + 1) % n);
    cycle.neighbors.push_back((v + 3) % n);
    cycle.offsets.push_back(cycle.neighbors.size());
  }
  for (std::uint32_t parts : {2u, 3u}) {
    const auto blocks = partition_graph(cycle, parts, {PartitionMethod::block});
    for (std::uint32_t me = 0; me < parts; ++me) check_part_layout(cycle, blocks, parts, me, {});
  }
  // The halo must cover every foreign neighbor.
  CompileRows rows = part_rows(path_graph(4), {0, 0, 1, 1}, 2, 0);
  rows.halo.clear();
  CHECK_THROWS_WITH_AS(compile_rows(path_graph(4), rows, compile_options_for(path_graph(4), {})),
                       doctest::Contains("vertex 1 reads vertex 2, which is neither owned nor in the halo"), Error);
}

TEST_CASE("partition: every model and update mode on N parts equals the whole run") {
  const Graph grid = build_grid_graph(square_grid(29, 21, moore_stencil(2, 1), {BoundaryKind::fixed, 1}));
  const Graph hubs = rmat_graph(10, 8, 5);
  for (const Case& c : kCases)
    for (const char* update : {"sync", "alpha:0.6", "colored"})
      for (std::uint32_t parts : {2u, 3u}) {
        check_partitioned_identity(c, grid, partition_graph(grid, parts, {PartitionMethod::block}), parts, update);
        check_partitioned_identity(c, hubs, partition_graph(hubs, parts, {}), parts, update, small_hubs());
      }
}

TEST_CASE("partition: rule tables read neighbor slots across parts, odd splits work") {
  const Graph torus = build_grid_graph(square_grid(19, 13));
  const std::string some_512_bits =
      "0x6694f229359b154881a0d5b3ffc6e35ccfaf00103f584ad4230824d215ceb3a1"
      "0b3510b0b46ee1da317017a6205738d16018366cf658f7a75ed34fe53a096533";
  const Case table{"rulenumber", {{"kind", "moore"}, {"rule", some_512_bits}}};
  std::vector<std::uint32_t> scattered(torus.num_vertices());  // every part everywhere
  for (VertexId v = 0; v < torus.num_vertices(); ++v) scattered[v] = (v * 7 + v / 5) % 4;
  check_partitioned_identity(table, torus, scattered, 4, "sync");
  check_partitioned_identity(table, torus, partition_graph(torus, 6, {}), 6, "colored");
}
