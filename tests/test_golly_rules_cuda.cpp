// GPU suite for Golly rule files: the rule tree in device memory, every rule file in data/rules
// on the GPU equal to the CPU bit for bit (plain cells, hubs folded by warps and by blocks,
// every update mode), and bgolly's recorded runs on the GPU. Skipped without a GPU.
#include <doctest/doctest.h>

#include <filesystem>

#include "golly_rule_check.hpp"
#include "model_runs.hpp"

using namespace cellgraph;
using namespace cellgraph::testing;

namespace {

std::vector<std::string> rule_names() {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(data_path("rules")))
    if (entry.path().extension() == ".rule") names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

void check_rule_identity(const std::string& rule, const GridSpec& grid, const std::string& update, CompileOptions c) {
  SimulationOptions cpu_options = test::with_update(update, 13), gpu_options = cpu_options;
  gpu_options.backend = BackendKind::cuda;
  auto cpu = golly_simulation(rule, grid, cpu_options, c);
  auto gpu = golly_simulation(rule, grid, gpu_options, c);
  const auto start = random_soup(grid.cell_count(), cpu->num_states(), 0.4, 5);
  cpu->set_states(start);
  gpu->set_states(start);
  for (std::uint64_t steps : {1, 2, 64, 67}) {  // single launches and captured graphs
    cpu->advance(steps);
    gpu->advance(steps);
    INFO(rule, " ", update, " hub_degree ", c.hub_degree, " giant_degree ", c.giant_degree, " at step ", cpu->step());
    CHECK(cpu->states() == gpu->states());
    CHECK(cpu->census() == gpu->census());
  }
}

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE("gpu: Golly rule files equal the CPU bit for bit" * doctest::skip(!cuda_device_available())) {
    GridSpec plane = golly_torus(61, 43);
    plane.boundary = {BoundaryKind::fixed, 0};
    const GridSpec torus = golly_torus(61, 43);
    CompileOptions warps, blocks;  // every cell a hub: partial folds combined
    warps.hub_degree = 8;
    blocks.hub_degree = blocks.giant_degree = 8;
    for (const std::string& rule : rule_names()) {
      for (const char* update : {"sync", "alpha:0.6", "colored"}) check_rule_identity(rule, torus, update, {});
      check_rule_identity(rule, plane, "sync", {});
      check_rule_identity(rule, torus, "sync", warps);
      check_rule_identity(rule, torus, "sync", blocks);
    }
  }

  TEST_CASE("gpu: bgolly's recorded runs of Golly rule files" * doctest::skip(!cuda_device_available())) {
    CHECK(check_golly_rule_references(BackendKind::cuda) == int(std::size(kGollyRuleReferences)));
  }
}
