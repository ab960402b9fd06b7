// A run's pictures: the final PNG, PNG frames and an animated GIF, of 2D grids cell by cell, of
// 1D grids as space-time diagrams (space_time.hpp), of 3D grids seen from above
// (column_view.hpp) or cut along a plane (grid_slice.hpp), and of meshes and graphs with
// coordinates as quick looks (quicklook.hpp), graphs without at positions Graphviz lays out
// (graph_layout.hpp); a legend under them names what the colours mean
// (legend.hpp).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cellgraph/output/animation.hpp"
#include "cellgraph/output/grid_slice.hpp"
#include "cellgraph/output/legend.hpp"
#include "cellgraph/output/palette.hpp"
#include "cellgraph/output/quicklook.hpp"
#include "cellgraph/output/space_time.hpp"
#include "cellgraph/source/source.hpp"

namespace cellgraph {

// The values a picture option may take, least and most, for the library's checks and the
// CLI's messages alike.
struct PictureRange {
  int least, most;
  bool holds(int value) const { return value >= least && value <= most; }
  std::string text() const { return std::to_string(least) + " to " + std::to_string(most); }
};
inline constexpr PictureRange kPictureScale{1, 64};     // pixels per cell (column) of a grid
inline constexpr PictureRange kPictureSize{16, 4096};   // pixels on the longer side of a quick look
inline constexpr PictureRange kGifDelayMs{10, 655350};  // milliseconds per GIF frame

// automatic: a legend under pictures of more than two states (black and white need none);
// on: under every picture, the top view of a 3D grid with a colour bar; off: none.
enum class LegendMode { automatic, on, off };

// At most this many states get a swatch each; beyond, states 0 and 1 do and the rest share a
// colour bar (their colours run from orange to dark red).
inline constexpr std::uint32_t kLegendSwatches = 16;

struct PictureOptions {
  std::string png, frames, gif;    // final picture, frame BASE, animation; empty: none
  std::uint64_t every = 0;         // steps between frames; 0: a hundredth of the run
  int scale = 1;                   // pixels per cell (column) of grids: 1 to 64
  int size = 800;                  // longer side of quick looks, largest side of GIF frames: 16 to 4096
  int gif_delay_ms = 100;          // per GIF frame: 10 to 655350
  std::optional<GridSlice> slice;  // 3D grids: this plane cell by cell; none: the top view
  LegendMode legend = LegendMode::automatic;
  std::vector<std::string> state_names;  // the legend's names of states 0, 1, ...; others "state <s>"
  bool any() const { return !png.empty() || !frames.empty() || !gif.empty(); }
  bool series() const { return !frames.empty() || !gif.empty(); }
};

// "<base>_<step, zero-padded to at least 6 digits>.png", as VTK snapshots are named.
std::string frame_path(const std::string& base, std::uint64_t step);

// Whether the source can be pictured: a grid, a mesh with coordinates, a graph with 2 or 3
// coordinates, or a graph without that Graphviz's sfdp lays out (within layout_fits,
// graph_layout.hpp), once, when the pictures are made.
bool can_picture(const Source& source);
// Whether the source is pictured by such a layout: a graph (or the elements of a mesh) without
// coordinates.
bool pictured_by_layout(const Source& source);

// Refuses, before any work, pictures of a source that cannot be pictured, sizes out of range, a
// slice of anything but a 3D grid or outside it, a 1D grid too wide for a space-time diagram,
// and paths that cannot be written.
void check_pictures(const PictureOptions& options, const Source& source);

class Pictures {
 public:
  // Frames are taken at multiples of the options' every from first_step to last_step, and at
  // both ends; a space-time diagram takes the rows SpaceTimeRows::plan gives.
  Pictures(const PictureOptions& options, const Source& source, std::uint32_t num_states, std::uint64_t first_step,
           std::uint64_t last_step);

  // Steps between the steps snapshot() wants (0: none); it wants the first and last too.
  std::uint64_t every() const;
  bool wants(std::uint64_t step) const { return takes_frame(step) || (space_time_ && space_time_->rows().holds(step)); }
  bool takes_frame(std::uint64_t step) const {
    return series_ && (step % every_ == 0 || step == first_step_ || step == last_step_);
  }
  // The rows of a 1D grid's space-time diagram; null for other sources.
  const SpaceTimeRows* space_time_rows() const { return space_time_ ? &space_time_->rows() : nullptr; }

  void snapshot(std::uint64_t step, const std::vector<std::uint32_t>& states);  // rows, frames, GIF
  void finish(const std::vector<std::uint32_t>& final_states);                  // final PNG, GIF
  void finish_series();                                                         // GIF only

  // What the legend under the pictures shows (empty: no legend), in the palette of colours().
  const Legend& legend() const { return legend_; }
  const std::vector<Rgb>& colours() const;

 private:
  enum class Kind { grid2d, space_time, top_view, slice, raster };
  void write_png(const std::string& path, const std::vector<std::uint32_t>& states) const;
  IndexedImage gif_frame(const std::vector<std::uint32_t>& states) const;
  LegendStyle legend_style(std::int64_t picture_width) const;
  IndexedImage legend_strip(std::int64_t picture_width) const;  // empty without a legend
  Legend make_legend() const;
  std::string state_label(std::uint32_t state) const;

  PictureOptions options_;
  std::uint32_t num_states_;
  StatePalette palette_;
  Kind kind_;
  std::int64_t grid_width_ = 0, grid_height_ = 0;  // 2D grids
  std::optional<GridSpec> grid3d_;                 // top views and slices
  std::optional<CellRaster> raster_;
  std::optional<SpaceTime> space_time_;  // 1D grids
  std::uint64_t every_, first_step_, last_step_;
  bool series_;
  Legend legend_;
  std::unique_ptr<GifWriter> gif_;  // opened with the first frame, whose size it takes
};

}  // namespace cellgraph
