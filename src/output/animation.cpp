#include "cellgraph/output/animation.hpp"

#include <gif_lib.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <ostream>

#include "cellgraph/error.hpp"

namespace cellgraph {
namespace {

// GIF sizes are 16-bit.
constexpr std::int64_t kMaxSide = 65535;

int write_to_stream(GifFileType* gif, const GifByteType* bytes, int length) {
  auto& out = *static_cast<std::ostream*>(gif->UserData);
  return out.write(reinterpret_cast<const char*>(bytes), length) ? length : 0;
}

std::string gif_error(int code) {
  const char* text = GifErrorString(code);
  return text ? text : "giflib error " + std::to_string(code);
}

// giflib wants a power-of-two colour table of 2 to 256 entries.
int colour_table_size(std::size_t colours) {
  int size = 2;
  while (std::size_t(size) < colours) size *= 2;
  return size;
}

}  // namespace

struct GifWriter::Encoder {
  GifFileType* gif = nullptr;
  ~Encoder() {
    if (gif) EGifCloseFile(gif, nullptr);  // frees giflib's state; the temporary is removed
  }
};

GifWriter::GifWriter(const std::string& path, std::int64_t width, std::int64_t height, const std::vector<Rgb>& colours,
                     int delay_ms)
    : path_(path), width_(width), height_(height), palette_size_(colours.size()),
      delay_cs_(std::clamp(int(std::lround(delay_ms / 10.0)), 1, 65535)), file_(path),
      encoder_(std::make_unique<Encoder>()) {
  auto reject = [&](const std::string& why) { throw Error("cannot write " + path + ": " + why); };
  if (width < 1 || height < 1 || width > kMaxSide || height > kMaxSide)
    reject("a GIF frame of " + std::to_string(width) + "x" + std::to_string(height) + " pixels is outside 1..65535");
  if (colours.empty() || colours.size() > 256) reject("a GIF palette holds 1 to 256 colours");
  int error = 0;
  encoder_->gif = EGifOpen(&file_.stream(), write_to_stream, &error);
  if (!encoder_->gif) reject(gif_error(error));
  GifFileType* gif = encoder_->gif;

  std::vector<GifColorType> table(std::size_t(colour_table_size(colours.size())), GifColorType{0, 0, 0});
  for (std::size_t i = 0; i < colours.size(); ++i) table[i] = {colours[i].r, colours[i].g, colours[i].b};
  ColorMapObject* map = GifMakeMapObject(int(table.size()), table.data());
  if (!map) reject("out of memory");
  EGifSetGifVersion(gif, true);  // GIF89a: delays and looping
  const int put = EGifPutScreenDesc(gif, int(width), int(height), 8, 0, map);
  GifFreeMapObject(map);  // the screen descriptor keeps its own copy
  // The NETSCAPE2.0 application block: loop count 0, forever.
  static const GifByteType kLoopForever[3] = {1, 0, 0};
  if (put == GIF_ERROR || EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
      EGifPutExtensionBlock(gif, 11, "NETSCAPE2.0") == GIF_ERROR ||
      EGifPutExtensionBlock(gif, 3, kLoopForever) == GIF_ERROR || EGifPutExtensionTrailer(gif) == GIF_ERROR)
    reject(gif_error(gif->Error));
}

GifWriter::~GifWriter() = default;

void GifWriter::add_frame(const IndexedImage& frame) {
  auto reject = [&](const std::string& why) { throw Error("cannot write " + path_ + ": " + why); };
  if (!encoder_->gif) reject("the animation is already finished");
  if (frame.width != width_ || frame.height != height_ || frame.pixels.size() != std::size_t(width_ * height_))
    reject("a frame of " + std::to_string(frame.width) + "x" + std::to_string(frame.height) + " pixels in a " +
           std::to_string(width_) + "x" + std::to_string(height_) + " animation");
  for (std::uint8_t index : frame.pixels)
    if (index >= palette_size_) reject("pixel index " + std::to_string(index) + " is outside the palette");
  GifFileType* gif = encoder_->gif;
  GraphicsControlBlock control{};
  control.DisposalMode = DISPOSE_DO_NOT;  // every frame covers the whole canvas
  control.DelayTime = delay_cs_;
  control.TransparentColor = NO_TRANSPARENT_COLOR;
  GifByteType extension[4];
  EGifGCBToExtension(&control, extension);
  if (EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, 4, extension) == GIF_ERROR ||
      EGifPutImageDesc(gif, 0, 0, int(width_), int(height_), false, nullptr) == GIF_ERROR)
    reject(gif_error(gif->Error));
  std::vector<GifPixelType> row(static_cast<std::size_t>(width_));  // EGifPutLine masks its input in place
  for (std::int64_t y = 0; y < height_; ++y) {
    std::copy_n(frame.pixels.begin() + std::ptrdiff_t(y * width_), width_, row.begin());
    if (EGifPutLine(gif, row.data(), int(width_)) == GIF_ERROR) reject(gif_error(gif->Error));
  }
  ++frames_;
}

void GifWriter::finish() {
  if (!encoder_->gif) throw Error("cannot write " + path_ + ": the animation is already finished");
  if (frames_ == 0) throw Error("cannot write " + path_ + ": an animation needs at least one frame");
  int error = 0;
  const int closed = EGifCloseFile(encoder_->gif, &error);  // writes the trailer, frees the state
  encoder_->gif = nullptr;
  if (closed == GIF_ERROR) throw Error("cannot write " + path_ + ": " + gif_error(error));
  file_.commit();  // also reports a failed write of the trailer
}

// ---- reading -------------------------------------------------------------------------

namespace {

bool is_loop_block(const ExtensionBlock& block) {
  return block.Function == APPLICATION_EXT_FUNC_CODE && block.ByteCount == 11 &&
         std::memcmp(block.Bytes, "NETSCAPE2.0", 11) == 0;
}

}  // namespace

GifAnimation read_gif(const std::string& path) {
  int error = 0;
  GifFileType* gif = DGifOpenFileName(path.c_str(), &error);
  if (!gif) throw Error("cannot read " + path + ": " + gif_error(error));
  struct Closer {
    GifFileType* gif;
    ~Closer() { DGifCloseFile(gif, nullptr); }
  } closer{gif};
  if (DGifSlurp(gif) == GIF_ERROR) throw Error("cannot read " + path + ": " + gif_error(gif->Error));

  GifAnimation animation;
  animation.width = gif->SWidth;
  animation.height = gif->SHeight;
  RgbImage canvas{gif->SWidth, gif->SHeight, std::vector<std::uint8_t>(std::size_t(gif->SWidth) * gif->SHeight * 3)};
  for (int i = 0; i < gif->ImageCount; ++i) {
    const SavedImage& image = gif->SavedImages[i];
    for (int b = 0; b < image.ExtensionBlockCount; ++b) animation.loops |= is_loop_block(image.ExtensionBlocks[b]);
    GraphicsControlBlock control{};
    control.TransparentColor = NO_TRANSPARENT_COLOR;
    DGifSavedExtensionToGCB(gif, i, &control);
    const GifImageDesc& desc = image.ImageDesc;
    const ColorMapObject* map = desc.ColorMap ? desc.ColorMap : gif->SColorMap;
    if (!map) throw Error("cannot read " + path + ": frame " + std::to_string(i) + " has no colour table");
    for (int y = 0; y < desc.Height; ++y)
      for (int x = 0; x < desc.Width; ++x) {
        const int index = image.RasterBits[std::size_t(y) * desc.Width + x];
        const int cx = desc.Left + x, cy = desc.Top + y;
        if (index == control.TransparentColor || cx >= gif->SWidth || cy >= gif->SHeight) continue;
        if (index >= map->ColorCount) throw Error("cannot read " + path + ": a pixel outside the colour table");
        std::uint8_t* rgb = &canvas.rgb[(std::size_t(cy) * gif->SWidth + cx) * 3];
        rgb[0] = map->Colors[index].Red, rgb[1] = map->Colors[index].Green, rgb[2] = map->Colors[index].Blue;
      }
    animation.frames.push_back(canvas);
    animation.delays_cs.push_back(control.DelayTime);
  }
  return animation;
}

}  // namespace cellgraph
