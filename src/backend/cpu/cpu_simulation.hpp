// The CPU backends: host state, double buffered, advanced by the reference sweep (sweep.hpp,
// --backend reference) or by the fast one (slice_sweep.hpp, --backend cpu). Colored steps take
// their classes' vertices one by one in both: a class is a list of vertices, not of slices.
#pragma once
#include <omp.h>

#include <memory>
#include <string>
#include <vector>

#include "cellgraph/error.hpp"
#include "cellgraph/simulation.hpp"
#include "cellgraph/state.hpp"
#include "src/backend/cpu/slice_sweep.hpp"
#include "src/backend/cpu/sweep.hpp"
#include "src/backend/observables.hpp"
#include "src/backend/user_order.hpp"

namespace cellgraph {

template <class Model>
class CpuSimulation final : public Simulation {
  using Vars = typename Model::Vars;
  using Primary = typename Vars::template type<0>;

 public:
  CpuSimulation(const Model& model, std::shared_ptr<const Layout> layout, const SimulationOptions& options)
      : model_(model), layout_(std::move(layout)), options_(options),
        threads_(options.threads > 0 ? options.threads : omp_get_max_threads()), current_(layout_->state_length()),
        next_(layout_->state_length()) {
    check_boundary_state(options.boundary_value, model_.num_states());
    if (options.update.mode == UpdateMode::colored)
      classes_ = options.colors.empty() ? color_classes(*layout_, greedy_coloring(*layout_, options.seed))
                                        : color_classes(*layout_, options.colors, options.color_count);
    if (layout_->peers.empty()) options_.halo = nullptr;  // a part that trades nothing runs as a whole graph
    if (options_.halo)
      for_each_variable<Vars>([&](auto i) {
        send_[i].resize(layout_->send_cells.size() * sizeof(typename Vars::template type<decltype(i)::value>));
      });
    for (HostState<Vars>* buffer : {&current_, &next_})
      buffer->template array<0>()[layout_->boundary_cell()] = Primary(options.boundary_value);
  }

  std::string backend_name() const override { return fast_ ? "cpu" : "reference"; }
  const Layout& layout() const override { return *layout_; }
  std::uint32_t num_states() const override { return model_.num_states(); }
  std::uint64_t step() const override { return step_; }

  void advance(std::uint64_t steps) override {
    for (std::uint64_t i = 0; i < steps; ++i, ++step_) {
      const cpu::StepContext step{options_.seed, static_cast<std::uint32_t>(step_), alpha()};
      // A partitioned run's halo holds the peers' current cells between steps.
      if (options_.update.mode == UpdateMode::colored) {
        // Each class reads the classes before it: its cells go out as soon as it is done.
        cpu::sweep_colored(*layout_, model_, current_.ref(), classes_, step, threads_, [&] {
          if (options_.halo) start_exchange(current_), options_.halo->finish();
        });
      } else if (options_.halo) {
        // The cells peers read first; they travel while the interior is updated.
        const Layout& L = *layout_;
        sweep(current_, next_, step, 0, L.interior_begin);
        start_exchange(next_);
        sweep(current_, next_, step, L.interior_begin, L.num_vertices);
        options_.halo->finish();
        current_.swap(next_);
      } else {
        sweep(current_, next_, step, 0, layout_->num_vertices);
        current_.swap(next_);
      }
    }
  }

  std::vector<std::uint64_t> census() const override {
    const std::uint32_t bins = std::max<std::uint32_t>(1, model_.num_states());
    std::vector<std::uint64_t> counts(bins, 0);
    const auto& s = current_.template array<0>();
    const std::int64_t n = layout_->num_vertices;
#pragma omp parallel num_threads(threads_) if (n >= cpu::kParallelMinimum)
    {
      std::vector<std::uint64_t> mine(bins, 0);
#pragma omp for schedule(static) nowait
      for (std::int64_t v = 0; v < n; ++v) ++mine[std::min<std::uint64_t>(s[v], bins - 1)];
#pragma omp critical
      for (std::uint32_t b = 0; b < bins; ++b) counts[b] += mine[b];
    }
    return counts;
  }

  std::vector<std::uint32_t> states() const override {
    return to_user_states(*layout_, current_.template array<0>().data());
  }

  void set_states(const std::vector<std::uint32_t>& user_order) override {
    from_user_states(*layout_, user_order, model_.num_states(), current_.template array<0>().data());
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
    constexpr int K = observable_count_of<Model>();
    std::vector<std::int64_t> sums(K, 0);
    if constexpr (K > 0) {
      const std::int64_t n = layout_->num_vertices;
      const StateRef<Vars> state = current_.ref();
#pragma omp parallel num_threads(threads_) if (n >= cpu::kParallelMinimum)
      {
        std::int64_t mine[K] = {};
#pragma omp for schedule(dynamic, 512) nowait
        for (std::int64_t v = 0; v < n; ++v)
          model_.observe(CellRead<Vars>{state, std::uint32_t(v)}, cpu::fold(*layout_, model_, state, std::uint32_t(v)),
                         mine);
#pragma omp critical
        for (int k = 0; k < K; ++k) sums[k] += mine[k];
      }
    }
    return sums;
  }

  std::vector<std::uint32_t> variable_widths() const override { return widths_of<Vars>(); }

  std::vector<std::vector<std::uint8_t>> export_state() const override {
    std::vector<std::vector<std::uint8_t>> variables;
    for_each_variable<Vars>([&](auto i) {
      variables.push_back(to_user_bytes(*layout_, current_.template array<decltype(i)::value>().data()));
    });
    return variables;
  }

  void import_state(const std::vector<std::vector<std::uint8_t>>& variables, std::uint64_t step) override {
    check_variable_count(variables.size(), Vars::count);
    for_each_variable<Vars>([&](auto i) {
      constexpr int I = decltype(i)::value;
      from_user_bytes(*layout_, variables[I], current_.template array<I>().data());
    });
    step_ = step;
    refresh_halo();
  }

 private:
  void sweep(const HostState<Vars>& from, HostState<Vars>& to, const cpu::StepContext& step, std::int64_t first,
             std::int64_t last) {
    if (fast_) cpu::sweep_slices(*layout_, model_, from.ref(), to.ref(), step, threads_, first, last, table_);
    else cpu::sweep(*layout_, model_, from.ref(), to.ref(), step, threads_, first, last);
  }

  // Packs the cells peers read and starts the exchange of every variable of `buffer`; the
  // halo arrives straight in the buffer's halo cells.
  void start_exchange(HostState<Vars>& buffer) {
    const Layout& L = *layout_;
    for_each_variable<Vars>([&](auto i) {
      constexpr int I = decltype(i)::value;
      using T = typename Vars::template type<I>;
      T* packed = reinterpret_cast<T*>(send_[I].data());
      T* values = buffer.template array<I>().data();
      for (std::size_t k = 0; k < L.send_cells.size(); ++k) packed[k] = values[L.send_cells[k]];
      options_.halo->start(L, I, sizeof(T), packed, values + L.num_vertices);
    });
  }

  // Fills the halo from the peers (after states are set: every rank sets them).
  void refresh_halo() {
    if (options_.halo) start_exchange(current_), options_.halo->finish();
  }

  double alpha() const { return options_.update.mode == UpdateMode::alpha_asynchronous ? options_.update.alpha : 1.0; }

  Model model_;
  std::shared_ptr<const Layout> layout_;
  SimulationOptions options_;
  bool fast_ = options_.backend == BackendKind::cpu;
  cpu::RuleTable table_ = fast_ ? cpu::tabulate_rule(model_, *layout_) : cpu::RuleTable{};
  int threads_;
  HostState<Vars> current_, next_;
  ColorClasses classes_;                         // colored updates only
  std::vector<std::uint8_t> send_[Vars::count];  // partitioned runs: packed cells for the peers
  std::uint64_t step_ = 0;
};

}  // namespace cellgraph
