// The CUDA backend's automatic choices are made once (plan_sweeps): what `compile --report`
// prints, what the performance model prices and what the backend runs must be that plan, on
// grids, meshes and R-MAT graphs. The backend's side runs where there is a GPU.
#include <doctest/doctest.h>

#include "cellgraph/perfmodel.hpp"
#include "cellgraph/source/source.hpp"
#include "cellgraph/sweep_plan.hpp"
#include "cli_run.hpp"
#include "data_path.hpp"
#include "models/registry.hpp"

using namespace cellgraph;
using test::run_cli;

namespace {

struct PlanCase {
  std::string cli;  // the source as `cellgraph compile` takes it
  SourceSpec spec;  // the same source for load_source
  std::string model, update;
};

std::vector<PlanCase> plan_cases() {
  std::vector<PlanCase> cases;
  auto grid = [](const std::string& size, const std::string& neighborhood) {
    SourceSpec s;
    s.grid = size;
    s.neighborhood = neighborhood;
    return s;
  };
  auto generated = [](const std::string& generator) {
    SourceSpec s;
    s.generator = generator;
    return s;
  };
  SourceSpec mesh;
  mesh.mesh_file = data_path("meshes/t5_3d_tet_v41.msh");
  cases.push_back({"--grid 256x256", grid("256x256", "moore"), "lifelike", "sync"});
  cases.push_back({"--grid 1100x1000", grid("1100x1000", "moore"), "lifelike", "sync"});  // past the latency bound
  cases.push_back({"--grid 128x128 --neighborhood vonneumann", grid("128x128", "vonneumann"), "ising", "colored"});
  cases.push_back({"--mesh " + mesh.mesh_file, mesh, "sir", "sync"});
  cases.push_back({"--generate rmat:14", generated("rmat:14"), "lifelike", "sync"});          // hubs, small: fused
  cases.push_back({"--generate er:200000:6", generated("er:200000:6"), "lifelike", "sync"});  // scattered: packed
  cases.push_back({"--generate er:200000:6", generated("er:200000:6"), "greenberghastings", "sync"});  // no signal
  return cases;
}

std::string fields_text(const SweepPlan& plan) {
  std::string text;
  for (const auto& [name, value] : plan_fields(plan)) text += name + " " + value + "; ";
  return text;
}

SimulationOptions options_for(const PlanCase& c) {
  SimulationOptions o;
  o.backend = BackendKind::cuda;
  o.update = parse_update_rule(c.update);
  return o;
}

// Every case's plan on `device`, checked against what `compile --report` prints and what the
// performance model prices; `backend`: also against the plan the CUDA backend runs.
void check_agreement(const DeviceTraits& device, bool backend) {
  for (const PlanCase& c : plan_cases()) {
    INFO(c.cli, ", ", c.model, ", ", c.update);
    const Source source = load_source(c.spec);
    const auto layout = std::make_shared<const Layout>(compile(source.graph, {}));
    const models::ModelInfo& model = models::find_model(c.model);
    const SimulationOptions options = options_for(c);
    const SweepPlan plan = plan_sweeps(*layout, model.sweep_traits, options, device);

    const auto printed = run_cli("compile " + c.cli + " --report --model " + c.model + " --update " + c.update);
    REQUIRE(printed.status == 0);
    CHECK(printed.out.find("sweep plan        " + c.model + " on " + device.name) != std::string::npos);
    for (const auto& [name, value] : plan_fields(plan)) {
      const std::string line = "    " + name + std::string(20 - name.size(), ' ') + value + "\n";
      CHECK_MESSAGE(printed.out.find(line) != std::string::npos, line, " not in\n", printed.out);
    }

    const bool colored = options.update.mode == UpdateMode::colored;
    const SweepPlan priced = perfmodel::step_plan(*layout, model.sweep_traits, colored);
    CHECK(perfmodel::gather_path(priced, device.multiprocessors).packed_signals == plan.packs_signals);
    CHECK(priced.tuning.vertices_per_block() == plan.tuning.vertices_per_block());

    if (backend) {
      const std::unique_ptr<Simulation> sim = model.make({}, layout, options);
      REQUIRE(sim->sweep_plan());
      CHECK(fields_text(*sim->sweep_plan()) == fields_text(plan));  // the fields, to show what differs
      CHECK(*sim->sweep_plan() == plan);
    }
  }
}

}  // namespace

TEST_CASE("sweep plan: compile --report and the performance model agree with plan_sweeps") {
  check_agreement(cuda_device_traits().value_or(reference_device_traits()), false);
}

TEST_SUITE("gpu") {
  TEST_CASE("gpu: the CUDA backend runs the plan compile --report prints" * doctest::skip(!cuda_device_available())) {
    check_agreement(*cuda_device_traits(), true);
  }
}

TEST_CASE("sweep plan: the automatic choices") {
  const DeviceTraits device = reference_device_traits();
  const std::vector<PlanCase> cases = plan_cases();
  std::vector<SweepPlan> plans;
  for (const PlanCase& c : cases) {
    const Layout layout = compile(load_source(c.spec).graph, {});
    plans.push_back(plan_sweeps(layout, models::find_model(c.model).sweep_traits, options_for(c), device));
  }
  // A small grid: no hubs, so each sweep is one launch without fusing; long graphs; its
  // states stay in L2.
  CHECK_FALSE(plans[0].fuses_sweeps);
  CHECK(plans[0].single_launch);
  CHECK(plans[0].steps_per_graph == kSweepTuning.graph_steps_latency_bound);
  CHECK(plans[0].resident_state_bytes > 0);
  CHECK_FALSE(plans[0].packs_signals);
  CHECK(plans[1].steps_per_graph == kSweepTuning.graph_steps);
  CHECK(plans[2].colored);
  CHECK(plans[2].resident_state_bytes == 0);  // colored steps run slower with it
  CHECK(plans[4].fuses_sweeps);               // R-MAT: hubs in a small graph
  CHECK(plans[5].packs_signals);
  CHECK(plans[5].resident_state_bytes == 0);  // packed signals stay in L2 anyway
  CHECK_FALSE(plans[6].packs_signals);
  for (const SweepPlan& p : plans) CHECK(p.halo == HaloRoute::none);

  // Options override the automatic choices.
  const Layout rmat = compile(load_source(cases[4].spec).graph, {});
  SimulationOptions o = options_for(cases[4]);
  o.sweep_fusion = SweepFusion::never;
  o.signal_packing = SignalPacking::always;
  o.l2_residency = false;
  const SweepPlan forced = plan_sweeps(rmat, models::find_model("lifelike").sweep_traits, o, device);
  CHECK_FALSE(forced.fuses_sweeps);
  CHECK_FALSE(forced.single_launch);
  CHECK(forced.packs_signals);
  CHECK(forced.resident_state_bytes == 0);
  // A device without a persisting L2 keeps nothing resident.
  DeviceTraits small = device;
  small.persisting_l2_bytes = 0;
  CHECK(plan_sweeps(rmat, models::find_model("lifelike").sweep_traits, options_for(cases[4]), small)
            .resident_state_bytes == 0);
}
