// VTK snapshots and pictures of a Simulation's run.
#include "cellgraph/error.hpp"
#include "cellgraph/run/writers.hpp"

namespace cellgraph {

bool has_vtk_geometry(const Source& source) {
  return source.grid || (source.mesh && !source.mesh_elements.empty() && source.mesh->has_coordinates) ||
         source.graph.coord_dim;
}

VtkSeries vtk_series_for(const std::string& base, const Source& source, VtkFormat format) {
  if (source.grid) return VtkSeries::for_grid(base, *source.grid, format);
  if (source.mesh && !source.mesh_elements.empty() && source.mesh->has_coordinates)
    return VtkSeries::for_mesh_elements(base, *source.mesh, source.mesh_elements, format);
  if (source.graph.coord_dim) return VtkSeries::for_graph(base, source.graph, VtkEdges::automatic, format);
  throw Error("VTK output needs a grid, a mesh with coordinates, or a graph with coordinates");
}

VtkSeriesWriter::VtkSeriesWriter(const std::string& base, const Source& source, const Simulation& sim,
                                 std::uint64_t every, std::vector<std::string> variable_names, const RunRanks& ranks,
                                 VtkEncoding encoding)
    : collection_path_(base + ".pvd"), sim_(sim), every_(every), variable_names_(std::move(variable_names)) {
  if (ranks.writes_files()) series_.emplace(vtk_series_for(base, source, {encoding, sim.num_states()}));
}

void VtkSeriesWriter::write(std::uint64_t step, StepCache& cache) {
  const std::vector<std::uint32_t>& states = shared_states(sim_, cache);
  // Variables beyond variable 0 by the model's names (cloud: hum, act); none for models of one.
  std::vector<VtkNamedArray> more;
  if (variable_names_.size() >= 2) {
    std::vector<std::vector<std::uint8_t>> variables = sim_.export_state();  // collective
    if (variables.size() != variable_names_.size())
      throw Error("VTK output names " + std::to_string(variable_names_.size()) + " variables but the simulation has " +
                  std::to_string(variables.size()));
    for (std::size_t i = 1; i < variables.size(); ++i) more.push_back({variable_names_[i], std::move(variables[i])});
  }
  if (series_) series_->write(step, states, more);
  written_steps_.push_back(step);
}

void VtkSeriesWriter::finish(std::uint64_t, StepCache&) {
  if (series_) series_->finish();
}

void VtkSeriesWriter::finish_stopped(std::uint64_t step, StepCache& cache, StoppedOutputs& outputs) {
  finish(step, cache);
  outputs.written.push_back({RunOutput::vtk_series, collection_path_});
}

void VtkSeriesWriter::report(std::vector<WrittenOutput>& outputs) const {
  WrittenOutput series{RunOutput::vtk_series, collection_path_, {collection_path_}};
  for (std::uint64_t step : written_steps_) series.files.push_back(series_->snapshot_path(step));
  outputs.push_back(std::move(series));
}

PicturesWriter::PicturesWriter(PictureOptions options, const Source& source, const Simulation& sim,
                               const RunRanks& ranks)
    : options_(std::move(options)), source_(source), sim_(sim), ranks_(ranks) {
  if (!options_.any()) throw Error("a pictures writer needs a final picture, frames or a GIF to write");
  check_pictures(options_, source_);
}

void PicturesWriter::begin(const RunSpan& span) {
  pictures_.emplace(options_, source_, sim_.num_states(), span.first_step, span.last_step);
}

Trigger PicturesWriter::trigger() const {
  const bool series = pictures_ && pictures_->every();
  return {series ? pictures_->every() : 0, series, series};
}

void PicturesWriter::write(std::uint64_t step, StepCache& cache) {
  // Called every gcd of the frame and space-time row intervals; every rank skips alike.
  if (!pictures_->wants(step)) return;
  const std::vector<std::uint32_t>& states = shared_states(sim_, cache);
  if (ranks_.writes_files()) pictures_->snapshot(step, states);
  if (pictures_->takes_frame(step)) written_steps_.push_back(step);
}

void PicturesWriter::finish(std::uint64_t, StepCache& cache) {
  if (options_.png.empty()) {
    if (ranks_.writes_files()) pictures_->finish_series();
    return;
  }
  const std::vector<std::uint32_t>& states = shared_states(sim_, cache);
  if (ranks_.writes_files()) pictures_->finish(states);
}

void PicturesWriter::finish_stopped(std::uint64_t, StepCache&, StoppedOutputs& outputs) {
  if (ranks_.writes_files()) pictures_->finish_series();
  if (!options_.gif.empty()) outputs.written.push_back({RunOutput::animation, options_.gif});
  if (!options_.png.empty()) outputs.not_written.push_back({RunOutput::picture, options_.png});
}

void PicturesWriter::report(std::vector<WrittenOutput>& outputs) const {
  if (!options_.frames.empty()) {
    WrittenOutput frames{RunOutput::frames, options_.frames, {}};
    for (std::uint64_t step : written_steps_) frames.files.push_back(frame_path(options_.frames, step));
    outputs.push_back(std::move(frames));
  }
  if (!options_.gif.empty()) outputs.push_back({RunOutput::animation, options_.gif, {options_.gif}});
  if (!options_.png.empty()) outputs.push_back({RunOutput::picture, options_.png, {options_.png}});
}

}  // namespace cellgraph
