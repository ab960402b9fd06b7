// Output files: PNG snapshots, statistics CSV, state files, and the atomic-write guarantee
// under all of them.
#include <doctest/doctest.h>
#include <png.h>
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "cellgraph/error.hpp"
#include "cellgraph/output/atomic_file.hpp"
#include "cellgraph/output/png.hpp"
#include "cellgraph/output/state_file.hpp"
#include "cellgraph/output/stats_csv.hpp"

namespace fs = std::filesystem;
using cellgraph::Error;

#include "scratch.hpp"

namespace {

void write_text(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

std::vector<std::uint32_t> random_states(std::size_t count, std::uint32_t max_state, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_int_distribution<std::uint32_t> state(0, max_state);
  std::vector<std::uint32_t> states(count);
  for (auto& s : states) s = state(random);
  return states;
}

struct Rgb {
  int r, g, b;
  bool operator==(const Rgb&) const = default;
};

constexpr Rgb kBlack{0, 0, 0}, kWhite{255, 255, 255}, kMagenta{255, 0, 255};

// The documented colours, spelled out rather than computed; states past the end are magenta.
const std::vector<Rgb> kTwoStates{kBlack, kWhite};
const std::vector<Rgb> kFiveStates{kBlack, kWhite, {255, 160, 0}, {176, 80, 0}, {96, 0, 0}};

Rgb expected_colour(const std::vector<Rgb>& palette, std::uint32_t state) {
  return state < palette.size() ? palette[state] : kMagenta;
}

Rgb pixel(const cellgraph::RgbImage& image, std::int64_t x, std::int64_t y) {
  const std::uint8_t* p = &image.rgb[std::size_t((y * image.width + x) * 3)];
  return {p[0], p[1], p[2]};
}

// Writes the grid, decodes it and compares every pixel with the palette.
void check_round_trip(const std::vector<std::uint32_t>& states, std::int64_t width, std::int64_t height,
                      const std::vector<Rgb>& palette, int scale) {
  ScratchDir dir;
  const std::string path = (dir / "grid.png");
  const auto num_states = static_cast<std::uint32_t>(palette.size());
  cellgraph::write_grid_png(path, states, width, height, num_states, scale);
  CHECK(dir.files() == std::set<std::string>{"grid.png"});

  const cellgraph::RgbImage image = cellgraph::read_png(path);
  REQUIRE(image.width == width * scale);
  REQUIRE(image.height == height * scale);
  REQUIRE(image.rgb.size() == std::size_t(image.width * image.height * 3));
  for (std::int64_t y = 0; y < image.height; ++y)
    for (std::int64_t x = 0; x < image.width; ++x) {
      const std::uint32_t state = states[std::size_t(y / scale * width + x / scale)];
      const Rgb want = expected_colour(palette, state), got = pixel(image, x, y);
      if (got != want) {
        FAIL_CHECK("pixel (" << x << ", " << y << ") of state " << state << " is (" << got.r << ", " << got.g << ", "
                             << got.b << "), expected (" << want.r << ", " << want.g << ", " << want.b << ")");
        return;
      }
    }
}

// Makes every write past `bytes` fail with EFBIG (SIGXFSZ ignored) while in scope.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) : previous_handler_(std::signal(SIGXFSZ, SIG_IGN)) {
    ::getrlimit(RLIMIT_FSIZE, &previous_limit_);
    rlimit limit = previous_limit_;
    limit.rlim_cur = bytes;
    ::setrlimit(RLIMIT_FSIZE, &limit);
  }
  ~FileSizeLimit() {
    ::setrlimit(RLIMIT_FSIZE, &previous_limit_);
    std::signal(SIGXFSZ, previous_handler_);
  }
  FileSizeLimit(const FileSizeLimit&) = delete;
  FileSizeLimit& operator=(const FileSizeLimit&) = delete;

 private:
  void (*previous_handler_)(int);
  rlimit previous_limit_{};
};

}  // namespace

// ---- PNG ---------------------------------------------------------------------------------

TEST_CASE("outputs: a two-state grid survives a PNG round trip pixel for pixel") {
  const auto states = random_states(37 * 23, 1, 1);
  SUBCASE("scale 1") { check_round_trip(states, 37, 23, kTwoStates, 1); }
  SUBCASE("scale 3") { check_round_trip(states, 37, 23, kTwoStates, 3); }
  SUBCASE("one row and one column") {
    check_round_trip({0, 1, 1, 0, 1}, 5, 1, kTwoStates, 2);
    check_round_trip({1, 0, 1}, 1, 3, kTwoStates, 1);
  }
}

TEST_CASE("outputs: Generations dying states fade from orange to dark red in PNGs") {
  // States 5 and 6 are out of range for a 5-state rule and must show magenta.
  const auto states = random_states(37 * 23, 6, 2);
  SUBCASE("scale 1") { check_round_trip(states, 37, 23, kFiveStates, 1); }
  SUBCASE("scale 3") { check_round_trip(states, 37, 23, kFiveStates, 3); }
  SUBCASE("a single dying state is orange") {
    check_round_trip({0, 1, 2, 3}, 2, 2, {kBlack, kWhite, {255, 160, 0}}, 1);
  }
}

TEST_CASE("outputs: write_grid_png rejects inconsistent sizes and scales, writing nothing") {
  ScratchDir dir;
  const std::string path = (dir / "bad.png");
  const std::vector<std::uint32_t> six(6, 1);
  CHECK_THROWS_WITH_AS(cellgraph::write_grid_png(path, six, 4, 2, 2), doctest::Contains(path.c_str()), Error);
  CHECK_THROWS_AS(cellgraph::write_grid_png(path, six, 0, 6, 2), Error);
  CHECK_THROWS_AS(cellgraph::write_grid_png(path, six, -2, -3, 2), Error);
  CHECK_THROWS_AS(cellgraph::write_grid_png(path, {}, 0, 0, 2), Error);
  CHECK_THROWS_AS(cellgraph::write_grid_png(path, six, 3, 2, 2, 0), Error);
  CHECK_THROWS_AS(cellgraph::write_grid_png(path, six, 3, 2, 2, 65), Error);
  CHECK_THROWS_AS(cellgraph::write_grid_png(path, six, 3, 2, 1), Error);
  // 2^20 cells at scale 64 would be 2^32 pixels.
  const std::vector<std::uint32_t> large(std::size_t{1} << 20, 0);
  CHECK_THROWS_WITH_AS(cellgraph::write_grid_png(path, large, 1024, 1024, 2, 64), doctest::Contains("2^31 pixels"),
                       Error);
  CHECK(dir.empty());
}

TEST_CASE("outputs: write_grid_png into a missing directory gives Error and leaves nothing") {
  const std::string path = "/nonexistent/dir/x.png";
  CHECK_THROWS_WITH_AS(cellgraph::write_grid_png(path, {0, 1}, 2, 1, 2), doctest::Contains(path.c_str()), Error);
  CHECK_FALSE(fs::exists(path));
}

TEST_CASE("outputs: a write failing inside libpng gives Error and leaves nothing") {
  ScratchDir dir;
  const std::string path = (dir / "full.png");
  const auto noise = random_states(512 * 512, 1, 3);  // compresses to far more than 4 KiB
  {
    FileSizeLimit limit(4096);
    CHECK_THROWS_WITH_AS(cellgraph::write_grid_png(path, noise, 512, 512, 2), doctest::Contains(path.c_str()), Error);
  }
  CHECK(dir.empty());
}

TEST_CASE("outputs: read_png converts gray and alpha PNGs to RGB") {
  ScratchDir dir;
  // Written with libpng's simplified API, independently of write_grid_png.
  auto write_png = [&](const std::string& name, png_uint_32 format, const std::vector<png_byte>& pixels) {
    png_image image{};
    image.version = PNG_IMAGE_VERSION;
    image.width = 2;
    image.height = 2;
    image.format = format;
    const std::string path = (dir / name);
    REQUIRE(png_image_write_to_file(&image, path.c_str(), 0, pixels.data(), 0, nullptr) != 0);
    return path;
  };
  const std::string gray = write_png("gray.png", PNG_FORMAT_GRAY, {0, 80, 170, 255});
  const std::string rgba =
      write_png("rgba.png", PNG_FORMAT_RGBA, {1, 2, 3, 0, 4, 5, 6, 90, 7, 8, 9, 180, 10, 11, 12, 255});
  const std::vector<std::uint8_t> gray_as_rgb{0, 0, 0, 80, 80, 80, 170, 170, 170, 255, 255, 255};
  const std::vector<std::uint8_t> alpha_stripped{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};

  const cellgraph::RgbImage from_gray = cellgraph::read_png(gray);
  CHECK(from_gray.width == 2);
  CHECK(from_gray.height == 2);
  CHECK(from_gray.rgb == gray_as_rgb);
  const cellgraph::RgbImage from_rgba = cellgraph::read_png(rgba);
  CHECK(from_rgba.width == 2);
  CHECK(from_rgba.height == 2);
  CHECK(from_rgba.rgb == alpha_stripped);
}

TEST_CASE("outputs: read_png rejects missing, non-PNG and truncated files, naming them") {
  ScratchDir dir;
  const std::string missing = (dir / "missing.png");
  CHECK_THROWS_WITH_AS(cellgraph::read_png(missing), doctest::Contains(missing.c_str()), Error);

  const std::string text = (dir / "text.png");
  write_text(text, "this is not an image\n");
  CHECK_THROWS_WITH_AS(cellgraph::read_png(text), doctest::Contains(text.c_str()), Error);

  const std::string empty = (dir / "empty.png");
  write_text(empty, "");
  CHECK_THROWS_WITH_AS(cellgraph::read_png(empty), doctest::Contains(empty.c_str()), Error);

  const std::string truncated = (dir / "truncated.png");
  cellgraph::write_grid_png(truncated, random_states(37 * 23, 1, 4), 37, 23, 2);
  const auto full_size = fs::file_size(truncated);
  for (auto size : {full_size - 1, full_size / 2, std::uintmax_t{8}}) {
    CAPTURE(size);
    fs::resize_file(truncated, size);
    CHECK_THROWS_WITH_AS(cellgraph::read_png(truncated), doctest::Contains(truncated.c_str()), Error);
  }
}

// ---- atomic files, statistics, states ------------------------------------------------------

TEST_CASE("outputs: AtomicFile leaves no temporary file unless committed") {
  ScratchDir dir;
  const std::string path = (dir / "out.txt");
  {
    cellgraph::AtomicFile file(path);
    file.stream() << "half";
    CHECK(fs::exists(file.temp_path()));
  }
  CHECK(dir.empty());

  write_text(path, "old contents");
  {
    cellgraph::AtomicFile file(path);
    file.stream() << "interrupted";
  }
  CHECK(read_file(path) == "old contents");  // an abandoned write keeps the previous file
  {
    cellgraph::AtomicFile file(path);
    file.stream() << "whole";
    file.commit();
    CHECK_FALSE(fs::exists(file.temp_path()));
  }
  CHECK(read_file(path) == "whole");
  CHECK(dir.files() == std::set<std::string>{"out.txt"});
}

TEST_CASE("outputs: StatsWriter writes exact CSV once finished") {
  ScratchDir dir;
  const std::string path = (dir / "stats.csv");
  cellgraph::StatsWriter stats(path, {"population", "density"});
  stats.row(0, {std::uint64_t{5}, 0.1});
  stats.row(1, {std::numeric_limits<std::uint64_t>::max(), 1.0 / 3});
  stats.row(2, {std::uint64_t{0}, 2.5e-7});
  stats.row(10, {std::uint64_t{7}, 1.0});
  CHECK_FALSE(fs::exists(path));
  stats.finish();
  CHECK(read_file(path) ==
        "step,population,density\n"
        "0,5,0.1\n"
        "1,18446744073709551615,0.3333333333333333\n"
        "2,0,2.5e-07\n"
        "10,7,1\n");
  CHECK(dir.files() == std::set<std::string>{"stats.csv"});
}

TEST_CASE(
    "outputs: StatsWriter rejects bad rows and column names, and without finish() leaves "
    "nothing") {
  ScratchDir dir;
  const std::string path = (dir / "stats.csv");
  CHECK_THROWS_AS(cellgraph::StatsWriter(path, {"a,b"}), Error);
  {
    cellgraph::StatsWriter stats(path, {"population"});
    stats.row(0, {std::uint64_t{3}});
    CHECK_THROWS_AS(stats.row(1, {std::uint64_t{3}, 0.5}), Error);
    CHECK_THROWS_AS(stats.row(1, {}), Error);
  }
  CHECK(dir.empty());
}

TEST_CASE("outputs: state files hold one state per line after a header") {
  ScratchDir dir;
  const std::string path = (dir / "states.txt");
  cellgraph::write_state_file(path, {0, 2, 1, std::numeric_limits<std::uint32_t>::max()});
  CHECK(read_file(path) == "# cellgraph states, 4 vertices\n0\n2\n1\n4294967295\n");

  cellgraph::write_state_file(path, {});
  CHECK(read_file(path) == "# cellgraph states, 0 vertices\n");

  // Enough lines to cross the writer's internal block size.
  const auto many = random_states(100000, 300, 5);
  std::string expected = "# cellgraph states, 100000 vertices\n";
  for (std::uint32_t state : many) expected += std::to_string(state) + '\n';
  cellgraph::write_state_file(path, many);
  CHECK(read_file(path) == expected);
  CHECK(dir.files() == std::set<std::string>{"states.txt"});
}
