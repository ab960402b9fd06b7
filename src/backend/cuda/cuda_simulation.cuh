// The CUDA backend: the layout and both state buffers live on the device from construction
// on; steps launch the sweep kernels (replayed from captured CUDA graphs so that small graphs
// are not bound by launch overhead); only observers copy anything back, through pinned memory.
#pragma once
#include <cub/device/device_histogram.cuh>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "cellgraph/coloring.hpp"
#include "cellgraph/error.hpp"
#include "cellgraph/simulation.hpp"
#include "cellgraph/sweep_plan.hpp"
#include "src/backend/cuda/coloring.cuh"
#include "src/backend/cuda/device_layout.cuh"
#include "src/backend/cuda/device_state.cuh"
#include "src/backend/cuda/halo_exchange.cuh"
#include "src/backend/cuda/model_table.cuh"
#include "src/backend/cuda/neighbor_source.cuh"
#include "src/backend/cuda/observe.cuh"
#include "src/backend/cuda/peer_halo.cuh"
#include "src/backend/cuda/stream.cuh"
#include "src/backend/cuda/sweep_kernels.cuh"
#include "src/backend/observables.hpp"
#include "src/backend/user_order.hpp"

namespace cellgraph::cuda {

template <class Model>
class CudaSimulation final : public Simulation {
  using Vars = typename Model::Vars;
  using Primary = typename Vars::template type<0>;

 public:
  CudaSimulation(const Model& model, std::shared_ptr<const Layout> layout, const SimulationOptions& options)
      : model_(table_.bind(model)), layout_(std::move(layout)), options_(options), device_traits_(current_device()),
        plan_(plan_sweeps(*layout_, sweep_model_traits<Model>(), options, device_traits_,
                          options.halo && options.halo->maps_peer_devices())),
        device_(*layout_), buffer_{DeviceState<Vars>(layout_->state_length()),
                                   DeviceState<Vars>(layout_->state_length())},
        step_counter_(1), census_bins_(std::max<std::uint32_t>(1, model_.num_states())), census_device_(census_bins_),
        census_host_(census_bins_), states_host_(layout_->num_vertices),
        observable_sums_(kObservableCopies * observable_count()) {
    check_boundary_state(options.boundary_value, model_.num_states());
    const Primary boundary = Primary(options.boundary_value);
    for (auto& b : buffer_) b.template array<0>().upload(&boundary, 1, layout_->boundary_cell());
    const std::uint32_t zero = 0;
    step_counter_.upload(&zero, 1);
    std::size_t bytes = 0;
    CG_CUDA(cub::DeviceHistogram::HistogramEven(nullptr, bytes, buffer_[0].template array<0>().data(),
                                                census_device_.data(), int(census_bins_) + 1, 0, int(census_bins_),
                                                census_chunk(0), stream_));
    census_temp_ = DeviceArray<unsigned char>(std::max<std::size_t>(bytes, 1));
    if (colored()) {
      classes_ = options.colors.empty()
                     ? color_classes(*layout_, layout_->symmetric  // JP rounds see a vertex's own list only
                                                   ? jones_plassmann(device_, layout_->num_vertices, options.seed)
                                                   : greedy_coloring(*layout_, options.seed))
                     : color_classes(*layout_, options.colors, options.color_count);
      class_vertices_ = DeviceArray<std::uint32_t>(classes_.vertices.data(), classes_.vertices.size());
    }
    if (packs_signals()) signals_ = SignalBits(layout_->state_length());
    if (plan_.resident_state_bytes) {
      CG_CUDA(cudaDeviceGetLimit(&previous_persisting_l2_, cudaLimitPersistingL2CacheSize));
      CG_CUDA(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, device_traits_.persisting_l2_bytes));
    }
    // A part that trades nothing runs as a whole graph (with captured step graphs).
    if (plan_.halo != HaloRoute::none) halo_ = std::make_unique<DeviceHalo<Vars>>(*layout_, options.halo);
    if (plan_.halo == HaloRoute::device) {
      const StateRef<Vars> buffers[2] = {buffer_[0].ref(), buffer_[1].ref()};
      peer_halo_ = std::make_unique<PeerHalo<Vars>>(*layout_, *options.halo, buffers);
    }
    // Default-stream work above (memsets, uploads) must be done before stream_ runs.
    CG_CUDA(cudaDeviceSynchronize());
  }
  ~CudaSimulation() override {
    for (cudaGraphExec_t g : graphs_)
      if (g) cudaGraphExecDestroy(g);
    if (plan_.resident_state_bytes) {  // later work gets the whole L2 back (a set-aside slows others: cuSPARSE -37% on
                                       // rgg 2^24)
      cudaCtxResetPersistingL2Cache();
      cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, previous_persisting_l2_);
    }
  }

  std::string backend_name() const override { return peer_halo_ ? "cuda (device halo)" : "cuda"; }
  bool trades_halo_on_device() const override { return peer_halo_ != nullptr; }
  const Layout& layout() const override { return *layout_; }
  std::uint32_t num_states() const override { return model_.num_states(); }
  std::uint64_t step() const override { return step_; }
  const SweepPlan* sweep_plan() const override { return &plan_; }

  void advance(std::uint64_t steps) override {
    if (halo_ && !peer_halo_) {  // a step through the host waits for its peers: no captured graphs
      for (; steps > 0; --steps, ++step_) launch_partitioned_step();
      CG_CUDA(cudaStreamSynchronize(stream_));
      return;
    }
    const std::uint32_t per_graph = plan_.steps_per_graph;
    while (steps >= per_graph) {
      CG_CUDA(cudaGraphLaunch(graph(per_graph), stream_));
      steps -= per_graph, step_ += per_graph;  // per_graph is even: the buffers end where they began
    }
    if (steps) {
      launch_steps(std::uint32_t(steps));
      step_ += steps;
      if (steps % 2 && !colored()) parity_ ^= 1;
    }
    CG_CUDA(cudaStreamSynchronize(stream_));
  }

  // CUB counts with int: the vertices are histogrammed in chunks of at most 2^30.
  std::vector<std::uint64_t> census() const override {
    std::vector<std::uint64_t> counts(census_bins_, 0);
    const Primary* states = current().template array<0>().data();
    for (std::uint64_t first = 0; first < layout_->num_vertices; first += kCensusChunk) {
      std::size_t bytes = census_temp_.size();
      CG_CUDA(cub::DeviceHistogram::HistogramEven(census_temp_.data(), bytes, states + first, census_device_.data(),
                                                  int(census_bins_) + 1, 0, int(census_bins_), census_chunk(first),
                                                  stream_));
      CG_CUDA(cudaMemcpyAsync(census_host_.data(), census_device_.data(), census_bins_ * sizeof(int),
                              cudaMemcpyDeviceToHost, stream_));
      CG_CUDA(cudaStreamSynchronize(stream_));
      for (std::uint32_t b = 0; b < census_bins_; ++b) counts[b] += std::uint32_t(census_host_[b]);
    }
    // CUB leaves out values beyond the last level; the CPU backend counts them in the last bin.
    std::uint64_t counted = 0;
    for (auto c : counts) counted += c;
    counts.back() += layout_->num_vertices - counted;
    return counts;
  }

  std::vector<std::uint32_t> states() const override {
    download(current().template array<0>(), states_host_.data(), layout_->num_vertices);
    return to_user_states(*layout_, states_host_.data());
  }

  void set_states(const std::vector<std::uint32_t>& user_order) override {
    from_user_states(*layout_, user_order, model_.num_states(), states_host_.data());
    upload(states_host_.data(), current().template array<0>(), layout_->num_vertices);
    refresh_halo();
  }

  std::vector<std::string> observable_names() const override { return observable_names_of(model_); }

  std::vector<double> observables() const override {
    return observable_values(observable_sums(), layout_->num_vertices);
  }

  std::vector<double> observable_values(const std::vector<std::int64_t>& sums, std::uint64_t vertices) const override {
    return observable_values_of(model_, sums, vertices);
  }

  std::vector<std::int64_t> observable_sums() const override {
    constexpr int K = observable_count();
    std::vector<std::int64_t> total(K, 0);
    if constexpr (K > 0) {
      DeviceArray<unsigned long long>& sums = observable_sums_;
      CG_CUDA(cudaMemsetAsync(sums.data(), 0, sums.size() * sizeof(unsigned long long), stream_));
      const LayoutView& L = device_.view();
      const std::uint32_t hubs = L.num_hub_vertices;
      launch_sweep(model_, L, current().ref(), VertexRange{0, L.num_giant_hubs},
                   VertexRange{L.num_giant_hubs, hubs - L.num_giant_hubs}, VertexRange{hubs, L.num_vertices - hubs},
                   AddObservables<Model>{sums.data()}, stream_, stream_);
      CG_CUDA_LAUNCHED();
      std::vector<unsigned long long> copies(sums.size());
      download(sums, copies.data(), copies.size());
      for (std::size_t i = 0; i < copies.size(); ++i) total[i % K] += static_cast<std::int64_t>(copies[i]);
    }
    return total;
  }

  std::vector<std::uint32_t> variable_widths() const override { return widths_of<Vars>(); }

  std::vector<std::vector<std::uint8_t>> export_state() const override {
    std::vector<std::vector<std::uint8_t>> variables;
    for_each_variable<Vars>([&](auto i) {
      using T = typename Vars::template type<decltype(i)::value>;
      std::vector<T> local(layout_->num_vertices);
      download(current().template array<decltype(i)::value>(), local.data(), layout_->num_vertices);
      variables.push_back(to_user_bytes(*layout_, local.data()));
    });
    return variables;
  }

  void import_state(const std::vector<std::vector<std::uint8_t>>& variables, std::uint64_t step) override {
    check_variable_count(variables.size(), Vars::count);
    for_each_variable<Vars>([&](auto i) {
      constexpr int I = decltype(i)::value;
      std::vector<typename Vars::template type<I>> local(layout_->num_vertices);
      from_user_bytes(*layout_, variables[I], local.data());
      upload(local.data(), current().template array<I>(), layout_->num_vertices);
    });
    step_ = step;
    const std::uint32_t counter = std::uint32_t(step);  // the kernels' step numbers continue from here
    CG_CUDA(cudaMemcpyAsync(step_counter_.data(), &counter, sizeof counter, cudaMemcpyHostToDevice, stream_));
    CG_CUDA(cudaStreamSynchronize(stream_));
    refresh_halo();
  }

 private:
  DeviceState<Vars>& current() const { return buffer_[parity_]; }

  // Copies on stream_, finished on return (host memory may be pageable or pinned).
  template <class T>
  void download(const DeviceArray<T>& from, T* to, std::size_t n) const {
    CG_CUDA(cudaMemcpyAsync(to, from.data(), n * sizeof(T), cudaMemcpyDeviceToHost, stream_));
    CG_CUDA(cudaStreamSynchronize(stream_));
  }
  template <class T>
  void upload(const T* from, DeviceArray<T>& to, std::size_t n) const {
    CG_CUDA(cudaMemcpyAsync(to.data(), from, n * sizeof(T), cudaMemcpyHostToDevice, stream_));
    CG_CUDA(cudaStreamSynchronize(stream_));
  }

  static constexpr std::uint64_t kCensusChunk = std::uint64_t(1) << 30;
  int census_chunk(std::uint64_t first) const {
    return int(std::min<std::uint64_t>(kCensusChunk,
                                       layout_->num_vertices - std::min<std::uint64_t>(first, layout_->num_vertices)));
  }

  bool colored() const { return plan_.colored; }
  bool packs_signals() const { return plan_.packs_signals; }

  static DeviceTraits current_device() {
    std::optional<DeviceTraits> traits = cuda_device_traits();
    if (!traits) throw Error("the CUDA backend needs a CUDA device, and this machine has none");
    return *traits;
  }
  // Whether a sweep is one launch on stream_ that may overlap the kernel before it.
  bool single_launch_sweeps() const { return plan_.single_launch; }
  SweepLaunch sweep_launch(StateRef<Vars> from, bool overlap) const {
    const std::size_t resident = plan_.resident_state_bytes;
    return SweepLaunch{overlap, resident ? from.var[0] : nullptr, resident, plan_.fuses_sweeps};
  }

  // A synchronous sweep of `from`: through its packed signals where the model has them.
  // `overlap`: the sweep's one launch (or its ordinary kernel) may start while the kernel
  // before it on stream_ ends.
  template <class Finish>
  void launch_step_sweep(StateRef<Vars> from, VertexRange giants, VertexRange hubs, VertexRange ordinary,
                         const Finish& finish, cudaStream_t stream, cudaStream_t hub_stream, bool overlap) {
    const SweepLaunch how = sweep_launch(from, overlap);
    if constexpr (HasSignal<Model>::value) {
      if (packs_signals()) {
        launch_sweep(model_, device_.view(), from, signals_.neighbors(), giants, hubs, ordinary, finish, stream,
                     hub_stream, how);
        return;
      }
    }
    launch_sweep(model_, device_.view(), from, giants, hubs, ordinary, finish, stream, hub_stream, how);
  }
  // Packs `state`'s signals on stream_ before a step reads them.
  void pack_signals(StateRef<Vars> state) {
    if constexpr (HasSignal<Model>::value)
      if (packs_signals()) signals_.pack(model_, state, stream_);
  }
  static constexpr int observable_count() { return observable_count_of<Model>(); }

  // Launches `steps` steps from the current buffer, then moves the step counter past them.
  // Synchronous: a sweep of one launch (no hubs, or fused) overlaps the end of the one before,
  // except the first: before its wait a sweep reads the step counter (alpha-asynchronous
  // cells' skip test), which the kernel before the first sweep may be writing.
  // Otherwise hubs run on a second stream beside the ordinary slices (they write disjoint
  // cells), joined by events each step; the same fork and join is captured into the graphs
  // (overlapping those launches gained nothing on copter2). Colored: the classes one after
  // another on one stream, in place, each overlapping the one before where it is one launch.
  void launch_steps(std::uint32_t steps) {
    const LayoutView& L = device_.view();
    int parity = parity_;
    for (std::uint32_t s = 0; s < steps; ++s) {
      const StepParams p{options_.seed, step_counter_.data(), s, alpha()};
      const StateRef<Vars> from = buffer_[parity].ref();
      if (peer_halo_) {
        launch_device_halo_step(from, buffer_[parity ^ 1].ref(), parity ^ 1, p);
        parity ^= 1;
        continue;
      }
      if (colored()) {
        for (std::uint32_t c = 0; c < classes_.count(); ++c)
          launch_class(c, from, p, (s > 0 || c > 0) && single_launch_sweeps());
        continue;
      }
      pack_signals(from);
      const bool forks = !single_launch_sweeps();
      if (forks) stream_waits_for(hub_stream_, stream_, fork_);
      launch_step_sweep(from, VertexRange{0, L.num_giant_hubs},
                        VertexRange{L.num_giant_hubs, L.num_hub_vertices - L.num_giant_hubs},
                        VertexRange{L.num_hub_vertices, L.num_vertices - L.num_hub_vertices},
                        ApplyStep<Model>{buffer_[parity ^ 1].ref(), p}, stream_, hub_stream_, s > 0 && !forks);
      CG_CUDA_LAUNCHED();
      if (forks) stream_waits_for(stream_, hub_stream_, join_);
      parity ^= 1;
    }
    advance_step_counter<<<1, 1, 0, stream_>>>(step_counter_.data(), steps);
    CG_CUDA_LAUNCHED();
  }

  // Color class c of a colored step, in place on stream_: giants, hubs, then the rest.
  // `overlap`: it may start while the class sweep before it on stream_ ends.
  void launch_class(std::uint32_t c, StateRef<Vars> state, const StepParams& p, bool overlap) {
    const std::uint32_t* ids = class_vertices_.data();
    const std::uint32_t begin = classes_.begin[c], giant_end = classes_.giant_end[c], hub_end = classes_.hub_end[c],
                        end = classes_.begin[c + 1];
    launch_sweep(model_, device_.view(), state, VertexList{ids + begin, giant_end - begin},
                 VertexList{ids + giant_end, hub_end - giant_end}, VertexList{ids + hub_end, end - hub_end},
                 ApplyStep<Model>{state, p}, stream_, stream_, sweep_launch(state, overlap));
    CG_CUDA_LAUNCHED();
  }

  double alpha() const { return options_.update.mode == UpdateMode::alpha_asynchronous ? options_.update.alpha : 1.0; }

  // One step of a part of a partitioned run; the halo holds the peers' current cells before
  // and after it. Synchronous: the hubs and the cells peers read are updated first, packed
  // and sent while the interior is updated, and the peers' cells copied into the new buffer's
  // halo. Colored: each class's cells are sent once the class is done.
  void launch_partitioned_step() {
    const StepParams p{options_.seed, step_counter_.data(), 0, alpha()};
    const StateRef<Vars> from = current().ref();
    if (colored()) {
      for (std::uint32_t c = 0; c < classes_.count(); ++c) {
        launch_class(c, from, p, false);  // after the halo's copy, not a kernel
        exchange_halo(from);
      }
    } else {
      const StateRef<Vars> to = buffer_[parity_ ^ 1].ref();
      launch_part_sweeps(from, ApplyStep<Model>{to, p}, [&] { halo_->pack(to, stream_); });
      halo_->start();
      halo_->finish(to, stream_);
      parity_ ^= 1;
    }
    advance_step_counter<<<1, 1, 0, stream_>>>(step_counter_.data(), 1);
    CG_CUDA_LAUNCHED();
  }

  // A part's boundary (the hubs, which come first, and the vertices that read the halo or that
  // peers read, up to interior_begin): the sweep peers wait for, done on `stream` when this
  // returns. Unless the sweep is one launch, the hubs run on a stream of their own (the greatest
  // priority, on either halo path) beside the ordinary boundary, as a whole graph's do (one
  // after the other, they made R-MAT of 2^21 vertices slower on 2 GPUs than on 1).
  void launch_boundary_sweep(StateRef<Vars> from, const ApplyStep<Model>& apply, cudaStream_t stream) {
    const LayoutView& L = device_.view();
    const bool forks = !single_launch_sweeps();
    if (forks) stream_waits_for(boundary_hub_stream_, stream, hub_fork_);
    launch_step_sweep(from, VertexRange{0, L.num_giant_hubs},
                      VertexRange{L.num_giant_hubs, L.num_hub_vertices - L.num_giant_hubs},
                      VertexRange{L.num_hub_vertices, layout_->interior_begin - L.num_hub_vertices}, apply, stream,
                      forks ? cudaStream_t(boundary_hub_stream_) : stream, false);
    if (forks) stream_waits_for(stream, boundary_hub_stream_, hub_join_);
  }
  // The rest of a part: it reads no halo cell and no peer reads it.
  void launch_interior_sweep(StateRef<Vars> from, const ApplyStep<Model>& apply, cudaStream_t stream) {
    const std::uint32_t interior = layout_->interior_begin, vertices = device_.view().num_vertices;
    const VertexRange none{0, 0};
    launch_step_sweep(from, none, none, VertexRange{interior, vertices - interior}, apply, stream, stream, false);
  }

  // A synchronous step of a part whose peers' GPUs map its memory and it theirs (PeerHalo).
  // On boundary_stream_ (the greatest priority, so its blocks go first): once every peer's
  // boundary of the last step is over, the hubs and the boundary vertices are updated
  // (launch_boundary_sweep: the hubs beside the rest, on a stream of their own), the
  // cells peers read are written into their buffer `to_buffer`, and the peers are told. Beside
  // it on stream_, the interior, which reads no halo cell and no peer reads: it waits for no
  // peer. Joined at the end. Where signals are packed, the packing reads the halo, so the
  // interior waits with it. No host wait: captured into the step graphs like a whole graph's
  // steps. Run on one stream, the boundary sweep and the push cost an rgg of 2^24 cells on 4
  // H100s 77.5 us a step against 67.8 beside the interior; the interior not waiting for the
  // peers gained large parts 5-11% more, and lost parts whose boundary is most of the step 4-7%
  // (BENCHMARKS.md).
  void launch_device_halo_step(StateRef<Vars> from, StateRef<Vars> to, int to_buffer, const StepParams& p) {
    const ApplyStep<Model> apply{to, p};
    const bool waits_before_fork = packs_signals();
    if (waits_before_fork) {
      peer_halo_->begin_step(stream_);
      pack_signals(from);
    }
    stream_waits_for(boundary_stream_, stream_, fork_);
    if (!waits_before_fork) peer_halo_->begin_step(boundary_stream_);
    launch_boundary_sweep(from, apply, boundary_stream_);
    CG_CUDA_LAUNCHED();
    peer_halo_->push(to, to_buffer, boundary_stream_);
    peer_halo_->end_step(boundary_stream_);
    launch_interior_sweep(from, apply, stream_);
    CG_CUDA_LAUNCHED();
    stream_waits_for(stream_, boundary_stream_, join_);
  }

  // The sweeps of a part's synchronous step through the host, on stream_: the hubs and the
  // boundary, then `send` (the cells peers read leave), then the interior.
  template <class Send>
  void launch_part_sweeps(StateRef<Vars> from, const ApplyStep<Model>& apply, Send&& send) {
    pack_signals(from);
    launch_boundary_sweep(from, apply, stream_);
    CG_CUDA_LAUNCHED();
    send();
    launch_interior_sweep(from, apply, stream_);
    CG_CUDA_LAUNCHED();
  }

  // Sends the cells peers read from `state` once stream_'s work is done and receives theirs
  // into its halo; stream_'s later work waits for them.
  void exchange_halo(StateRef<Vars> state) {
    halo_->pack(state, stream_);
    halo_->start();
    halo_->finish(state, stream_);
  }

  // Fills the halo from the peers (after states are set: every rank sets them).
  void refresh_halo() {
    if (!halo_) return;
    exchange_halo(current().ref());
    CG_CUDA(cudaStreamSynchronize(stream_));
  }

  // The captured graph of `steps` (even) steps from the current buffer.
  cudaGraphExec_t graph(std::uint32_t steps) {
    cudaGraphExec_t& exec = graphs_[parity_];
    if (!exec) {
      cudaGraph_t g;
      CG_CUDA(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal));
      try {
        launch_steps(steps);
      } catch (...) {  // leave the stream usable: end the capture, drop what it held
        if (cudaStreamEndCapture(stream_, &g) == cudaSuccess && g) cudaGraphDestroy(g);
        throw;
      }
      CG_CUDA(cudaStreamEndCapture(stream_, &g));
      CG_CUDA(cudaGraphInstantiate(&exec, g, cudaGraphInstantiateFlagUseNodePriority));
      CG_CUDA(cudaGraphDestroy(g));
    }
    return exec;
  }

  DeviceModelTable<Model> table_;  // before model_, which points into it
  Model model_;
  std::shared_ptr<const Layout> layout_;
  SimulationOptions options_;
  DeviceTraits device_traits_;
  SweepPlan plan_;  // every automatic choice (sweep_plan.hpp)
  DeviceLayout device_;
  mutable DeviceState<Vars> buffer_[2];
  int parity_ = 0;  // buffer_[parity_] holds the current state
  DeviceArray<std::uint32_t> step_counter_;
  std::uint32_t census_bins_;
  mutable DeviceArray<int> census_device_;
  mutable DeviceArray<unsigned char> census_temp_;
  PinnedArray<int> census_host_;
  PinnedArray<Primary> states_host_;
  mutable DeviceArray<unsigned long long> observable_sums_;  // kObservableCopies x the model's observables
  Stream stream_, hub_stream_;
  Stream boundary_stream_ = Stream::with_greatest_priority();      // device halo steps: the boundary and its push
  Stream boundary_hub_stream_ = Stream::with_greatest_priority();  // partitioned steps: the boundary's hubs
  Event fork_, join_, hub_fork_, hub_join_;
  cudaGraphExec_t graphs_[2] = {nullptr, nullptr};
  ColorClasses classes_;  // colored updates only
  DeviceArray<std::uint32_t> class_vertices_;
  std::unique_ptr<DeviceHalo<Vars>> halo_;     // partitioned runs only
  std::unique_ptr<PeerHalo<Vars>> peer_halo_;  // and their device-to-device steps (destroyed before the buffers)
  SignalBits signals_;                         // where packs_signals()
  std::size_t previous_persisting_l2_ = 0;     // the set-aside before this simulation's
  std::uint64_t step_ = 0;
};

template <class Model>
std::unique_ptr<Simulation> make_cuda_simulation(const Model& model, std::shared_ptr<const Layout> layout,
                                                 const SimulationOptions& options) {
  return std::make_unique<CudaSimulation<Model>>(model, std::move(layout), options);
}

}  // namespace cellgraph::cuda
