#include "cellgraph/output/pictures.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>

#include "cellgraph/error.hpp"
#include "cellgraph/output/atomic_file.hpp"
#include "cellgraph/output/column_view.hpp"
#include "cellgraph/output/png.hpp"

namespace cellgraph {
namespace {

bool is_grid2d(const Source& source) { return source.grid && source.grid->dims == 2; }
bool is_grid3d(const Source& source) { return source.grid && source.grid->dims == 3; }

bool has_mesh_elements(const Source& source) {
  return source.mesh && source.mesh->has_coordinates && !source.mesh_elements.empty();
}

}  // namespace

std::string frame_path(const std::string& base, std::uint64_t step) {
  char digits[32];
  std::snprintf(digits, sizeof digits, "%06llu", static_cast<unsigned long long>(step));
  return base + "_" + digits + ".png";
}

bool can_picture(const Source& source) {
  return is_grid2d(source) || is_grid3d(source) || has_mesh_elements(source) || source.graph.coord_dim >= 2;
}

void check_pictures(const PictureOptions& o, const Source& source) {
  if (!o.any()) return;
  if (!can_picture(source)) throw Error("pictures need a 2D or 3D grid source, or a mesh or graph with coordinates");
  if (!kPictureScale.holds(o.scale))
    throw Error("the picture scale must be from " + kPictureScale.text() + " pixels per cell");
  if (!kPictureSize.holds(o.size)) throw Error("the picture size must be from " + kPictureSize.text() + " pixels");
  if (!kGifDelayMs.holds(o.gif_delay_ms)) throw Error("the GIF frame delay must be from " + kGifDelayMs.text() + " ms");
  for (const std::string& path : {o.png, o.gif, o.frames.empty() ? std::string() : frame_path(o.frames, 0)})
    if (!path.empty()) AtomicFile::check_writable(path);
}

Pictures::Pictures(const PictureOptions& options, const Source& source, std::uint32_t num_states,
                   std::uint64_t first_step, std::uint64_t last_step)
    : options_(options), num_states_(num_states), palette_(num_states), first_step_(first_step), last_step_(last_step),
      series_(options.series()) {
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
  if (grid3d_)  // `scale` pixels per column, whatever the size, as for 2D grids
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

}  // namespace cellgraph
