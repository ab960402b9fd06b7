#include "cellgraph/output/png.hpp"

#include <png.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <span>

#include "cellgraph/error.hpp"
#include "cellgraph/output/atomic_file.hpp"
#include "cellgraph/output/palette.hpp"

namespace cellgraph {
namespace {

// Streamed row by row, so the bound is on what viewers and libpng accept, not on our memory.
constexpr std::uint64_t kMaxPixels = std::uint64_t{1} << 31;

// ---- libpng error handling -------------------------------------------------------------
//
// libpng reports errors by longjmp from inside its C frames, where a C++ exception must not
// pass. run_guarded() holds the setjmp; a failing libpng call lands back there and it returns
// false, after which PngSession::run throws with no libpng frame left on the stack. Code that
// runs under the guard keeps only trivially destructible locals, since a longjmp skips
// destructors.

template <class Steps>
bool run_guarded(png_structp png, Steps& steps) {
  if (setjmp(png_jmpbuf(png))) return false;
  steps();
  return true;
}

enum class PngMode { read, write };

// Owns a libpng read or write struct with its info struct, and the last error message.
class PngSession {
 public:
  explicit PngSession(PngMode mode) : mode_(mode) {
    png_ = mode == PngMode::write ? png_create_write_struct(PNG_LIBPNG_VER_STRING, this, on_error, on_warning)
                                  : png_create_read_struct(PNG_LIBPNG_VER_STRING, this, on_error, on_warning);
    if (png_) info_ = png_create_info_struct(png_);
    if (!info_) {
      destroy();
      throw Error("libpng: out of memory");
    }
    // libpng's default cap of 1e6 per side is stricter than ours; kMaxPixels bounds the area.
    png_set_user_limits(png_, PNG_UINT_31_MAX, PNG_UINT_31_MAX);
  }
  ~PngSession() { destroy(); }
  PngSession(const PngSession&) = delete;  // libpng holds `this` as its error pointer
  PngSession& operator=(const PngSession&) = delete;

  png_structp png() const { return png_; }
  png_infop info() const { return info_; }

  // Runs libpng calls; a libpng error becomes Error("<failing>: <libpng's message>").
  template <class Steps>
  void run(const std::string& failing, Steps&& steps) {
    if (!run_guarded(png_, steps)) throw Error(failing + ": " + error_);
  }

 private:
  [[noreturn]] static void on_error(png_structp png, png_const_charp message) {
    auto* session = static_cast<PngSession*>(png_get_error_ptr(png));
    std::snprintf(session->error_, sizeof session->error_, "%s", message);
    png_longjmp(png, 1);
  }
  static void on_warning(png_structp, png_const_charp) {}  // nothing a user could act on

  void destroy() {
    if (mode_ == PngMode::write) png_destroy_write_struct(&png_, &info_);
    else png_destroy_read_struct(&png_, &info_, nullptr);
  }

  PngMode mode_;
  png_structp png_ = nullptr;
  png_infop info_ = nullptr;
  char error_[256] = "";  // a plain array: filling it inside libpng must not throw
};

void write_to_stream(png_structp png, png_bytep data, std::size_t length) {
  auto& out = *static_cast<std::ostream*>(png_get_io_ptr(png));
  if (!out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(length)))
    png_error(png, "write failed");
}

void flush_stream(png_structp png) { static_cast<std::ostream*>(png_get_io_ptr(png))->flush(); }

void read_from_stream(png_structp png, png_bytep data, std::size_t length) {
  auto& in = *static_cast<std::istream*>(png_get_io_ptr(png));
  if (!in.read(reinterpret_cast<char*>(data), static_cast<std::streamsize>(length)))
    png_error(png, "unexpected end of file");
}

// ---- writing -------------------------------------------------------------------------

struct Grid {
  std::span<const std::uint32_t> states;  // row-major
  std::int64_t width, height;
  std::uint32_t num_states;
  int scale;
};

void check_grid(const std::string& path, const Grid& grid) {
  auto reject = [&](const std::string& why) { throw Error("cannot write " + path + ": " + why); };
  const std::string size = std::to_string(grid.width) + "x" + std::to_string(grid.height);
  if (grid.width < 1 || grid.height < 1) reject("grid size " + size + " is empty");
  const std::uint64_t cells = grid.states.size();
  if (cells % grid.width != 0 || cells / grid.width != std::uint64_t(grid.height))
    reject("grid size " + size + " does not match its " + std::to_string(cells) + " states");
  if (grid.scale < 1 || grid.scale > 64) reject("scale " + std::to_string(grid.scale) + " is outside 1..64");
  if (grid.num_states < 2) reject("a rule needs at least 2 states");
  if (cells > kMaxPixels / std::uint64_t(grid.scale * grid.scale))
    reject("a " + size + " grid at scale " + std::to_string(grid.scale) + " exceeds 2^31 pixels");
}

// One image row for grid row `y`: each cell repeated `scale` times.
void fill_row(const Grid& grid, std::int64_t y, png_bytep row) {
  for (std::uint32_t state : grid.states.subspan(std::size_t(y * grid.width), grid.width)) {
    const Rgb colour = state_colour(state, grid.num_states);
    for (int repeat = 0; repeat < grid.scale; ++repeat) {
      *row++ = colour.r;
      *row++ = colour.g;
      *row++ = colour.b;
    }
  }
}

void encode(png_structp png, png_infop info, const Grid& grid, png_bytep row) {
  png_set_IHDR(png, info, png_uint_32(grid.width * grid.scale), png_uint_32(grid.height * grid.scale), 8,
               PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  // Snapshots are taken often during a run; cell images compress well even at this level.
  png_set_compression_level(png, Z_BEST_SPEED);
  png_write_info(png, info);
  for (std::int64_t y = 0; y < grid.height; ++y) {
    fill_row(grid, y, row);
    for (int repeat = 0; repeat < grid.scale; ++repeat) png_write_row(png, row);
  }
  png_write_end(png, info);
}

// A palette image: one byte per pixel, the palette as PLTE, rows filled one at a time.
void encode_indexed(png_structp png, png_infop info, std::int64_t width, std::int64_t height,
                    const std::vector<png_color>& palette, const RowFiller& fill_row, png_bytep row) {
  png_set_IHDR(png, info, png_uint_32(width), png_uint_32(height), 8, PNG_COLOR_TYPE_PALETTE, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_PLTE(png, info, palette.data(), int(palette.size()));
  png_set_compression_level(png, Z_BEST_SPEED);
  png_write_info(png, info);
  for (std::int64_t y = 0; y < height; ++y) {
    fill_row(y, row);
    for (std::int64_t x = 0; x < width; ++x)
      if (row[x] >= palette.size()) png_error(png, "a pixel index is outside the palette");
    png_write_row(png, row);
  }
  png_write_end(png, info);
}

// ---- reading -------------------------------------------------------------------------

void decode(png_structp png, png_infop info, RgbImage& image) {
  png_read_info(png, info);
  png_set_expand(png);  // palette and low-bit gray to 8 bits
  png_set_strip_16(png);
  png_set_strip_alpha(png);
  png_set_gray_to_rgb(png);
  const int passes = png_set_interlace_handling(png);
  png_read_update_info(png, info);
  const png_uint_32 width = png_get_image_width(png, info);
  const png_uint_32 height = png_get_image_height(png, info);
  if (std::uint64_t(width) * height > kMaxPixels) png_error(png, "image exceeds 2^31 pixels");
  const std::size_t stride = std::size_t(width) * 3;
  if (png_get_rowbytes(png, info) != stride) png_error(png, "cannot convert the image to RGB");
  image.width = width;
  image.height = height;
  image.rgb.resize(stride * height);
  for (int pass = 0; pass < passes; ++pass)
    for (png_uint_32 y = 0; y < height; ++y) png_read_row(png, &image.rgb[y * stride], nullptr);
  png_read_end(png, nullptr);
}

}  // namespace

void write_grid_png(const std::string& path, const std::vector<std::uint32_t>& states, std::int64_t width,
                    std::int64_t height, std::uint32_t num_states, int scale) {
  const Grid grid{states, width, height, num_states, scale};
  check_grid(path, grid);
  AtomicFile file(path);  // removes its temporary if anything below throws
  std::vector<png_byte> row(std::size_t(width) * scale * 3);
  PngSession session(PngMode::write);
  png_set_write_fn(session.png(), &file.stream(), write_to_stream, flush_stream);
  session.run("cannot write " + path, [&] { encode(session.png(), session.info(), grid, row.data()); });
  file.commit();
}

void write_indexed_png(const std::string& path, const IndexedImage& image, const std::vector<Rgb>& colours) {
  if (image.width >= 1 && image.height >= 1 && image.pixels.size() != std::size_t(image.width * image.height))
    throw Error("cannot write " + path + ": pixel count does not match the size");
  for (std::uint8_t index : image.pixels)  // named before any file is made
    if (index >= colours.size())
      throw Error("cannot write " + path + ": pixel index " + std::to_string(index) + " is outside the palette");
  write_indexed_png(path, image.width, image.height, colours, [&](std::int64_t y, std::uint8_t* row) {
    std::copy_n(image.pixels.begin() + std::ptrdiff_t(y * image.width), image.width, row);
  });
}

void write_indexed_png(const std::string& path, std::int64_t width, std::int64_t height,
                       const std::vector<Rgb>& colours, const RowFiller& fill_row) {
  auto reject = [&](const std::string& why) { throw Error("cannot write " + path + ": " + why); };
  if (width < 1 || height < 1) reject("the image is empty");
  if (std::uint64_t(width) * std::uint64_t(height) > kMaxPixels) reject("the image exceeds 2^31 pixels");
  if (colours.empty() || colours.size() > 256) reject("a palette holds 1 to 256 colours");
  std::vector<png_color> palette;
  for (const Rgb& c : colours) palette.push_back({c.r, c.g, c.b});
  std::vector<png_byte> row(static_cast<std::size_t>(width));
  AtomicFile file(path);
  PngSession session(PngMode::write);
  png_set_write_fn(session.png(), &file.stream(), write_to_stream, flush_stream);
  session.run("cannot write " + path,
              [&] { encode_indexed(session.png(), session.info(), width, height, palette, fill_row, row.data()); });
  file.commit();
}

RgbImage read_png(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot read " + path + ": " + std::strerror(errno));
  PngSession session(PngMode::read);
  png_set_read_fn(session.png(), &in, read_from_stream);
  RgbImage image;
  session.run("cannot read " + path, [&] { decode(session.png(), session.info(), image); });
  return image;
}

}  // namespace cellgraph
