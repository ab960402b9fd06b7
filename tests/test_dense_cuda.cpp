// GPU suite: the dense CUDA kernels against the graph engine (CPU), cell for cell. Skipped
// without a GPU; on the GPU machine: build/tests/cellgraph_tests --test-suite=gpu -tc='*dense*'
#include <doctest/doctest.h>

#include <string>

#include "cellgraph/dense/automaton.hpp"
#include "cellgraph/simulation.hpp"
#include "dense_check.hpp"

using namespace cellgraph;
using namespace cellgraph::dense;

namespace {

GridShape grid_shape(int dims, std::int64_t w, std::int64_t h, std::int64_t d, Edge edge, std::uint32_t value = 0,
                     Neighborhood n = Neighborhood::moore) {
  GridShape s;
  s.dims = dims;
  s.size[0] = w, s.size[1] = h, s.size[2] = d;
  s.edge = edge;
  s.edge_value = value;
  s.neighborhood = n;
  return s;
}

void check_gpu(const GridShape& shape, const std::string& rule_name, const std::vector<std::uint64_t>& chunks,
               double density = 0.4, int generations_per_pass = 0) {
  test::check_kernels_against_graph(Device::cuda, shape, rule_name, {KernelKind::byte, KernelKind::bitpacked}, chunks,
                                    density, {0, generations_per_pass});
}

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE("gpu: dense kernels equal the graph engine on 2D grids" * doctest::skip(!cuda_device_available())) {
    for (auto [w, h] : {std::pair{37, 23}, std::pair{70, 9}, std::pair{129, 5}, std::pair{1, 7}, std::pair{64, 3},
                        std::pair{1000, 77}})
      for (auto [edge, value] : {std::pair{Edge::periodic, 0u}, std::pair{Edge::fixed, 0u}, std::pair{Edge::fixed, 1u},
                                 std::pair{Edge::reflective, 0u}})
        for (const char* rule : {"B3/S23", "B36/S23", "B2/S", "B3678/S34678", "/2/3", "B2/S0", "B03/S1"})
          check_gpu(grid_shape(2, w, h, 1, edge, value), rule, {1, 2, 13, 31, 40});
    // Tiles across and down (edge tiles on every side), every pass length, the kernel's choice
    // of pass and set ones; live and dead fixed outsides.
    for (auto [edge, value] : {std::pair{Edge::periodic, 0u}, std::pair{Edge::fixed, 0u}, std::pair{Edge::fixed, 1u},
                               std::pair{Edge::reflective, 0u}}) {
      check_gpu(grid_shape(2, 2011, 1501, 1, edge, value), "B3/S23", {1, 63, 100}, 0.5);
      check_gpu(grid_shape(2, 997, 1031, 1, edge, value), "B36/S23", {1, 70}, 0.5, 32);
      check_gpu(grid_shape(2, 4100, 700, 1, edge, value), "B3/S23", {33, 8}, 0.5, 8);
      check_gpu(grid_shape(2, 40, 5000, 1, edge, value), "B3678/S34678", {5, 16}, 0.5, 1);
      check_gpu(grid_shape(2, 1024, 600, 1, edge, value), "B38/S238", {40}, 0.5, 16);
    }
  }

  TEST_CASE("gpu: dense tile kernels run the longest instantiated pass not above the setting, and say so" *
            doctest::skip(!cuda_device_available())) {
    const GridShape shape = grid_shape(2, 300, 200, 1, Edge::periodic);
    const LifeRule life = parse_life_rule("B3/S23");
    CHECK(make_life_automaton(KernelKind::bitpacked, Device::cuda, shape, life, {0, 5})
              ->name()
              .find("4 generations per pass") != std::string::npos);
    CHECK(make_life_automaton(KernelKind::byte, Device::cuda, shape, life, {0, 32})
              ->name()
              .find("16 generations per pass") != std::string::npos);
    CHECK(
        make_life_automaton(KernelKind::bitpacked, Device::cuda, shape, life)->name().find("32 generations per pass") !=
        std::string::npos);
    check_gpu(shape, "B3/S23", {11, 7}, 0.5, 5);
  }

  TEST_CASE("gpu: dense 1D and 3D byte kernels equal the graph engine" * doctest::skip(!cuda_device_available())) {
    for (Edge edge : {Edge::periodic, Edge::fixed, Edge::reflective}) {
      check_gpu(grid_shape(1, 301, 1, 1, edge), "B1/S1", {1, 40});
      for (Neighborhood n : {Neighborhood::moore, Neighborhood::von_neumann}) {
        check_gpu(grid_shape(3, 13, 11, 7, edge, edge == Edge::fixed, n),
                  n == Neighborhood::moore ? "B5,6,7/S4,5,6" : "B2/S1,2", {1, 9}, 0.25);
        check_gpu(grid_shape(2, 45, 31, 1, edge, 0, n), "/2/3", {1, 9}, 0.3);
      }
    }
  }

  TEST_CASE("gpu: dense elementary rules equal the CPU byte kernel" * doctest::skip(!cuda_device_available())) {
    for (int number : {30, 90, 110, 184})
      for (Edge edge : {Edge::periodic, Edge::fixed, Edge::reflective}) {
        const GridShape line = grid_shape(1, 1001, 1, 1, edge, edge == Edge::fixed);
        auto cpu = make_elementary_automaton(Device::cpu, line, ElementaryRule{std::uint8_t(number)});
        auto gpu = make_elementary_automaton(Device::cuda, line, ElementaryRule{std::uint8_t(number)});
        cpu->fill_random(3, 0.5);
        gpu->fill_random(3, 0.5);
        cpu->advance(300);
        gpu->advance(300);
        CHECK(cpu->states() == gpu->states());
        CHECK(cpu->hash() == gpu->hash());
      }
  }
}
