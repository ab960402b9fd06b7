// The Python module's pieces (module.cpp puts them together): a graph is a loaded Source that
// every simulation built on it shares; simulations and ensembles run through the library's
// RunDriver with the GIL released.
#pragma once
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl/filesystem.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "cellgraph/layout.hpp"
#include "cellgraph/run/driver.hpp"
#include "cellgraph/simulation.hpp"
#include "cellgraph/source/source.hpp"
#include "models/params.hpp"
#include "models/registry.hpp"

namespace cellgraph::python {

namespace py = pybind11;
// File names: str or os.PathLike (pathlib.Path).
using Path = std::filesystem::path;

// A source as Python holds it. Simulations keep it alive; its vertex order is the user order
// every state array is in.
struct GraphHandle {
  std::shared_ptr<const Source> source;
};

// One of `choices` for the keyword `name`; throws Error naming them otherwise.
std::size_t keyword_choice(const std::string& name, const std::string& value, const std::vector<std::string>& choices);

// What a run of a model needs besides the graph, from the keywords Simulation and Ensemble share.
struct ModelSetup {
  const models::ModelInfo* model = nullptr;
  models::Params params;
  SimulationOptions options;
  CompileOptions compile;
};
ModelSetup model_setup(const GraphHandle& graph, const py::object& model, const models::Params& params,
                       std::uint64_t seed, const std::string& backend, const py::object& update, int threads,
                       const std::string& order, const std::string& index_encoding);

// A one-dimensional NumPy array of n values, to fill.
template <class T>
py::array_t<T> empty_array(std::size_t n) {
  return py::array_t<T>(static_cast<py::ssize_t>(n));
}

// Copies into NumPy arrays, and back with the values checked.
py::array_t<std::uint32_t> to_array(const std::vector<std::uint32_t>& values);
std::vector<std::uint32_t> cell_states(const py::array& states, std::uint32_t vertices, std::uint32_t num_states);

// Statistics kept row by row (each row's census by state, then its observables) as NumPy columns
// of `out`, named by `columns` in that order.
void add_stats_columns(py::dict& out, const std::vector<std::string>& columns, std::size_t rows,
                       const std::vector<std::int64_t>& census, const std::vector<double>& observables);

// Runs `driver` to `last_step` with the GIL released. From Python's main thread, a Ctrl-C ends
// the run after its chunk (the writers finish with what they have) and raises KeyboardInterrupt.
RunResult run_interruptibly(RunDriver& driver, std::uint64_t last_step);

void bind_graph(py::module_& m);
void bind_simulation(py::module_& m);
void bind_ensemble(py::module_& m);

}  // namespace cellgraph::python
