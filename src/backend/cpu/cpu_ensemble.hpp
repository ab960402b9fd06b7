// The CPU backend's ensemble (ensemble.hpp): every member's state in one double-buffered host
// state, a cell's members side by side, stepped by the reference sweep with stride = members.
// A synchronous step updates each vertex for every member in turn, so its list is read from
// memory once and from L1 after that; colored steps go member by member, each in its own
// seed's color classes. A part of a partitioned ensemble trades every member's halo cells in
// one message a variable (a cell's members are contiguous), or in colored steps member m's
// after each of its classes. Members whose realization is finished (no active cell: model.hpp's
// HasActive) are found every few steps and skipped from then on (by every part of a partitioned
// ensemble at once).
#pragma once
#include <omp.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "cellgraph/ensemble.hpp"
#include "cellgraph/error.hpp"
#include "cellgraph/memory_budget.hpp"
#include "cellgraph/simulation.hpp"
#include "cellgraph/state.hpp"
#include "src/backend/cpu/sweep.hpp"
#include "src/backend/ensemble_state.hpp"
#include "src/backend/observables.hpp"
#include "src/backend/user_order.hpp"

namespace cellgraph {

template <class Model>
class CpuEnsemble final : public Ensemble {
  using Vars = typename Model::Vars;
  using Primary = typename Vars::template type<0>;

 public:
  // One model per sweep point, each run by `replicas` members.
  CpuEnsemble(std::vector<Model> models, std::uint32_t replicas, std::shared_ptr<const Layout> layout,
              const SimulationOptions& options)
      : models_(std::move(models)), replicas_(replicas), layout_(std::move(layout)), options_(options),
        threads_(options.threads > 0 ? options.threads : omp_get_max_threads()) {
    check_ensemble_shape(models_, replicas_, layout_->state_length());
    parts_ = options_.halo;  // every part's: a part that trades nothing still joins their collectives
    if (layout_->peers.empty()) options_.halo = nullptr;  // and otherwise runs as a whole graph
    const std::uint64_t length = std::uint64_t(layout_->state_length()) * members();
    check_boundary_state(options.boundary_value, models_[0].num_states());
    std::uint64_t cell_bytes = 2 * sizeof(std::uint32_t) * (options.update.mode == UpdateMode::colored);  // classes
    for (std::uint32_t width : widths_of<Vars>()) cell_bytes += 2 * width;  // two state buffers
    check_memory(length * cell_bytes, "an ensemble of " + std::to_string(members()) + " members on " +
                                          std::to_string(layout_->state_length()) + " cells");
    current_ = HostState<Vars>(length);
    next_ = HostState<Vars>(length);
    for (std::uint32_t m = 0; m < members(); ++m) {
      live_.push_back(m);
      seeds_.push_back(member_seed(options.seed, m / replicas_, m % replicas_));
      for (HostState<Vars>* buffer : {&current_, &next_})
        buffer->template array<0>()[std::size_t(layout_->boundary_cell()) * members() + m] =
            Primary(options.boundary_value);
    }
    if (options.update.mode == UpdateMode::colored)
      for (std::uint32_t m = 0; m < members(); ++m) {
        if (!options.member_coloring) {
          classes_.push_back(color_classes(*layout_, greedy_coloring(*layout_, seeds_[m])));
          continue;
        }
        const auto [colors, count] = options.member_coloring(seeds_[m]);  // a part: the whole graph's
        classes_.push_back(color_classes(*layout_, colors, count));
      }
  }

  std::string backend_name() const override { return "cpu"; }
  const Layout& layout() const override { return *layout_; }
  std::uint32_t points() const override { return std::uint32_t(models_.size()); }
  std::uint32_t replicas() const override { return replicas_; }
  std::uint64_t seed(std::uint32_t member) const override { return seeds_.at(member); }
  std::uint32_t num_states() const override { return models_[0].num_states(); }
  std::uint64_t step() const override { return step_; }
  std::uint32_t finished_members() const override { return members() - std::uint32_t(live_.size()); }

  void advance(std::uint64_t steps) override {
    const std::uint32_t M = members();
    const double alpha = options_.update.mode == UpdateMode::alpha_asynchronous ? options_.update.alpha : 1.0;
    refresh_halo();
    if (options_.update.mode == UpdateMode::colored && M >= std::uint32_t(threads_) && !parts_) {
      // Colored steps update in place, member by member: each thread takes a block of members
      // through all the steps (neighbors in memory, so few cache lines are written by two).
      retire_finished();
      const std::int64_t live = std::int64_t(live_.size());
#pragma omp parallel for schedule(static) num_threads(threads_)
      for (std::int64_t k = 0; k < live; ++k)
        for (std::uint64_t i = 0; i < steps; ++i)
          colored_step(live_[std::size_t(k)], static_cast<std::uint32_t>(step_ + i), 1);
      step_ += steps;
      return;
    }
    for (std::uint64_t i = 0; i < steps; ++i, ++step_) {
      const auto step = static_cast<std::uint32_t>(step_);
      if (step_ % kRetireEvery == 0) retire_finished();
      if (options_.update.mode == UpdateMode::colored) {
        for (std::uint32_t m : live_) colored_step(m, step, threads_);  // the classes in parallel
        continue;
      }
      const std::int64_t n = layout_->num_vertices;
      const std::uint32_t L = std::uint32_t(live_.size());
      const int chunk = int(std::max<std::uint32_t>(1, 512 / std::max(1u, L)));  // about 512 member updates
#pragma omp parallel for schedule(dynamic, chunk) num_threads(threads_) if (n * L >= cpu::kParallelMinimum)
      for (std::int64_t v = 0; v < n; ++v)
        for (std::uint32_t m : live_)
          cpu::update_vertex(*layout_, model_of(m), member_ref(current_, m), member_ref(next_, m), std::uint32_t(v),
                             cpu::StepContext{seeds_[m], step, alpha}, M);
      current_.swap(next_);
      if (options_.halo) start_exchange(), options_.halo->finish();
    }
  }

  std::vector<std::uint64_t> census(std::uint32_t member) const override {
    const std::uint32_t bins = std::max<std::uint32_t>(1, num_states());
    std::vector<std::uint64_t> counts(bins, 0);
    const Primary* s = current_.template array<0>().data() + checked(member);
    for (std::uint32_t v = 0; v < layout_->num_vertices; ++v)
      ++counts[std::min<std::uint64_t>(s[std::size_t(v) * members()], bins - 1)];
    return counts;
  }

  std::vector<std::uint32_t> states(std::uint32_t member) const override {
    return to_user_states(*layout_, plane<0>(member).data());
  }

  void set_states(std::uint32_t member, const std::vector<std::uint32_t>& user_order) override {
    std::vector<Primary> local = plane<0>(member);
    from_user_states(*layout_, user_order, num_states(), local.data());
    set_plane<0>(member, local);
    halo_stale_ = true;
    revive(member);
  }

  std::vector<std::string> observable_names() const override { return observable_names_of(models_[0]); }

  std::vector<double> observables(std::uint32_t member) const override {
    return observable_values(member, observable_sums(member), layout_->num_vertices);
  }

  std::vector<std::int64_t> observable_sums(std::uint32_t member) const override {
    constexpr int K = observable_count_of<Model>();
    std::vector<std::int64_t> sums(K, 0);
    if constexpr (K > 0) {
      refresh_halo();  // the observers fold neighbors, which may be a peer's
      const StateRef<Vars> state = member_ref(current_, checked(member));
      const Model& model = model_of(member);
      for (std::uint32_t v = 0; v < layout_->num_vertices; ++v)
        model.observe(CellRead<Vars>{state, v * members()}, cpu::fold(*layout_, model, state, v, members()),
                      sums.data());
    }
    return sums;
  }

  std::vector<double> observable_values(std::uint32_t member, const std::vector<std::int64_t>& sums,
                                        std::uint64_t vertices) const override {
    return observable_values_of(model_of(checked(member)), sums, vertices);
  }

  std::vector<std::uint32_t> variable_widths() const override { return widths_of<Vars>(); }
  void resume_at(std::uint64_t step) override { step_ = step; }

  std::vector<std::vector<std::uint8_t>> export_state(std::uint32_t member) const override {
    std::vector<std::vector<std::uint8_t>> variables;
    for_each_variable<Vars>([&](auto i) {
      constexpr int I = decltype(i)::value;
      variables.push_back(to_user_bytes(*layout_, plane<I>(member).data()));
    });
    return variables;
  }

  void import_state(std::uint32_t member, const std::vector<std::vector<std::uint8_t>>& variables) override {
    check_variable_count(variables.size(), Vars::count);
    for_each_variable<Vars>([&](auto i) {
      constexpr int I = decltype(i)::value;
      auto local = plane<I>(member);
      from_user_bytes(*layout_, variables[I], local.data());
      set_plane<I>(member, local);
    });
    halo_stale_ = true;
    revive(member);
  }

 private:
  std::uint32_t checked(std::uint32_t member) const {
    if (member >= members())
      throw Error("member " + std::to_string(member) + " of an ensemble of " + std::to_string(members()));
    return member;
  }
  const Model& model_of(std::uint32_t member) const { return models_[member / replicas_]; }

  // threads == 1: inside the region that shares the members out, so no nested one is opened.
  void colored_step(std::uint32_t m, std::uint32_t step, int threads) {
    const StateRef<Vars> state = member_ref(current_, m);
    const cpu::StepContext context{seeds_[m], step, 1.0};
    const ColorClasses& classes = classes_[m];
    if (threads > 1 || options_.halo)  // each class reads the classes before it, a peer's too
      return cpu::sweep_colored(
          *layout_, model_of(m), state, classes, context, threads,
          [&] {
            if (options_.halo) start_member_exchange(m), options_.halo->finish(), land_member_halo(m);
          },
          members());
    for (std::uint32_t i = 0; i < classes.begin[classes.count()]; ++i)  // class after class, in place
      cpu::update_vertex(*layout_, model_of(m), state, state, classes.vertices[i], context, members());
  }

  // Members found finished stop being updated: every model draws its random numbers by cell and
  // step, so skipping the steps that change nothing changes nothing else. Both buffers then
  // hold the member's last state. The parts of a partitioned ensemble retire a member together,
  // once it is finished on every part (where their transport can tell).
  static constexpr std::uint64_t kRetireEvery = 8;  // steps between searches: a census's cost

  void retire_finished() {
    if constexpr (HasActive<Model>::value) {
      if (live_.empty()) return;
      const std::size_t M = members(), L = live_.size();
      std::vector<StateRef<Vars>> refs(L);
      for (std::size_t k = 0; k < L; ++k) refs[k] = member_ref(current_, live_[k]);
      std::vector<std::uint8_t> active(L, 0);
      const std::int64_t n = layout_->num_vertices;
#pragma omp parallel num_threads(threads_) if (n * std::int64_t(L) >= cpu::kParallelMinimum)
      {
        std::vector<std::uint8_t> seen(L, 0);
#pragma omp for schedule(static)
        for (std::int64_t v = 0; v < n; ++v)
          for (std::size_t k = 0; k < L; ++k)
            seen[k] |= model_of(live_[k]).active(CellRead<Vars>{refs[k], std::uint32_t(v * M)});
#pragma omp critical
        for (std::size_t k = 0; k < L; ++k) active[k] |= seen[k];
      }
      // The boundary cell is read like any other (a fixed boundary of infected cells infects).
      const std::uint32_t boundary = layout_->boundary_cell() * std::uint32_t(M);
      for (std::size_t k = 0; k < L; ++k) active[k] |= model_of(live_[k]).active(CellRead<Vars>{refs[k], boundary});
      if (parts_ && !parts_->or_over_parts(active)) return;  // a member is finished on every part
      std::vector<std::uint32_t> still;
      for (std::size_t k = 0; k < L; ++k) {
        if (active[k]) {
          still.push_back(live_[k]);
          continue;
        }
        for_each_variable<Vars>([&](auto i) {  // the next buffer holds the last state too
          constexpr int I = decltype(i)::value;
          const auto* from = current_.template array<I>().data();
          auto* to = next_.template array<I>().data();
          for (std::size_t c = 0; c < layout_->state_length(); ++c) to[c * M + live_[k]] = from[c * M + live_[k]];
        });
      }
      live_ = std::move(still);
    }
  }

  // A member given a new state runs again.
  void revive(std::uint32_t member) {
    const auto at = std::lower_bound(live_.begin(), live_.end(), member);
    if (at == live_.end() || *at != member) live_.insert(at, member);
  }

  // Packs every member's copy of the cells peers read and starts the exchange of each variable
  // of the current state: a cell's members travel together and land in its halo cell.
  void start_exchange() const {
    const Layout& L = *layout_;
    const std::size_t M = members();
    for_each_variable<Vars>([&](auto i) {
      constexpr int I = decltype(i)::value;
      using T = typename Vars::template type<I>;
      T* values = const_cast<T*>(current_.template array<I>().data());
      auto& packed = send_[I];
      packed.resize(L.send_cells.size() * M * sizeof(T));
      T* out = reinterpret_cast<T*>(packed.data());
      for (std::size_t k = 0; k < L.send_cells.size(); ++k)
        std::copy_n(values + std::size_t(L.send_cells[k]) * M, M, out + k * M);
      options_.halo->start(L, I, sizeof(T) * M, out, values + std::size_t(L.num_vertices) * M);
    });
  }

  // The same for member m alone (colored steps), its halo landing beside the buffer first.
  void start_member_exchange(std::uint32_t m) {
    const Layout& L = *layout_;
    const std::size_t M = members();
    for_each_variable<Vars>([&](auto i) {
      constexpr int I = decltype(i)::value;
      using T = typename Vars::template type<I>;
      const T* values = current_.template array<I>().data();
      send_[I].resize(L.send_cells.size() * sizeof(T));
      halo_in_[I].resize(std::size_t(L.num_halo) * sizeof(T));
      T* out = reinterpret_cast<T*>(send_[I].data());
      for (std::size_t k = 0; k < L.send_cells.size(); ++k) out[k] = values[std::size_t(L.send_cells[k]) * M + m];
      options_.halo->start(L, I, sizeof(T), out, halo_in_[I].data());
    });
  }
  void land_member_halo(std::uint32_t m) {
    const Layout& L = *layout_;
    for_each_variable<Vars>([&](auto i) {
      constexpr int I = decltype(i)::value;
      using T = typename Vars::template type<I>;
      T* values = current_.template array<I>().data();
      const T* in = reinterpret_cast<const T*>(halo_in_[I].data());
      for (std::uint32_t h = 0; h < L.num_halo; ++h) values[std::size_t(L.num_vertices + h) * members() + m] = in[h];
    });
  }

  // Fills every member's halo from the peers after states were set (every rank sets them).
  void refresh_halo() const {
    if (!options_.halo || !halo_stale_) return;
    start_exchange();
    options_.halo->finish();
    halo_stale_ = false;
  }

  // Member m's view of a buffer: its copy of cell c is element c * members() there.
  StateRef<Vars> member_ref(const HostState<Vars>& buffer, std::uint32_t m) const {
    StateRef<Vars> r = buffer.ref();
    for_each_variable<Vars>([&](auto i) {
      constexpr int I = decltype(i)::value;
      r.var[I] = r.template get<I>() + m;
    });
    return r;
  }

  template <int I>
  std::vector<typename Vars::template type<I>> plane(std::uint32_t m) const {
    return member_plane<I>(current_, members(), checked(m));
  }
  template <int I>
  void set_plane(std::uint32_t m, const std::vector<typename Vars::template type<I>>& local) {
    set_member_plane<I>(current_, members(), checked(m), local);
  }

  std::vector<Model> models_;
  std::uint32_t replicas_;
  std::shared_ptr<const Layout> layout_;
  SimulationOptions options_;
  std::shared_ptr<HaloTransport> parts_;  // a part of a partitioned ensemble: the parts' transport
  int threads_;
  std::vector<std::uint64_t> seeds_;
  HostState<Vars> current_, next_;
  std::vector<ColorClasses> classes_;  // colored updates: each member's
  std::vector<std::uint32_t> live_;    // the members steps update, ascending
  std::uint64_t step_ = 0;
  // A partitioned ensemble's packed cells and, in colored steps, one member's arriving halo.
  mutable std::vector<std::uint8_t> send_[Vars::count], halo_in_[Vars::count];
  mutable bool halo_stale_ = true;  // states were set since the halo was filled
};

}  // namespace cellgraph
