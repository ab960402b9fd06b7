// How the CUDA backend runs a layout's steps, decided in one place: plan_sweeps() turns a
// layout, a model's traits, the options and the device into a SweepPlan. The backend runs the
// plan it is given, `cellgraph compile --report` prints it, and the performance model prices
// it; none of them decides anything on its own.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cellgraph/layout.hpp"
#include "cellgraph/model.hpp"
#include "cellgraph/simulation.hpp"
#include "cellgraph/sweep_tuning.hpp"

namespace cellgraph {

// What the plan needs to know of a model.
struct SweepModelTraits {
  bool gathers_signal = false;    // it gathers over a one-bit signal (HasSignal, model.hpp)
  std::uint32_t state_bytes = 1;  // bytes per cell of state variable 0, the one gathers read
};

template <class Model>
constexpr SweepModelTraits sweep_model_traits() {
  return {HasSignal<Model>::value, std::uint32_t(sizeof(typename Model::Vars::template type<0>))};
}

// What the plan needs to know of a device.
struct DeviceTraits {
  std::string name;
  int compute_capability = 0;  // major * 10 + minor
  std::uint32_t multiprocessors = 0;
  std::size_t persisting_l2_bytes = 0;  // the largest L2 set-aside for persisting accesses
  std::size_t access_window_bytes = 0;  // the largest access policy window
};

// The device this process's CUDA work goes to; nullopt without one (or without the CUDA backend).
std::optional<DeviceTraits> cuda_device_traits();
// An H200's, measured, for plans printed on machines without a GPU.
DeviceTraits reference_device_traits();

enum class HaloRoute { none, host, device };
const char* halo_route_name(HaloRoute route);  // "none", "host", "device"

struct SweepPlan {
  SweepTuning tuning = kSweepTuning;
  bool colored = false;                  // color classes one after another, in place
  bool packs_signals = false;            // gathers read one-bit signals packed 32 cells to a word
  bool fuses_sweeps = false;             // giant hubs, hubs and ordinary vertices in one launch
  bool single_launch = false;            // a sweep is one launch (fused, or no hubs): it may overlap the one before
  std::size_t resident_state_bytes = 0;  // state variable 0 kept in the persisting L2 (0: not)
  std::uint32_t steps_per_graph = 2;     // steps per captured CUDA graph
  HaloRoute halo = HaloRoute::none;

  bool operator==(const SweepPlan& other) const;
  bool operator!=(const SweepPlan& other) const { return !(*this == other); }
};

// `peers_mapped`: a partitioned run's transport maps its peers' device memory
// (HaloTransport::maps_peer_devices). Throws Error when the options ask for a device halo the
// peers cannot give.
SweepPlan plan_sweeps(const Layout& layout, const SweepModelTraits& model, const SimulationOptions& options,
                      const DeviceTraits& device, bool peers_mapped = false);
// The same for a layout that stands for a larger one (the performance model's slab of a large
// grid): `scattered` is the larger one's gathers_scattered.
SweepPlan plan_sweeps(const Layout& sample, bool scattered, const SweepModelTraits& model,
                      const SimulationOptions& options, const DeviceTraits& device);

// The plan as "name  value" lines, for `compile --report` and the tests that read it back.
std::vector<std::pair<std::string, std::string>> plan_fields(const SweepPlan& plan);

}  // namespace cellgraph
