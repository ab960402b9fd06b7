// The CUDA backend's ensemble (ensemble.hpp): every member's state in one double-buffered device
// state, a cell's members side by side, stepped by ensemble_kernels.cuh; or, for two-state
// outer totalistic rules under synchronous steps outside partitioned runs, 64 members' bits a
// word, stepped by packed_members.cuh (multi-spin coding). What reads or sets one member
// (states, pictures, checkpoints, starting states) goes through a host mirror of the current
// state, read from the device once a step and written back before the device next works on it,
// so that setting every member's start is one upload. Censuses and observables are computed for
// every member at once and kept for the step. Members found finished (model.hpp's HasActive)
// every few steps are skipped from then on (by every part at once; packed members are all
// stepped); colored steps go class by class, each class one sweep over the live members'
// vertices of that color (each member has its own seed's coloring). A part of a partitioned
// ensemble trades every member's halo cells after each step (and each class) through the host
// (halo_exchange.cuh).
#pragma once
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cellgraph/coloring.hpp"
#include "cellgraph/ensemble.hpp"
#include "cellgraph/error.hpp"
#include "cellgraph/memory_budget.hpp"
#include "cellgraph/simulation.hpp"
#include "cellgraph/state.hpp"
#include "cellgraph/sweep_plan.hpp"
#include "src/backend/cuda/colored_pairs.cuh"
#include "src/backend/cuda/device_layout.cuh"
#include "src/backend/cuda/device_state.cuh"
#include "src/backend/cuda/ensemble_kernels.cuh"
#include "src/backend/cuda/halo_exchange.cuh"
#include "src/backend/cuda/model_table.cuh"
#include "src/backend/cuda/packed_members.cuh"
#include "src/backend/cuda/stream.cuh"
#include "src/backend/ensemble_state.hpp"
#include "src/backend/observables.hpp"
#include "src/backend/user_order.hpp"

namespace cellgraph::cuda {

template <class Model>
class CudaEnsemble final : public Ensemble {
  using Vars = typename Model::Vars;
  using Primary = typename Vars::template type<0>;

 public:
  CudaEnsemble(std::vector<Model> models, std::uint32_t replicas, std::shared_ptr<const Layout> layout,
               const SimulationOptions& options)
      : host_models_(std::move(models)), replicas_(replicas), layout_(std::move(layout)), options_(options) {
    check_ensemble_shape(host_models_, replicas_, layout_->state_length());
    if (!layout_->peers.empty() && !options.halo)
      throw Error("a part of a partitioned ensemble needs a halo transport");
    check_boundary_state(options.boundary_value, host_models_[0].num_states());
    const std::optional<DeviceTraits> traits = cuda_device_traits();
    if (!traits) throw Error("the CUDA backend needs a CUDA device, and this machine has none");
    const std::uint32_t M = members();
    const std::uint64_t length = std::uint64_t(layout_->state_length()) * M;
    std::uint64_t cell_bytes = 0;
    for (std::uint32_t width : widths_of<Vars>()) cell_bytes += width;
    const std::string what =
        "an ensemble of " + std::to_string(M) + " members on " + std::to_string(layout_->state_length()) + " cells";
    // The mirror, and while colored steps' pairs are built every member's colors and the pairs.
    const std::uint64_t pairs = colored() ? std::uint64_t(layout_->num_vertices) * M : 0;
    std::optional<std::vector<TwoStateRule>> packed_rules = cuda::packed_rules(host_models_, *layout_, options);
    const std::uint64_t packed_bytes = packed_rules ? PackedMembers::device_bytes(*layout_, M) : 0;
    check_memory(length * cell_bytes + pairs * 3 * sizeof(std::uint32_t), what);
    check_device_memory(2 * length * cell_bytes + (pairs ? ColoredPairs::device_bytes(pairs, M) : 0) + packed_bytes,
                        what, traits->name);

    device_ = std::make_unique<DeviceLayout>(*layout_);
    for (int b = 0; b < 2; ++b) buffer_[b] = std::make_unique<DeviceState<Vars>>(length);
    mirror_ = HostState<Vars>(length);
    std::vector<Model> bound;
    tables_.resize(host_models_.size());
    for (std::size_t p = 0; p < host_models_.size(); ++p) bound.push_back(tables_[p].bind(host_models_[p]));
    models_ = DeviceArray<Model>(bound.data(), bound.size());
    for (std::uint32_t m = 0; m < M; ++m) {
      seeds_.push_back(member_seed(options.seed, m / replicas_, m % replicas_));
      live_.push_back(m);
    }
    device_seeds_ = DeviceArray<std::uint64_t>(seeds_.data(), M);
    all_members_ = DeviceArray<std::uint32_t>(live_.data(), M);
    device_live_ = DeviceArray<std::uint32_t>(live_.data(), M);
    listed_ = DeviceArray<std::uint32_t>(M);
    flags_ = DeviceArray<std::uint8_t>(M);
    census_device_ = DeviceArray<unsigned long long>(std::size_t(M) * census_bins());
    sums_device_ = DeviceArray<unsigned long long>(std::size_t(M) * observable_count_of<Model>());
    const std::vector<Primary> boundary(M, Primary(options.boundary_value));
    const std::size_t at = std::size_t(layout_->boundary_cell()) * M;
    for (auto& b : buffer_) b->template array<0>().upload(boundary.data(), M, at);
    std::copy(boundary.begin(), boundary.end(), mirror_.template array<0>().data() + at);
    if (colored()) build_class_pairs();
    if (packed_rules) packed_ = std::make_unique<PackedMembers>(*layout_, M, replicas_, *packed_rules);
    if (!layout_->peers.empty()) halo_ = std::make_unique<DeviceHalo<Vars>>(*layout_, options.halo, M);
    CG_CUDA(cudaDeviceSynchronize());  // default-stream work above is done before stream_ runs
  }

  std::string backend_name() const override { return "cuda"; }
  const Layout& layout() const override { return *layout_; }
  std::uint32_t points() const override { return std::uint32_t(host_models_.size()); }
  std::uint32_t replicas() const override { return replicas_; }
  std::uint64_t seed(std::uint32_t member) const override { return seeds_.at(member); }
  std::uint32_t num_states() const override { return host_models_[0].num_states(); }
  std::uint64_t step() const override { return step_; }
  std::uint32_t finished_members() const override { return members() - std::uint32_t(live_.size()); }

  std::uint32_t members_per_word() const override { return packed_ ? 64 : 1; }

  void advance(std::uint64_t steps) override {
    if (steps == 0) return;
    push_mirror();
    const LayoutView& L = device_->view();
    const std::uint32_t M = members();
    refresh_halo();
    if (packed_) {
      if (!packed_current_) packed_->pack(buffer_[parity_]->template array<0>().data(), stream_);
      for (std::uint64_t i = 0; i < steps; ++i, ++step_) packed_->step(L, stream_);
      packed_current_ = bytes_behind_ = true;
      CG_CUDA(cudaStreamSynchronize(stream_));
      state_changed();
      mirror_valid_ = false;
      return;
    }
    for (std::uint64_t i = 0; i < steps; ++i, ++step_) {
      const auto step = static_cast<std::uint32_t>(step_);
      const StateRef<Vars> from = buffer_[parity_]->ref();
      if (step_ % kRetireEvery == 0) retire_finished();
      if (colored()) {
        if (pairs_stale_) list_live_pairs();
        const ApplyMemberStep<Model> apply{from, device_seeds_.data(), M, step, 1.0};
        for (const ClassPairs& c : classes_) {
          launch_ensemble_sweep(member_models(), L, from, M, pairs(c.giants), pairs(c.hubs), pairs(c.ordinary), apply,
                                stream_);
          exchange_halo();  // each class reads the classes before it, a peer's too
        }
        continue;
      }
      sweep_members(from, device_live_.data(), std::uint32_t(live_.size()),
                    ApplyMemberStep<Model>{buffer_[parity_ ^ 1]->ref(), device_seeds_.data(), M, step, alpha()});
      parity_ ^= 1;  // a finished member is the same in both buffers
      exchange_halo();
    }
    CG_CUDA(cudaStreamSynchronize(stream_));
    state_changed();
    mirror_valid_ = false;
  }

  std::vector<std::uint64_t> census(std::uint32_t member) const override {
    const std::uint32_t bins = census_bins();
    if (!census_ && bins > kCensusMaxBins) {  // more counters than shared memory holds: on the host
      pull_mirror();
      census_.emplace(std::size_t(members()) * bins, 0);
      const Primary* s = mirror_.template array<0>().data();
      for (std::size_t v = 0; v < layout_->num_vertices; ++v)
        for (std::uint32_t m = 0; m < members(); ++m)
          ++(*census_)[std::size_t(m) * bins + std::min<std::uint32_t>(s[v * members() + m], bins - 1)];
    }
    if (!census_) {
      push_mirror();
      DeviceArray<unsigned long long>& counts = census_device_;
      CG_CUDA(cudaMemsetAsync(counts.data(), 0, counts.size() * sizeof(unsigned long long), stream_));
      const std::uint32_t chunks = (layout_->num_vertices + kCensusChunk - 1) / kCensusChunk;
      const dim3 grid((members() + kCensusThreads - 1) / kCensusThreads, std::max(1u, std::min(chunks, 65535u)));
      ensemble_census_kernel<<<grid, kCensusThreads, bins * kCensusThreads * sizeof(std::uint16_t), stream_>>>(
          current().template array<0>().data(), layout_->num_vertices, members(), bins, counts.data());
      CG_CUDA_LAUNCHED();
      census_ = download(counts);
    }
    const auto first = census_->begin() + std::size_t(checked(member)) * bins;
    return std::vector<std::uint64_t>(first, first + bins);
  }

  std::vector<std::uint32_t> states(std::uint32_t member) const override {
    pull_mirror();
    return to_user_states(*layout_, member_plane<0>(mirror_, members(), checked(member)).data());
  }

  void set_states(std::uint32_t member, const std::vector<std::uint32_t>& user_order) override {
    pull_mirror();
    std::vector<Primary> local = member_plane<0>(mirror_, members(), checked(member));
    from_user_states(*layout_, user_order, num_states(), local.data());
    set_member_plane<0>(mirror_, members(), member, local);
    mirror_changed(member);
  }

  std::vector<std::string> observable_names() const override { return observable_names_of(host_models_[0]); }

  std::vector<double> observables(std::uint32_t member) const override {
    return observable_values(member, observable_sums(member), layout_->num_vertices);
  }

  std::vector<std::int64_t> observable_sums(std::uint32_t member) const override {
    constexpr int K = observable_count_of<Model>();
    checked(member);
    if constexpr (K > 0) {
      if (!sums_) {
        push_mirror();
        refresh_halo();  // the observers fold neighbors, which may be a peer's
        DeviceArray<unsigned long long>& sums = sums_device_;
        CG_CUDA(cudaMemsetAsync(sums.data(), 0, sums.size() * sizeof(unsigned long long), stream_));
        sweep_members(current().ref(), all_members_.data(), members(),
                      AddMemberObservables<Model>{sums.data(), members()});
        sums_ = download(sums);
      }
      const auto first = sums_->begin() + std::size_t(member) * K;
      return std::vector<std::int64_t>(first, first + K);
    }
    return {};
  }

  std::vector<double> observable_values(std::uint32_t member, const std::vector<std::int64_t>& sums,
                                        std::uint64_t vertices) const override {
    return observable_values_of(host_models_[checked(member) / replicas_], sums, vertices);
  }

  std::vector<std::uint32_t> variable_widths() const override { return widths_of<Vars>(); }
  void resume_at(std::uint64_t step) override {
    step_ = step;
    state_changed();
  }

  std::vector<std::vector<std::uint8_t>> export_state(std::uint32_t member) const override {
    pull_mirror();
    std::vector<std::vector<std::uint8_t>> variables;
    for_each_variable<Vars>([&](auto i) {
      constexpr int I = decltype(i)::value;
      variables.push_back(to_user_bytes(*layout_, member_plane<I>(mirror_, members(), checked(member)).data()));
    });
    return variables;
  }

  void import_state(std::uint32_t member, const std::vector<std::vector<std::uint8_t>>& variables) override {
    check_variable_count(variables.size(), Vars::count);
    pull_mirror();
    for_each_variable<Vars>([&](auto i) {
      constexpr int I = decltype(i)::value;
      auto local = member_plane<I>(mirror_, members(), checked(member));
      from_user_bytes(*layout_, variables[I], local.data());
      set_member_plane<I>(mirror_, members(), member, local);
    });
    mirror_changed(member);
  }

 private:
  // One color class of every live member, by kind: [begin, end) of the listed pairs.
  using PairRange = ColoredPairs::Range;
  struct ClassPairs {
    PairRange giants, hubs, ordinary;
  };

  static constexpr std::uint64_t kRetireEvery = 8;  // as the CPU ensemble's

  std::uint32_t checked(std::uint32_t member) const {
    if (member >= members())
      throw Error("member " + std::to_string(member) + " of an ensemble of " + std::to_string(members()));
    return member;
  }
  bool colored() const { return options_.update.mode == UpdateMode::colored; }
  double alpha() const { return options_.update.mode == UpdateMode::alpha_asynchronous ? options_.update.alpha : 1.0; }
  std::uint32_t census_bins() const { return std::max<std::uint32_t>(1, num_states()); }
  // The current bytes, unpacked first where packed steps have moved past them.
  DeviceState<Vars>& current() const {
    if (bytes_behind_) {
      packed_->unpack(buffer_[parity_]->template array<0>().data(), stream_);
      bytes_behind_ = false;
    }
    return *buffer_[parity_];
  }
  MemberModels<Model> member_models() const { return {models_.data(), replicas_}; }
  MemberPairs pairs(PairRange r) const {
    return {colored_pairs_->vertex() + r.begin, colored_pairs_->member() + r.begin, r.end - r.begin};
  }

  // A sweep of every vertex for members ids[0 .. count), by kind, on stream_.
  template <class Finish>
  void sweep_members(StateRef<Vars> state, const std::uint32_t* ids, std::uint32_t count, const Finish& finish) const {
    const LayoutView& L = device_->view();
    const std::uint32_t hubs = L.num_hub_vertices, giants = L.num_giant_hubs;
    launch_ensemble_sweep(member_models(), L, state, members(), LiveMembersOf{{0, giants}, ids, count},
                          LiveMembersOf{{giants, hubs - giants}, ids, count},
                          LiveMembersOf{{hubs, L.num_vertices - hubs}, ids, count}, finish, stream_);
  }

  static void check_device_memory(std::uint64_t bytes, const std::string& what, const std::string& device) {
    std::size_t free = 0, total = 0;
    CG_CUDA(cudaMemGetInfo(&free, &total));
    if (bytes > free)
      throw Error(what + " needs about " + format_bytes(bytes) + " of GPU memory, more than the " + format_bytes(free) +
                  " free on the " + device);
  }

  template <class T>
  std::vector<T> download(const DeviceArray<T>& from) const {
    std::vector<T> to(from.size());
    CG_CUDA(cudaMemcpyAsync(to.data(), from.data(), to.size() * sizeof(T), cudaMemcpyDeviceToHost, stream_));
    CG_CUDA(cudaStreamSynchronize(stream_));
    return to;
  }

  // On stream_, before the kernels that read it (a plain cudaMemcpy from pageable memory may
  // still be landing when a kernel on a non-blocking stream starts).
  void upload(const std::vector<std::uint32_t>& from, DeviceArray<std::uint32_t>& to) const {
    CG_CUDA(
        cudaMemcpyAsync(to.data(), from.data(), from.size() * sizeof(std::uint32_t), cudaMemcpyHostToDevice, stream_));
  }

  // The mirror holds the current state (pull) and the device holds the mirror's changes (push).
  void pull_mirror() const {
    if (mirror_valid_) return;
    for_each_variable<Vars>([&](auto i) {
      constexpr int I = decltype(i)::value;
      using T = typename Vars::template type<I>;
      CG_CUDA(cudaMemcpyAsync(mirror_.template array<I>().data(), current().template array<I>().data(),
                              mirror_.length() * sizeof(T), cudaMemcpyDeviceToHost, stream_));
    });
    CG_CUDA(cudaStreamSynchronize(stream_));
    mirror_valid_ = true;
  }
  void push_mirror() const {
    if (!mirror_dirty_) return;
    for_each_variable<Vars>([&](auto i) {
      constexpr int I = decltype(i)::value;
      using T = typename Vars::template type<I>;
      CG_CUDA(cudaMemcpyAsync(current().template array<I>().data(), mirror_.template array<I>().data(),
                              mirror_.length() * sizeof(T), cudaMemcpyHostToDevice, stream_));
    });
    CG_CUDA(cudaStreamSynchronize(stream_));
    mirror_dirty_ = false;
    packed_current_ = false;
  }
  void state_changed() const {
    census_.reset();
    sums_.reset();
  }
  // Every member's copies of the cells peers read, to them, and theirs into the halo cells of
  // the current buffer (a part of a partitioned ensemble; else nothing).
  void exchange_halo() const {
    if (!halo_) return;
    const StateRef<Vars> state = current().ref();
    halo_->pack(state, stream_);
    halo_->start();
    halo_->finish(state, stream_);
    halo_stale_ = false;
  }
  // The same where states were set since the last exchange (every part sets them).
  void refresh_halo() const {
    if (halo_stale_) exchange_halo();
  }

  // Member m's copy in the mirror changed: it runs again (if it had finished).
  void mirror_changed(std::uint32_t m) {
    mirror_dirty_ = true;
    halo_stale_ = true;
    state_changed();
    const auto at = std::lower_bound(live_.begin(), live_.end(), m);
    if (at == live_.end() || *at != m) {
      live_.insert(at, m);
      upload(live_, device_live_);
      pairs_stale_ = colored();
    }
  }

  // Members with no active cell stop being stepped; the next buffer gets their last state.
  void retire_finished() {
    if constexpr (HasActive<Model>::value) {
      const std::uint32_t live = std::uint32_t(live_.size());
      if (live == 0) return;
      const std::uint32_t M = members(), n = layout_->num_vertices;
      CG_CUDA(cudaMemsetAsync(flags_.data(), 0, live, stream_));
      const std::uint64_t items = std::uint64_t(n + 1) * live;
      ensemble_active_kernel<<<unsigned((items + 255) / 256), 256, 0, stream_>>>(
          member_models(), current().ref(), n, layout_->boundary_cell(), M, device_live_.data(), live, flags_.data());
      CG_CUDA_LAUNCHED();
      std::vector<std::uint8_t> active(live);
      CG_CUDA(cudaMemcpyAsync(active.data(), flags_.data(), live, cudaMemcpyDeviceToHost, stream_));
      CG_CUDA(cudaStreamSynchronize(stream_));
      // A part, even one that trades nothing, joins the other parts' collective.
      if (options_.halo && !options_.halo->or_over_parts(active)) return;  // finished on every part
      std::vector<std::uint32_t> still, finished;
      for (std::uint32_t k = 0; k < live; ++k) (active[k] ? still : finished).push_back(live_[k]);
      if (finished.empty()) return;
      live_ = std::move(still);
      if (!live_.empty()) upload(live_, device_live_);
      if (colored()) {  // updated in place: one buffer; the next step lists the live members' pairs
        pairs_stale_ = true;
        return;
      }
      upload(finished, listed_);
      const std::uint64_t copies = std::uint64_t(layout_->state_length()) * finished.size();
      copy_members_kernel<<<unsigned((copies + 255) / 256), 256, 0, stream_>>>(
          current().ref(), buffer_[parity_ ^ 1]->ref(), layout_->state_length(), M, listed_.data(),
          std::uint32_t(finished.size()));
      CG_CUDA_LAUNCHED();
    }
  }

  // Each member's color classes (its seed's coloring), listed class by class and kind by kind:
  // within one, vertex by vertex, each vertex's members of that color ascending, so that
  // neighboring threads mostly gather the same cells' neighboring copies.
  void build_class_pairs() {
    const std::uint32_t M = members(), n = layout_->num_vertices;
    std::vector<std::vector<std::uint32_t>> colors(M);
    std::uint32_t count = 0;
    for (std::uint32_t m = 0; m < M; ++m) {
      if (options_.member_coloring) {
        auto [own, own_count] = options_.member_coloring(seeds_[m]);
        colors[m] = std::move(own);
        count = std::max(count, own_count);
      } else {
        colors[m] = greedy_coloring(*layout_, seeds_[m]);
      }
      for (std::uint32_t v = 0; v < n; ++v) count = std::max(count, colors[m][v] + 1);
    }
    std::vector<std::uint32_t> vertex, member;
    vertex.reserve(std::size_t(n) * M);
    member.reserve(vertex.capacity());
    std::vector<ColoredPairs::Range> ranges;
    auto list = [&](std::uint32_t c, std::uint32_t first, std::uint32_t last) {
      ColoredPairs::Range r{std::uint32_t(vertex.size()), 0};
      for (std::uint32_t v = first; v < last; ++v)
        for (std::uint32_t m = 0; m < M; ++m)
          if (colors[m][v] == c) {
            vertex.push_back(v);
            member.push_back(m);
          }
      r.end = std::uint32_t(vertex.size());
      ranges.push_back(r);
    };
    const std::uint32_t giants = layout_->num_giant_hubs, hubs = layout_->num_hub_vertices();
    for (std::uint32_t c = 0; c < count; ++c) list(c, 0, giants), list(c, giants, hubs), list(c, hubs, n);
    colored_pairs_ = std::make_unique<ColoredPairs>(vertex, member, std::move(ranges), M);
    pairs_stale_ = true;
  }

  // The pairs colored steps sweep: the live members', class by class.
  void list_live_pairs() {
    const std::vector<ColoredPairs::Range>& ranges =
        colored_pairs_->list_live(device_live_.data(), std::uint32_t(live_.size()), stream_);
    classes_.clear();
    for (std::size_t c = 0; c + 2 < ranges.size(); c += 3)
      classes_.push_back({ranges[c], ranges[c + 1], ranges[c + 2]});
    pairs_stale_ = false;
  }

  std::vector<Model> host_models_;
  std::uint32_t replicas_;
  std::shared_ptr<const Layout> layout_;
  SimulationOptions options_;
  std::vector<DeviceModelTable<Model>> tables_;  // before models_, which point into them
  DeviceArray<Model> models_;                    // one per sweep point
  std::unique_ptr<DeviceLayout> device_;
  std::unique_ptr<DeviceState<Vars>> buffer_[2];
  int parity_ = 0;  // buffer_[parity_] holds the current state
  std::vector<std::uint64_t> seeds_;
  DeviceArray<std::uint64_t> device_seeds_;
  std::vector<std::uint32_t> live_;  // the members steps update, ascending
  DeviceArray<std::uint32_t> device_live_, all_members_, listed_;
  DeviceArray<std::uint8_t> flags_;
  // Colored updates only: every member's (vertex, member) pairs and the live members' listed
  // class by class.
  std::unique_ptr<ColoredPairs> colored_pairs_;
  std::vector<ClassPairs> classes_;
  bool pairs_stale_ = false;                // live_ changed since the live pairs were listed
  std::unique_ptr<PackedMembers> packed_;   // where the members are stepped packed
  std::unique_ptr<DeviceHalo<Vars>> halo_;  // a part of a partitioned ensemble
  mutable bool halo_stale_ = true;          // states were set since the halo was filled
  // The packed planes hold the bytes' state (else they are packed before the next step); the
  // bytes are behind the planes (and are unpacked before they are read).
  mutable bool packed_current_ = false, bytes_behind_ = false;
  mutable HostState<Vars> mirror_;
  mutable bool mirror_valid_ = true, mirror_dirty_ = false;
  mutable DeviceArray<unsigned long long> census_device_, sums_device_;  // members x bins, members x observables
  mutable std::optional<std::vector<unsigned long long>> census_;        // every member's, at this step
  mutable std::optional<std::vector<unsigned long long>> sums_;
  Stream stream_;
  std::uint64_t step_ = 0;
};

template <class Model>
std::unique_ptr<Ensemble> make_cuda_ensemble(std::vector<Model> models, std::uint32_t replicas,
                                             std::shared_ptr<const Layout> layout, const SimulationOptions& options) {
  return std::make_unique<CudaEnsemble<Model>>(std::move(models), replicas, std::move(layout), options);
}

}  // namespace cellgraph::cuda
