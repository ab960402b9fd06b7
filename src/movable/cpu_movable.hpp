// The CPU movable backend, the reference: cell-list search and compile on the host, the
// state moved to each new layout's order by one gather per variable, and the CPU sweep
// (src/backend/cpu/sweep.hpp) stepping on the compiled lists. movable_simulation.hpp says
// what a step is. The partitioned backend (partition/movable/partitioned_movable.hpp) steps
// each part the same way, with the helpers below, so that the two stay bit for bit alike.
#pragma once
#include <omp.h>

#include <chrono>
#include <cstring>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "cellgraph/error.hpp"
#include "cellgraph/movable/movable_simulation.hpp"
#include "cellgraph/movable/neighbor_search.hpp"
#include "cellgraph/state.hpp"
#include "src/backend/cpu/sweep.hpp"
#include "src/backend/observables.hpp"
#include "src/backend/user_order.hpp"
#include "src/movable/movable_rules.hpp"

namespace cellgraph {

namespace movable {

// The observables' integer sums over local vertices [0, n) of L (K > 0 only).
template <class Model>
std::vector<std::int64_t> observable_sums(const Model& model, const Layout& L,
                                          const StateRef<typename Model::Vars>& state, std::int64_t n, int threads) {
  using Vars = typename Model::Vars;
  constexpr int K = observable_count_of<Model>();
  std::vector<std::int64_t> sums(K, 0);
#pragma omp parallel num_threads(threads) if (n >= cpu::kParallelMinimum)
  {
    std::int64_t mine[K] = {};
#pragma omp for schedule(static) nowait
    for (std::int64_t v = 0; v < n; ++v)
      model.observe(CellRead<Vars>{state, std::uint32_t(v)}, cpu::fold(L, model, state, std::uint32_t(v)), mine);
#pragma omp critical
    for (int k = 0; k < K; ++k) sums[k] += mine[k];
  }
  return sums;
}

// The Verlet lists of local vertices [0, n) of `candidates` (radius + skin) cut to the radius
// at positions `now`, into `working` (a copy of `candidates`).
template <class Coord>
void filter_lists(const Box& box, double radius, const PointsView<Coord>& now, const Layout& candidates,
                  Layout& working, std::int64_t n, int threads) {
  const BoxIn<Coord> in = box_in<Coord>(box);
  const Coord r2 = cutoff_squared<Coord>(radius);
  const Layout& C = candidates;
#pragma omp parallel for num_threads(threads) schedule(static) if (n >= cpu::kParallelMinimum)
  for (std::int64_t v = 0; v < n; ++v) {
    const ListAddress at =
        list_address(C.slice_begin.data(), C.hub_row_begin.data(), C.num_hub_vertices(), std::uint32_t(v));
    working.degree[v] = filter_list(in, now.axis, r2, C.neighbors.data(), working.neighbors.data(), at, C.degree[v],
                                    std::uint32_t(v), C.null_cell());
  }
}

// Has any of local cells [0, n) moved by more than `threshold` from its `anchor` position?
template <class Coord, int D>
bool moved_beyond(const Box& box, double threshold, const PointsView<Coord>& now, const std::vector<Coord> (&anchor)[3],
                  std::int64_t n, int threads) {
  const BoxIn<Coord> in = box_in<Coord>(box);
  const Coord limit = Coord(threshold) * Coord(threshold);
  const Coord* from[3] = {anchor[0].data(), anchor[1].data(), D == 3 ? anchor[2].data() : nullptr};
  bool far = false;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(|| : far) if (n >= cpu::kParallelMinimum)
  for (std::int64_t v = 0; v < n; ++v)
    far = far || squared_distance(in, now.axis, std::uint32_t(v), from, std::uint32_t(v)) > limit;
  return far;
}

}  // namespace movable

template <class Model>
class CpuMovableSimulation final : public MovableSimulation {
  using Vars = typename Model::Vars;
  using Coord = typename Model::Coordinate;
  static constexpr int D = Model::dims;

 public:
  CpuMovableSimulation(const Model& model, std::uint32_t particles, const MovableOptions& movable,
                       const SimulationOptions& options)
      : model_(model), n_(particles), movable_(movable), options_(options),
        rule_(movable::rebuild_rule<Coord>(model.box, particles, model.radius, movable.skin)),
        threads_(options.threads > 0 ? options.threads : omp_get_max_threads()), current_(std::size_t(particles) + 2),
        next_(std::size_t(particles) + 2) {
    movable::check_movable_model(model);
  }

  std::string backend_name() const override { return "cpu"; }
  std::uint32_t num_particles() const override { return n_; }
  const Box& box() const override { return model_.box; }
  double radius() const override { return model_.radius; }
  double skin() const override { return movable_.skin; }
  std::uint64_t step() const override { return step_; }

  void advance(std::uint64_t steps) override {
    for (std::uint64_t i = 0; i < steps; ++i) {
      prepare_lists();
      const cpu::StepContext context{options_.seed, static_cast<std::uint32_t>(step_), 1.0};
      cpu::sweep(stepping(), model_, current_.ref(), next_.ref(), context, threads_, 0, n_);
      current_.swap(next_);
      ++step_;
      schedule_.stepped([&] { return moved_too_far(); });
    }
  }

  std::vector<std::vector<std::uint8_t>> export_state() const override {
    std::vector<std::vector<std::uint8_t>> variables;
    for_each_variable<Vars>([&](auto c) {
      constexpr int I = decltype(c)::value;
      using T = typename Vars::template type<I>;
      std::vector<std::uint8_t> bytes(std::size_t(n_) * sizeof(T));
      const T* values = current_.template array<I>().data();
      for (std::uint32_t p = 0; p < n_; ++p)
        std::memcpy(bytes.data() + std::size_t(p) * sizeof(T), values + local_of(p), sizeof(T));
      variables.push_back(std::move(bytes));
    });
    return variables;
  }

  void import_state(const std::vector<std::vector<std::uint8_t>>& variables, std::uint64_t step) override {
    check_variable_count(variables.size(), Vars::count);
    for_each_variable<Vars>([&](auto c) {
      constexpr int I = decltype(c)::value;
      using T = typename Vars::template type<I>;
      movable::check_variable_bytes(I, variables[I].size(), n_, sizeof(T));
      std::memcpy(current_.template array<I>().data(), variables[I].data(), variables[I].size());
    });
    check_points(model_.box, points(current_));
    have_layout_ = false;  // the state is in particle order until the next rebuild
    schedule_.positions_replaced();
    step_ = step;
  }

  std::vector<double> variable(int i) const override {
    if (i < 0 || i >= Vars::count) throw Error("the model has no variable " + std::to_string(i));
    std::vector<double> out(n_);
    for_each_variable<Vars>([&](auto c) {
      constexpr int I = decltype(c)::value;
      if (I != i) return;
      const auto* values = current_.template array<I>().data();
      for (std::uint32_t p = 0; p < n_; ++p) out[p] = double(values[local_of(p)]);
    });
    return out;
  }

  std::vector<std::string> observable_names() const override { return observable_names_of(model_); }

  std::vector<double> observables() override {
    constexpr int K = observable_count_of<Model>();
    std::vector<std::int64_t> sums(K, 0);
    if constexpr (K > 0) {
      prepare_lists();
      sums = movable::observable_sums(model_, stepping(), current_.ref(), n_, threads_);
    }
    return observable_values_of(model_, sums, n_);
  }

  Graph current_neighbors() override {
    prepare_lists();
    return lists_in_user_ids(stepping());
  }

  Layout rebuilt_layout() const override {
    if (!have_layout_) throw Error("no neighbor lists have been built since the state was set");
    return candidates_;
  }

  RebuildStats rebuild_stats() const override { return stats_; }

 private:
  // Positions of the cells of `state` (layout order) as the search and the filter take them.
  PointsView<Coord> points(const HostState<Vars>& state) const {
    const StateRef<Vars> ref = state.ref();
    PointsView<Coord> view;
    for (int a = 0; a < D; ++a) view.axis[a] = static_cast<const Coord*>(ref.var[a]);
    view.count = n_;
    return view;
  }

  std::uint32_t local_of(std::uint32_t particle) const {
    return have_layout_ ? candidates_.user_to_local[particle] : particle;
  }

  // The lists the next step folds: the compiled ones, or with a skin their filtered copy.
  const Layout& stepping() const { return rule_.every_step ? candidates_ : working_; }

  void prepare_lists() {
    schedule_.prepare([&] { rebuild(); }, [&] { filter(); });
  }

  // Cell-list search at the current positions (handed over in particle order), compile, and
  // every variable moved to the new layout's order.
  void rebuild() {
    const auto start = std::chrono::steady_clock::now();
    std::vector<Coord> by_particle[D];
    PointsView<Coord> view;
    const PointsView<Coord> here = points(current_);
    for (int a = 0; a < D; ++a) {
      by_particle[a].resize(n_);
      for (std::uint32_t p = 0; p < n_; ++p) by_particle[a][p] = here.axis[a][local_of(p)];
      view.axis[a] = by_particle[a].data();
    }
    view.count = n_;
    Layout next_layout = compile_neighbors(find_neighbors(model_.box, rule_.cutoff, view, threads_), movable_.compile);
    std::vector<std::uint32_t> from(n_);
    for (std::uint32_t l = 0; l < n_; ++l) from[l] = local_of(next_layout.local_to_user[l]);
    for_each_variable<Vars>([&](auto c) {
      constexpr int I = decltype(c)::value;
      const auto* old_values = current_.template array<I>().data();
      auto* new_values = next_.template array<I>().data();
      for (std::uint32_t l = 0; l < n_; ++l) new_values[l] = old_values[from[l]];
    });
    current_.swap(next_);
    candidates_ = std::move(next_layout);
    have_layout_ = true;
    if (!rule_.every_step) {
      working_ = candidates_;
      const PointsView<Coord> now = points(current_);
      for (int a = 0; a < D; ++a) anchor_[a].assign(now.axis[a], now.axis[a] + n_);
    }
    ++stats_.rebuilds;
    stats_.entries = candidates_.degree.empty()
                         ? 0
                         : std::accumulate(candidates_.degree.begin(), candidates_.degree.end(), std::uint64_t(0));
    stats_.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  // The Verlet lists cut to the radius at the current positions.
  void filter() {
    movable::filter_lists(model_.box, model_.radius, points(current_), candidates_, working_, n_, threads_);
  }

  // Has any cell moved by more than the threshold since the last rebuild?
  bool moved_too_far() const {
    return movable::moved_beyond<Coord, D>(model_.box, rule_.threshold, points(current_), anchor_, n_, threads_);
  }

  Model model_;
  std::uint32_t n_;
  MovableOptions movable_;
  SimulationOptions options_;
  movable::RebuildRule rule_;
  int threads_;
  HostState<Vars> current_, next_;                      // n cells, the null cell, the boundary cell (unused)
  Layout candidates_;                                   // the last rebuild's lists (radius + skin)
  Layout working_;                                      // with a skin: the lists cut to the radius
  std::vector<Coord> anchor_[3];                        // with a skin: positions at the last rebuild (layout order)
  bool have_layout_ = false;                            // false: the state is in particle order
  movable::VerletSchedule schedule_{rule_.every_step};  // after rule_
  std::uint64_t step_ = 0;
  RebuildStats stats_;
};

}  // namespace cellgraph
