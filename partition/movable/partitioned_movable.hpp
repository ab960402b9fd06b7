// Partitioned movable runs: one part of the box per rank (MPI, or a thread in the tests), the
// same results as one process, bit for bit.
//
// Decomposition (spatial_decomposition.hpp): the box is cut into one region per part by
// recursive coordinate bisection of a grid of bins at least r + skin wide, balanced by
// particle count, from the positions given to import_state (the start of a run). The regions
// stay fixed from then on: a Vicsek flock keeps its density on average, and fixed regions keep
// every rank's region a pure function of the imported state (a restart on any rank count
// splits alike). A part owns the particles whose position lies in its region.
//
// Rebuilds (when the single-process run rebuilds its lists: every step without a skin, with
// one once any particle has moved by skin / 2, decided over all parts) are where particles
// change hands, as in LAMMPS and GROMACS:
//   1. migration: every owned particle whose position has left the region goes to the part
//      whose region holds it, with its permanent id and all its state variables as bytes
//      (particle_records.hpp: nothing model-specific);
//   2. halo: each part sends every other part the particles within r + skin (and a margin of
//      rounding) of that part's region, again every variable;
//   3. the owned and halo particles, in ascending id, go through the ordinary cell-list search
//      (neighbor_search.hpp) and compile_rows: owned vertices with their lists (ascending
//      particle id), the halo as read-only cells one range per peer, the send lists per peer.
// Between rebuilds the sets stay: a particle strays at most skin / 2 from its region, which the
// halo's r + skin covers, and each step ends with the fixed halo exchange of every variable
// (HaloTransport::start/finish, as the static partitioned runs do), so the halo holds the
// peers' current values when the next step reads them.
//
// Identity: a particle's list is every particle within the radius, in ascending id, whatever
// part holds them; random numbers are keyed by the particle id; the Verlet rebuild decision is
// one OR over the parts. Observables are integer sums, added over the parts. Hubs are the
// exception: which lists share a hub slice (and so fold as hubs) depends on the split, so a
// rebuild that finds a list at or above the hub threshold (the whole run's, as one process
// computes it) stops the run with a message (raise --hub-degree); Vicsek lists are far below.
//
// Observers are collective (every part calls them at the same points): export_state,
// variable(), positions() and current_neighbors() gather to part 0, which gets the whole run
// in particle id order (other parts get empty vectors); observables() are summed on all.
// import_state takes the whole state on every part. The CPU backend only (host-staged).
#pragma once
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "cellgraph/error.hpp"
#include "cellgraph/movable/movable_simulation.hpp"
#include "cellgraph/movable/neighbor_search.hpp"
#include "cellgraph/state.hpp"
#include "partition/movable/part_messages.hpp"
#include "partition/movable/particle_records.hpp"
#include "partition/movable/spatial_decomposition.hpp"
#include "src/backend/cpu/sweep.hpp"
#include "src/backend/observables.hpp"
#include "src/backend/user_order.hpp"
#include "src/movable/cpu_movable.hpp"
#include "src/movable/movable_rules.hpp"

namespace cellgraph {

template <class Model>
class PartitionedMovableSimulation final : public MovableSimulation {
  using Vars = typename Model::Vars;
  using Coord = typename Model::Coordinate;
  static constexpr int D = Model::dims;

 public:
  PartitionedMovableSimulation(const Model& model, std::uint32_t particles, const MovableOptions& movable,
                               const SimulationOptions& options)
      : model_(model), n_total_(particles), movable_(movable), options_(options),
        rule_(movable::rebuild_rule<Coord>(model.box, particles, model.radius, movable.skin)),
        threads_(options.threads > 0 ? options.threads : omp_get_max_threads()),
        messages_(options.halo, movable.part, movable.parts) {
    movable::check_movable_model(model);
    double longest = 0;
    for (int a = 0; a < D; ++a) longest = std::max(longest, model.box.length[a]);
    // Wider than the search's cutoff by more than rounding in Coord can shorten a distance.
    halo_width_ = rule_.cutoff + 64.0 * double(std::numeric_limits<Coord>::epsilon()) * (longest + rule_.cutoff);
    for_each_variable<Vars>(
        [&](auto c) { sizes_.push_back(sizeof(typename Vars::template type<decltype(c)::value>)); });
    staged_ = ParticleRecords(sizes_);
  }

  std::string backend_name() const override { return "cpu x " + std::to_string(messages_.parts()) + " ranks"; }
  std::uint32_t num_particles() const override { return n_total_; }
  const Box& box() const override { return model_.box; }
  double radius() const override { return model_.radius; }
  double skin() const override { return movable_.skin; }
  std::uint64_t step() const override { return step_; }
  const SpatialDecomposition& decomposition() const { return decomposition_; }
  // Particles this part owns now.
  std::uint32_t owned_count() const { return have_layout_ ? layout_.num_vertices : std::uint32_t(staged_.count()); }

  void advance(std::uint64_t steps) override {
    for (std::uint64_t i = 0; i < steps; ++i) {
      prepare_lists();
      const cpu::StepContext context{options_.seed, static_cast<std::uint32_t>(step_), 1.0};
      cpu::sweep(stepping(), model_, current_.ref(), next_.ref(), context, threads_, 0, layout_.num_vertices);
      current_.swap(next_);
      ++step_;
      const bool rebuild_due = schedule_.stepped([&] { return messages_.any(moved_too_far()); });
      if (!rebuild_due) exchange_halo();  // a rebuild hands the halo over anew
    }
  }

  std::vector<std::vector<std::uint8_t>> export_state() const override {
    return gather_variables(std::vector<bool>(sizes_.size(), true));
  }

  // Every part passes the whole state (particle id order); each keeps its region's particles.
  void import_state(const std::vector<std::vector<std::uint8_t>>& variables, std::uint64_t step) override {
    check_variable_count(variables.size(), Vars::count);
    for (std::size_t v = 0; v < sizes_.size(); ++v)
      movable::check_variable_bytes(v, variables[v].size(), n_total_, sizes_[v]);
    std::vector<std::vector<Coord>> axis(D, std::vector<Coord>(n_total_));
    std::vector<std::vector<double>> wide(D, std::vector<double>(n_total_));
    PointsView<Coord> view;
    std::vector<const double*> positions;
    for (int a = 0; a < D; ++a) {
      std::memcpy(axis[a].data(), variables[a].data(), variables[a].size());
      for (std::uint32_t p = 0; p < n_total_; ++p) wide[a][p] = double(axis[a][p]);
      view.axis[a] = axis[a].data();
      positions.push_back(wide[a].data());
    }
    view.count = n_total_;
    check_points(model_.box, view);
    decomposition_ = SpatialDecomposition(model_.box, rule_.cutoff, messages_.parts(), positions, n_total_);
    staged_ = ParticleRecords(sizes_);
    double x[3] = {0, 0, 0};
    for (std::uint32_t p = 0; p < n_total_; ++p) {
      for (int a = 0; a < D; ++a) x[a] = wide[a][p];
      if (decomposition_.owner(x) != messages_.part()) continue;
      staged_.ids.push_back(p);
      for (std::size_t v = 0; v < sizes_.size(); ++v)
        staged_.variables[v].insert(staged_.variables[v].end(), variables[v].begin() + std::ptrdiff_t(p * sizes_[v]),
                                    variables[v].begin() + std::ptrdiff_t((p + 1) * sizes_[v]));
    }
    have_layout_ = false;
    schedule_.positions_replaced();
    step_ = step;
  }

  std::vector<double> variable(int i) const override {
    if (i < 0 || i >= Vars::count) throw Error("the model has no variable " + std::to_string(i));
    std::vector<bool> which(sizes_.size(), false);
    which[std::size_t(i)] = true;
    const std::vector<std::uint8_t> bytes = gather_variables(which)[std::size_t(i)];
    std::vector<double> out;
    for_each_variable<Vars>([&](auto c) {
      constexpr int I = decltype(c)::value;
      using T = typename Vars::template type<I>;
      if (I != i) return;
      out.resize(bytes.size() / sizeof(T));
      for (std::size_t p = 0; p < out.size(); ++p) {
        T value;
        std::memcpy(&value, bytes.data() + p * sizeof(T), sizeof(T));
        out[p] = double(value);
      }
    });
    return out;
  }

  std::vector<std::string> observable_names() const override { return observable_names_of(model_); }

  std::vector<double> observables() override {
    constexpr int K = observable_count_of<Model>();
    std::vector<std::int64_t> sums(K, 0);
    if constexpr (K > 0) {
      prepare_lists();
      const Layout& L = stepping();
      sums = messages_.sum(movable::observable_sums(model_, L, current_.ref(), L.num_vertices, threads_));
    }
    return observable_values_of(model_, sums, n_total_);
  }

  // The whole run's lists on part 0 (row p: particle p's, in fold order); empty elsewhere.
  Graph current_neighbors() override {
    prepare_lists();
    const Layout& L = stepping();
    std::vector<std::uint32_t> mine;  // per owned particle: id, degree, the neighbors' ids
    for (std::uint32_t i = 0; i < L.num_vertices; ++i) {
      const std::uint32_t v = L.user_to_local[i];
      mine.push_back(L.local_to_user[v]);
      mine.push_back(L.degree[v]);
      for_each_neighbor(L, v, [&](std::uint32_t cell, std::uint32_t) { mine.push_back(L.local_to_user[cell]); });
    }
    std::vector<std::vector<std::uint8_t>> out(messages_.parts());
    out[0].resize(mine.size() * 4);
    if (!mine.empty()) std::memcpy(out[0].data(), mine.data(), out[0].size());
    const std::vector<std::vector<std::uint8_t>> in = messages_.all_to_all(std::move(out));
    if (messages_.part() != 0) return {};
    std::vector<std::vector<VertexId>> rows(n_total_);
    for (const std::vector<std::uint8_t>& bytes : in) {
      std::vector<std::uint32_t> words(bytes.size() / 4);
      if (!words.empty()) std::memcpy(words.data(), bytes.data(), bytes.size());
      for (std::size_t at = 0; at < words.size(); at += 2 + words[at + 1])
        rows[words[at]].assign(words.begin() + std::ptrdiff_t(at + 2),
                               words.begin() + std::ptrdiff_t(at + 2 + words[at + 1]));
    }
    Graph g;
    g.offsets.assign(std::size_t(n_total_) + 1, 0);
    for (std::uint32_t p = 0; p < n_total_; ++p) g.offsets[p + 1] = g.offsets[p] + rows[p].size();
    for (const auto& row : rows) g.neighbors.insert(g.neighbors.end(), row.begin(), row.end());
    return g;
  }

  // This part's layout of the last rebuild: its owned particles, then the halo; user ids are
  // particle ids.
  Layout rebuilt_layout() const override {
    if (!have_layout_) throw Error("no neighbor lists have been built since the state was set");
    return layout_;
  }

  RebuildStats rebuild_stats() const override { return stats_; }

 private:
  PointsView<Coord> points(const HostState<Vars>& state) const {
    const StateRef<Vars> ref = state.ref();
    PointsView<Coord> view;
    for (int a = 0; a < D; ++a) view.axis[a] = static_cast<const Coord*>(ref.var[a]);
    view.count = layout_.num_cells();
    return view;
  }

  const Layout& stepping() const { return rule_.every_step ? layout_ : working_; }

  void prepare_lists() {
    schedule_.prepare([&] { rebuild(); }, [&] { filter(); });
  }

  // The owned particles in ascending id, every variable as bytes.
  ParticleRecords owned_records() const {
    if (!have_layout_) return staged_;
    ParticleRecords out(sizes_);
    const Layout& L = layout_;
    out.ids.resize(L.num_vertices);
    for (std::uint32_t i = 0; i < L.num_vertices; ++i) out.ids[i] = L.local_to_user[L.user_to_local[i]];
    for_each_variable<Vars>([&](auto c) {
      constexpr int I = decltype(c)::value;
      using T = typename Vars::template type<I>;
      std::vector<std::uint8_t>& bytes = out.variables[I];
      bytes.resize(std::size_t(L.num_vertices) * sizeof(T));
      const T* values = current_.template array<I>().data();
      for (std::uint32_t i = 0; i < L.num_vertices; ++i)
        std::memcpy(bytes.data() + std::size_t(i) * sizeof(T), values + L.user_to_local[i], sizeof(T));
    });
    return out;
  }

  void position_of(const ParticleRecords& r, std::size_t k, double* x) const {
    for (int a = 0; a < D; ++a) x[a] = double(r.template value<Coord>(a, k));
  }

  // The chosen variables of every particle, in id order, on part 0 (empty vectors elsewhere).
  std::vector<std::vector<std::uint8_t>> gather_variables(const std::vector<bool>& which) const {
    ParticleRecords mine = owned_records();
    for (std::size_t v = 0; v < sizes_.size(); ++v)
      if (!which[v]) mine.sizes[v] = 0, mine.variables[v].clear();
    std::vector<std::vector<std::uint8_t>> out(messages_.parts());
    out[0] = mine.pack_all();
    const std::vector<std::vector<std::uint8_t>> in = messages_.all_to_all(std::move(out));
    std::vector<std::vector<std::uint8_t>> whole(sizes_.size());
    if (messages_.part() != 0) return whole;
    ParticleRecords all(mine.sizes);
    for (const std::vector<std::uint8_t>& message : in) all.append_packed(message);
    if (all.count() != n_total_)
      throw Error("gathered " + std::to_string(all.count()) + " particles of " + std::to_string(n_total_));
    std::vector<bool> seen(n_total_, false);
    for (std::size_t v = 0; v < sizes_.size(); ++v) whole[v].resize(std::size_t(n_total_) * all.sizes[v]);
    for (std::size_t k = 0; k < all.count(); ++k) {
      const VertexId p = all.ids[k];
      if (p >= n_total_ || seen[p]) throw Error("particle " + std::to_string(p) + " gathered twice or out of range");
      seen[p] = true;
      for (std::size_t v = 0; v < sizes_.size(); ++v)
        if (all.sizes[v])
          std::memcpy(whole[v].data() + p * all.sizes[v], all.variables[v].data() + k * all.sizes[v], all.sizes[v]);
    }
    return whole;
  }

  // Migration, the halo, the search and the compile (see the top of this file). Collective.
  void rebuild() {
    const auto start = std::chrono::steady_clock::now();
    const std::uint32_t me = messages_.part(), parts = messages_.parts();
    double x[3] = {0, 0, 0};

    // 1. Particles whose position left the region go to its owner.
    ParticleRecords before = owned_records();
    std::vector<std::vector<std::uint32_t>> leaving(parts);
    for (std::size_t k = 0; k < before.count(); ++k) {
      position_of(before, k, x);
      leaving[decomposition_.owner(x)].push_back(std::uint32_t(k));
    }
    std::vector<std::vector<std::uint8_t>> out(parts);
    for (std::uint32_t q = 0; q < parts; ++q)
      if (q != me) out[q] = before.pack(leaving[q]), stats_.migrated += leaving[q].size();
    std::vector<std::vector<std::uint8_t>> in = messages_.all_to_all(std::move(out));
    ParticleRecords owned(sizes_);
    for (std::uint32_t k : leaving[me]) owned.append(before, k);
    before = ParticleRecords();
    for (std::uint32_t q = 0; q < parts; ++q)
      if (q != me) owned.append_packed(in[q]);
    owned.sort_by_id();
    const std::uint32_t n = std::uint32_t(owned.count());

    // 2. Each peer gets the particles near its region; the halo arrives peer by peer.
    std::vector<std::vector<std::uint32_t>> send(parts);
    for (std::size_t k = 0; k < n; ++k) {
      position_of(owned, k, x);
      for (std::uint32_t q = 0; q < parts; ++q)
        if (q != me && decomposition_.near(q, x, halo_width_)) send[q].push_back(std::uint32_t(k));
    }
    out.assign(parts, {});
    for (std::uint32_t q = 0; q < parts; ++q)
      if (q != me) out[q] = owned.pack(send[q]);
    in = messages_.all_to_all(std::move(out));
    ParticleRecords halo(sizes_);
    std::vector<std::uint32_t> halo_begin(parts + 1, 0);
    for (std::uint32_t q = 0; q < parts; ++q) {
      if (q != me) halo.append_packed(in[q]);
      halo_begin[q + 1] = std::uint32_t(halo.count());
    }
    const std::uint32_t h = std::uint32_t(halo.count());

    // 3. Owned and halo particles in ascending id: slot s of the search is particle id_of[s].
    std::vector<std::uint32_t> order(std::size_t(n) + h);  // < n: owned k; else halo k - n
    std::iota(order.begin(), order.end(), 0u);
    auto id_at = [&](std::uint32_t k) { return k < n ? owned.ids[k] : halo.ids[k - n]; };
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return id_at(a) < id_at(b); });
    std::vector<std::uint32_t> slot_of(order.size());
    for (std::uint32_t s = 0; s < order.size(); ++s) slot_of[order[s]] = s;
    std::vector<Coord> axis[D];
    PointsView<Coord> view;
    for (int a = 0; a < D; ++a) {
      axis[a].resize(order.size());
      for (std::uint32_t s = 0; s < order.size(); ++s) {
        const std::uint32_t k = order[s];
        axis[a][s] = k < n ? owned.template value<Coord>(a, k) : halo.template value<Coord>(a, k - n);
      }
      view.axis[a] = axis[a].data();
    }
    view.count = std::uint32_t(order.size());
    const Graph lists = in_particle_ids(find_neighbors(model_.box, rule_.cutoff, view, threads_));

    // The whole run's hub thresholds, as one process computes them from its mean degree.
    std::uint64_t entries = 0;
    for (std::uint32_t k = 0; k < n; ++k) entries += lists.degree(slot_of[k]);
    CompileOptions options =
        compile_options_for_mean_degree(double(messages_.sum(entries)) / double(n_total_), movable_.compile);
    options.index_encoding = IndexEncoding::explicit_ids;  // lists filtered in place, as on one process
    std::uint32_t densest = 0;
    std::uint64_t hubs = 0;
    for (std::uint32_t k = 0; k < n; ++k) {
      const std::uint32_t degree = std::uint32_t(lists.degree(slot_of[k]));
      densest = std::max(densest, degree);
      hubs += degree >= options.hub_degree;
    }
    if (const std::uint64_t all_hubs = messages_.sum(hubs))
      throw Error(std::to_string(all_hubs) + " particles have at least " + std::to_string(options.hub_degree) +
                  " neighbors within r + skin (the hub threshold" +
                  (hubs ? ", up to " + std::to_string(densest) + " on part " + std::to_string(me) : std::string()) +
                  "): a partitioned movable run folds no hubs, since which lists fold as hubs depends on the split; "
                  "give --hub-degree above the largest neighbor count");

    CompileRows rows;
    for (std::uint32_t k = 0; k < n; ++k) rows.owned.push_back(slot_of[k]);  // ascending: owned is sorted
    for (std::uint32_t k = 0; k < h; ++k) rows.halo.push_back(slot_of[n + k]);
    for (std::uint32_t q = 0; q < parts; ++q) {
      if (q == me || (send[q].empty() && halo_begin[q + 1] == halo_begin[q])) continue;
      HaloPeer peer;
      peer.part = q;
      peer.send_begin = std::uint32_t(rows.send.size()), peer.send_count = std::uint32_t(send[q].size());
      peer.halo_begin = n + halo_begin[q], peer.halo_count = halo_begin[q + 1] - halo_begin[q];
      rows.peers.push_back(peer);
      for (std::uint32_t k : send[q]) rows.send.push_back(slot_of[k]);
    }
    Layout next_layout = n ? compile_rows(lists, rows, options) : empty_layout(rows, options);
    for (VertexId& user : next_layout.local_to_user) user = id_at(order[user]);

    // Every variable into the new layout's order: owned cells, then the halo.
    HostState<Vars> state(next_layout.state_length());
    for_each_variable<Vars>([&](auto c) {
      constexpr int I = decltype(c)::value;
      using T = typename Vars::template type<I>;
      T* values = state.template array<I>().data();
      for (std::uint32_t i = 0; i < n; ++i)
        std::memcpy(values + next_layout.user_to_local[i], owned.variables[I].data() + std::size_t(i) * sizeof(T),
                    sizeof(T));
      if (h) std::memcpy(values + n, halo.variables[I].data(), std::size_t(h) * sizeof(T));
    });
    current_ = std::move(state);
    next_ = HostState<Vars>(next_layout.state_length());
    layout_ = std::move(next_layout);
    have_layout_ = true;
    staged_ = ParticleRecords(sizes_);
    if (!rule_.every_step) {
      working_ = layout_;
      const PointsView<Coord> now = points(current_);
      for (int a = 0; a < D; ++a) anchor_[a].assign(now.axis[a], now.axis[a] + n);
    }
    ++stats_.rebuilds;
    stats_.halo = h;
    stats_.entries = entries;
    stats_.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  // A part that owns no particle: no lists, only the halo it may still be sent.
  static Layout empty_layout(const CompileRows& rows, const CompileOptions& options) {
    Layout L;
    L.num_halo = std::uint32_t(rows.halo.size());
    L.hub_degree = options.hub_degree;
    L.giant_degree = options.giant_degree;
    L.slice_begin = {0};
    L.local_to_user = rows.halo;
    L.peers = rows.peers;
    return L;
  }

  // The fixed exchange: every variable of the cells each peer reads, into its halo range.
  void exchange_halo() {
    const Layout& L = layout_;
    if (L.peers.empty()) return;
    for_each_variable<Vars>([&](auto c) {
      constexpr int I = decltype(c)::value;
      using T = typename Vars::template type<I>;
      send_buffer_[I].resize(L.send_cells.size() * sizeof(T));
      T* packed = reinterpret_cast<T*>(send_buffer_[I].data());
      T* values = current_.template array<I>().data();
      for (std::size_t k = 0; k < L.send_cells.size(); ++k) packed[k] = values[L.send_cells[k]];
      options_.halo->start(L, I, sizeof(T), packed, values + L.num_vertices);
    });
    options_.halo->finish();
  }

  // The Verlet lists cut to the radius at the current positions (the halo's included).
  void filter() {
    movable::filter_lists(model_.box, model_.radius, points(current_), layout_, working_, layout_.num_vertices,
                          threads_);
  }

  // Has any owned particle moved by more than the threshold since the last rebuild?
  bool moved_too_far() const {
    if (rule_.every_step) return true;
    return movable::moved_beyond<Coord, D>(model_.box, rule_.threshold, points(current_), anchor_, layout_.num_vertices,
                                           threads_);
  }

  Model model_;
  std::uint32_t n_total_;
  MovableOptions movable_;
  SimulationOptions options_;
  movable::RebuildRule rule_;
  int threads_;
  mutable PartMessages messages_;  // collective observers are const
  double halo_width_ = 0;
  std::vector<std::size_t> sizes_;  // bytes per particle of each variable
  SpatialDecomposition decomposition_;
  ParticleRecords staged_;          // owned particles between import_state and the first rebuild
  HostState<Vars> current_, next_;  // owned cells, halo cells, the null and the boundary cell
  Layout layout_;                   // the last rebuild's lists (radius + skin)
  Layout working_;                  // with a skin: the lists cut to the radius
  std::vector<Coord> anchor_[3];    // with a skin: owned positions at the last rebuild
  std::vector<std::uint8_t> send_buffer_[Vars::count];
  bool have_layout_ = false;
  movable::VerletSchedule schedule_{rule_.every_step};  // after rule_
  std::uint64_t step_ = 0;
  RebuildStats stats_;
};

}  // namespace cellgraph
