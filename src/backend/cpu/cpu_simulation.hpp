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
    if (model_.num_states() && options.boundary_value >= model_.num_states())
      throw Error("boundary state " + std::to_string(options.boundary_value) +
                  " is not a state of this model (0.." + std::to_string(model_.num_states() - 1) + ")");
    for (HostState<Vars>* buffer : {&current_, &next_})
      buffer->template array<0>()[layout_->boundary_cell()] = Primary(options.boundary_value);
  }

  std::string backend_name() const override { return "cpu"; }
  const Layout& layout() const override { return *layout_; }
  std::uint32_t num_states() const override { return model_.num_states(); }
  std::uint64_t step() const override { return step_; }

  void advance(std::uint64_t steps) override {
    for (std::uint64_t i = 0; i < steps; ++i, ++step_) {
      cpu::sweep(*layout_, model_, current_.ref(), next_.ref(), options_.seed,
                 static_cast<std::uint32_t>(step_), threads_);
      current_.swap(next_);
    }
  }

  std::vector<std::uint64_t> census() const override {
    const std::uint32_t bins = std::max<std::uint32_t>(1, model_.num_states());
    std::vector<std::uint64_t> counts(bins, 0);
    const auto& s = current_.template array<0>();
    const std::int64_t n = layout_->num_vertices;
#pragma omp parallel num_threads(threads_)
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
    const Layout& L = *layout_;
    std::vector<std::uint32_t> out(L.num_vertices);
    const auto& s = current_.template array<0>();
    for (std::uint32_t v = 0; v < L.num_vertices; ++v) out[L.local_to_user[v]] = s[v];
    return out;
  }

  void set_states(const std::vector<std::uint32_t>& user_order) override {
    const Layout& L = *layout_;
    if (user_order.size() != L.num_vertices)
      throw Error("initial state has " + std::to_string(user_order.size()) + " values for " +
                  std::to_string(L.num_vertices) + " vertices");
    auto& s = current_.template array<0>();
    for (std::uint32_t v = 0; v < L.num_vertices; ++v) {
      const std::uint32_t value = user_order[L.local_to_user[v]];
      if (model_.num_states() && value >= model_.num_states())
        throw Error("initial state " + std::to_string(value) + " of vertex " +
                    std::to_string(L.local_to_user[v]) + " is not a state of this model");
      s[v] = Primary(value);
    }
  }

 private:
  Model model_;
  std::shared_ptr<const Layout> layout_;
  SimulationOptions options_;
  int threads_;
  HostState<Vars> current_, next_;
  std::uint64_t step_ = 0;
};

}  // namespace cellgraph
