#include "tools/cellgraph/pictures.hpp"

#include "cellgraph/error.hpp"

namespace cellgraph::cli {

po::options_description picture_options() {
  po::options_description d("Pictures");
  d.add_options()(
      "png", po::value<std::string>(),
      "PNG of the final state: 2D grids cell by cell; 3D grids seen from above, each column shaded by its "
      "cells not in state 0 (sky blue: none, white: all; the cloud model: the sum of cld along z); meshes and "
      "graphs with coordinates as a quick look (see --png-size)")(
      "png-scale", po::value<int>()->default_value(1),
      "pixels per cell (column) in pictures of 2D (3D) grids (1 to 64)")(
      "png-size", po::value<int>()->default_value(800),
      "pictures of meshes and graphs: the longer side in pixels (16 to 4096); the x-y plane seen from +z "
      "(3D sources projected, the cell of largest z in front), y up, elements filled, vertices as discs. "
      "Also the largest side of a GIF frame: bigger grids are shrunk by a whole factor, each pixel showing "
      "the first live cell of its block")(
      "frames", po::value<std::string>(),
      "PNG frames BASE_<step>.png (step zero-padded to 6 digits), pictured as --png")(
      "frames-every", unsigned_value<std::uint64_t>(0),
      "steps between frames of --frames and --gif, plus the first and last step (0: a hundredth of the run)")(
      "gif", po::value<std::string>(), "animated GIF of the run, a frame every --frames-every steps, looping")(
      "gif-delay", po::value<int>()->default_value(100), "milliseconds per GIF frame (10 to 655350)");
  return d;
}

PictureOptions picture_options_from(const po::variables_map& vm) {
  PictureOptions o;
  if (vm.count("png")) o.png = vm["png"].as<std::string>();
  if (vm.count("frames")) o.frames = vm["frames"].as<std::string>();
  if (vm.count("gif")) o.gif = vm["gif"].as<std::string>();
  o.every = get_unsigned<std::uint64_t>(vm, "frames-every");
  o.scale = vm["png-scale"].as<int>();
  o.size = vm["png-size"].as<int>();
  o.gif_delay_ms = vm["gif-delay"].as<int>();
  return o;
}

void check_picture_flags(const po::variables_map& vm, const PictureOptions& o, const Source& source) {
  if (!vm["frames-every"].defaulted() && !o.series()) throw Error("--frames-every needs --frames BASE or --gif FILE");
  if (!o.any()) return;
  if (!can_picture(source)) {
    const char* option = !o.png.empty() ? "--png" : !o.frames.empty() ? "--frames" : "--gif";
    throw Error(std::string(option) + " needs a 2D or 3D grid source, or a mesh or graph with coordinates");
  }
  if (!kPictureScale.holds(o.scale)) throw Error("--png-scale must be from " + kPictureScale.text());
  if (!kPictureSize.holds(o.size)) throw Error("--png-size must be from " + kPictureSize.text());
  if (!kGifDelayMs.holds(o.gif_delay_ms)) throw Error("--gif-delay must be from " + kGifDelayMs.text() + " ms");
  check_pictures(o, source);  // the paths: the library's check, with nothing left to refuse but them
}

}  // namespace cellgraph::cli
