// Quick looks of moving particles (movable cells): the x-y plane seen from +z as the graph
// quick look draws it (quicklook.hpp: discs, 3D projected along z, the largest z in front),
// each particle coloured by the direction of a vector it carries (a heading), on a colour
// wheel of kDirectionColours hues around the x-y plane, or white without one.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "cellgraph/output/palette.hpp"

namespace cellgraph {

inline constexpr int kDirectionColours = 24;

struct ParticlePicture {
  IndexedImage image;
  std::vector<Rgb> colours;  // of the image's indices
};

// positions: dims (2 or 3) per particle; directions: empty, or dims per particle. `size` is
// the picture's longer side (16 to 4096). Throws Error for sizes that do not match.
ParticlePicture particle_picture(const std::vector<double>& positions, int dims, const std::vector<double>& directions,
                                 int size);

// The same written as a palette PNG, atomically; with directions, the colour wheel as a bar
// under the picture (legend.hpp), from -180 to 180 degrees.
void write_particle_png(const std::string& path, const std::vector<double>& positions, int dims,
                        const std::vector<double>& directions, int size);

}  // namespace cellgraph
