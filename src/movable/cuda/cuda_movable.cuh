// The CUDA movable backend: the state, the neighbor search, the compiled layout and the
// Verlet filter all on the device; a step is the CUDA backend's own sweep (sweep_kernels.cuh)
// over the compiled lists. A rebuild runs the device search and the device compiler into a
// second layout, then moves every variable to its order with one gather each; the host hears
// back two numbers per rebuild (list sizes), and with a skin one flag per step (rebuild due?).
// movable_simulation.hpp says what a step is; the CPU backend (cpu_movable.hpp) is the reference.
#pragma once
#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "cellgraph/error.hpp"
#include "cellgraph/movable/movable_simulation.hpp"
#include "cellgraph/movable/neighbor_search.hpp"
#include "src/backend/cuda/cuda_simulation.cuh"
#include "src/movable/cuda/device_compile.cuh"
#include "src/movable/cuda/device_search.cuh"
#include "src/movable/cuda/movable_kernels.cuh"
#include "src/movable/movable_rules.hpp"

namespace cellgraph::cuda {

template <class Model>
class CudaMovableSimulation final : public MovableSimulation {
  using Vars = typename Model::Vars;
  using Coord = typename Model::Coordinate;
  static constexpr int D = Model::dims;
  static constexpr int K = observable_count_of<Model>();

 public:
  CudaMovableSimulation(const Model& model, std::uint32_t particles, const MovableOptions& movable,
                        const SimulationOptions& options)
      : model_(model), n_(particles), movable_(movable), options_(options),
        rule_(movable::rebuild_rule<Coord>(model.box, particles, model.radius, movable.skin)),
        buffer_{DeviceState<Vars>(std::size_t(particles) + 2), DeviceState<Vars>(std::size_t(particles) + 2)},
        step_counter_(1), moved_(1), moved_host_(1), sums_(std::size_t(kObservableCopies) * std::max(K, 1)),
        source_(particles) {
    movable::check_movable_model(model);
    for (int a = 0; a < D; ++a) by_particle_[a] = DeviceArray<Coord>(particles);
    const std::uint32_t zero = 0;
    step_counter_.upload(&zero, 1);
    CG_CUDA(cudaDeviceSynchronize());  // the buffers' default-stream memsets, before stream_ runs
  }

  std::string backend_name() const override { return "cuda"; }
  std::uint32_t num_particles() const override { return n_; }
  const Box& box() const override { return model_.box; }
  double radius() const override { return model_.radius; }
  double skin() const override { return movable_.skin; }
  std::uint64_t step() const override { return step_; }

  void advance(std::uint64_t steps) override {
    for (std::uint64_t i = 0; i < steps; ++i) {
      prepare_lists();
      const LayoutView L = stepping_view();
      const StepParams p{options_.seed, step_counter_.data(), 0, 1.0};
      launch_sweep(model_, L, current().ref(), VertexRange{0, L.num_giant_hubs},
                   VertexRange{L.num_giant_hubs, L.num_hub_vertices - L.num_giant_hubs},
                   VertexRange{L.num_hub_vertices, L.num_vertices - L.num_hub_vertices},
                   ApplyStep<Model>{buffer_[parity_ ^ 1].ref(), p}, stream_, stream_);
      CG_CUDA_LAUNCHED();
      advance_step_counter<<<1, 1, 0, stream_>>>(step_counter_.data(), 1);
      CG_CUDA_LAUNCHED();
      parity_ ^= 1;
      ++step_;
      schedule_.stepped([&] { return moved_too_far(); });
    }
    CG_CUDA(cudaStreamSynchronize(stream_));
  }

  std::vector<std::vector<std::uint8_t>> export_state() const override {
    std::vector<std::vector<std::uint8_t>> variables;
    for_each_variable<Vars>([&](auto c) {
      constexpr int I = decltype(c)::value;
      using T = typename Vars::template type<I>;
      const std::vector<T> values = in_particle_order<I>();
      const auto* bytes = reinterpret_cast<const std::uint8_t*>(values.data());
      variables.emplace_back(bytes, bytes + values.size() * sizeof(T));
    });
    return variables;
  }

  void import_state(const std::vector<std::vector<std::uint8_t>>& variables, std::uint64_t step) override {
    check_variable_count(variables.size(), Vars::count);
    std::vector<Coord> axis[D];
    for_each_variable<Vars>([&](auto c) {
      constexpr int I = decltype(c)::value;
      using T = typename Vars::template type<I>;
      movable::check_variable_bytes(I, variables[I].size(), n_, sizeof(T));
      if constexpr (I < D) {
        axis[I].resize(n_);
        std::memcpy(axis[I].data(), variables[I].data(), variables[I].size());
      }
    });
    PointsView<Coord> view;
    for (int a = 0; a < D; ++a) view.axis[a] = axis[a].data();
    view.count = n_;
    check_points(model_.box, view);
    for_each_variable<Vars>([&](auto c) {
      constexpr int I = decltype(c)::value;
      CG_CUDA(cudaMemcpyAsync(current().template array<I>().data(), variables[I].data(), variables[I].size(),
                              cudaMemcpyHostToDevice, stream_));
    });
    const std::uint32_t counter = std::uint32_t(step);
    CG_CUDA(cudaMemcpyAsync(step_counter_.data(), &counter, sizeof counter, cudaMemcpyHostToDevice, stream_));
    CG_CUDA(cudaStreamSynchronize(stream_));
    have_layout_ = false;  // the state is in particle order until the next rebuild
    schedule_.positions_replaced();
    step_ = step;
  }

  std::vector<double> variable(int i) const override {
    if (i < 0 || i >= Vars::count) throw Error("the model has no variable " + std::to_string(i));
    std::vector<double> out;
    for_each_variable<Vars>([&](auto c) {
      constexpr int I = decltype(c)::value;
      if (I != i) return;
      const auto values = in_particle_order<I>();
      out.assign(values.begin(), values.end());
    });
    return out;
  }

  std::vector<std::string> observable_names() const override { return observable_names_of(model_); }

  std::vector<double> observables() override {
    std::vector<std::int64_t> total(K, 0);
    if constexpr (K > 0) {
      prepare_lists();
      CG_CUDA(cudaMemsetAsync(sums_.data(), 0, sums_.size() * sizeof(unsigned long long), stream_));
      const LayoutView L = stepping_view();
      launch_sweep(model_, L, current().ref(), VertexRange{0, L.num_giant_hubs},
                   VertexRange{L.num_giant_hubs, L.num_hub_vertices - L.num_giant_hubs},
                   VertexRange{L.num_hub_vertices, L.num_vertices - L.num_hub_vertices},
                   AddObservables<Model>{sums_.data()}, stream_, stream_);
      CG_CUDA_LAUNCHED();
      std::vector<unsigned long long> copies(sums_.size());
      CG_CUDA(cudaMemcpyAsync(copies.data(), sums_.data(), copies.size() * sizeof(unsigned long long),
                              cudaMemcpyDeviceToHost, stream_));
      CG_CUDA(cudaStreamSynchronize(stream_));
      for (std::size_t i = 0; i < copies.size(); ++i) total[i % K] += static_cast<std::int64_t>(copies[i]);
    }
    return observable_values_of(model_, total, n_);
  }

  Graph current_neighbors() override {
    prepare_lists();
    Layout L = layout().download(stream_);
    if (!rule_.every_step) {  // the filtered lists
      CG_CUDA(cudaMemcpyAsync(L.neighbors.data(), work_neighbors_.data(), L.neighbors.size() * sizeof(std::uint32_t),
                              cudaMemcpyDeviceToHost, stream_));
      CG_CUDA(cudaMemcpyAsync(L.degree.data(), work_degree_.data(), L.degree.size() * sizeof(std::uint32_t),
                              cudaMemcpyDeviceToHost, stream_));
      CG_CUDA(cudaStreamSynchronize(stream_));
    }
    return lists_in_user_ids(L);
  }

  Layout rebuilt_layout() const override {
    if (!have_layout_) throw Error("no neighbor lists have been built since the state was set");
    return layout().download(stream_);
  }

  RebuildStats rebuild_stats() const override { return stats_; }

 private:
  DeviceState<Vars>& current() const { return buffer_[parity_]; }
  const DeviceLayoutBuffers& layout() const { return layouts_[active_]; }

  DeviceAxes<Coord> positions(const DeviceState<Vars>& state) const {
    const StateRef<Vars> ref = state.ref();
    DeviceAxes<Coord> axes;
    for (int a = 0; a < D; ++a) axes.axis[a] = static_cast<const Coord*>(ref.var[a]);
    return axes;
  }

  // Variable I of every particle, in particle order, on the host.
  template <int I>
  std::vector<typename Vars::template type<I>> in_particle_order() const {
    using T = typename Vars::template type<I>;
    DeviceArray<T> ordered(n_);
    movable_kernels::
        to_particle_order_kernel<<<movable_kernels::blocks_for(n_), movable_kernels::kThreads, 0, stream_>>>(
            current().template array<I>().data(), have_layout_ ? layout().user_to_local.data() : nullptr, n_,
            ordered.data());
    CG_CUDA_LAUNCHED();
    std::vector<T> host(n_);
    CG_CUDA(cudaMemcpyAsync(host.data(), ordered.data(), n_ * sizeof(T), cudaMemcpyDeviceToHost, stream_));
    CG_CUDA(cudaStreamSynchronize(stream_));
    return host;
  }

  // The lists the next step folds: the compiled ones, or with a skin their filtered copy.
  LayoutView stepping_view() const {
    LayoutView L = layout().view();
    if (!rule_.every_step) {
      L.neighbors = work_neighbors_.data();
      L.degree = work_degree_.data();
    }
    return L;
  }

  void prepare_lists() {
    schedule_.prepare([&] { rebuild(); }, [&] { filter(); });
  }

  void rebuild() {
    using namespace movable_kernels;
    const auto start = std::chrono::steady_clock::now();
    const std::uint32_t* old_user_to_local = have_layout_ ? layout().user_to_local.data() : nullptr;
    const DeviceAxes<Coord> here = positions(current());
    DeviceAxes<Coord> by_particle;
    for (int a = 0; a < D; ++a) {
      to_particle_order_kernel<<<blocks_for(n_), kThreads, 0, stream_>>>(here.axis[a], old_user_to_local, n_,
                                                                         by_particle_[a].data());
      CG_CUDA_LAUNCHED();
      by_particle.axis[a] = by_particle_[a].data();
    }
    const DeviceCsr graph = search_.run(model_.box, rule_.cutoff, by_particle, n_, stream_);
    DeviceLayoutBuffers& next_layout = layouts_[active_ ^ 1];
    compiler_.compile(graph, movable_.compile, next_layout, stream_);
    compose_sources(old_user_to_local, next_layout.local_to_user.data(), n_, source_.data(), stream_);
    DeviceState<Vars>& to = buffer_[parity_ ^ 1];
    for_each_variable<Vars>([&](auto c) {
      constexpr int I = decltype(c)::value;
      gather_kernel<<<blocks_for(n_), kThreads, 0, stream_>>>(current().template array<I>().data(), source_.data(), n_,
                                                              to.template array<I>().data());
      CG_CUDA_LAUNCHED();
    });
    parity_ ^= 1;
    active_ ^= 1;
    have_layout_ = true;
    if (!rule_.every_step) {
      ensure_size(work_neighbors_, std::max<std::uint64_t>(next_layout.stored, 1));
      ensure_size(work_degree_, n_);
      // The padding past each list comes along; the filter rewrites the lists themselves.
      CG_CUDA(cudaMemcpyAsync(work_neighbors_.data(), next_layout.neighbors.data(),
                              next_layout.stored * sizeof(std::uint32_t), cudaMemcpyDeviceToDevice, stream_));
      const DeviceAxes<Coord> now = positions(current());
      for (int a = 0; a < D; ++a) {
        ensure_size(anchor_[a], n_);
        CG_CUDA(cudaMemcpyAsync(anchor_[a].data(), now.axis[a], n_ * sizeof(Coord), cudaMemcpyDeviceToDevice, stream_));
      }
    }
    CG_CUDA(cudaStreamSynchronize(stream_));  // so that the time below is the rebuild's
    ++stats_.rebuilds;
    stats_.entries = graph.entries;
    stats_.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  void filter() {
    using namespace movable_kernels;
    filter_kernel<<<blocks_for(n_), kThreads, 0, stream_>>>(box_in<Coord>(model_.box), positions(current()),
                                                            cutoff_squared<Coord>(model_.radius), layout().view(),
                                                            work_neighbors_.data(), work_degree_.data());
    CG_CUDA_LAUNCHED();
  }

  bool moved_too_far() {
    using namespace movable_kernels;
    const Coord limit = Coord(rule_.threshold) * Coord(rule_.threshold);
    DeviceAxes<Coord> anchor;
    for (int a = 0; a < D; ++a) anchor.axis[a] = anchor_[a].data();
    CG_CUDA(cudaMemsetAsync(moved_.data(), 0, sizeof(std::uint32_t), stream_));
    moved_kernel<<<blocks_for(n_), kThreads, 0, stream_>>>(box_in<Coord>(model_.box), positions(current()), anchor,
                                                           limit, n_, moved_.data());
    CG_CUDA_LAUNCHED();
    CG_CUDA(cudaMemcpyAsync(moved_host_.data(), moved_.data(), sizeof(std::uint32_t), cudaMemcpyDeviceToHost, stream_));
    CG_CUDA(cudaStreamSynchronize(stream_));
    return moved_host_[0] != 0;
  }

  Model model_;
  std::uint32_t n_;
  MovableOptions movable_;
  SimulationOptions options_;
  movable::RebuildRule rule_;
  mutable DeviceState<Vars> buffer_[2];  // n cells, the null cell, the boundary cell (unused)
  int parity_ = 0;                       // buffer_[parity_] holds the current state
  DeviceArray<std::uint32_t> step_counter_;
  DeviceArray<std::uint32_t> moved_;
  PinnedArray<std::uint32_t> moved_host_;
  DeviceArray<unsigned long long> sums_;  // kObservableCopies x the model's observables
  DeviceArray<std::uint32_t> source_;     // a rebuild's gather indices
  DeviceArray<Coord> by_particle_[3];     // positions handed to the search
  DeviceArray<Coord> anchor_[3];          // with a skin: positions at the last rebuild (layout order)
  DeviceNeighborSearch<Coord> search_;
  DeviceCompiler compiler_;
  DeviceLayoutBuffers layouts_[2];  // the last rebuild's (active_) and the next one's
  int active_ = 0;
  DeviceArray<std::uint32_t> work_neighbors_, work_degree_;  // with a skin: the lists cut to the radius
  Stream stream_;
  bool have_layout_ = false;                            // false: the state is in particle order
  movable::VerletSchedule schedule_{rule_.every_step};  // after rule_
  std::uint64_t step_ = 0;
  RebuildStats stats_;
};

template <class Model>
std::unique_ptr<MovableSimulation> make_cuda_movable_simulation(const Model& model, std::uint32_t particles,
                                                                const MovableOptions& movable,
                                                                const SimulationOptions& options) {
  return std::make_unique<CudaMovableSimulation<Model>>(model, particles, movable, options);
}

}  // namespace cellgraph::cuda
