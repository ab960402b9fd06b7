#include "cellgraph/sweep_plan.hpp"

#include "cellgraph/error.hpp"

namespace cellgraph {

// As the CUDA runtime reports them on an H200 (60 MiB of L2).
DeviceTraits reference_device_traits() {
  DeviceTraits d;
  d.name = "NVIDIA H200 (reference: no GPU here)";
  d.compute_capability = 90;
  d.multiprocessors = 132;
  d.persisting_l2_bytes = 39321600;
  d.access_window_bytes = 134217728;
  return d;
}

const char* halo_route_name(HaloRoute route) {
  switch (route) {
    case HaloRoute::host:
      return "host";
    case HaloRoute::device:
      return "device";
    default:
      return "none";
  }
}

bool SweepPlan::operator==(const SweepPlan& o) const {
  const SweepTuning &a = tuning, &b = o.tuning;
  return a.block_threads == b.block_threads && a.vertices_per_thread == b.vertices_per_thread &&
         a.index_batch == b.index_batch && a.latency_bound_vertices == b.latency_bound_vertices &&
         a.graph_steps_latency_bound == b.graph_steps_latency_bound && a.graph_steps == b.graph_steps &&
         colored == o.colored && packs_signals == o.packs_signals && fuses_sweeps == o.fuses_sweeps &&
         single_launch == o.single_launch && resident_state_bytes == o.resident_state_bytes &&
         steps_per_graph == o.steps_per_graph && halo == o.halo;
}

namespace {

// Synchronous steps of a model with a one-bit signal gather from packed signal words where the
// layout is large and its gathers scattered (gathers_scattered), or as the options say.
bool packs_signals(const Layout& L, std::optional<bool> scattered, const SweepModelTraits& model,
                   const SimulationOptions& options) {
  if (!model.gathers_signal || options.update.mode == UpdateMode::colored) return false;
  switch (options.signal_packing) {
    case SignalPacking::always:
      return true;
    case SignalPacking::never:
      return false;
    default:
      return scattered ? *scattered : gathers_scattered(L);
  }
}

// Sweeps are one launch each where the layout (a rank's part, when partitioned: what its GPU
// runs) has hubs and is small: there a step lasts as long as its longest walk, and a second
// stream's fork and join cost more than they hide.
bool fuses_sweeps(const Layout& L, const SweepTuning& tuning, const SimulationOptions& options) {
  switch (options.sweep_fusion) {
    case SweepFusion::always:
      return true;
    case SweepFusion::never:
      return false;
    default:
      return L.num_hub_vertices() > 0 && L.num_vertices < tuning.latency_bound_vertices;
  }
}

// The bytes of state variable 0 kept resident in L2 (0: none): where they fit the persisting
// set-aside and the access window, gathers read them rather than packed signals, and steps are
// not colored. Colored steps, whose class sweeps read and write in place, ran 3-9% slower with
// it on an H100, where synchronous ones gained up to 17%.
std::size_t resident_state_bytes(const Layout& L, const SweepModelTraits& model, const SimulationOptions& options,
                                 const DeviceTraits& device, bool packs, bool colored) {
  if (!options.l2_residency || packs || colored) return 0;
  const std::size_t bytes = std::size_t(L.state_length()) * model.state_bytes;
  return bytes <= device.persisting_l2_bytes && bytes <= device.access_window_bytes ? bytes : 0;
}

// A part's halo goes device to device where every rank's GPU maps its peers' memory, unless the
// options say host; colored steps trade once per class, through the host.
HaloRoute halo_route(const Layout& L, const SimulationOptions& options, bool colored, bool peers_mapped) {
  if (!options.halo || L.peers.empty()) return HaloRoute::none;
  if (colored || options.halo_path == HaloPath::host) return HaloRoute::host;
  if (peers_mapped) return HaloRoute::device;
  if (options.halo_path == HaloPath::device)
    throw Error(
        "a device halo was asked for, but the ranks' GPUs cannot map each other's memory (ranks on several hosts, "
        "a GPU another rank cannot see, or no peer access between two of them)");
  return HaloRoute::host;
}

SweepPlan make_plan(const Layout& L, std::optional<bool> scattered, const SweepModelTraits& model,
                    const SimulationOptions& options, const DeviceTraits& device, bool peers_mapped) {
  SweepPlan plan;
  plan.tuning = sweep_tuning(device.compute_capability);
  plan.colored = options.update.mode == UpdateMode::colored;
  plan.packs_signals = packs_signals(L, scattered, model, options);
  plan.fuses_sweeps = fuses_sweeps(L, plan.tuning, options);
  plan.single_launch = plan.fuses_sweeps || L.num_hub_vertices() == 0;
  plan.resident_state_bytes = resident_state_bytes(L, model, options, device, plan.packs_signals, plan.colored);
  // Long graphs for small layouts, whose steps are bound by launches.
  plan.steps_per_graph = L.num_vertices < plan.tuning.latency_bound_vertices ? plan.tuning.graph_steps_latency_bound
                                                                             : plan.tuning.graph_steps;
  plan.halo = halo_route(L, options, plan.colored, peers_mapped);
  return plan;
}

}  // namespace

SweepPlan plan_sweeps(const Layout& L, const SweepModelTraits& model, const SimulationOptions& options,
                      const DeviceTraits& device, bool peers_mapped) {
  return make_plan(L, std::nullopt, model, options, device, peers_mapped);
}

SweepPlan plan_sweeps(const Layout& sample, bool scattered, const SweepModelTraits& model,
                      const SimulationOptions& options, const DeviceTraits& device) {
  return make_plan(sample, scattered, model, options, device, false);
}

std::vector<std::pair<std::string, std::string>> plan_fields(const SweepPlan& p) {
  auto yes = [](bool b) { return std::string(b ? "yes" : "no"); };
  const SweepTuning& t = p.tuning;
  return {{"block", std::to_string(t.block_threads) + " threads x " + std::to_string(t.vertices_per_thread) +
                        " vertices, index batches of " + std::to_string(t.index_batch)},
          {"update", p.colored ? "colored, in place" : "synchronous"},
          {"packed signals", yes(p.packs_signals)},
          {"fused sweep", yes(p.fuses_sweeps)},
          {"one launch a sweep", yes(p.single_launch)},
          {"L2-resident state", p.resident_state_bytes ? std::to_string(p.resident_state_bytes) + " bytes" : "no"},
          {"steps per graph", std::to_string(p.steps_per_graph)},
          {"halo", halo_route_name(p.halo)}};
}

}  // namespace cellgraph
