// Writers of a run of a Simulation (partitioned ones too), for RunDriver (driver.hpp): census
// statistics, checkpoints, VTK snapshots, pictures and the final-state files. Their gathering
// calls are collective in a partitioned run: every rank makes the same writers and the driver
// calls them alike; only the rank that writes files (RunRanks::writes_files) opens any.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cellgraph/output/checkpoint.hpp"
#include "cellgraph/output/pictures.hpp"
#include "cellgraph/output/stats_csv.hpp"
#include "cellgraph/output/vtk.hpp"
#include "cellgraph/run/ranks.hpp"
#include "cellgraph/run/statistics_writer.hpp"
#include "cellgraph/run/writer.hpp"
#include "cellgraph/simulation.hpp"
#include "cellgraph/source/grid.hpp"
#include "cellgraph/source/source.hpp"

namespace cellgraph {

// Variable 0 of every cell at the cache's step, gathered once however many writers ask.
const std::vector<std::uint32_t>& shared_states(const Simulation& sim, StepCache& cache);

// A statistics row at the cache's step: the census by state of variable 0, then the observables
// (census_columns names them), gathered once however many writers ask.
const std::vector<StatsWriter::Value>& shared_census_row(const Simulation& sim, StepCache& cache);

// Statistics columns: the name of each state of variable 0 (`state_names[s]`, else "state_<s>"),
// then the simulation's observables.
std::vector<std::string> census_columns(const Simulation& sim, const std::vector<std::string>& state_names = {});

// CSV of the population per state and the model's observables (statistics_writer.hpp).
class CensusStatsWriter final : public StatisticsWriter {
 public:
  // Throws Error for `every` 0.
  CensusStatsWriter(std::string path, const Simulation& sim, std::uint64_t every,
                    const std::vector<std::string>& state_names = {}, const RunRanks& ranks = single_process());
};

// The checkpoint a restart continues from (checkpoint.hpp), rewritten every `every` steps (0:
// only at the end), at the last step and where a stopped run stopped. `identity` holds what a
// restart must match (seed, model, parameters, source, vertices); the step and the variables
// are the simulation's.
class CheckpointWriter final : public RunWriter {
 public:
  CheckpointWriter(std::string path, const Simulation& sim, Checkpoint identity, std::uint64_t every = 0,
                   const RunRanks& ranks = single_process());
  // The same for any state given as a checkpoint's variables (an ensemble's:
  // ensemble_checkpoint_variables, ensemble_writers.hpp); `variables` is collective.
  using Variables = std::function<std::vector<std::vector<std::uint8_t>>()>;
  CheckpointWriter(std::string path, Variables variables, Checkpoint identity, std::uint64_t every = 0,
                   const RunRanks& ranks = single_process());
  Trigger trigger() const override { return {every_, false, true}; }
  void write(std::uint64_t step, StepCache& cache) override;
  void finish_stopped(std::uint64_t step, StepCache& cache, StoppedOutputs& outputs) override;
  void report(std::vector<WrittenOutput>& outputs) const override;

 private:
  std::string path_;
  Variables variables_;
  Checkpoint identity_;
  std::uint64_t every_;
  const RunRanks& ranks_;
  std::uint64_t saved_at_ = ~std::uint64_t(0);
};

// Whether a source has a geometry for VTK: a grid, a mesh with coordinates, or a graph with coordinates.
bool has_vtk_geometry(const Source& source);
// The VTK series that fits the source: image data for grids, the elements of a mesh's dual
// graph, points (and edges) for anything else with coordinates. Throws Error for a source without.
VtkSeries vtk_series_for(const std::string& base, const Source& source, VtkFormat format = {});

// ParaView series BASE_<step>.vti/.vtu and BASE.pvd (vtk.hpp): a snapshot at the first step,
// every `every` steps (0: none between), at the last. With two or more `variable_names` (the
// model's), every variable is written, by name, beside the state. States take the smallest
// type that holds the simulation's num_states().
class VtkSeriesWriter final : public RunWriter {
 public:
  VtkSeriesWriter(const std::string& base, const Source& source, const Simulation& sim, std::uint64_t every = 0,
                  std::vector<std::string> variable_names = {}, const RunRanks& ranks = single_process(),
                  VtkEncoding encoding = VtkEncoding::zlib);
  Trigger trigger() const override { return {every_, true, true}; }
  void write(std::uint64_t step, StepCache& cache) override;
  void finish(std::uint64_t step, StepCache& cache) override;
  void finish_stopped(std::uint64_t step, StepCache& cache, StoppedOutputs& outputs) override;
  void report(std::vector<WrittenOutput>& outputs) const override;

 private:
  std::string collection_path_;
  const Simulation& sim_;
  std::uint64_t every_;
  std::vector<std::string> variable_names_;
  std::optional<VtkSeries> series_;  // on the rank that writes files
  std::vector<std::uint64_t> written_steps_;
};

// Frames, GIF and final PNG (pictures.hpp): frames at the first step, every options.every steps
// (0: a hundredth of the run), at the last; the PNG of the final state (1D grids: a row of the
// space-time diagram at each step it samples). `source` must stay alive until the run begins
// (its pictures are drawn then).
class PicturesWriter final : public RunWriter {
 public:
  // Throws Error as check_pictures does, and for options that ask for no picture.
  PicturesWriter(PictureOptions options, const Source& source, const Simulation& sim,
                 const RunRanks& ranks = single_process());
  void begin(const RunSpan& span) override;
  Trigger trigger() const override;
  void write(std::uint64_t step, StepCache& cache) override;
  void finish(std::uint64_t step, StepCache& cache) override;
  void finish_stopped(std::uint64_t step, StepCache& cache, StoppedOutputs& outputs) override;
  void report(std::vector<WrittenOutput>& outputs) const override;

 private:
  PictureOptions options_;
  const Source& source_;
  const Simulation& sim_;
  const RunRanks& ranks_;
  std::optional<Pictures> pictures_;  // from begin()
  std::vector<std::uint64_t> written_steps_;
};

// Golly RLE of the final state of a 2D grid, with its bounded grid (pattern.hpp). `rule` is
// the rule line ("B3/S23"; empty: none). Throws Error for a grid Golly has no bounded grid for.
class RleWriter final : public RunWriter {
 public:
  RleWriter(std::string path, const GridSpec& grid, std::string rule, const Simulation& sim,
            const RunRanks& ranks = single_process());
  void finish(std::uint64_t step, StepCache& cache) override;
  void finish_stopped(std::uint64_t step, StepCache& cache, StoppedOutputs& outputs) override;
  void report(std::vector<WrittenOutput>& outputs) const override;

 private:
  std::string path_;
  GridSpec grid_;
  std::string rule_;
  const Simulation& sim_;
  const RunRanks& ranks_;
};

// The final state per vertex in user ids (state_file.hpp), named by `vertex_labels` where the
// source has them (Source::vertex_labels, which must outlive the writer).
class StateFileWriter final : public RunWriter {
 public:
  StateFileWriter(std::string path, const Simulation& sim, const RunRanks& ranks = single_process(),
                  const std::vector<std::string>* vertex_labels = nullptr);
  void finish(std::uint64_t step, StepCache& cache) override;
  void finish_stopped(std::uint64_t step, StepCache& cache, StoppedOutputs& outputs) override;
  void report(std::vector<WrittenOutput>& outputs) const override;

 private:
  std::string path_;
  const Simulation& sim_;
  const RunRanks& ranks_;
  const std::vector<std::string>* vertex_labels_;
};

}  // namespace cellgraph
