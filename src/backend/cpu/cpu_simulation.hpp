// The CPU backend: host state, double buffered, advanced by the reference sweep.
#pragma once
#include <omp.h>

#include <memory>
#include <string>
#include <vector>

#include "cellgraph/error.hpp"
#include "cellgraph/simulation.hpp"
#include "cellgraph/state.hpp"
#include "src/backend/cpu/sweep.hpp"
#include "src/backend/observables.hpp"
#include "src/backend/user_order.hpp"

namespace cellgraph {

template <class Model>
class CpuSimulation final : public Simulation {
  using Vars = typename Model::Vars;
  using Primary = typename Vars::template type<0>;

 public:
  CpuSimulation(const Model& model, std::shared_ptr<const Layout> layout,
                const SimulationOptions& options)
      : model_(model), layout_(std::move(layout)), options_(options),
        threads_(options.threads > 0 ? options.threads : omp_get_max_threads()),
        current_(layout_->state_length()), next_(layout_->state_length()) {
    check_boundary_state(options.boundary_value, model_.num_states());
    if (options.update.mode == UpdateMode::colored)
      classes_ = color_classes(*layout_, greedy_coloring(*layout_, options.seed));
    for (HostState<Vars>* buffer : {&current_, &next_})
      buffer->template array<0>()[layout_->boundary_cell()] = Primary(options.boundary_value);
  }

  std::string backend_name() const override { return "cpu"; }
  const Layout& layout() const override { return *layout_; }
  std::uint32_t num_states() const override { return model_.num_states(); }
  std::uint64_t step() const override { return step_; }

  void advance(std::uint64_t steps) override {
    for (std::uint64_t i = 0; i < steps; ++i, ++step_) {
      const cpu::StepContext step{options_.seed, static_cast<std::uint32_t>(step_), alpha()};
      if (options_.update.mode == UpdateMode::colored) {
        cpu::sweep_colored(*layout_, model_, current_.ref(), classes_, step, threads_);
      } else {
        cpu::sweep(*layout_, model_, current_.ref(), next_.ref(), step, threads_);
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
  }

  std::vector<std::string> observable_names() const override { return observable_names_of(model_); }

  std::vector<double> observables() const override {
    if constexpr (HasObservables<Model>::value) {
      constexpr int K = Model::num_observables;
      std::int64_t sums[K] = {};
      const std::int64_t n = layout_->num_vertices;
      const StateRef<Vars> state = current_.ref();
#pragma omp parallel num_threads(threads_) if (n >= cpu::kParallelMinimum)
      {
        std::int64_t mine[K] = {};
#pragma omp for schedule(dynamic, 512) nowait
        for (std::int64_t v = 0; v < n; ++v)
          model_.observe(CellRead<Vars>{state, std::uint32_t(v)}, cpu::fold(*layout_, model_, state, std::uint32_t(v)), mine);
#pragma omp critical
        for (int k = 0; k < K; ++k) sums[k] += mine[k];
      }
      return model_.observable_values(sums, layout_->num_vertices);
    } else {
      return {};
    }
  }

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
  }

 private:
  double alpha() const { return options_.update.mode == UpdateMode::alpha_asynchronous ? options_.update.alpha : 1.0; }

  Model model_;
  std::shared_ptr<const Layout> layout_;
  SimulationOptions options_;
  int threads_;
  HostState<Vars> current_, next_;
  ColorClasses classes_;  // colored updates only
  std::uint64_t step_ = 0;
};

}  // namespace cellgraph
