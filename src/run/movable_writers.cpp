#include "cellgraph/run/movable_writers.hpp"

#include "cellgraph/error.hpp"
#include "cellgraph/output/particle_picture.hpp"
#include "cellgraph/output/pictures.hpp"

namespace cellgraph {

std::vector<double> interleaved_variables(const MovableSimulation& sim, int first, int components) {
  std::vector<double> out(std::size_t(sim.num_particles()) * components);
  for (int c = 0; c < components; ++c) {
    const std::vector<double> v = sim.variable(first + c);
    for (std::size_t p = 0; p < v.size(); ++p) out[p * components + c] = v[p];
  }
  return out;
}

const std::vector<double>& shared_positions(const MovableSimulation& sim, StepCache& cache) {
  return cache.get<std::vector<double>>("positions", [&] { return sim.positions(); });
}

ObservablesStatsWriter::ObservablesStatsWriter(std::string path, MovableSimulation& sim, std::uint64_t every,
                                               const RunRanks& ranks)
    : StatisticsWriter(
          std::move(path), sim.observable_names(), every,
          [&sim](StepCache&) {
            const std::vector<double> values = sim.observables();
            return std::vector<StatsWriter::Value>(values.begin(), values.end());
          },
          ranks) {}

VtkPointsWriter::VtkPointsWriter(const std::string& base, const MovableSimulation& sim, std::uint64_t every,
                                 std::vector<ParticleArray> arrays, const RunRanks& ranks, VtkEncoding encoding)
    : collection_path_(base + ".pvd"), sim_(sim), every_(every), arrays_(std::move(arrays)) {
  if (ranks.writes_files()) series_.emplace(base, sim_.box().dims, encoding);
}

void VtkPointsWriter::write(std::uint64_t step, StepCache& cache) {
  std::vector<VtkPointSeries::Array> data;
  for (const ParticleArray& a : arrays_)
    data.push_back({a.name, a.components, interleaved_variables(sim_, a.first_variable, a.components)});
  const std::vector<double>& positions = shared_positions(sim_, cache);
  if (series_) series_->write(step, positions, data);
  written_steps_.push_back(step);
}

void VtkPointsWriter::finish(std::uint64_t, StepCache&) {
  if (series_) series_->finish();
}

void VtkPointsWriter::finish_stopped(std::uint64_t step, StepCache& cache, StoppedOutputs& outputs) {
  finish(step, cache);
  outputs.written.push_back({RunOutput::vtk_series, collection_path_});
}

void VtkPointsWriter::report(std::vector<WrittenOutput>& outputs) const {
  WrittenOutput series{RunOutput::vtk_series, collection_path_, {collection_path_}};
  for (std::uint64_t step : written_steps_) series.files.push_back(series_->snapshot_path(step));
  outputs.push_back(std::move(series));
}

ParticlePngWriter::ParticlePngWriter(std::string path, const MovableSimulation& sim, int size,
                                     std::optional<int> heading_variable, const RunRanks& ranks)
    : path_(std::move(path)), sim_(sim), size_(size), heading_variable_(heading_variable), ranks_(ranks) {
  if (!kPictureSize.holds(size_))
    throw Error("the particle picture's size must be from " + kPictureSize.text() + " pixels");
}

void ParticlePngWriter::finish(std::uint64_t, StepCache& cache) {
  const int dims = sim_.box().dims;
  const std::vector<double> headings =
      heading_variable_ ? interleaved_variables(sim_, *heading_variable_, dims) : std::vector<double>{};
  const std::vector<double>& positions = shared_positions(sim_, cache);
  if (ranks_.writes_files()) write_particle_png(path_, positions, dims, headings, size_);
}

void ParticlePngWriter::finish_stopped(std::uint64_t, StepCache&, StoppedOutputs& outputs) {
  outputs.not_written.push_back({RunOutput::particle_picture, path_});
}

void ParticlePngWriter::report(std::vector<WrittenOutput>& outputs) const {
  outputs.push_back({RunOutput::particle_picture, path_, {path_}});
}

}  // namespace cellgraph
