// cellgraph.Simulation: one model on one graph and backend, run by the library's RunDriver with
// the library's writers; states cross in the graph's vertex order.
#include <pybind11/stl.h>

#include <optional>

#include "cellgraph/error.hpp"
#include "cellgraph/output/checkpoint.hpp"
#include "cellgraph/output/file_plan.hpp"
#include "cellgraph/output/progress.hpp"
#include "cellgraph/run/writers.hpp"
#include "python/src/bindings.hpp"

namespace cellgraph::python {
namespace {

// Every `every` steps, at the first step and at the last: the census by state and the
// observables, kept for the caller.
class StatsCollector final : public RunWriter {
 public:
  StatsCollector(const Simulation& sim, std::uint64_t every) : sim_(sim), every_(every) {
    if (every == 0) throw Error("stats_every must be at least 1");
  }
  Trigger trigger() const override { return {every_, true, true}; }
  void write(std::uint64_t step, StepCache& cache) override {
    if (!steps.empty() && steps.back() == step) return;
    steps.push_back(step);
    for (const StatsWriter::Value& value : shared_census_row(sim_, cache)) {  // shared with stats_csv's writer
      if (const auto* count = std::get_if<std::uint64_t>(&value)) census.push_back(std::int64_t(*count));
      else observables.push_back(std::get<double>(value));
    }
  }
  void finish_stopped(std::uint64_t, StepCache&, StoppedOutputs&) override {}

  std::vector<std::uint64_t> steps;
  std::vector<std::int64_t> census;  // row-major: a row per step
  std::vector<double> observables;

 private:
  const Simulation& sim_;
  std::uint64_t every_;
};

// The files run() may write, by keyword.
struct RunOutputs {
  std::optional<std::string> stats_csv, png, gif, frames, vtk, checkpoint, states_out, rle;
  std::uint64_t stats_every = 1, frame_every = 0, vtk_every = 0, checkpoint_every = 0;
  int scale = 1, size = 800;
};

class PySimulation {
 public:
  PySimulation(py::object graph, const py::object& model, const models::Params& params, std::uint64_t seed,
               const std::string& backend, const py::object& update, int threads, const std::string& order,
               const std::string& index_encoding)
      : graph_object_(std::move(graph)), graph_(graph_object_.cast<GraphHandle>()) {
    setup_ = model_setup(graph_, model, params, seed, backend, update, threads, order, index_encoding);
    {
      py::gil_scoped_release released;
      auto layout = std::make_shared<const Layout>(compile(source().graph, setup_.compile));
      sim_ = setup_.model->make(setup_.params, std::move(layout), setup_.options);
    }
    const Source& s = source();
    start(s.pattern ? place_pattern(*s.pattern, *s.grid) : std::vector<std::uint32_t>(s.graph.num_vertices(), 0));
  }

  void set_state(const py::array& states) {
    start(cell_states(states, source().graph.num_vertices(), sim_->num_states()));
  }

  py::dict run(std::uint64_t steps, const RunOutputs& o, bool progress) {
    const std::uint64_t last = sim_->step() + steps;
    if (steps > kMaxSteps || last > kMaxSteps)
      throw Error("a simulation runs to step " + std::to_string(kMaxSteps) +
                  " at most (random numbers are keyed "
                  "by a 32-bit step); it is at step " +
                  std::to_string(sim_->step()));
    RunDriver driver(*sim_);
    add_writers(driver, o);
    auto& stats = static_cast<StatsCollector&>(driver.add(std::make_unique<StatsCollector>(*sim_, o.stats_every)));
    Progress shown(progress ? Progress::Mode::lines : Progress::Mode::off, last, source().graph.num_vertices());
    driver.show_progress(shown);
    run_interruptibly(driver, last);
    return stats_dict(stats);
  }

  void load_checkpoint(const Path& file) {
    const std::string path = file.string();
    const Checkpoint c = read_checkpoint(path);
    const Checkpoint ours = identity();
    const auto refuse = [&](const std::string& what, const std::string& theirs, const std::string& mine) {
      throw Error(path + ": the checkpoint's " + what + " is " + quoted_text(theirs) + ", this simulation's " +
                  quoted_text(mine));
    };
    if (c.model != ours.model) refuse("model", c.model, ours.model);
    if (c.parameters != ours.parameters) refuse("parameters", c.parameters, ours.parameters);
    if (c.vertices != ours.vertices) refuse("vertex count", std::to_string(c.vertices), std::to_string(ours.vertices));
    if (c.seed != ours.seed) refuse("seed", std::to_string(c.seed), std::to_string(ours.seed));
    check_checkpoint_fits(c, path, sim_->variable_widths(), sim_->num_states(), ours.model);
    sim_->import_state(c.variables, c.step);
  }

  py::dict observables() const {
    py::dict values;
    const std::vector<std::string> names = sim_->observable_names();
    const std::vector<double> xs = sim_->observables();
    for (std::size_t i = 0; i < names.size() && i < xs.size(); ++i) values[py::str(names[i])] = xs[i];
    return values;
  }

  py::array_t<std::int64_t> census() const {
    const std::vector<std::uint64_t> counts = sim_->census();
    auto out = empty_array<std::int64_t>(counts.size());
    std::copy(counts.begin(), counts.end(), out.mutable_data());
    return out;
  }

  py::dict params() const {
    py::dict out;
    models::Params effective = setup_.params;
    for (const models::ParamInfo& p : setup_.model->params)
      if (!p.default_value.empty()) effective.emplace(p.name, p.default_value);
    for (const auto& [name, value] : effective) out[py::str(name)] = value;
    return out;
  }

  const Simulation& sim() const { return *sim_; }
  const models::ModelInfo& model() const { return *setup_.model; }
  const py::object& graph() const { return graph_object_; }
  std::uint64_t seed() const { return setup_.options.seed; }

 private:
  const Source& source() const { return *graph_.source; }

  // Variable 0 as given, the others as the model starts them from it (cloud).
  void start(const std::vector<std::uint32_t>& states) {
    if (setup_.model->initial_variables)
      sim_->import_state(setup_.model->initial_variables(setup_.params, states, setup_.options.seed), sim_->step());
    else sim_->set_states(states);
  }

  Checkpoint identity() const {
    Checkpoint c;
    c.seed = setup_.options.seed;
    c.model = setup_.model->name;
    c.parameters = models::parameters_text(*setup_.model, setup_.params);
    if (setup_.options.update.mode != UpdateMode::synchronous)
      c.parameters += ";update=" + update_rule_text(setup_.options.update);
    c.source = source().description;
    c.vertices = source().graph.num_vertices();
    return c;
  }

  // The library's writers, as `cellgraph run` adds them for its flags.
  void add_writers(RunDriver& driver, const RunOutputs& o) {
    FilePlan plan;
    for (const auto& [keyword, path] : {std::pair{"stats_csv", o.stats_csv},
                                        {"png", o.png},
                                        {"gif", o.gif},
                                        {"checkpoint", o.checkpoint},
                                        {"states_out", o.states_out},
                                        {"rle", o.rle}})
      if (path) plan.writes(*path, keyword);
    if (o.frames) plan.writes_series(*o.frames, ".png", "frames");
    if (o.vtk) {
      plan.writes(*o.vtk + ".pvd", "vtk");
      plan.writes_series(*o.vtk, ".vti", "vtk");
      plan.writes_series(*o.vtk, ".vtu", "vtk");
    }
    plan.check();
    const Source& s = source();
    if (o.checkpoint)
      driver.add(std::make_unique<CheckpointWriter>(*o.checkpoint, *sim_, identity(), o.checkpoint_every));
    if (o.stats_csv)
      driver.add(std::make_unique<CensusStatsWriter>(*o.stats_csv, *sim_, o.stats_every, setup_.model->state_names));
    if (o.vtk)
      driver.add(std::make_unique<VtkSeriesWriter>(*o.vtk, s, *sim_, o.vtk_every, setup_.model->variable_names));
    PictureOptions pictures;
    pictures.png = o.png.value_or("");
    pictures.gif = o.gif.value_or("");
    pictures.frames = o.frames.value_or("");
    pictures.every = o.frame_every;
    pictures.scale = o.scale;
    pictures.size = o.size;
    pictures.state_names = setup_.model->state_names;
    if (s.grid && s.grid->dims == 3 && !setup_.model->pictured_from_above)
      pictures.slice = GridSlice{2, s.grid->size[2] / 2};
    if (pictures.any()) driver.add(std::make_unique<PicturesWriter>(pictures, s, *sim_));
    if (o.rle) {
      if (!s.grid || s.grid->dims != 2) throw Error("rle needs a 2D grid");
      driver.add(std::make_unique<RleWriter>(
          *o.rle, *s.grid, setup_.model->rule_text ? setup_.model->rule_text(setup_.params) : "", *sim_));
    }
    if (o.states_out)
      driver.add(std::make_unique<StateFileWriter>(*o.states_out, *sim_, single_process(),
                                                   s.vertex_labels.empty() ? nullptr : &s.vertex_labels));
  }

  py::dict stats_dict(const StatsCollector& stats) const {
    py::dict out;
    const std::vector<std::string> columns = census_columns(*sim_, setup_.model->state_names);
    const std::size_t rows = stats.steps.size();
    auto steps = empty_array<std::uint64_t>(rows);
    std::copy(stats.steps.begin(), stats.steps.end(), steps.mutable_data());
    out["step"] = steps;
    add_stats_columns(out, columns, rows, stats.census, stats.observables);
    return out;
  }

  py::object graph_object_;  // the Python Graph, with what Python added to it (networkx's nodes)
  GraphHandle graph_;
  ModelSetup setup_;
  std::unique_ptr<Simulation> sim_;
};

}  // namespace

void bind_simulation(py::module_& m) {
  py::class_<PySimulation>(m, "Simulation", R"(One model on one graph, on the CPU or a GPU.

Simulation(graph, model=None, params=None, seed=1, backend="auto", update=None, threads=0,
order="input", index_encoding="auto"). model None: lifelike, or golly when the rule names a
Golly rule file (a pattern's rule counts). params: the model's parameters by name (values are
written as text: 0.2, "B3/S23"). backend: "cpu" (vectorized), "reference" (the plain walk the
others are tested against), "cuda", or "auto" (cuda with a GPU, else cpu). A pattern graph
starts from its pattern, others from state 0.)")
      .def(py::init<py::object, const py::object&, const models::Params&, std::uint64_t, const std::string&,
                    const py::object&, int, const std::string&, const std::string&>(),
           py::arg("graph"), py::arg("model") = py::none(), py::arg("params") = models::Params{}, py::arg("seed") = 1,
           py::arg("backend") = "auto", py::arg("update") = py::none(), py::arg("threads") = 0,
           py::arg("order") = "input", py::arg("index_encoding") = "auto")
      .def("set_state", &PySimulation::set_state, py::arg("states"),
           "Variable 0 of every vertex, in the graph's order (models of several variables start the others "
           "from it, as a run does).")
      .def(
          "state", [](const PySimulation& s) { return to_array(s.sim().states()); },
          "Variable 0 of every vertex, in the graph's order.")
      .def(
          "run",
          [](PySimulation& s, std::uint64_t steps, std::uint64_t stats_every, std::optional<Path> stats_csv,
             std::optional<Path> png, std::optional<Path> gif, std::optional<Path> frames, std::uint64_t frame_every,
             int scale, int size, std::optional<Path> vtk, std::uint64_t vtk_every, std::optional<Path> checkpoint,
             std::uint64_t checkpoint_every, std::optional<Path> states_out, std::optional<Path> rle, bool progress) {
            RunOutputs o;
            const auto text = [](const std::optional<Path>& path) {
              return path ? std::optional<std::string>(path->string()) : std::nullopt;
            };
            o.stats_csv = text(stats_csv), o.png = text(png), o.gif = text(gif), o.frames = text(frames);
            o.vtk = text(vtk), o.checkpoint = text(checkpoint), o.states_out = text(states_out), o.rle = text(rle);
            o.stats_every = stats_every, o.frame_every = frame_every, o.vtk_every = vtk_every;
            o.checkpoint_every = checkpoint_every, o.scale = scale, o.size = size;
            return s.run(steps, o, progress);
          },
          py::arg("steps"), py::kw_only(), py::arg("stats_every") = 1, py::arg("stats_csv") = py::none(),
          py::arg("png") = py::none(), py::arg("gif") = py::none(), py::arg("frames") = py::none(),
          py::arg("frame_every") = 0, py::arg("scale") = 1, py::arg("size") = 800, py::arg("vtk") = py::none(),
          py::arg("vtk_every") = 0, py::arg("checkpoint") = py::none(), py::arg("checkpoint_every") = 0,
          py::arg("states_out") = py::none(), py::arg("rle") = py::none(), py::arg("progress") = false,
          R"(Runs `steps` more steps; returns the statistics as NumPy arrays by column: step, the
population of each state (S, I, R; state_0, ...), the observables (magnetization, ...), at the
first step, every stats_every steps and at the last (stats_csv writes the same rows). The keywords write what `cellgraph run`'s
flags of the same names write. Ctrl-C stops the run after its chunk, finishes the files and
raises KeyboardInterrupt; the simulation stays at the step it reached.)")
      .def("load_checkpoint", &PySimulation::load_checkpoint, py::arg("path"),
           "Continues from a checkpoint written by run(checkpoint=...) of the same model, parameters, seed and "
           "graph.")
      .def("census", &PySimulation::census, "Vertices per state of variable 0.")
      .def("observables", &PySimulation::observables, "The model's measured quantities by name.")
      .def_property_readonly("step", [](const PySimulation& s) { return s.sim().step(); })
      .def_property_readonly("num_states", [](const PySimulation& s) { return s.sim().num_states(); })
      .def_property_readonly("backend", [](const PySimulation& s) { return s.sim().backend_name(); })
      .def_property_readonly("model", [](const PySimulation& s) { return s.model().name; })
      .def_property_readonly("state_names", [](const PySimulation& s) { return s.model().state_names; })
      .def_property_readonly("params", &PySimulation::params, "The parameters it runs with, defaults included.")
      .def_property_readonly("seed", &PySimulation::seed)
      .def_property_readonly("graph", &PySimulation::graph)
      .def("__repr__", [](const PySimulation& s) {
        return "<cellgraph.Simulation " + s.model().name + " on " +
               s.graph().cast<const GraphHandle&>().source->description + ", " + s.sim().backend_name() + ", step " +
               std::to_string(s.sim().step()) + ">";
      });
}

}  // namespace cellgraph::python
