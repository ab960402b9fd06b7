// The run command's picture flags (--png, --frames, --gif and their settings), mapped onto the
// library's PictureOptions (cellgraph/output/pictures.hpp), which draws them.
#pragma once
#include <cstdint>
#include <ostream>

#include "cellgraph/output/pictures.hpp"
#include "models/registry.hpp"
#include "tools/cellgraph/cli.hpp"

namespace cellgraph::cli {

po::options_description picture_options();
PictureOptions picture_options_from(const po::variables_map& vm);

// Refuses, before any work and naming the flags, pictures of a source that cannot be pictured,
// bad sizes, a --slice that is not a plane of the 3D grid, --frames-every or --slice without a
// picture, and paths that cannot be written.
void check_picture_flags(const po::variables_map& vm, const PictureOptions& options, const Source& source);

// The pictures as the run's model draws them: its state names label the legend, and a 3D grid
// without --slice is seen from above for automata whose state 0 is empty space around sparse
// live cells (Life-like and Generations rules, clouds, rule tables and numbers), or else cut
// along its middle z plane (spins, epidemics, forests, excitable media, models of one's own),
// where a top view would be all one colour. For a graph without coordinates, says on stderr
// (first rank) that it is about to be laid out for them, which takes seconds.
PictureOptions pictures_for_model(const po::variables_map& vm, PictureOptions options, const models::ModelInfo& model,
                                  const Source& source);

// Says, for a 1D grid's space-time picture that cannot show every step of the run from `first`
// to `last`, which steps it shows.
void note_space_time(std::ostream& out, const PictureOptions& options, const Source& source, std::uint64_t first,
                     std::uint64_t last);

}  // namespace cellgraph::cli
