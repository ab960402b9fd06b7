// One model on one compiled layout and one backend, behind a type-erased interface so the CLI
// and the observers need not know the model's type. States cross this interface in user ids.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cellgraph/halo.hpp"
#include "cellgraph/layout.hpp"
#include "cellgraph/update.hpp"

namespace cellgraph {

struct SweepPlan;  // sweep_plan.hpp

// reference: the plain CPU walk, one vertex at a time: the truth every other backend is tested
//            against. cpu: the fast CPU walk, a slice's lanes as SIMD lanes (the same results bit
//            for bit). cuda: the GPU.
enum class BackendKind { reference, cpu, cuda };
// Whether the backend runs on the host (the movable models' CPU backend serves both).
inline bool on_host(BackendKind backend) { return backend != BackendKind::cuda; }

// The most steps a run reaches: random numbers are keyed by a 32-bit step (CellContext), and
// the CUDA backend counts steps in 32 bits.
inline constexpr std::uint64_t kMaxSteps = 0xFFFFFFFFu;

// Whether the CUDA backend gathers a model's one-bit signals from packed words (model.hpp):
// automatic uses them on layouts large enough to gain.
enum class SignalPacking { automatic, always, never };
// Whether the CUDA backend runs a sweep's giant hubs, hubs and ordinary vertices as one kernel
// launch instead of three on two streams: automatic on layouts with hubs that are bound by
// latency (SweepTuning::latency_bound_vertices, sweep_tuning.hpp).
enum class SweepFusion { automatic, always, never };
// How a partitioned CUDA run trades its halo: through host memory and the transport's messages,
// or device to device (each part writes the cells its peers read into their memory: CUDA IPC,
// HaloTransport::maps_peer_devices()); automatic takes the device path wherever it is possible.
// Colored updates (a trade per color class) always take the host path.
enum class HaloPath { automatic, host, device };

struct SimulationOptions {
  BackendKind backend = BackendKind::reference;
  std::uint64_t seed = 0;
  std::uint32_t boundary_value = 0;  // the boundary cell's state (fixed boundaries)
  int threads = 0;                   // CPU threads; 0: all
  UpdateRule update;                 // synchronous unless chosen otherwise
  // Partitioned runs: the layout is one part; its halo comes through this transport, and
  // colored updates use this coloring of its vertices (the whole graph's, restricted to the
  // part, so that every partitioning updates alike). Empty: a whole graph, colored here.
  std::shared_ptr<HaloTransport> halo;
  std::vector<std::uint32_t> colors;
  std::uint32_t color_count = 0;  // the whole graph's number of colors (0: those in `colors`)
  // Partitioned colored ensembles, whose members each color the whole graph under their own
  // seed: that coloring restricted to the part, with the whole graph's number of colors.
  std::function<std::pair<std::vector<std::uint32_t>, std::uint32_t>(std::uint64_t seed)> member_coloring;
  SignalPacking signal_packing = SignalPacking::automatic;
  SweepFusion sweep_fusion = SweepFusion::automatic;
  // CUDA: keep the state the gathers read in the L2's persisting set-aside where it fits.
  bool l2_residency = true;
  HaloPath halo_path = HaloPath::automatic;
};

// The vector instructions the fast CPU backend runs on this machine: "AVX-512", "AVX2" or
// "portable".
std::string cpu_vector_instructions();

// True when this build has the CUDA backend and a CUDA device is present.
bool cuda_device_available();
// Throws Error saying which is missing unless cuda_device_available().
void require_cuda_device();
// CUDA devices present (0 without the CUDA backend), and the one this process's later CUDA
// work goes to (a rank of a partitioned run takes its own).
int cuda_device_count();
void use_cuda_device(int device);
// The PCI bus id of the device this process's CUDA work goes to ("" without one), and whether
// every device named (by bus id) is present here and can map each other one's memory: the
// ranks of a partitioned run on one host check it before writing to each other's halos.
std::string cuda_device_bus_id();
bool cuda_devices_map_each_other(const std::vector<std::string>& bus_ids);

class Simulation {
 public:
  virtual ~Simulation() = default;
  virtual std::string backend_name() const = 0;
  // Whether a partitioned run's halo goes device to device (peers write it; no host, no
  // messages) rather than through the host.
  virtual bool trades_halo_on_device() const { return false; }
  virtual const Layout& layout() const = 0;
  // States of variable 0 (0 when it is not discrete), for censuses and images.
  virtual std::uint32_t num_states() const = 0;

  virtual void advance(std::uint64_t steps) = 0;
  virtual std::uint64_t step() const = 0;
  // The CUDA backend's choices for this layout (sweep_plan.hpp); null on other backends.
  virtual const SweepPlan* sweep_plan() const { return nullptr; }

  // Vertices per state of variable 0, over the updated vertices; states >= num_states() are
  // counted in the last entry.
  virtual std::vector<std::uint64_t> census() const = 0;
  // Variable 0 of every vertex, in user ids.
  virtual std::vector<std::uint32_t> states() const = 0;
  virtual void set_states(const std::vector<std::uint32_t>& user_order) = 0;

  // The model's measured quantities (Ising: magnetization, energy per site), by name; none
  // for most models.
  virtual std::vector<std::string> observable_names() const = 0;
  virtual std::vector<double> observables() const = 0;
  // The same in two halves, so that parts can add their sums: the integer sums of the
  // observe() terms over the updated vertices, and the values of sums over `vertices` cells.
  virtual std::vector<std::int64_t> observable_sums() const = 0;
  virtual std::vector<double> observable_values(const std::vector<std::int64_t>& sums,
                                                std::uint64_t vertices) const = 0;

  // Everything a restart needs: every state variable of every vertex, in user order, one byte
  // array per variable (sizeof(variable) bytes per vertex), and the step to continue from.
  virtual std::vector<std::vector<std::uint8_t>> export_state() const = 0;
  // Bytes per vertex of each variable: the sizes export_state() holds, on every rank.
  virtual std::vector<std::uint32_t> variable_widths() const = 0;
  virtual void import_state(const std::vector<std::vector<std::uint8_t>>& variables, std::uint64_t step) = 0;

  // Keeps `resource` alive as long as the simulation: what a model's TableRef points at on the
  // host (model.hpp).
  void hold(std::shared_ptr<const void> resource) { held_.push_back(std::move(resource)); }

 private:
  std::vector<std::shared_ptr<const void>> held_;
};

}  // namespace cellgraph
