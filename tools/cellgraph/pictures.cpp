#include "tools/cellgraph/pictures.hpp"

#include <cstdio>
#include <limits>

#include "cellgraph/error.hpp"
#include "cellgraph/output/atomic_file.hpp"
#include "cellgraph/output/column_view.hpp"
#include "cellgraph/output/png.hpp"

namespace cellgraph::cli {
namespace {

bool is_grid2d(const Source& source) { return source.grid && source.grid->dims == 2; }
bool is_grid3d(const Source& source) { return source.grid && source.grid->dims == 3; }

bool has_mesh_elements(const Source& source) {
  return source.mesh && source.mesh->has_coordinates && !source.mesh_elements.empty();
}

}  // namespace

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
  o.every_given = !vm["frames-every"].defaulted();
  o.scale = vm["png-scale"].as<int>();
  o.size = vm["png-size"].as<int>();
  o.gif_delay_ms = vm["gif-delay"].as<int>();
  return o;
}

std::string frame_path(const std::string& base, std::uint64_t step) {
  char digits[32];
  std::snprintf(digits, sizeof digits, "%06llu", static_cast<unsigned long long>(step));
  return base + "_" + digits + ".png";
}

void check_pictures(const PictureOptions& o, const Source& source) {
  if (o.every_given && o.frames.empty() && o.gif.empty())
    throw Error("--frames-every needs --frames BASE or --gif FILE");
  if (!o.any()) return;
  if (!is_grid2d(source) && !is_grid3d(source) && !has_mesh_elements(source) && source.graph.coord_dim < 2) {
    const char* option = !o.png.empty() ? "--png" : !o.frames.empty() ? "--frames" : "--gif";
    throw Error(std::string(option) + " needs a 2D or 3D grid source, or a mesh or graph with coordinates");
  }
  if (o.scale < 1 || o.scale > 64) throw Error("--png-scale must be from 1 to 64");
  if (o.size < 16 || o.size > 4096) throw Error("--png-size must be from 16 to 4096");
  if (o.gif_delay_ms < 10 || o.gif_delay_ms > 655350) throw Error("--gif-delay must be from 10 to 655350 ms");
  for (const std::string& path : {o.png, o.gif, o.frames.empty() ? std::string() : frame_path(o.frames, 0)})
    if (!path.empty()) AtomicFile::check_writable(path);
}

Pictures::Pictures(const PictureOptions& options, const Source& source, std::uint32_t num_states,
                   std::uint64_t first_step, std::uint64_t last_step)
    : options_(options), num_states_(num_states), palette_(num_states), first_step_(first_step), last_step_(last_step),
      series_(!options.frames.empty() || !options.gif.empty()) {
  every_ = options.every ? options.every
                         : std::max<std::uint64_t>(1, (last_step - std::min(first_step, last_step) + 99) / 100);
  if (is_grid2d(source)) {
    grid_width_ = source.grid->size[0];
    grid_height_ = source.grid->size[1];
  } else if (is_grid3d(source)) {
    grid3d_ = *source.grid;
  } else if (has_mesh_elements(source)) {
    raster_ = CellRaster::for_mesh_elements(*source.mesh, source.mesh_elements, options.size);
  } else {
    raster_ = CellRaster::for_points(source.graph, options.size);
  }
}

const std::vector<Rgb>& Pictures::colours() const { return grid3d_ ? column_palette() : palette_.colours(); }

IndexedImage Pictures::picture(const std::vector<std::uint32_t>& states) const {
  if (grid3d_) return column_picture(states, *grid3d_, options_.scale, options_.size);
  return raster_ ? raster_->render(states, palette_)
                 : grid_picture(states, grid_width_, grid_height_, palette_, options_.scale, options_.size);
}

void Pictures::write_png(const std::string& path, const std::vector<std::uint32_t>& states) const {
  if (grid3d_)  // --png-scale pixels per column, whatever the size, as for 2D grids
    write_indexed_png(path, column_picture(states, *grid3d_, options_.scale, std::numeric_limits<std::int64_t>::max()),
                      column_palette());
  else if (raster_) write_indexed_png(path, raster_->render(states, palette_), palette_.colours());
  else  // streamed row by row, however large the grid
    write_grid_png(path, states, grid_width_, grid_height_, num_states_, options_.scale);
}

void Pictures::snapshot(std::uint64_t step, const std::vector<std::uint32_t>& states) {
  if (!options_.frames.empty()) write_png(frame_path(options_.frames, step), states);
  if (options_.gif.empty()) return;
  const IndexedImage frame = picture(states);
  if (!gif_)
    gif_ = std::make_unique<GifWriter>(options_.gif, frame.width, frame.height, colours(), options_.gif_delay_ms);
  gif_->add_frame(frame);
}

void Pictures::finish(const std::vector<std::uint32_t>& final_states) {
  finish_series();
  if (!options_.png.empty()) write_png(options_.png, final_states);
}

void Pictures::finish_series() {
  if (gif_) gif_->finish();
}

}  // namespace cellgraph::cli
