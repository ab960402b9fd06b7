// Animated GIFs through giflib: frames of palette indices (palette.hpp) appended as a run goes,
// the file moved into place only by finish().
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cellgraph/output/atomic_file.hpp"
#include "cellgraph/output/palette.hpp"
#include "cellgraph/output/png.hpp"

namespace cellgraph {

class GifWriter {
 public:
  // Every frame is width x height pixels of indices into `colours` (at most 256), shown for
  // `delay_ms` milliseconds (rounded to GIF's hundredths of a second, at least 1); the
  // animation loops forever. Throws Error if the file cannot be created or the sizes are bad.
  GifWriter(const std::string& path, std::int64_t width, std::int64_t height, const std::vector<Rgb>& colours,
            int delay_ms);
  ~GifWriter();
  GifWriter(const GifWriter&) = delete;
  GifWriter& operator=(const GifWriter&) = delete;

  // Encodes one frame into the temporary file. Throws Error for a frame of another size, an
  // index outside the palette, or a failed write.
  void add_frame(const IndexedImage& frame);
  std::uint64_t frames() const { return frames_; }

  // Closes the GIF and renames it over the target; throws Error on failure or with no frame.
  void finish();

 private:
  struct Encoder;  // giflib's state, kept out of this header
  std::string path_;
  std::int64_t width_, height_;
  std::size_t palette_size_;
  int delay_cs_;
  std::uint64_t frames_ = 0;
  AtomicFile file_;
  std::unique_ptr<Encoder> encoder_;
};

// A GIF read back (for tests): every frame composed onto the full canvas, as RGB.
struct GifAnimation {
  std::int64_t width = 0, height = 0;
  std::vector<RgbImage> frames;
  std::vector<int> delays_cs;  // per frame, hundredths of a second
  bool loops = false;          // has a NETSCAPE2.0 block asking for endless looping
};
GifAnimation read_gif(const std::string& path);

}  // namespace cellgraph
