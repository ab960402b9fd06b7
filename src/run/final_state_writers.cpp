// The files of a Simulation's final state: Golly RLE and the states per vertex. A run stopped
// early has no final state: they report themselves not written.
#include "cellgraph/error.hpp"
#include "cellgraph/output/atomic_file.hpp"
#include "cellgraph/output/state_file.hpp"
#include "cellgraph/run/writers.hpp"
#include "cellgraph/source/pattern.hpp"

namespace cellgraph {

RleWriter::RleWriter(std::string path, const GridSpec& grid, std::string rule, const Simulation& sim,
                     const RunRanks& ranks)
    : path_(std::move(path)), grid_(grid), rule_(std::move(rule)), sim_(sim), ranks_(ranks) {
  if (grid_.dims != 2) throw Error("Golly RLE needs a 2D grid");
  // Golly's bounded grids are tori (:T) and planes of dead cells (:P); nothing else.
  const Boundary& b = grid_.boundary;
  if (b.kind == BoundaryKind::reflective || (b.kind == BoundaryKind::fixed && b.value != 0))
    throw Error("Golly RLE: Golly has no grid with this boundary (only periodic and fixed:0)");
}

void RleWriter::finish(std::uint64_t, StepCache& cache) {
  const std::vector<std::uint32_t>& states = shared_states(sim_, cache);
  if (!ranks_.writes_files()) return;
  AtomicFile file(path_);
  write_rle(file.stream(), states, grid_, rule_, sim_.num_states());
  file.commit();
}

void RleWriter::finish_stopped(std::uint64_t, StepCache&, StoppedOutputs& outputs) {
  outputs.not_written.push_back({RunOutput::rle, path_});
}

void RleWriter::report(std::vector<WrittenOutput>& outputs) const {
  outputs.push_back({RunOutput::rle, path_, {path_}});
}

StateFileWriter::StateFileWriter(std::string path, const Simulation& sim, const RunRanks& ranks,
                                 const std::vector<std::string>* vertex_labels)
    : path_(std::move(path)), sim_(sim), ranks_(ranks), vertex_labels_(vertex_labels) {}

void StateFileWriter::finish(std::uint64_t, StepCache& cache) {
  const std::vector<std::uint32_t>& states = shared_states(sim_, cache);
  if (!ranks_.writes_files()) return;
  if (vertex_labels_) write_state_file(path_, states, *vertex_labels_);
  else write_state_file(path_, states);
}

void StateFileWriter::finish_stopped(std::uint64_t, StepCache&, StoppedOutputs& outputs) {
  outputs.not_written.push_back({RunOutput::state_file, path_});
}

void StateFileWriter::report(std::vector<WrittenOutput>& outputs) const {
  outputs.push_back({RunOutput::state_file, path_, {path_}});
}

}  // namespace cellgraph
