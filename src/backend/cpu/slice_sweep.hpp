// The fast CPU backend's sweep (--backend cpu): the reference's results bit for bit, walked a
// slice at a time. The lanes of an ordinary slice fold side by side, entry k of every lane
// before entry k + 1 (each lane still folds its own list in list order, as sweep.hpp states),
// so each step of the walk is one loop over 32 lanes that the compiler turns into SIMD
// instructions: a stencil slice's lanes read 32 consecutive cells; an explicit slice's lanes
// copy their neighbors side by side first (one column of ids), and fold from the copy. Rules
// that are outer totalistic are looked up in a table of apply()'s results. Hubs fold a round of
// entries at a time, in the reference's order. The walk is compiled for AVX-512, for AVX2 and
// for any x86-64 CPU, and the widest the CPU runs is chosen at run time.
#pragma once
#include <omp.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <tuple>
#include <vector>

#include "cellgraph/layout.hpp"
#include "cellgraph/model.hpp"
#include "cellgraph/update.hpp"
#include "src/backend/cpu/sweep.hpp"
#include "src/backend/cpu/vector_isa.hpp"
#include "src/backend/two_state_rule.hpp"
#include "src/backend/user_order.hpp"

namespace cellgraph::cpu {

// The state as seen from cell `origin`: cell i of the result is cell origin + i. Lanes index
// it by their lane number, which the compiler can prove does not wrap: a stencil column is then
// one vector load, where origin + i in 32 bits is not vectorized (it might wrap).
template <class Vars>
CG_ALWAYS_INLINE StateRef<Vars> state_from(StateRef<Vars> state, std::int64_t origin) {
  for_each_variable<Vars>([&](auto I) { state.var[I] = state.template get<decltype(I)::value>() + origin; });
  return state;
}

// An outer totalistic rule (model.hpp) tabulated: the next state of a cell in state s with count
// c is next[s * counts + c], for every value of a one-byte state. The entries are 4 bytes, the
// width of x86 vector gathers.
struct RuleTable {
  std::vector<std::uint32_t> next;
  std::uint32_t counts = 0;  // the largest count of an ordinary vertex, plus one
  // The model's fold, checked over every count and slot, is "start at 0, add the neighbor's
  // one-bit signal" (model.hpp): lanes count signals in one byte each, 32 or 64 to a vector.
  bool counts_signals = false;
  // Two-state rules of at most 16 counts (Life-like): bit c of born (survives) is the next state
  // of a cell in state 0 (1) with count c; cells in any other state become 0. A slice's lanes
  // then shift 16-bit masks instead of reading the table.
  bool two_state = false;
  std::uint16_t born = 0, survives = 0;
  const std::uint32_t* data() const { return next.empty() ? nullptr : next.data(); }
};

// Sets the table's two-state masks where its rows allow them.
inline void find_two_state_masks(RuleTable& table) {
  if (table.counts > 16) return;
  for (std::uint32_t state = 0; state < 256; ++state)
    for (std::uint32_t count = 0; count < table.counts; ++count) {
      const std::uint32_t next = table.next[state * table.counts + count];
      if (next > 1 || (state > 1 && next != 0)) return;
      if (state == 0) table.born |= std::uint16_t(next << count);
      if (state == 1) table.survives |= std::uint16_t(next << count);
    }
  table.two_state = true;
}

// Models of one one-byte variable whose rule is outer totalistic, on layouts whose ordinary
// vertices have at most 255 neighbors: the table, else an empty one.
template <class Model>
RuleTable tabulate_rule(const Model& model, const Layout& L) {
  RuleTable table;
  if constexpr (HasOuterTotalistic<Model>::value && sizeof(typename Model::Vars::template type<0>) == 1) {
    if (!model.outer_totalistic()) return table;
    const std::uint32_t widest = widest_ordinary_list(L);
    if (widest > 255) return table;
    table.counts = widest + 1;
    table.next.resize(256 * table.counts);
    for (std::uint32_t state = 0; state < 256; ++state)
      for (std::uint32_t count = 0; count < table.counts; ++count)
        table.next[state * table.counts + count] = outer_totalistic_next(model, state, count);
    table.counts_signals = fold_counts_signals(model, table.counts, widest);
    find_two_state_masks(table);
  }
  return table;
}

// N neighbor cells, every variable, copied side by side: the model's gathers over them are then
// a contiguous walk, as over a stencil column, which the compiler vectorizes where it cannot
// vectorize the gathers of one-byte states themselves.
template <class Vars, std::uint32_t N>
struct Column;
template <std::uint32_t N, class... T>
struct Column<Variables<T...>, N> {
  std::tuple<std::array<T, N>...> arrays;
  StateRef<Variables<T...>> ref() {
    StateRef<Variables<T...>> r;
    std::apply(
        [&](auto&... a) {
          int i = 0;
          ((r.var[i++] = a.data()), ...);
        },
        arrays);
    return r;
  }
};

// Copies cells cell_of(i), i in [lo, hi), of `from` into cells i of `into`.
template <class Vars, class CellOf>
CG_ALWAYS_INLINE void copy_cells(StateRef<Vars> from, StateRef<Vars> into, std::uint32_t lo, std::uint32_t hi,
                                 CellOf&& cell_of) {
  for_each_variable<Vars>([&](auto I) {
    constexpr int V = decltype(I)::value;
    const auto* source = from.template get<V>();
    auto* target = into.template get<V>();
    for (std::uint32_t i = lo; i < hi; ++i) target[i] = source[cell_of(i)];
  });
}

// fold_hub() (sweep.hpp) with its partial folds walked a round at a time: entries [r T, r T + T)
// go to partials 0 .. T - 1, in the same order, without a division per entry.
template <class Model>
typename Model::Acc fold_hub_in_rounds(const Layout& L, const Model& model, StateRef<typename Model::Vars> current,
                                       std::uint32_t v) {
  using Vars = typename Model::Vars;
  using Acc = typename Model::Acc;
  const std::uint32_t threads = v < L.num_giant_hubs ? kGiantHubThreads : kWarpSize;
  Acc partial[kGiantHubThreads];
  const Acc first = initial_fold(model, CellRead<Vars>{current, v});
  for (std::uint32_t t = 0; t < threads; ++t) partial[t] = first;
  const std::uint32_t* row = L.neighbors.data() + L.hub_row_begin[v];
  for (std::uint32_t base = 0; base < L.degree[v]; base += threads) {
    const std::uint32_t round = std::min(threads, L.degree[v] - base);
    for (std::uint32_t t = 0; t < round; ++t)
      gather_neighbor(model, partial[t], CellRead<Vars>{current, row[base + t]}, base + t);
  }
  return combine_partials(model, partial, threads);
}

// Entries [k_begin, k_end) of lanes [lo, hi) of an explicit slice whose entry k of lane i is
// cell_of(i, k). `masked`: some lane's list may end before k_end; its padding (the null cell)
// is gathered into a copy that is dropped, which costs less than a branch per lane.
template <bool masked, class Model, class CellOf>
CG_ALWAYS_INLINE void gather_columns(const Model& model, typename Model::Acc* acc,
                                     StateRef<typename Model::Vars> current, const std::uint32_t* degree,
                                     std::uint32_t lo, std::uint32_t hi, std::uint32_t k_begin, std::uint32_t k_end,
                                     CellOf&& cell_of) {
  using Vars = typename Model::Vars;
  Column<Vars, kSliceWidth> column;
  const StateRef<Vars> copied = column.ref();
  for (std::uint32_t k = k_begin; k < k_end; ++k) {
    copy_cells(current, copied, lo, hi, [&](std::uint32_t i) { return cell_of(i, k); });
    CG_LANES_INDEPENDENT
    for (std::uint32_t i = lo; i < hi; ++i) {
      typename Model::Acc folded = acc[i];
      gather_neighbor(model, folded, CellRead<Vars>{copied, i}, k);
      if (!masked || k < degree[i]) acc[i] = folded;
    }
  }
}

// Calls visit(cell_of) with cell_of(i, k), entry k of lane i of ordinary slice s in its
// encoding.
template <class Visit>
CG_ALWAYS_INLINE void with_entries(const Layout& L, std::uint32_t s, Visit&& visit) {
  const std::uint32_t v0 = s * kSliceWidth;
  const std::uint64_t begin = L.slice_begin[s];
  switch (L.encoding(s)) {
    case SliceEncoding::stencil: {
      const std::int32_t* offsets = L.stencil_offsets.data() + begin;
      visit([=](std::uint32_t i, std::uint32_t k) { return v0 + i + std::uint32_t(offsets[k]); });
      break;
    }
    case SliceEncoding::delta16: {
      const std::int16_t* deltas = L.deltas.data() + begin;
      const std::uint32_t null_cell = L.null_cell();
      visit([=](std::uint32_t i, std::uint32_t k) {
        return delta_cell(deltas[std::uint64_t(k) * kSliceWidth + i], v0 + i, null_cell);
      });
      break;
    }
    default: {
      const std::uint32_t* ids = L.neighbors.data() + begin;
      visit([=](std::uint32_t i, std::uint32_t k) { return ids[std::uint64_t(k) * kSliceWidth + i]; });
    }
  }
}

// One cell's next state from the tabulated rule: its two-state masks (born, survives), or its
// table of `counts` columns.
template <class State, class Count>
CG_ALWAYS_INLINE State two_state_next(std::uint16_t born, std::uint16_t survives, State state, Count count) {
  const std::uint16_t mask = state == 0 ? born : state == 1 ? survives : 0;
  return State((mask >> count) & 1u);
}
template <class State, class Count>
CG_ALWAYS_INLINE State table_next(const std::uint32_t* lookup, std::uint32_t counts, State state, Count count) {
  return State(lookup[std::uint32_t(state) * counts + count]);
}

// Lanes [lo, hi) of a slice's new states from the tabulated rule: state[i] with count[i].
template <class State, class Count>
CG_ALWAYS_INLINE void look_up(const RuleTable& table, const State* state, const Count* count, State* out,
                              std::uint32_t lo, std::uint32_t hi) {
  if (table.two_state) {
    const std::uint16_t born = table.born, survives = table.survives;
    CG_LANES_INDEPENDENT
    for (std::uint32_t i = lo; i < hi; ++i) out[i] = two_state_next(born, survives, state[i], count[i]);
    return;
  }
  const std::uint32_t* lookup = table.data();
  const std::uint32_t counts = table.counts;
  CG_LANES_INDEPENDENT
  for (std::uint32_t i = lo; i < hi; ++i) out[i] = table_next(lookup, counts, state[i], count[i]);
}

// update_slice() for a model whose fold counts signals (RuleTable::counts_signals): a byte of
// count a lane, then the table. `own`: the state from the slice's first cell.
template <class Model>
CG_ALWAYS_INLINE void update_counted_slice(const Layout& L, const Model& model, StateRef<typename Model::Vars> own,
                                           StateRef<typename Model::Vars> next, std::uint32_t s, std::uint32_t lo,
                                           std::uint32_t hi, const RuleTable& table) {
  using Vars = typename Model::Vars;
  const std::uint32_t v0 = s * kSliceWidth;
  const std::uint64_t begin = L.slice_begin[s];
  const std::uint32_t width = L.slice_width[s];
  const std::uint32_t* degree = L.degree.data() + v0;
  std::uint8_t count[kSliceWidth] = {};
  if (L.encoding(s) == SliceEncoding::stencil && lo == 0 && hi == kSliceWidth) {
    const std::int32_t* offsets = L.stencil_offsets.data() + begin;
    for (std::uint32_t k = 0; k < width; ++k) {
      const StateRef<Vars> column = state_from(own, offsets[k]);
      CG_LANES_INDEPENDENT
      for (std::uint32_t i = 0; i < kSliceWidth; ++i) count[i] += std::uint8_t(model.signal(CellRead<Vars>{column, i}));
    }
  } else {
    const StateRef<Vars> current = state_from(own, -std::int64_t(v0));
    Column<Vars, kSliceWidth> buffer;
    const StateRef<Vars> copied = buffer.ref();
    with_entries(L, s, [&](auto&& cell_of) {  // explicit, delta, or stencil lanes cut off by a range
      for (std::uint32_t k = 0; k < width; ++k) {
        copy_cells(current, copied, lo, hi, [&](std::uint32_t i) { return cell_of(i, k); });
        CG_LANES_INDEPENDENT
        for (std::uint32_t i = lo; i < hi; ++i)
          count[i] += std::uint8_t(k < degree[i] && model.signal(CellRead<Vars>{copied, i}));
      }
    });
  }
  look_up(table, own.template get<0>(), count, state_from(next, v0).template get<0>(), lo, hi);
}

// A run of whole stencil slices that share one stencil of K entries (the interior of a grid
// row), counted and looked up as one loop over its cells, which the compiler vectorizes across
// slices with the K columns' loads and the counts in registers. Slice by slice, the walk spent
// most of its time between slices: a 2048^2 Moore grid stepped 1.8x faster on two cores.
template <std::uint32_t K, class Model>
CG_ALWAYS_INLINE void update_stencil_run(const Model& model, StateRef<typename Model::Vars> own,
                                         typename Model::Vars::template type<0>* out, std::uint32_t cells,
                                         const std::int32_t* offsets, const RuleTable& table) {
  using Vars = typename Model::Vars;
  using State = typename Vars::template type<0>;
  StateRef<Vars> column[K];
  for (std::uint32_t k = 0; k < K; ++k) column[k] = state_from(own, offsets[k]);
  const State* self = own.template get<0>();
  if (table.two_state) {
    const std::uint16_t born = table.born, survives = table.survives;
    CG_LANES_INDEPENDENT
    for (std::uint32_t i = 0; i < cells; ++i) {
      std::uint8_t count = 0;
      for (std::uint32_t k = 0; k < K; ++k) count += std::uint8_t(model.signal(CellRead<Vars>{column[k], i}));
      out[i] = two_state_next(born, survives, self[i], count);
    }
  } else {
    const std::uint32_t* lookup = table.data();
    const std::uint32_t counts = table.counts;
    CG_LANES_INDEPENDENT
    for (std::uint32_t i = 0; i < cells; ++i) {
      std::uint32_t count = 0;
      for (std::uint32_t k = 0; k < K; ++k) count += std::uint32_t(model.signal(CellRead<Vars>{column[k], i}));
      out[i] = table_next(lookup, counts, self[i], count);
    }
  }
}

// The stencil widths update_stencil_run_of_width takes: von Neumann and Moore, 2D and 3D;
// hexagonal.
constexpr bool runs_stencil_width(std::uint32_t width) { return width == 4 || width == 6 || width == 8 || width == 26; }

// The slices from s on that form a run for update_stencil_run: whole, stencil-encoded, one
// stencil of a width it takes, ending before vertex `last`. Returns how many (0 where slice s
// starts none).
inline std::uint32_t stencil_run_length(const Layout& L, std::uint32_t s, std::uint32_t lo, std::uint32_t last) {
  if (lo != 0 || L.encoding(s) != SliceEncoding::stencil || !runs_stencil_width(L.slice_width[s])) return 0;
  std::uint32_t n = 0;
  const std::uint64_t begin = L.slice_begin[s];
  const std::uint32_t width = L.slice_width[s];
  while (s + n < L.num_slices() && (s + n + 1) * kSliceWidth <= last && L.encoding(s + n) == SliceEncoding::stencil &&
         L.slice_begin[s + n] == begin && L.slice_width[s + n] == width)
    ++n;
  return n;
}

// update_stencil_run for the run's width (runs_stencil_width).
template <class Model>
CG_ALWAYS_INLINE void update_stencil_run_of_width(const Layout& L, const Model& model,
                                                  StateRef<typename Model::Vars> current,
                                                  StateRef<typename Model::Vars> next, std::uint32_t s,
                                                  std::uint32_t slices, const RuleTable& table) {
  const std::uint32_t v0 = s * kSliceWidth, cells = slices * kSliceWidth;
  const std::int32_t* offsets = L.stencil_offsets.data() + L.slice_begin[s];
  const auto own = state_from(current, v0);
  auto* out = state_from(next, v0).template get<0>();
  switch (L.slice_width[s]) {
    case 4:
      return update_stencil_run<4>(model, own, out, cells, offsets, table);
    case 6:
      return update_stencil_run<6>(model, own, out, cells, offsets, table);
    case 8:
      return update_stencil_run<8>(model, own, out, cells, offsets, table);
    default:
      return update_stencil_run<26>(model, own, out, cells, offsets, table);
  }
}

// Lanes [lo, hi) of ordinary slice s (lane i is vertex 32 s + i), from `current` into `next`.
template <class Model>
CG_ALWAYS_INLINE void update_slice(const Layout& L, const Model& model, StateRef<typename Model::Vars> current,
                                   StateRef<typename Model::Vars> next, std::uint32_t s, std::uint32_t lo,
                                   std::uint32_t hi, const StepContext& step, const RuleTable& table) {
  using Vars = typename Model::Vars;
  const std::uint32_t v0 = s * kSliceWidth;
  const std::uint64_t begin = L.slice_begin[s];
  const std::uint32_t width = L.slice_width[s];
  const std::uint32_t* degree = L.degree.data() + v0;
  const StateRef<Vars> own = state_from(current, v0);
  if constexpr (Vars::count == 1 && HasSignal<Model>::value) {
    if (table.counts_signals && step.alpha >= 1.0) return update_counted_slice(L, model, own, next, s, lo, hi, table);
  }
  typename Model::Acc acc[kSliceWidth];
  for (std::uint32_t i = lo; i < hi; ++i) acc[i] = initial_fold(model, CellRead<Vars>{own, i});

  if (L.encoding(s) == SliceEncoding::stencil) {  // every lane has the full width
    const std::int32_t* offsets = L.stencil_offsets.data() + begin;
    if (lo == 0 && hi == kSliceWidth) {  // a whole slice: a known trip count keeps acc in registers
      for (std::uint32_t k = 0; k < width; ++k) {
        const StateRef<Vars> column = state_from(own, offsets[k]);
        CG_LANES_INDEPENDENT
        for (std::uint32_t i = 0; i < kSliceWidth; ++i) gather_neighbor(model, acc[i], CellRead<Vars>{column, i}, k);
      }
    } else {
      for (std::uint32_t k = 0; k < width; ++k) {
        const StateRef<Vars> column = state_from(own, offsets[k]);
        CG_LANES_INDEPENDENT
        for (std::uint32_t i = lo; i < hi; ++i) gather_neighbor(model, acc[i], CellRead<Vars>{column, i}, k);
      }
    }
  } else {
    // Every lane gathers the entries below the shortest list; the rest are masked by degree.
    std::uint32_t shortest = width;
    for (std::uint32_t i = lo; i < hi; ++i) shortest = std::min(shortest, degree[i]);
    with_entries(L, s, [&](auto&& cell_of) {
      gather_columns<false>(model, acc, current, degree, lo, hi, 0, shortest, cell_of);
      gather_columns<true>(model, acc, current, degree, lo, hi, shortest, width, cell_of);
    });
  }

  if constexpr (Vars::count == 1) {
    if (table.data() && step.alpha >= 1.0)  // every cell updates: look the new states up
      return look_up(table, own.template get<0>(), acc, state_from(next, v0).template get<0>(), lo, hi);
  }
  // Stores of one-byte states may alias anything: what the loop reads is copied out first, so
  // that it stays in registers.
  const Model rule = model;
  const StepContext context = step;
  const std::uint32_t* user_ids = L.local_to_user.data() + v0;
  const StateRef<Vars> out_state = state_from(next, v0);
  for (std::uint32_t i = lo; i < hi; ++i) {
    const CellRead<Vars> self{own, i};
    CellWrite<Vars> out{out_state, i};
    const std::uint32_t user = user_ids[i];
    if (!updates_this_step(context.alpha, context.seed, user, context.step)) keep_cell(self, out);
    else rule.apply(self, acc[i], out, CellContext{context.seed, context.step, user, degree[i]});
  }
}

// Vertices [first, last) of ordinary slices: a run of stencil slices at a time where one starts, else
// one slice.
template <class Model>
CG_ALWAYS_INLINE void update_slices(const Layout& L, const Model& model, StateRef<typename Model::Vars> current,
                                    StateRef<typename Model::Vars> next, const StepContext& step, std::uint32_t first,
                                    std::uint32_t last, const RuleTable& table) {
  using Vars = typename Model::Vars;
  bool counted = false;  // whether stencil runs apply: the rule counts signals, every cell updates
  if constexpr (Vars::count == 1 && HasSignal<Model>::value) counted = table.counts_signals && step.alpha >= 1.0;
  for (std::uint32_t s = first / kSliceWidth; s * kSliceWidth < last; ++s) {
    const std::uint32_t v0 = s * kSliceWidth, lo = std::max(first, v0) - v0;
    if constexpr (Vars::count == 1 && HasSignal<Model>::value) {
      const std::uint32_t run = counted ? stencil_run_length(L, s, lo, last) : 0;
      if (run > 1) {
        update_stencil_run_of_width(L, model, current, next, s, run, table);
        s += run - 1;
        continue;
      }
    }
    update_slice(L, model, current, next, s, lo, std::min(last, v0 + kSliceWidth) - v0, step, table);
  }
}

// The same walk compiled for each instruction set (vector_isa.hpp).
template <class Model>
CG_TARGET_AVX512 void update_slices_avx512(const Layout& L, const Model& model, StateRef<typename Model::Vars> current,
                                           StateRef<typename Model::Vars> next, const StepContext& step,
                                           std::uint32_t first, std::uint32_t last, const RuleTable& table) {
  update_slices(L, model, current, next, step, first, last, table);
}
template <class Model>
CG_TARGET_AVX2 void update_slices_avx2(const Layout& L, const Model& model, StateRef<typename Model::Vars> current,
                                       StateRef<typename Model::Vars> next, const StepContext& step,
                                       std::uint32_t first, std::uint32_t last, const RuleTable& table) {
  update_slices(L, model, current, next, step, first, last, table);
}
template <class Model>
CG_LANE_LOOPS void update_slices_portable(const Layout& L, const Model& model, StateRef<typename Model::Vars> current,
                                          StateRef<typename Model::Vars> next, const StepContext& step,
                                          std::uint32_t first, std::uint32_t last, const RuleTable& table) {
  update_slices(L, model, current, next, step, first, last, table);
}

// Hub v, from `current` into `next`.
template <class Model>
void update_hub(const Layout& L, const Model& model, StateRef<typename Model::Vars> current,
                StateRef<typename Model::Vars> next, const StepContext& step, std::uint32_t v) {
  const CellRead<typename Model::Vars> self{current, v};
  CellWrite<typename Model::Vars> out{next, v};
  const std::uint32_t user = L.local_to_user[v];
  if (!updates_this_step(step.alpha, step.seed, user, step.step)) return keep_cell(self, out);
  model.apply(self, fold_hub_in_rounds(L, model, current, v), out,
              CellContext{step.seed, step.step, user, L.degree[v]});
}

// Slices a thread takes at a time (8192 vertices): fewer, and a 2048^2 grid stepped slower on two
// threads than on one, the threads waiting on the schedule.
inline constexpr std::uint32_t kSlicesPerChunk = 256;

// A synchronous (or alpha-asynchronous) step of vertices [first, last), as sweep() does.
// `table`: the model's rule tabulated (tabulate_rule), or empty.
template <class Model>
void sweep_slices(const Layout& L, const Model& model, StateRef<typename Model::Vars> current,
                  StateRef<typename Model::Vars> next, const StepContext& step, int threads, std::int64_t first,
                  std::int64_t last, const RuleTable& table) {
  const std::int64_t hubs_end = std::clamp<std::int64_t>(L.num_hub_vertices(), first, last);
  const VectorIsa isa = vector_isa();
  const std::int64_t chunk = std::int64_t(kSlicesPerChunk) * kSliceWidth;
  const std::int64_t aligned = hubs_end - hubs_end % kSliceWidth;  // chunks split no slice
  const std::int64_t chunks = (last - aligned + chunk - 1) / chunk;
  // One parallel region: a thread done with hubs goes on to slices without waiting.
#pragma omp parallel num_threads(threads) if (last - first >= kParallelMinimum || hubs_end - first >= 64)
  {
    // Hubs 64 at a time: R-MAT scale 18 stepped 1.6x faster on two threads than with one a
    // time, whose scheduling cost more than the smaller hubs' folds.
#pragma omp for schedule(dynamic, 64) nowait
    for (std::int64_t v = first; v < hubs_end; ++v) update_hub(L, model, current, next, step, std::uint32_t(v));
#pragma omp for schedule(dynamic, 1)
    for (std::int64_t c = 0; c < chunks; ++c) {
      const auto lo = std::uint32_t(std::max(hubs_end, aligned + c * chunk));
      const auto hi = std::uint32_t(std::min(last, aligned + (c + 1) * chunk));
      if (lo >= hi) continue;
      switch (isa) {
        case VectorIsa::avx512:
          update_slices_avx512(L, model, current, next, step, lo, hi, table);
          break;
        case VectorIsa::avx2:
          update_slices_avx2(L, model, current, next, step, lo, hi, table);
          break;
        default:
          update_slices_portable(L, model, current, next, step, lo, hi, table);
      }
    }
  }
}

}  // namespace cellgraph::cpu
