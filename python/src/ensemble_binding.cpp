// cellgraph.Ensemble: replicas and parameter sweeps of one model on one compiled graph
// (ensemble.hpp), run by the library's RunDriver; statistics come back in long form, a row per
// member and step.
#include <pybind11/stl.h>

#include <optional>

#include "cellgraph/ensemble.hpp"
#include "cellgraph/error.hpp"
#include "cellgraph/output/file_plan.hpp"
#include "cellgraph/output/progress.hpp"
#include "cellgraph/run/ensemble_writers.hpp"
#include "cellgraph/run/writers.hpp"
#include "python/src/bindings.hpp"

namespace cellgraph::python {
namespace {

using Sweep = std::vector<std::pair<std::string, std::vector<std::string>>>;

// Every member's census and observables every `every` steps, at the first step and the last.
class EnsembleCollector final : public RunWriter {
 public:
  EnsembleCollector(const Ensemble& ensemble, std::uint64_t every) : ensemble_(ensemble), every_(every) {
    if (every == 0) throw Error("stats_every must be at least 1");
  }
  Trigger trigger() const override { return {every_, true, true}; }
  void write(std::uint64_t step, StepCache&) override {
    if (!steps.empty() && steps.back() == step) return;
    steps.push_back(step);
    for (std::uint32_t m = 0; m < ensemble_.members(); ++m) {
      for (std::uint64_t count : ensemble_.census(m)) census.push_back(std::int64_t(count));
      for (double value : ensemble_.observables(m)) observables.push_back(value);
    }
  }
  void finish_stopped(std::uint64_t, StepCache&, StoppedOutputs&) override {}

  std::vector<std::uint64_t> steps;
  std::vector<std::int64_t> census;  // [step][member][state]
  std::vector<double> observables;   // [step][member][observable]

 private:
  const Ensemble& ensemble_;
  std::uint64_t every_;
};

class PyEnsemble {
 public:
  PyEnsemble(py::object graph, const py::object& model, const models::Params& params, const Sweep& sweep,
             std::uint32_t replicas, std::uint64_t seed, const std::string& backend, const py::object& update,
             int threads, const std::string& order, const std::string& index_encoding)
      : graph_object_(std::move(graph)), graph_(graph_object_.cast<GraphHandle>()) {
    setup_ = model_setup(graph_, model, params, seed, backend, update, threads, order, index_encoding);
    if (!setup_.model->make_ensemble) throw Error("model " + setup_.model->name + " does not run as an ensemble");
    if (replicas == 0) throw Error("replicas must be at least 1");
    std::vector<models::Params> points{setup_.params};
    sweep_.values = {{}};
    std::uint64_t members = replicas;
    for (const auto& [name, values] : sweep) {
      if (values.empty()) throw Error("the sweep of " + name + " has no values");
      if (params.count(name)) throw Error("the sweep and params both set " + name);
      members *= values.size();
      if (members > 0xFFFFFFFFull) throw Error("replicas x the sweep points is more than 2^32 members");
      sweep_.names.push_back(name);
      std::vector<models::Params> next;
      std::vector<std::vector<std::string>> columns;
      for (std::size_t p = 0; p < points.size(); ++p)
        for (const std::string& value : values) {
          next.push_back(points[p]);
          next.back()[name] = value;
          columns.push_back(sweep_.values[p]);
          columns.back().push_back(value);
        }
      points = std::move(next);
      sweep_.values = std::move(columns);
    }
    points_ = points;
    {
      py::gil_scoped_release released;
      auto layout = std::make_shared<const Layout>(compile(source().graph, setup_.compile));
      ensemble_ = setup_.model->make_ensemble(points_, replicas, std::move(layout), setup_.options);
    }
    const Source& s = source();
    const std::vector<std::uint32_t> initial =
        s.pattern ? place_pattern(*s.pattern, *s.grid) : std::vector<std::uint32_t>(s.graph.num_vertices(), 0);
    for (std::uint32_t m = 0; m < ensemble_->members(); ++m) start(m, initial);
  }

  void set_state(const py::array& states, const std::optional<std::uint32_t>& member) {
    const std::vector<std::uint32_t> cells =
        cell_states(states, source().graph.num_vertices(), ensemble_->num_states());
    if (member) start(checked(*member), cells);
    else
      for (std::uint32_t m = 0; m < ensemble_->members(); ++m) start(m, cells);
  }

  // Each member's own draw, keyed by its seed: the start of the plain run with that seed.
  void fill(const std::optional<double>& density, const std::optional<std::uint64_t>& count) {
    if (density.has_value() == count.has_value()) throw Error("fill takes one of density and count");
    const std::uint32_t n = source().graph.num_vertices();
    for (std::uint32_t m = 0; m < ensemble_->members(); ++m) {
      const std::uint64_t seed = ensemble_->seed(m);
      start(m, density ? random_fill(n, *density, seed) : random_fill_count(n, *count, seed));
    }
  }

  py::dict run(std::uint64_t steps, std::uint64_t stats_every, const std::optional<Path>& stats_csv,
               const std::optional<Path>& summary_csv, bool progress) {
    const std::uint64_t last = ensemble_->step() + steps;
    if (steps > kMaxSteps || last > kMaxSteps)
      throw Error("an ensemble runs to step " + std::to_string(kMaxSteps) + " at most; it is at step " +
                  std::to_string(ensemble_->step()));
    FilePlan plan;
    if (stats_csv) plan.writes(stats_csv->string(), "stats_csv");
    if (summary_csv) plan.writes(summary_csv->string(), "summary_csv");
    plan.check();
    RunDriver driver(*ensemble_);
    if (stats_csv || summary_csv)
      driver.add(std::make_unique<EnsembleStatsWriter>(stats_csv.value_or("").string(),
                                                       summary_csv.value_or("").string(), *ensemble_, sweep_,
                                                       stats_every, setup_.model->state_names));
    auto& stats =
        static_cast<EnsembleCollector&>(driver.add(std::make_unique<EnsembleCollector>(*ensemble_, stats_every)));
    Progress shown(progress ? Progress::Mode::lines : Progress::Mode::off, last,
                   std::uint64_t(source().graph.num_vertices()) * ensemble_->members());
    driver.show_progress(shown);
    run_interruptibly(driver, last);
    return stats_dict(stats);
  }

  py::dict point_params(std::uint32_t point) const {
    if (point >= points_.size())
      throw Error("point " + std::to_string(point) + ": the ensemble has " + std::to_string(points_.size()));
    py::dict out;
    for (const auto& [name, value] : points_[point]) out[py::str(name)] = value;
    return out;
  }

  std::uint32_t checked(std::uint32_t member) const {
    if (member >= ensemble_->members())
      throw Error("member " + std::to_string(member) + ": the ensemble has " + std::to_string(ensemble_->members()) +
                  " members (0 to " + std::to_string(ensemble_->members() - 1) + ")");
    return member;
  }

  const Ensemble& ensemble() const { return *ensemble_; }
  const models::ModelInfo& model() const { return *setup_.model; }
  const py::object& graph() const { return graph_object_; }
  const std::vector<std::string>& swept() const { return sweep_.names; }

 private:
  const Source& source() const { return *graph_.source; }

  void start(std::uint32_t m, const std::vector<std::uint32_t>& states) {
    if (setup_.model->initial_variables)
      ensemble_->import_state(
          m, setup_.model->initial_variables(points_[m / ensemble_->replicas()], states, ensemble_->seed(m)));
    else ensemble_->set_states(m, states);
  }

  // Long form: a row per step and member (members fastest), as the --stats CSV of an ensemble.
  py::dict stats_dict(const EnsembleCollector& stats) const {
    const Ensemble& e = *ensemble_;
    const std::size_t members = e.members(), rows = stats.steps.size() * members;
    py::dict out;
    for (std::size_t k = 0; k < sweep_.names.size(); ++k) {
      py::list column;
      for (std::size_t r = 0; r < rows; ++r) column.append(sweep_.values[(r % members) / e.replicas()][k]);
      out[py::str(sweep_.names[k])] = column;
    }
    const auto whole_column = [&](auto value_of) {
      auto column = empty_array<std::uint64_t>(rows);
      for (std::size_t r = 0; r < rows; ++r) column.mutable_data()[r] = value_of(r);
      return column;
    };
    out["point"] = whole_column([&](std::size_t r) { return (r % members) / e.replicas(); });
    out["replica"] = whole_column([&](std::size_t r) { return (r % members) % e.replicas(); });
    out["seed"] = whole_column([&](std::size_t r) { return e.seed(std::uint32_t(r % members)); });
    out["step"] = whole_column([&](std::size_t r) { return stats.steps[r / members]; });
    const std::vector<std::string> columns = census_columns(EnsembleMember(*ensemble_, 0), model().state_names);
    add_stats_columns(out, columns, rows, stats.census, stats.observables);
    return out;
  }

  py::object graph_object_;
  GraphHandle graph_;
  ModelSetup setup_;
  std::vector<models::Params> points_;
  SweepColumns sweep_;
  std::unique_ptr<Ensemble> ensemble_;
};

}  // namespace

void bind_ensemble(py::module_& m) {
  py::class_<PyEnsemble>(m, "Ensemble", R"(Replicas and parameter sweeps of one model on one graph.

Ensemble(graph, model=None, params=None, sweep=None, replicas=1, seed=1, backend="cpu", ...):
sweep maps parameter names to lists of values (the product of them, the last varying
fastest), each point run by `replicas` members. Member m = point x replicas + replica draws
from its own seed, seed(m): it is the plain Simulation with that seed and the point's
parameters, bit for bit, on either backend.)")
      .def(py::init<py::object, const py::object&, const models::Params&, const Sweep&, std::uint32_t, std::uint64_t,
                    const std::string&, const py::object&, int, const std::string&, const std::string&>(),
           py::arg("graph"), py::arg("model") = py::none(), py::arg("params") = models::Params{},
           py::arg("sweep") = Sweep{}, py::arg("replicas") = 1, py::arg("seed") = 1, py::arg("backend") = "cpu",
           py::arg("update") = py::none(), py::arg("threads") = 0, py::arg("order") = "input",
           py::arg("index_encoding") = "auto")
      .def("fill", &PyEnsemble::fill, py::kw_only(), py::arg("density") = py::none(), py::arg("count") = py::none(),
           "Each member's random start from its own seed: each cell in state 1 with this probability, or exactly "
           "`count` cells.")
      .def("set_state", &PyEnsemble::set_state, py::arg("states"), py::arg("member") = py::none(),
           "Variable 0 of every vertex for one member, or for all (member None).")
      .def(
          "state", [](const PyEnsemble& e, std::uint32_t m) { return to_array(e.ensemble().states(e.checked(m))); },
          py::arg("member"))
      .def(
          "census",
          [](const PyEnsemble& e, std::uint32_t m) {
            const std::vector<std::uint64_t> counts = e.ensemble().census(e.checked(m));
            auto out = empty_array<std::int64_t>(counts.size());
            std::copy(counts.begin(), counts.end(), out.mutable_data());
            return out;
          },
          py::arg("member"))
      .def(
          "seed", [](const PyEnsemble& e, std::uint32_t m) { return e.ensemble().seed(e.checked(m)); },
          py::arg("member"), "The seed member m draws from (the plain run's --seed that equals it).")
      .def("point_params", &PyEnsemble::point_params, py::arg("point"), "The parameters of sweep point p.")
      .def("run", &PyEnsemble::run, py::arg("steps"), py::kw_only(), py::arg("stats_every") = 1,
           py::arg("stats_csv") = py::none(), py::arg("summary_csv") = py::none(), py::arg("progress") = false,
           R"(Runs `steps` more steps; returns every member's statistics in long form: the swept
parameters (as given), point, replica, seed, step and the model's columns, a row per step and
member. stats_csv and summary_csv write the files `cellgraph run --stats --summary` writes.)")
      .def_property_readonly("members", [](const PyEnsemble& e) { return e.ensemble().members(); })
      .def_property_readonly("points", [](const PyEnsemble& e) { return e.ensemble().points(); })
      .def_property_readonly("replicas", [](const PyEnsemble& e) { return e.ensemble().replicas(); })
      .def_property_readonly("step", [](const PyEnsemble& e) { return e.ensemble().step(); })
      .def_property_readonly("swept", &PyEnsemble::swept, "The swept parameters' names.")
      .def_property_readonly("model", [](const PyEnsemble& e) { return e.model().name; })
      .def_property_readonly("graph", &PyEnsemble::graph)
      .def("__repr__", [](const PyEnsemble& e) {
        return "<cellgraph.Ensemble " + e.model().name + ", " + std::to_string(e.ensemble().points()) + " points x " +
               std::to_string(e.ensemble().replicas()) + " replicas, step " + std::to_string(e.ensemble().step()) + ">";
      });
}

}  // namespace cellgraph::python
