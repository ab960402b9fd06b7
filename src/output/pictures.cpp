#include "cellgraph/output/pictures.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>

#include "cellgraph/error.hpp"
#include "cellgraph/output/atomic_file.hpp"
#include "cellgraph/output/column_view.hpp"
#include "cellgraph/output/graph_layout.hpp"
#include "cellgraph/output/png.hpp"

namespace cellgraph {
namespace {

bool is_grid(const Source& source, int dims) { return source.grid && source.grid->dims == dims; }

bool has_mesh_elements(const Source& source) {
  return source.mesh && source.mesh->has_coordinates && !source.mesh_elements.empty();
}

// A space-time PNG's pixels at most: its scale is reduced to stay below (libpng and viewers
// take 2^31, and the legend needs a few rows more).
constexpr std::uint64_t kSpaceTimePixels = std::uint64_t{1} << 30;

// A picture with its legend strip under it, each padded on the right to the wider of the two
// with the strip's colour, written row by row.
class Composite {
 public:
  Composite(std::int64_t width, std::int64_t height, RowFiller body, IndexedImage strip, std::uint8_t pad)
      : body_width_(width), body_height_(height), body_(std::move(body)), strip_(std::move(strip)), pad_(pad) {}

  std::int64_t width() const { return std::max(body_width_, strip_.width); }
  std::int64_t height() const { return body_height_ + strip_.height; }

  void fill(std::int64_t y, std::uint8_t* row) const {
    std::int64_t filled = body_width_;
    if (y < body_height_) body_(y, row);
    else {
      const auto from = strip_.pixels.begin() + std::ptrdiff_t((y - body_height_) * strip_.width);
      std::copy_n(from, strip_.width, row);
      filled = strip_.width;
    }
    std::fill(row + filled, row + width(), pad_);
  }

  IndexedImage image() const {
    IndexedImage image{width(), height(), std::vector<std::uint8_t>(std::size_t(width() * height()))};
    for (std::int64_t y = 0; y < image.height; ++y) fill(y, &image.pixels[std::size_t(y * image.width)]);
    return image;
  }

 private:
  std::int64_t body_width_, body_height_;
  RowFiller body_;
  IndexedImage strip_;
  std::uint8_t pad_;
};

// Rows of a whole image.
RowFiller rows_of(const IndexedImage& image) {
  return [&image](std::int64_t y, std::uint8_t* row) {
    std::copy_n(image.pixels.begin() + std::ptrdiff_t(y * image.width), image.width, row);
  };
}

// Rows of cells (palette index index_at(x, y)), each a scale x scale square.
template <class IndexAt>
RowFiller scaled_rows(std::int64_t width, int scale, IndexAt index_at) {
  return [=](std::int64_t y, std::uint8_t* row) {
    for (std::int64_t x = 0; x < width; ++x) std::fill_n(row + x * scale, scale, index_at(x, y / scale));
  };
}

// The graph's vertices where sfdp places them (graph_layout.hpp), as a graph of points: quick
// looks draw vertices, not edges.
Graph laid_out(const Graph& graph) {
  Graph points;
  points.offsets.assign(std::size_t(graph.num_vertices()) + 1, 0);
  points.coord_dim = 2;
  points.coords = layout_graph(graph);
  return points;
}

std::string every_steps(std::uint64_t stride) {
  return stride == 1 ? "every step" : "a row every " + std::to_string(stride) + " steps";
}

}  // namespace

std::string frame_path(const std::string& base, std::uint64_t step) {
  char digits[32];
  std::snprintf(digits, sizeof digits, "%06llu", static_cast<unsigned long long>(step));
  return base + "_" + digits + ".png";
}

bool pictured_by_layout(const Source& source) {
  return !source.grid && !has_mesh_elements(source) && source.graph.coord_dim < 2;
}

bool can_picture(const Source& source) {
  return source.grid || has_mesh_elements(source) || source.graph.coord_dim >= 2 || layout_fits(source.graph);
}

void check_pictures(const PictureOptions& o, const Source& source) {
  if (!o.any()) return;
  if (pictured_by_layout(source) && !layout_fits(source.graph)) throw Error(layout_limit_message(source.graph));
  if (!can_picture(source)) throw Error("pictures need a grid source, or a mesh or graph with coordinates");
  if (!kPictureScale.holds(o.scale))
    throw Error("the picture scale must be from " + kPictureScale.text() + " pixels per cell");
  if (!kPictureSize.holds(o.size)) throw Error("the picture size must be from " + kPictureSize.text() + " pixels");
  if (!kGifDelayMs.holds(o.gif_delay_ms)) throw Error("the GIF frame delay must be from " + kGifDelayMs.text() + " ms");
  if (o.slice) {
    if (!source.grid) throw Error("a slice (" + grid_slice_text(*o.slice) + ") is a plane of a 3D grid source");
    check_grid_slice(*o.slice, *source.grid);
  }
  if (is_grid(source, 1)) SpaceTimeRows::plan(std::uint64_t(source.grid->size[0]), 0, 0);  // wide enough?
  for (const std::string& path : {o.png, o.gif, o.frames.empty() ? std::string() : frame_path(o.frames, 0)})
    if (!path.empty()) AtomicFile::check_writable(path);
}

Pictures::Pictures(const PictureOptions& options, const Source& source, std::uint32_t num_states,
                   std::uint64_t first_step, std::uint64_t last_step)
    : options_(options), num_states_(num_states), palette_(num_states), first_step_(first_step), last_step_(last_step),
      series_(options.series()) {
  every_ = options.every ? options.every
                         : std::max<std::uint64_t>(1, (last_step - std::min(first_step, last_step) + 99) / 100);
  if (is_grid(source, 1)) {
    kind_ = Kind::space_time;
    const std::int64_t width = source.grid->size[0];
    space_time_.emplace(width, SpaceTimeRows::plan(std::uint64_t(width), first_step, last_step));
  } else if (is_grid(source, 2)) {
    kind_ = Kind::grid2d;
    grid_width_ = source.grid->size[0];
    grid_height_ = source.grid->size[1];
  } else if (is_grid(source, 3)) {
    kind_ = options.slice ? Kind::slice : Kind::top_view;
    if (options.slice) check_grid_slice(*options.slice, *source.grid);
    grid3d_ = *source.grid;
  } else {
    kind_ = Kind::raster;
    raster_ = has_mesh_elements(source)
                  ? CellRaster::for_mesh_elements(*source.mesh, source.mesh_elements, options.size)
              : pictured_by_layout(source) ? CellRaster::for_points(laid_out(source.graph), options.size)
                                           : CellRaster::for_points(source.graph, options.size);
  }
  legend_ = make_legend();
}

std::uint64_t Pictures::every() const {
  const std::uint64_t frames = series_ ? every_ : 0, rows = space_time_ ? space_time_->rows().stride : 0;
  return frames && rows ? std::gcd(frames, rows) : frames + rows;
}

const std::vector<Rgb>& Pictures::colours() const {
  return kind_ == Kind::top_view ? column_palette() : palette_.colours();
}

// ---- legends ------------------------------------------------------------------------------

std::string Pictures::state_label(std::uint32_t state) const {
  return state < options_.state_names.size() && !options_.state_names[state].empty() ? options_.state_names[state]
                                                                                     : "state " + std::to_string(state);
}

Legend Pictures::make_legend() const {
  const bool wanted = options_.legend == LegendMode::on ||
                      (options_.legend == LegendMode::automatic && kind_ != Kind::top_view && num_states_ > 2);
  Legend legend;
  if (!wanted) return legend;
  if (kind_ == Kind::top_view) {
    // The shade of each count of cells a column may hold, 0 to the grid's depth.
    const std::int64_t depth = grid3d_->size[2];
    ColourBar bar{{}, "0", std::to_string(depth), {}};
    for (std::int64_t count = 0; count <= depth; ++count) bar.ramp.push_back(column_shade(double(count)));
    const std::vector<std::string>& names = options_.state_names;
    bar.caption = num_states_ == 2 && names.size() >= 2 ? names[1] + " cells per column"
                  : !names.empty()                      ? "cells not " + names[0] + " per column"
                                                        : "cells not in state 0 per column";
    legend.bar = bar;
    return legend;
  }
  const std::uint32_t swatches = num_states_ <= kLegendSwatches ? num_states_ : 2;
  for (std::uint32_t s = 0; s < swatches; ++s) legend.entries.push_back({state_label(s), palette_.index(s)});
  if (swatches < num_states_) {  // states 2.. share a bar, as they share the palette's entries
    ColourBar bar{{}, state_label(2), state_label(num_states_ - 1), {}};
    const std::uint32_t shades = std::min<std::uint32_t>(num_states_ - 2, 256);
    for (std::uint32_t i = 0; i < shades; ++i)
      bar.ramp.push_back(palette_.index(2 + std::uint32_t(std::uint64_t(i) * (num_states_ - 2) / shades)));
    legend.bar = bar;
  }
  if (kind_ == Kind::slice)
    legend.notes.push_back(grid_slice_text(*options_.slice) + ": " + slice_orientation(*options_.slice));
  if (kind_ == Kind::space_time) {
    const SpaceTimeRows& rows = space_time_->rows();
    legend.notes.push_back("time runs down: steps " + std::to_string(rows.first) + " to " + std::to_string(rows.last) +
                           ", " + every_steps(rows.stride));
  }
  return legend;
}

// The strip in the picture's palette: white letters on the background of quick looks and grids,
// or on the sky of top views (column_palette: 0 sky, 255 white).
LegendStyle Pictures::legend_style(std::int64_t picture_width) const {
  return kind_ == Kind::top_view ? LegendStyle{255, 0, legend_scale(picture_width)}
                                 : LegendStyle{1, StatePalette::kBackground, legend_scale(picture_width)};
}

IndexedImage Pictures::legend_strip(std::int64_t picture_width) const {
  return legend_.empty() ? IndexedImage{} : draw_legend(legend_, picture_width, legend_style(picture_width)).image;
}

// ---- drawing ------------------------------------------------------------------------------

void Pictures::write_png(const std::string& path, const std::vector<std::uint32_t>& states) const {
  const int s = options_.scale;
  auto write = [&](std::int64_t width, std::int64_t height, RowFiller body) {
    const Composite picture(width, height, std::move(body), legend_strip(width), legend_style(width).strip);
    write_indexed_png(path, picture.width(), picture.height(), colours(),
                      [&](std::int64_t y, std::uint8_t* row) { picture.fill(y, row); });
  };
  auto cells = [&](const std::vector<std::uint32_t>& plane, std::int64_t width, std::int64_t height) {
    if (width < 1 || height < 1 || plane.size() != std::size_t(width * height))
      throw Error("cannot write " + path + ": a " + std::to_string(width) + "x" + std::to_string(height) +
                  " grid does not match its " + std::to_string(plane.size()) + " states");
    // Streamed row by row, however large the grid.
    write(width * s, height * s, scaled_rows(width, s, [&](std::int64_t x, std::int64_t y) {
            return palette_.index(plane[std::size_t(y * width + x)]);
          }));
  };
  switch (kind_) {
    case Kind::grid2d:
      cells(states, grid_width_, grid_height_);
      break;
    case Kind::slice: {
      const SlicePlane plane = slice_plane(states, *grid3d_, *options_.slice);
      cells(plane.states, plane.width, plane.height);
      break;
    }
    case Kind::space_time: {
      const IndexedImage& rows = space_time_->cells();
      if (rows.pixels.empty()) throw Error("cannot write " + path + ": the space-time picture has no row yet");
      const auto area = std::uint64_t(rows.width * rows.height);
      const int fit = int(std::sqrt(double(kSpaceTimePixels / area)));
      const int scale = std::max(1, std::min(s, fit));
      write(rows.width * scale, rows.height * scale,
            scaled_rows(rows.width, scale,
                        [&](std::int64_t x, std::int64_t y) { return rows.pixels[std::size_t(y * rows.width + x)]; }));
      break;
    }
    case Kind::top_view: {  // `scale` pixels per column, whatever the size, as for 2D grids
      const IndexedImage top = column_picture(states, *grid3d_, s, std::numeric_limits<std::int64_t>::max());
      write(top.width, top.height, rows_of(top));
      break;
    }
    case Kind::raster: {
      const IndexedImage quick_look = raster_->render(states, palette_);
      write(quick_look.width, quick_look.height, rows_of(quick_look));
      break;
    }
  }
}

IndexedImage Pictures::gif_frame(const std::vector<std::uint32_t>& states) const {
  const int s = options_.scale, size = options_.size;
  IndexedImage body;
  switch (kind_) {
    case Kind::grid2d:
      body = grid_picture(states, grid_width_, grid_height_, palette_, s, size);
      break;
    case Kind::slice: {
      const SlicePlane plane = slice_plane(states, *grid3d_, *options_.slice);
      body = grid_picture(plane.states, plane.width, plane.height, palette_, s, size);
      break;
    }
    case Kind::space_time:
      body = fit_picture(space_time_->cells(), s, size);
      break;
    case Kind::top_view:
      body = column_picture(states, *grid3d_, s, size);
      break;
    case Kind::raster:
      body = raster_->render(states, palette_);
      break;
  }
  IndexedImage strip = legend_strip(body.width);
  if (strip.pixels.empty()) return body;
  return Composite(body.width, body.height, rows_of(body), std::move(strip), legend_style(body.width).strip).image();
}

void Pictures::snapshot(std::uint64_t step, const std::vector<std::uint32_t>& states) {
  if (space_time_ && space_time_->rows().holds(step)) space_time_->record(step, states, palette_);
  if (!takes_frame(step)) return;
  if (!options_.frames.empty()) write_png(frame_path(options_.frames, step), states);
  if (options_.gif.empty()) return;
  const IndexedImage frame = gif_frame(states);
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
