// An ensemble: many realizations of one model on one compiled layout, in the members of a
// parameter sweep (P points, each a model built from its own parameters) times R replicas.
// Member m = point * R + replica. The layout is compiled once and its neighbor lists are read
// once a step for all members: each cell's members lie side by side in every state variable
// (element cell * members + m), so a neighbor's index, read once, reaches every member's copy
// of that neighbor in one or two cache lines.
//
// A member draws its random numbers, initial fill included, from member_seed(seed, point,
// replica): it equals, bit for bit, a plain Simulation of its point's model run with that seed.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cellgraph/error.hpp"
#include "cellgraph/layout.hpp"
#include "cellgraph/philox.hpp"
#include "cellgraph/simulation.hpp"

namespace cellgraph {

// The seed of replica `replica` of sweep point `point`: the first two words of Philox4x32-10
// keyed by the run's seed, at counter (point, replica, 5, 0), low word first.
inline std::uint64_t member_seed(std::uint64_t seed, std::uint32_t point, std::uint32_t replica) {
  const Philox4x32 w = random_words(seed, point, replica, RandomStream::ensemble_member);
  return (std::uint64_t(w.v[1]) << 32) | w.v[0];
}

class Ensemble {
 public:
  virtual ~Ensemble() = default;
  virtual std::string backend_name() const = 0;
  virtual const Layout& layout() const = 0;
  virtual std::uint32_t points() const = 0;
  virtual std::uint32_t replicas() const = 0;
  std::uint32_t members() const { return points() * replicas(); }
  virtual std::uint64_t seed(std::uint32_t member) const = 0;  // member_seed of its point and replica
  virtual std::uint32_t num_states() const = 0;
  // Members whose states share one stored word while they are stepped: 64 where the bits of a
  // two-state rule's members are packed (multi-spin coding), else 1 (each member its own copy of
  // every variable, a cell's copies side by side).
  virtual std::uint32_t members_per_word() const { return 1; }

  virtual void advance(std::uint64_t steps) = 0;
  virtual std::uint64_t step() const = 0;
  // Members found finished (no active cell, model.hpp's HasActive) that steps no longer update.
  virtual std::uint32_t finished_members() const { return 0; }

  // What Simulation gives of one realization (simulation.hpp), for member m.
  virtual std::vector<std::uint64_t> census(std::uint32_t member) const = 0;
  virtual std::vector<std::uint32_t> states(std::uint32_t member) const = 0;
  virtual void set_states(std::uint32_t member, const std::vector<std::uint32_t>& user_order) = 0;
  virtual std::vector<std::string> observable_names() const = 0;
  virtual std::vector<double> observables(std::uint32_t member) const = 0;
  // The same in two halves, so that the parts of a partitioned ensemble can add their sums
  // (Simulation::observable_sums, observable_values).
  virtual std::vector<std::int64_t> observable_sums(std::uint32_t member) const = 0;
  virtual std::vector<double> observable_values(std::uint32_t member, const std::vector<std::int64_t>& sums,
                                                std::uint64_t vertices) const = 0;
  // Every member's census and observables at once, member after member: what a statistics row
  // reads, in one call (a partitioned ensemble adds its parts' in one collective).
  virtual std::vector<std::vector<std::uint64_t>> all_censuses() const {
    std::vector<std::vector<std::uint64_t>> all;
    for (std::uint32_t m = 0; m < members(); ++m) all.push_back(census(m));
    return all;
  }
  virtual std::vector<std::vector<std::int64_t>> all_observable_sums() const {
    std::vector<std::vector<std::int64_t>> all;
    for (std::uint32_t m = 0; m < members(); ++m) all.push_back(observable_sums(m));
    return all;
  }
  virtual std::vector<std::vector<double>> all_observables() const {
    std::vector<std::vector<double>> all;
    for (std::uint32_t m = 0; m < members(); ++m) all.push_back(observables(m));
    return all;
  }
  virtual std::vector<std::vector<std::uint8_t>> export_state(std::uint32_t member) const = 0;
  virtual std::vector<std::uint32_t> variable_widths() const = 0;
  virtual void import_state(std::uint32_t member, const std::vector<std::vector<std::uint8_t>>& variables) = 0;
  // Continues from `step` (a checkpoint's), once every member's state is imported.
  virtual void resume_at(std::uint64_t step) = 0;

  // Keeps `resource` alive as long as the ensemble (Simulation::hold).
  void hold(std::shared_ptr<const void> resource) { held_.push_back(std::move(resource)); }

 private:
  std::vector<std::shared_ptr<const void>> held_;
};

// How an ensemble's members are stored while they are stepped, in words.
inline std::string member_layout(const Ensemble& e) {
  return e.members_per_word() > 1
             ? "members packed " + std::to_string(e.members_per_word()) + " to a word (multi-spin coding)"
             : "each member its own states";
}

// One member seen as a Simulation, for the writers of one realization (final states, pictures,
// snapshots). It cannot be advanced on its own: the ensemble advances as a whole.
class EnsembleMember final : public Simulation {
 public:
  EnsembleMember(Ensemble& ensemble, std::uint32_t member) : e_(ensemble), m_(member) {
    if (member >= ensemble.members())
      throw Error("member " + std::to_string(member) + " of an ensemble of " + std::to_string(ensemble.members()));
  }
  std::string backend_name() const override { return e_.backend_name(); }
  const Layout& layout() const override { return e_.layout(); }
  std::uint32_t num_states() const override { return e_.num_states(); }
  void advance(std::uint64_t) override { throw Error("an ensemble's member advances with its ensemble"); }
  std::uint64_t step() const override { return e_.step(); }
  std::vector<std::uint64_t> census() const override { return e_.census(m_); }
  std::vector<std::uint32_t> states() const override { return e_.states(m_); }
  void set_states(const std::vector<std::uint32_t>& user_order) override { e_.set_states(m_, user_order); }
  std::vector<std::string> observable_names() const override { return e_.observable_names(); }
  std::vector<double> observables() const override { return e_.observables(m_); }
  std::vector<std::int64_t> observable_sums() const override { return e_.observable_sums(m_); }
  std::vector<double> observable_values(const std::vector<std::int64_t>& sums, std::uint64_t vertices) const override {
    return e_.observable_values(m_, sums, vertices);
  }
  std::vector<std::vector<std::uint8_t>> export_state() const override { return e_.export_state(m_); }
  std::vector<std::uint32_t> variable_widths() const override { return e_.variable_widths(); }
  void import_state(const std::vector<std::vector<std::uint8_t>>& variables, std::uint64_t step) override {
    if (step != e_.step()) throw Error("an ensemble's member takes states at its ensemble's step only");
    e_.import_state(m_, variables);
  }

 private:
  Ensemble& e_;
  std::uint32_t m_;
};

}  // namespace cellgraph
