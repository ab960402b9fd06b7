// The run command's picture flags (--png, --frames, --gif and their settings), mapped onto the
// library's PictureOptions (cellgraph/output/pictures.hpp), which draws them.
#pragma once
#include "cellgraph/output/pictures.hpp"
#include "tools/cellgraph/cli.hpp"

namespace cellgraph::cli {

po::options_description picture_options();
PictureOptions picture_options_from(const po::variables_map& vm);

// Refuses, before any work and naming the flags, pictures of a source that cannot be pictured,
// bad sizes, --frames-every without frames, and paths that cannot be written.
void check_picture_flags(const po::variables_map& vm, const PictureOptions& options, const Source& source);

}  // namespace cellgraph::cli
