// Writers of a run of a MovableSimulation, for RunDriver (driver.hpp): observables statistics,
// VTK point snapshots and the final picture of the particles. Collective in a partitioned run,
// as the writers of writers.hpp: every rank gathers, the rank that writes files writes.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cellgraph/movable/movable_simulation.hpp"
#include "cellgraph/output/stats_csv.hpp"
#include "cellgraph/output/vtk.hpp"
#include "cellgraph/run/ranks.hpp"
#include "cellgraph/run/statistics_writer.hpp"
#include "cellgraph/run/writer.hpp"

namespace cellgraph {

// Variables first .. first+components-1 of every particle, particle by particle.
std::vector<double> interleaved_variables(const MovableSimulation& sim, int first, int components);
// The particles' positions at the cache's step, gathered once however many writers ask.
const std::vector<double>& shared_positions(const MovableSimulation& sim, StepCache& cache);

// CSV of the model's observables (statistics_writer.hpp).
class ObservablesStatsWriter final : public StatisticsWriter {
 public:
  // Throws Error for `every` 0.
  ObservablesStatsWriter(std::string path, MovableSimulation& sim, std::uint64_t every,
                         const RunRanks& ranks = single_process());
};

// A point array of the snapshots: variables first_variable .. first_variable+components-1
// (vicsek: the heading as a vector).
struct ParticleArray {
  std::string name;
  int first_variable = 0;
  int components = 1;
};

// ParaView series BASE_<step>.vtu and BASE.pvd of the particles (VtkPointSeries): a snapshot
// at the first step, every `every` steps (0: none between), at the last.
class VtkPointsWriter final : public RunWriter {
 public:
  VtkPointsWriter(const std::string& base, const MovableSimulation& sim, std::uint64_t every = 0,
                  std::vector<ParticleArray> arrays = {}, const RunRanks& ranks = single_process(),
                  VtkEncoding encoding = VtkEncoding::zlib);
  Trigger trigger() const override { return {every_, true, true}; }
  void write(std::uint64_t step, StepCache& cache) override;
  void finish(std::uint64_t step, StepCache& cache) override;
  void finish_stopped(std::uint64_t step, StepCache& cache, StoppedOutputs& outputs) override;
  void report(std::vector<WrittenOutput>& outputs) const override;

 private:
  std::string collection_path_;
  const MovableSimulation& sim_;
  std::uint64_t every_;
  std::vector<ParticleArray> arrays_;
  std::optional<VtkPointSeries> series_;  // on the rank that writes files
  std::vector<std::uint64_t> written_steps_;
};

// The final picture of the particles (particle_picture.hpp), `size` pixels on its longer side
// (16 to 4096), each coloured by its heading: variables heading_variable .. + dims - 1, or
// white without one.
class ParticlePngWriter final : public RunWriter {
 public:
  ParticlePngWriter(std::string path, const MovableSimulation& sim, int size,
                    std::optional<int> heading_variable = std::nullopt, const RunRanks& ranks = single_process());
  void finish(std::uint64_t step, StepCache& cache) override;
  void finish_stopped(std::uint64_t step, StepCache& cache, StoppedOutputs& outputs) override;
  void report(std::vector<WrittenOutput>& outputs) const override;

 private:
  std::string path_;
  const MovableSimulation& sim_;
  int size_;
  std::optional<int> heading_variable_;
  const RunRanks& ranks_;
};

}  // namespace cellgraph
