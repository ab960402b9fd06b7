// The model concept. A model's rule is written once, as CG_HD code, and every backend compiles
// it. A model is a small struct of parameters with:
//
//   using Vars = Variables<T0, T1, ...>;   // state variables, one struct-of-arrays array each
//   using Acc = ...;                       // what the neighbors fold into
//   Acc init() const;                      // or Acc init(const CellRead<Vars>& self) const
//   void gather(Acc&, const CellRead<Vars>& neighbor, std::uint32_t slot) const;
//   void combine(Acc&, const Acc&) const;  // merges partial folds (hubs walked by a warp)
//   void apply(const CellRead<Vars>& self, const Acc&, CellWrite<Vars>& out,
//              const CellContext&) const;   // must write every variable of `out`
//   std::uint32_t num_states() const;      // states of variable 0, for censuses and images
//
// Optional, for quantities measured over all cells (Ising: magnetization and energy). Terms are
// integers so that the sums are exact in any order, on any backend:
//   static constexpr int num_observables = K;
//   void observe(const CellRead<Vars>& self, const Acc&, std::int64_t* terms) const;  // adds
//   std::vector<std::string> observable_names() const;                             // K names
//   std::vector<double> observable_values(const std::int64_t* sums, std::uint64_t vertices) const;
//
// Optional, for a rule looked up in a large read-only table (Golly rule trees):
//   using TableEntry = T;
//   TableRef<T> table;                     // where apply() etc. read the table
// The model is built pointing at host memory, which its maker keeps alive with
// Simulation::hold. Backends that run elsewhere copy the table there and point their copy of
// the model at the copy (the CUDA backend: src/backend/cuda/model_table.cuh).
//
// Optional, for a model whose neighbors count only through one bit of their state (Life: live
// or not). It writes its gather over that bit instead of over the neighbor's cell:
//   bool signal(const CellRead<Vars>& cell) const;              // the bit a cell shows
//   void gather(Acc&, bool signal, std::uint32_t slot) const;
// Backends call it through gather_neighbor(). The CUDA backend then keeps every cell's bit
// packed 32 to a word beside the state and gathers from the words: a cache sector holds 256
// cells' bits against 32 cells' bytes, which is what a gather-bound step on a large irregular
// graph is short of.
//
// Optional, for a model of one variable whose Acc is a count (an unsigned integer no larger
// than the number of neighbors gathered) and whose apply() is then a function of the cell's
// state and that count alone (an outer totalistic rule: Life):
//   bool outer_totalistic() const;  // true when apply() draws no random number and reads
//                                   // nothing of the context
// The fast CPU backend then tabulates apply() over (state, count) once and looks the new
// states up for a slice's lanes at a time.
//
// A model that needs the cell's own state while it folds (pair forces need the cell's own
// position) defines init(self) instead of init(): the backends call it through
// initial_fold(). A hub's partial folds are each initialised from the same self, so combine()
// must merge them keeping what came from self once (add what the neighbors gave; copy self's
// part, do not add it).
//
// gather() is called once per neighbor, never for padding, with the neighbor's slot (for
// grids, slot k = stencil offset k). An ordinary vertex gathers in list order into one Acc; a
// hub (a vertex of very high degree) gathers into 32 or 256 partial Accs (thread t takes slots
// t, t + T, ...) merged with combine() in a fixed tree order that every backend follows, so
// results are bit-identical even for floating-point folds. Acc must be trivially copyable
// (warps shuffle it).
//
// Updates: synchronous steps read the current buffer and write the next one; colored
// (asynchronous) steps update one color class at a time in place, so apply() must read every
// variable of `self` before it writes any of `out`. Random numbers come from
// CellContext::random(), keyed by (seed, user id, step): never from anything else.
#pragma once
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "cellgraph/aligned.hpp"
#include "cellgraph/hd.hpp"
#include "cellgraph/philox.hpp"

namespace cellgraph {

template <class... T>
struct Variables {
  static constexpr int count = sizeof...(T);
  template <int I>
  using type = std::tuple_element_t<I, std::tuple<T...>>;
  using Arrays = std::tuple<AlignedArray<T>...>;  // host storage of one buffer
};

// Raw pointers to the arrays of one buffer: all a kernel needs to reach the state.
template <class Vars>
struct StateRef {
  void* var[Vars::count];
  template <int I>
  CG_HD typename Vars::template type<I>* get() const {
    return static_cast<typename Vars::template type<I>*>(var[I]);
  }
};

template <class Vars>
struct CellRead {
  StateRef<Vars> state;
  std::uint32_t index;
};

template <class Vars>
struct CellWrite {
  StateRef<Vars> state;
  std::uint32_t index;
};

template <int I, class Vars>
CG_HD inline typename Vars::template type<I> get(const CellRead<Vars>& c) {
  return c.state.template get<I>()[c.index];
}

template <int I, class Vars>
CG_HD inline void set(CellWrite<Vars>& c, typename Vars::template type<I> value) {
  c.state.template get<I>()[c.index] = value;
}

// A read-only table a model looks things up in: kernels take the model by value, so the table
// itself stays outside it.
template <class T>
struct TableRef {
  const T* data = nullptr;
  std::uint64_t size = 0;
  CG_HD const T& operator[](std::uint64_t i) const { return data[i]; }
};

// What a cell's update may know beyond its neighborhood. vertex() is the user's (global) id,
// the same on every backend and partitioning: random numbers are keyed by it.
class CellContext {
 public:
  CellContext() = default;
  CG_HD CellContext(std::uint64_t seed, std::uint32_t step, std::uint32_t vertex, std::uint32_t degree)
      : seed_(seed), step_(step), vertex_(vertex), degree_(degree) {}
  // The step (*step_counter + step_offset) and the user id (*user_id) read where they are used:
  // a model that draws nothing (Life) then never loads them. Loaded up front, a GPU Life step
  // read 4 more bytes a cell (38 instead of 34) and ran 11% slower on an H200.
  // Without user_id (a layout in the user's order), `vertex` is the user id.
  CG_HD static CellContext deferred(std::uint64_t seed, const std::uint32_t* step_counter, std::uint32_t step_offset,
                                    const std::uint32_t* user_id, std::uint32_t degree, std::uint32_t vertex = 0) {
    CellContext c(seed, step_offset, vertex, degree);
    c.step_counter_ = step_counter;
    c.user_id_ = user_id;
    return c;
  }

  CG_HD std::uint64_t seed() const { return seed_; }
  CG_HD std::uint32_t step() const { return step_counter_ ? *step_counter_ + step_ : step_; }
  CG_HD std::uint32_t vertex() const { return user_id_ ? *user_id_ : vertex_; }
  CG_HD std::uint32_t degree() const { return degree_; }  // neighbors gathered

  // This update's own random sequence, the same on every backend.
  CG_HD CellRandom random() const { return CellRandom(seed_, vertex(), step(), RandomStream::model); }

 private:
  std::uint64_t seed_ = 0;
  std::uint32_t step_ = 0, vertex_ = 0, degree_ = 0;
  const std::uint32_t* step_counter_ = nullptr;
  const std::uint32_t* user_id_ = nullptr;
};

// The fold's starting value: model.init(self) where the model defines it, else model.init().
template <class Model, class = void>
struct InitsFromSelf : std::false_type {};
template <class Model>
struct InitsFromSelf<Model, std::void_t<decltype(std::declval<const Model&>().init(
                                std::declval<const CellRead<typename Model::Vars>&>()))>> : std::true_type {};

template <class Model>
CG_HD inline typename Model::Acc initial_fold(const Model& model, const CellRead<typename Model::Vars>& self) {
  if constexpr (InitsFromSelf<Model>::value) {
    return model.init(self);
  } else {
    (void)self;
    return model.init();
  }
}

// Optional: CG_HD bool active(const CellRead<Vars>& self) const, false only for a cell that a
// step leaves exactly as it is (every variable) while no cell of the graph is active. A
// realization with no active cell is then finished: nothing in it changes again, and an
// ensemble stops updating it (SIR with no infected cell).
template <class Model, class = void>
struct HasActive : std::false_type {};
template <class Model>
struct HasActive<Model, std::void_t<decltype(std::declval<const Model&>().active(
                            std::declval<const CellRead<typename Model::Vars>&>()))>> : std::true_type {};

// Whether the model gathers over a one-bit signal (above).
template <class Model, class = void>
struct HasSignal : std::false_type {};
template <class Model>
struct HasSignal<Model, std::void_t<decltype(std::declval<const Model&>().signal(
                            std::declval<const CellRead<typename Model::Vars>&>()))>> : std::true_type {};

// Whether the model can say its rule is outer totalistic (above).
template <class Model, class = void>
struct HasOuterTotalistic : std::false_type {};
template <class Model>
struct HasOuterTotalistic<Model, std::void_t<decltype(std::declval<const Model&>().outer_totalistic())>>
    : std::bool_constant<Model::Vars::count == 1 && std::is_integral_v<typename Model::Acc> &&
                         std::is_unsigned_v<typename Model::Acc>> {};

// One neighbor's gather, through its signal where the model has one.
template <class Model>
CG_HD inline void gather_neighbor(const Model& model, typename Model::Acc& acc,
                                  const CellRead<typename Model::Vars>& neighbor, std::uint32_t slot) {
  if constexpr (HasSignal<Model>::value) model.gather(acc, bool(model.signal(neighbor)), slot);
  else model.gather(acc, neighbor, slot);
}

}  // namespace cellgraph
