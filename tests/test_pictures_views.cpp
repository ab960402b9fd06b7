// Pictures that show what a run did: space-time diagrams of 1D grids, slices of 3D grids, and
// legends naming the states' colours, with the font they are written in.
#include <doctest/doctest.h>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "cellgraph/error.hpp"
#include "cellgraph/output/animation.hpp"
#include "cellgraph/output/font.hpp"
#include "cellgraph/output/legend.hpp"
#include "cellgraph/output/pictures.hpp"
#include "cellgraph/output/png.hpp"
#include "cellgraph/output/space_time.hpp"
#include "cellgraph/source/graph_file.hpp"

using namespace cellgraph;

#include "cli_run.hpp"
#include "scratch.hpp"

namespace {

// The documented colours, spelled out rather than computed.
constexpr Rgb kBlack{0, 0, 0}, kWhite{255, 255, 255}, kOrange{255, 160, 0}, kBackground{40, 56, 88};

using cellgraph::test::run_cli;

Rgb pixel(const RgbImage& image, std::int64_t x, std::int64_t y) {
  const std::uint8_t* p = &image.rgb[std::size_t((y * image.width + x) * 3)];
  return {p[0], p[1], p[2]};
}

std::set<std::uint32_t> colours_in(const RgbImage& image) {
  std::set<std::uint32_t> colours;
  for (std::size_t i = 0; i < image.rgb.size(); i += 3)
    colours.insert(std::uint32_t(image.rgb[i]) << 16 | std::uint32_t(image.rgb[i + 1]) << 8 | image.rgb[i + 2]);
  return colours;
}

// Wolfram's rule 110 on a ring of cells, step by step: generation t of a single live cell.
std::vector<std::vector<int>> rule110(std::size_t width, std::size_t live, std::size_t steps) {
  std::vector<std::vector<int>> generations{std::vector<int>(width, 0)};
  generations[0][live] = 1;
  for (std::size_t t = 0; t < steps; ++t) {
    const std::vector<int>& now = generations.back();
    std::vector<int> next(width);
    for (std::size_t x = 0; x < width; ++x) {
      const int index = now[(x + width - 1) % width] << 2 | now[x] << 1 | now[(x + 1) % width];
      next[x] = 110 >> index & 1;
    }
    generations.push_back(next);
  }
  return generations;
}

std::string run_ok(const std::string& args) {
  const auto r = run_cli("run --backend cpu --threads 1 " + args);
  REQUIRE_MESSAGE(r.status == 0, r.out);
  return r.out;
}

}  // namespace

// ---- the font and the legend strip --------------------------------------------------------

TEST_CASE("pictures: the font draws printable ASCII, '?' for anything else") {
  CHECK(font::glyph('A') == std::array<std::uint8_t, 8>{0x0E, 0x11, 0x11, 0x1F, 0x11, 0x11, 0x11, 0x00});
  CHECK(font::glyph('\n') == font::glyph('?'));
  CHECK(font::glyph('\x7f') == font::glyph('?'));
  for (char c = '!'; c <= '~'; ++c) {  // every glyph but the space has a pixel, and no two are alike
    INFO("'", c, "'");
    CHECK(font::glyph(c) != font::glyph(' '));
    if (c != '?') CHECK(font::glyph(c) != font::glyph('?'));
  }
  CHECK(font::text_width("", 1) == 0);
  CHECK(font::text_width("ab", 2) == 22);  // 5 + 1 + 5 columns, doubled

  IndexedImage image{12, 9, std::vector<std::uint8_t>(12 * 9, 0)};
  font::draw_text(image, 1, 1, "-|", 7, 1);
  for (std::int64_t y = 0; y < 9; ++y)
    for (std::int64_t x = 0; x < 12; ++x) {
      const bool dash = y == 4 && x >= 1 && x <= 5, bar = x == 9 && y >= 1 && y <= 7;
      INFO("pixel (", x, ", ", y, ")");
      CHECK(image.pixels[std::size_t(y * 12 + x)] == (dash || bar ? 7 : 0));
    }
  font::draw_text(image, -3, 6, "W", 5, 2);  // clipped, not refused
}

TEST_CASE("pictures: a legend strip puts a framed swatch before each name and wraps to the width") {
  const Legend legend{{{"S", 0}, {"I", 1}, {"R", 2}}, std::nullopt, {"a note"}};
  const LegendStyle style{9, 8, 1};
  const LegendStrip wide = draw_legend(legend, 200, style);
  REQUIRE(wide.swatches.size() == 3);
  CHECK(wide.image.width == 200);
  CHECK(wide.image.height == 4 + 11 + 8 + 4);  // padding, the entries' line, the note's, padding
  for (std::size_t i = 0; i < 3; ++i) {
    const PixelRect& s = wide.swatches[i];
    CHECK(s.width == 7);
    CHECK(s.height == 7);
    CHECK(s.y == 4);
    if (i) CHECK(s.x > wide.swatches[i - 1].x);
    for (std::int64_t y = s.y; y < s.y + s.height; ++y)
      for (std::int64_t x = s.x; x < s.x + s.width; ++x)
        REQUIRE(wide.image.pixels[std::size_t(y * 200 + x)] == legend.entries[i].index);
    CHECK(wide.image.pixels[std::size_t((s.y - 1) * 200 + s.x)] == 9);  // the frame
    CHECK(wide.image.pixels[std::size_t(s.y * 200 + s.x + s.width)] == 9);
  }
  CHECK(wide.image.pixels[0] == 8);

  // Entries are 17 pixels wide: one a line; the note widens the strip to hold it.
  const LegendStrip narrow = draw_legend(legend, 20, style);
  CHECK(narrow.image.width == 4 + font::text_width("a note", 1) + 4);
  CHECK(narrow.swatches[1].y == narrow.swatches[0].y + 11);
  CHECK(narrow.swatches[2].x == narrow.swatches[0].x);
  CHECK(draw_legend(Legend{}, 50, style).image.height == 0);
  CHECK(legend_scale(479) == 1);
  CHECK(legend_scale(480) == 2);
  CHECK(legend_scale(100000) == 4);
}

TEST_CASE("pictures: rules of many states get swatches for states 0 and 1 and a bar for the rest") {
  Source source;
  source.grid = GridSpec{};
  source.grid->size = {4, 4, 1};
  const Legend legend = Pictures(PictureOptions{"x.png"}, source, 25, 0, 1).legend();
  REQUIRE(legend.entries.size() == 2);
  CHECK(legend.entries[1].name == "state 1");
  REQUIRE(legend.bar);
  CHECK(legend.bar->low == "state 2");
  CHECK(legend.bar->high == "state 24");
  CHECK(legend.bar->ramp.front() == 2);
  CHECK(legend.bar->ramp.back() == 24);
  CHECK(Pictures(PictureOptions{"x.png"}, source, 2, 0, 1).legend().empty());  // black and white need none
  PictureOptions off{"x.png"};
  off.legend = LegendMode::off;
  CHECK(Pictures(off, source, 3, 0, 1).legend().empty());
}

// ---- 1D grids: space-time diagrams --------------------------------------------------------

TEST_CASE("pictures: a space-time diagram shows every step, or evenly spaced steps beyond 4096 rows") {
  const SpaceTimeRows all = SpaceTimeRows::plan(32, 0, 4095);
  CHECK(all.stride == 1);
  CHECK(all.count() == 4096);
  const SpaceTimeRows sampled = SpaceTimeRows::plan(32, 0, 9000);
  CHECK(sampled.stride == 3);
  CHECK(sampled.count() == 3001);  // 0, 3, ..., 9000
  CHECK(sampled.row_of(8997) == 2999);
  CHECK_FALSE(sampled.holds(8999));
  // A restarted run: its first step, the multiples of the stride, its last.
  const SpaceTimeRows restarted = SpaceTimeRows::plan(32, 1001, 10000);
  CHECK(restarted.count() <= kSpaceTimeRows);
  std::uint64_t row = 0;
  for (std::uint64_t step = 1001; step <= 10000; ++step)
    if (restarted.holds(step)) REQUIRE(restarted.row_of(step) == row++);
  CHECK(row == restarted.count());
  CHECK(space_time_max_rows(std::uint64_t{1} << 20) == 256);  // wide grids: 2^28 cells in all
  CHECK_THROWS_WITH_AS(SpaceTimeRows::plan(std::uint64_t{1} << 27, 0, 10), doctest::Contains("too few rows"), Error);
}

TEST_CASE("pictures: rule 110 from one live cell draws its generations, a row per step, time going down") {
  ScratchDir dir;
  run_ok("--model rulenumber --rule 110 --grid 64 --cells 60 --steps 40 --png " + dir / "p.png");
  const RgbImage png = read_png(dir / "p.png");
  REQUIRE(png.width == 64);
  REQUIRE(png.height == 41);  // steps 0 to 40; two states: no legend
  // By hand: the live cell, then it and its left neighbor, then three, then 1101 ...
  CHECK(pixel(png, 60, 0) == kWhite);
  CHECK(pixel(png, 59, 0) == kBlack);
  CHECK((pixel(png, 59, 1) == kWhite && pixel(png, 60, 1) == kWhite && pixel(png, 61, 1) == kBlack));
  CHECK((pixel(png, 58, 2) == kWhite && pixel(png, 59, 2) == kWhite && pixel(png, 60, 2) == kWhite));
  const auto generations = rule110(64, 60, 40);
  for (std::int64_t t = 0; t <= 40; ++t)
    for (std::int64_t x = 0; x < 64; ++x) {
      INFO("step ", t, ", cell ", x);
      REQUIRE(pixel(png, x, t) == (generations[std::size_t(t)][std::size_t(x)] ? kWhite : kBlack));
    }
}

TEST_CASE("pictures: a long 1D run shows evenly spaced steps and says so") {
  ScratchDir dir;
  const std::string out =
      run_ok("--model rulenumber --rule 110 --grid 32 --cells 16 --steps 9000 --png " + dir / "p.png");
  CHECK(out.find("the space-time picture shows steps 0 to 9000 in 3001 rows, a row every 3 steps") !=
        std::string::npos);
  const RgbImage png = read_png(dir / "p.png");
  REQUIRE(png.width == 32);
  REQUIRE(png.height == 3001);
  const auto generations = rule110(32, 16, 9000);
  for (std::int64_t row = 0; row < 3001; ++row)
    for (std::int64_t x = 0; x < 32; ++x) {
      INFO("row ", row, " (step ", 3 * row, "), cell ", x);
      REQUIRE(pixel(png, x, row) == (generations[std::size_t(3 * row)][std::size_t(x)] ? kWhite : kBlack));
    }
}

TEST_CASE("pictures: frames and GIF of a 1D run are the diagram so far, the last equals the PNG") {
  ScratchDir dir;
  run_ok("--model rulenumber --rule 110 --grid 64 --cells 60 --steps 20 --png-scale 2 --png " + dir / "p.png" +
         " --frames " + dir / "f --frames-every 10 --gif " + dir / "a.gif");
  CHECK(read_file(dir / "f_000020.png") == read_file(dir / "p.png"));
  const RgbImage middle = read_png(dir / "f_000010.png");
  REQUIRE(middle.width == 128);
  REQUIRE(middle.height == 42);
  const auto generations = rule110(64, 60, 20);
  for (std::int64_t y = 0; y < 42; ++y) {
    const std::int64_t t = y / 2;
    for (std::int64_t x = 0; x < 128; ++x) {
      INFO("pixel (", x, ", ", y, ")");
      const Rgb want = t > 10 ? kBackground : generations[std::size_t(t)][std::size_t(x / 2)] ? kWhite : kBlack;
      REQUIRE(pixel(middle, x, y) == want);
    }
  }
  const GifAnimation gif = read_gif(dir / "a.gif");
  REQUIRE(gif.frames.size() == 3);
  CHECK(gif.frames[1].rgb == middle.rgb);
  CHECK(gif.frames[2].rgb == read_png(dir / "p.png").rgb);
}

// ---- 3D grids: slices and the default view ------------------------------------------------

TEST_CASE("pictures: --slice pictures one plane of a 3D grid, cell by cell") {
  ScratchDir dir;
  const std::string run = "--grid 7x6x5 --rule B5/S45 --fill 0.4 --seed 4 --steps 2 --states-out " + dir / "s.txt";
  auto state = [&](std::int64_t x, std::int64_t y, std::int64_t z) {
    static std::vector<std::uint32_t> states;
    if (states.empty()) states = read_state_file(dir / "s.txt", 7 * 6 * 5);
    return states[std::size_t(x + 7 * (y + 6 * z))] ? kWhite : kBlack;
  };
  run_ok(run + " --slice z=3 --png " + dir / "z.png");
  run_ok(run + " --slice y=2 --png " + dir / "y.png");
  run_ok(run + " --slice x=1 --png " + dir / "x.png");
  const RgbImage z = read_png(dir / "z.png"), y = read_png(dir / "y.png"), x = read_png(dir / "x.png");
  REQUIRE((z.width == 7 && z.height == 6));  // x across, y down
  REQUIRE((y.width == 7 && y.height == 5));  // x across, z up
  REQUIRE((x.width == 6 && x.height == 5));  // y across, z up
  std::size_t live = 0;
  for (std::int64_t j = 0; j < 6; ++j)
    for (std::int64_t i = 0; i < 7; ++i) {
      REQUIRE(pixel(z, i, j) == state(i, j, 3));
      live += pixel(z, i, j) == kWhite;
    }
  CHECK(live > 0);
  for (std::int64_t r = 0; r < 5; ++r) {
    for (std::int64_t i = 0; i < 7; ++i) REQUIRE(pixel(y, i, r) == state(i, 2, 4 - r));
    for (std::int64_t j = 0; j < 6; ++j) REQUIRE(pixel(x, j, r) == state(1, j, 4 - r));
  }
}

TEST_CASE("pictures: a 3D Ising run shows its spins, not a top view of one colour") {
  ScratchDir dir;
  run_ok("--model ising --param T=5 --grid 32x32x32 --fill 0.5 --seed 2 --steps 3 --png " + dir / "p.png");
  const RgbImage png = read_png(dir / "p.png");  // the middle z plane, down black and up white
  REQUIRE(png.width == 32);
  REQUIRE(png.height == 32);
  CHECK(colours_in(png) == std::set<std::uint32_t>{0x000000, 0xFFFFFF});
  std::size_t up = 0;
  for (std::size_t i = 0; i < png.rgb.size(); i += 3) up += png.rgb[i] == 255;
  CHECK(up > 32 * 32 * 3 / 10);
  CHECK(up < 32 * 32 * 7 / 10);
  // The top view on request, its colour bar with --legend on: from the sky (no cell) to 32 cells.
  run_ok("--model ising --param T=5 --grid 32x32x32 --fill 0.5 --seed 2 --steps 3 --slice top --legend on --png " +
         dir / "top.png");
  const RgbImage top = read_png(dir / "top.png");
  CHECK(top.width >= 32);  // the strip may be wider than the picture
  CHECK(top.height > 32);
  CHECK(colours_in(top).count(0x4682C8) == 1);  // sky blue, the bar's low end and the strip
}

// ---- legends ------------------------------------------------------------------------------

TEST_CASE("pictures: a SIR picture has a legend of S, I and R, each swatch in its state's colour") {
  ScratchDir dir;
  run_ok(
      "--model sir --param beta=0.5 --param tau=2 --grid 40x30 --fill-count 30 --seed 2 --steps 4 --png-scale 4 "
      "--png " +
      dir / "p.png --states-out " + dir / "s.txt");
  const RgbImage png = read_png(dir / "p.png");
  REQUIRE(png.width == 160);
  REQUIRE(png.height > 120);
  const std::vector<std::uint32_t> states = read_state_file(dir / "s.txt", 40 * 30);
  const Rgb colour[] = {kBlack, kWhite, kOrange};
  for (std::int64_t y = 0; y < 120; ++y)
    for (std::int64_t x = 0; x < 160; ++x) REQUIRE(pixel(png, x, y) == colour[states[std::size_t(y / 4 * 40 + x / 4)]]);
  std::set<std::uint32_t> seen(states.begin(), states.end());
  CHECK(seen.size() == 3);  // every state is on the picture, and in the legend

  // The strip under the grid, laid out as draw_legend lays it out: white letters and frames on
  // the background.
  const Legend legend{{{"S", 0}, {"I", 1}, {"R", 2}}, std::nullopt, {}};
  const LegendStrip strip = draw_legend(legend, 160, LegendStyle{1, StatePalette::kBackground, legend_scale(160)});
  REQUIRE(png.height == 120 + strip.image.height);
  for (std::size_t i = 0; i < 3; ++i) {
    const PixelRect& s = strip.swatches[i];
    INFO("swatch ", legend.entries[i].name);
    for (std::int64_t y = s.y; y < s.y + s.height; ++y)
      for (std::int64_t x = s.x; x < s.x + s.width; ++x) REQUIRE(pixel(png, x, 120 + y) == colour[i]);
    CHECK(pixel(png, s.x - 1, 120 + s.y - 1) == kWhite);  // the frame
    // The name to the right: the glyph's pixels white, the rest background.
    const auto& glyph = font::glyph(legend.entries[i].name[0]);
    const std::int64_t left = s.x + s.width + 1 + 3;
    for (int row = 0; row < font::kGlyphHeight; ++row)
      for (int column = 0; column < font::kGlyphWidth; ++column)
        REQUIRE(pixel(png, left + column, 120 + s.y + row) ==
                (glyph[std::size_t(row)] >> (4 - column) & 1 ? kWhite : kBackground));
  }
  CHECK(pixel(png, 159, png.height - 1) == kBackground);

  run_ok("--model sir --grid 40x30 --fill-count 30 --steps 1 --legend off --png " + dir / "off.png");
  CHECK(read_png(dir / "off.png").height == 30);
}

// ---- errors -------------------------------------------------------------------------------

TEST_CASE("pictures: bad --slice and --legend values are refused, naming the flag or the config line") {
  ScratchDir dir;
  struct Case {
    std::string args, message;
  } cases[] = {
      {"--grid 8x8x8 --png " + dir / "p.png --slice z=8", "--slice z=8 is outside the grid: z runs from 0 to 7"},
      {"--grid 8x8x6 --png " + dir / "p.png --slice x=-1", "--slice x=-1 is outside the grid: x runs from 0 to 7"},
      {"--grid 8x8 --png " + dir / "p.png --slice z=1", "--slice z=1 needs a 3D grid source, not grid 8x8"},
      {"--grid 8x8x8 --png " + dir / "p.png --slice w=3",
       "--slice must be x=K, y=K or z=K (K a whole number) or top, not 'w=3'"},
      {"--grid 8x8x8 --png " + dir / "p.png --slice z=", "--slice must be x=K, y=K or z=K"},
      {"--grid 8x8x8 --slice z=1", "--slice needs --png FILE, --frames BASE or --gif FILE"},
      {"--grid 8x8 --png " + dir / "p.png --legend maybe", "--legend must be auto, on or off, not 'maybe'"},
      {"--config " + dir.write("bad.ini", "grid = 8x8x8\npng = " + dir / "p.png" + "\nslice = y=9\n"),
       "bad.ini:3: --slice y=9 is outside the grid: y runs from 0 to 7"},
  };
  for (const Case& c : cases) {
    const auto r = run_cli("run --backend cpu --steps 1 " + c.args);
    INFO(c.args, " -> ", r.out);
    CHECK(r.status == 1);
    CHECK(r.out.find(c.message) != std::string::npos);
    CHECK(dir.files() == std::set<std::string>{"bad.ini"});
  }
}
