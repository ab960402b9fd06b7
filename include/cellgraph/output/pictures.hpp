// A run's pictures: the final PNG, PNG frames and an animated GIF, of 2D grids cell by cell, of
// 3D grids seen from above (column_view.hpp) and of meshes and graphs with coordinates as quick
// looks (quicklook.hpp).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cellgraph/output/animation.hpp"
#include "cellgraph/output/palette.hpp"
#include "cellgraph/output/quicklook.hpp"
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

struct PictureOptions {
  std::string png, frames, gif;  // final picture, frame BASE, animation; empty: none
  std::uint64_t every = 0;       // steps between frames; 0: a hundredth of the run
  int scale = 1;                 // pixels per cell (column) of 2D (3D) grids: 1 to 64
  int size = 800;                // longer side of quick looks, largest side of GIF frames: 16 to 4096
  int gif_delay_ms = 100;        // per GIF frame: 10 to 655350
  bool any() const { return !png.empty() || !frames.empty() || !gif.empty(); }
  bool series() const { return !frames.empty() || !gif.empty(); }
};

// "<base>_<step, zero-padded to at least 6 digits>.png", as VTK snapshots are named.
std::string frame_path(const std::string& base, std::uint64_t step);

// Whether the source can be pictured: a 2D or 3D grid, a mesh with coordinates, or a graph with
// 2 or 3 coordinates.
bool can_picture(const Source& source);

// Refuses, before any work, pictures of a source that cannot be pictured, sizes out of range,
// and paths that cannot be written.
void check_pictures(const PictureOptions& options, const Source& source);

class Pictures {
 public:
  // Frames are taken at multiples of every() from first_step to last_step, and at both ends.
  Pictures(const PictureOptions& options, const Source& source, std::uint32_t num_states, std::uint64_t first_step,
           std::uint64_t last_step);

  std::uint64_t every() const { return series_ ? every_ : 0; }  // 0: no frames wanted
  bool wants(std::uint64_t step) const {
    return series_ && (step % every_ == 0 || step == first_step_ || step == last_step_);
  }
  void snapshot(std::uint64_t step, const std::vector<std::uint32_t>& states);  // frames, GIF
  void finish(const std::vector<std::uint32_t>& final_states);                  // final PNG, GIF
  void finish_series();                                                         // GIF only

 private:
  void write_png(const std::string& path, const std::vector<std::uint32_t>& states) const;
  IndexedImage picture(const std::vector<std::uint32_t>& states) const;
  const std::vector<Rgb>& colours() const;  // of picture()'s indices

  PictureOptions options_;
  std::uint32_t num_states_;
  StatePalette palette_;
  std::int64_t grid_width_ = 0, grid_height_ = 0;  // 2D grids; otherwise grid3d_ or raster_
  std::optional<GridSpec> grid3d_;                 // 3D grids: top views
  std::optional<CellRaster> raster_;
  std::uint64_t every_, first_step_, last_step_;
  bool series_;
  std::unique_ptr<GifWriter> gif_;  // opened with the first frame, whose size it takes
};

}  // namespace cellgraph
