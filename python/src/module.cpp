// The cellgraph Python module's compiled part, _cellgraph: the library's sources, simulations and
// ensembles; cellgraph/__init__.py adds networkx and SciPy graphs on top.
#include <pybind11/stl.h>

#include <csignal>
#include <optional>
#include <thread>

#include "cellgraph/error.hpp"
#include "cellgraph/interrupt.hpp"
#include "cellgraph/output/state_file.hpp"
#include "cellgraph/update.hpp"
#include "models/golly.hpp"
#include "python/src/bindings.hpp"

namespace cellgraph::python {

std::size_t keyword_choice(const std::string& name, const std::string& value, const std::vector<std::string>& choices) {
  std::string listed;
  for (std::size_t i = 0; i < choices.size(); ++i) {
    if (choices[i] == value) return i;
    listed += (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + choices[i];
  }
  throw Error(name + " must be " + listed + ", not " + quoted_text(value));
}

ModelSetup model_setup(const GraphHandle& graph, const py::object& model, const models::Params& params,
                       std::uint64_t seed, const std::string& backend, const py::object& update, int threads,
                       const std::string& order, const std::string& index_encoding) {
  ModelSetup s;
  s.params = params;
  const Source& source = *graph.source;
  const bool rule_model =
      model.is_none() || model.cast<std::string>() == "lifelike" || model.cast<std::string>() == "golly";
  // A pattern's rule runs unless the caller names one, as in `cellgraph run --pattern`.
  if (rule_model && !s.params.count("rule") && source.pattern && !source.pattern->rule.empty())
    s.params["rule"] = source.pattern->rule;
  const std::string name = !model.is_none()                          ? model.cast<std::string>()
                           : models::names_golly_rule_file(s.params) ? "golly"
                                                                     : "lifelike";
  s.model = &models::find_model(name);
  switch (keyword_choice("backend", backend, {"auto", "cpu", "reference", "cuda"})) {
    case 0:
      s.options.backend = cuda_device_available() ? BackendKind::cuda : BackendKind::cpu;
      break;
    case 1:
      s.options.backend = BackendKind::cpu;
      break;
    case 2:
      s.options.backend = BackendKind::reference;
      break;
    default:
      s.options.backend = BackendKind::cuda;
  }
  s.options.seed = seed;
  if (threads < 0) throw Error("threads must be 0 (all) or more");
  s.options.threads = threads;
  s.options.update = update.is_none() ? s.model->default_update : parse_update_rule(update.cast<std::string>());
  if (source.grid) s.options.boundary_value = source.grid->boundary.value;
  s.compile.order = VertexOrder(keyword_choice("order", order, {"input", "hilbert", "rcm"}));
  s.compile.index_encoding =
      IndexEncoding(keyword_choice("index_encoding", index_encoding, {"auto", "delta", "explicit"}));
  return s;
}

py::array_t<std::uint32_t> to_array(const std::vector<std::uint32_t>& values) {
  auto out = empty_array<std::uint32_t>(values.size());
  std::copy(values.begin(), values.end(), out.mutable_data());
  return out;
}

std::vector<std::uint32_t> cell_states(const py::array& states, std::uint32_t vertices, std::uint32_t num_states) {
  if (states.ndim() != 1 || std::uint64_t(states.shape(0)) != vertices)
    throw Error("states must be an array of one state per vertex (" + std::to_string(vertices) + "), not of shape " +
                std::string(py::str(py::getattr(states, "shape"))));
  const auto values = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(states);
  if (!values) throw Error("states must be integers");
  std::vector<std::uint32_t> out(vertices);
  for (std::uint32_t v = 0; v < vertices; ++v) {
    const std::int64_t s = values.data()[v];
    if (s < 0 || (num_states && s >= std::int64_t(num_states)) || s > 0xFFFFFFFFll)
      throw Error("vertex " + std::to_string(v) + " has state " + std::to_string(s) + ", not one of the model's" +
                  (num_states ? " 0.." + std::to_string(num_states - 1) : std::string(" (0 or more)")));
    out[v] = std::uint32_t(s);
  }
  return out;
}

void add_stats_columns(py::dict& out, const std::vector<std::string>& columns, std::size_t rows,
                       const std::vector<std::int64_t>& census, const std::vector<double>& observables) {
  const std::size_t states = rows ? census.size() / rows : 0, observed = rows ? observables.size() / rows : 0;
  for (std::size_t c = 0; c < states + observed && c < columns.size(); ++c) {
    if (c < states) {
      auto column = empty_array<std::int64_t>(rows);
      for (std::size_t r = 0; r < rows; ++r) column.mutable_data()[r] = census[r * states + c];
      out[py::str(columns[c])] = column;
    } else {
      auto column = empty_array<double>(rows);
      for (std::size_t r = 0; r < rows; ++r) column.mutable_data()[r] = observables[r * observed + c - states];
      out[py::str(columns[c])] = column;
    }
  }
}

RunResult run_interruptibly(RunDriver& driver, std::uint64_t last_step) {
  const py::module_ threading = py::module_::import("threading");
  const bool main_thread = threading.attr("current_thread")().is(threading.attr("main_thread")());
  RunResult result;
  {
    py::gil_scoped_release released;
    // Signal handlers are the process's: only the main thread, where Python raises
    // KeyboardInterrupt, takes them over for the run.
    std::optional<InterruptHandlersInstalled> handlers;
    if (main_thread) handlers.emplace();
    result = driver.run(last_step);
  }
  if (result.stopped()) {
    PyErr_SetNone(result.stop_signal == SIGINT ? PyExc_KeyboardInterrupt : PyExc_SystemExit);
    throw py::error_already_set();
  }
  return result;
}

namespace {

py::list model_list() {
  py::list out;
  for (const models::ModelInfo& info : models::registered_models()) {
    py::dict model;
    model["name"] = info.name;
    model["summary"] = info.summary;
    py::list params;
    for (const models::ParamInfo& p : info.params)
      params.append(py::dict(py::arg("name") = p.name, py::arg("default") = p.default_value, py::arg("help") = p.help));
    model["params"] = params;
    model["states"] = info.state_names;
    model["update"] = update_rule_text(info.default_update);
    out.append(model);
  }
  return out;
}

std::uint32_t vertices_of(const py::object& graph) {
  return graph.cast<const GraphHandle&>().source->graph.num_vertices();
}

}  // namespace

}  // namespace cellgraph::python

PYBIND11_MODULE(_cellgraph, m) {
  namespace py = pybind11;
  using namespace cellgraph;
  using namespace cellgraph::python;
  m.doc() = "cellgraph's engine: graphs, simulations and ensembles (see the cellgraph package)";
  // Library errors keep their messages; cellgraph.Error is a RuntimeError.
  py::register_exception<Error>(m, "Error", PyExc_RuntimeError);
  bind_graph(m);
  bind_simulation(m);
  bind_ensemble(m);
  m.def("models", &model_list, "Every model: name, summary, params (name, default, help), states, update.");
  m.def(
      "random_cells",
      [](const py::object& graph, std::optional<double> density, std::optional<std::uint64_t> count,
         std::uint64_t seed) {
        if (density.has_value() == count.has_value()) throw Error("random_cells takes one of density and count");
        const std::uint32_t n = vertices_of(graph);
        return to_array(density ? random_fill(n, *density, seed) : random_fill_count(n, *count, seed));
      },
      py::arg("graph"), py::kw_only(), py::arg("density") = py::none(), py::arg("count") = py::none(),
      py::arg("seed") = 1,
      "States with each vertex in state 1 with probability `density`, or exactly `count` vertices in state 1, "
      "drawn as `cellgraph run --fill`/`--fill-count` with --seed draw them.");
  m.def(
      "listed_cells",
      [](const py::object& graph, const std::string& cells) {
        const GraphHandle& g = graph.cast<const GraphHandle&>();
        return to_array(listed_cells(g.source->graph.num_vertices(), cells, g.source->vertex_labels));
      },
      py::arg("graph"), py::arg("cells"),
      "State 1 at the listed vertices (\"0,17,42\", or the graph's labels), 0 elsewhere, as `--cells`.");
  m.def(
      "read_states",
      [](const py::object& graph, const Path& path, std::uint32_t num_states) {
        const GraphHandle& g = graph.cast<const GraphHandle&>();
        return to_array(
            read_state_file(path.string(), g.source->graph.num_vertices(), num_states, g.source->vertex_labels));
      },
      py::arg("graph"), py::arg("path"), py::arg("num_states") = 0,
      "A state file as `--states` reads it (and `--states-out` writes it).");
  m.def("cuda_available", &cuda_device_available, "Whether this build has the CUDA backend and a GPU is present.");
}
