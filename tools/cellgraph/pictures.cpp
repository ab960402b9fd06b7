#include "tools/cellgraph/pictures.hpp"

#include <algorithm>
#include <iostream>

#include "cellgraph/error.hpp"
#include "cellgraph/output/graph_layout.hpp"
#include "partition/mpi.hpp"

namespace cellgraph::cli {
namespace {

constexpr const char* kTopView = "top";

LegendMode legend_mode(const std::string& text) {
  if (text == "auto") return LegendMode::automatic;
  if (text == "on") return LegendMode::on;
  if (text == "off") return LegendMode::off;
  throw OptionError("legend", "--legend must be auto, on or off, not '" + text + "'");
}

}  // namespace

po::options_description picture_options() {
  po::options_description d("Pictures");
  d.add_options()(
      "png", po::value<std::string>(),
      "PNG of the final state: 2D grids cell by cell; 1D grids as a space-time diagram of the run, a row per "
      "step, time going down (at most 4096 rows: longer runs show evenly spaced steps); 3D grids seen from above "
      "(each column shaded by its cells not in state 0, sky blue: none, white: many) or cut along a plane "
      "(--slice); meshes and graphs with coordinates as a quick look (see --png-size), graphs without at the "
      "positions Graphviz's sfdp gives them (the same each run; up to 20000 vertices and 200000 edges)")(
      "png-scale", po::value<int>()->default_value(1), "pixels per cell (column) in pictures of grids (1 to 64)")(
      "png-size", po::value<int>()->default_value(800),
      "pictures of meshes and graphs: the longer side in pixels (16 to 4096); the x-y plane seen from +z "
      "(3D sources projected, the cell of largest z in front), y up, elements filled, vertices as discs. "
      "Also the largest side of a GIF frame: bigger grids are shrunk by a whole factor, each pixel showing "
      "the first live cell of its block")(
      "slice", po::value<std::string>(),
      "3D grids: picture the plane x=K, y=K or z=K cell by cell in the states' colours (z=K: x across, y down; "
      "x=K, y=K: z up), or 'top' for the view from above. Default: the top view for Life-like rules, clouds, "
      "rule tables and numbers, the middle z plane for every other model")(
      "legend", po::value<std::string>()->default_value("auto"),
      "a legend strip under pictures, in the 5x8 font: a swatch and the model's name for each state, a colour "
      "bar with its end values for what varies continuously. auto: pictures of more than two states; on: every "
      "picture (top views: the shades against cells per column); off: none")(
      "frames", po::value<std::string>(),
      "PNG frames BASE_<step>.png (step zero-padded to 6 digits), pictured as --png (1D grids: the space-time "
      "diagram up to that step)")(
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
  o.scale = vm["png-scale"].as<int>();
  o.size = vm["png-size"].as<int>();
  o.gif_delay_ms = vm["gif-delay"].as<int>();
  o.legend = legend_mode(vm["legend"].as<std::string>());
  if (vm.count("slice") && vm["slice"].as<std::string>() != kTopView) {
    const std::string text = vm["slice"].as<std::string>();
    try {
      o.slice = parse_grid_slice(text);
    } catch (const Error&) {
      throw OptionError("slice", "--slice must be x=K, y=K or z=K (K a whole number) or top, not '" + text + "'");
    }
  }
  return o;
}

void check_picture_flags(const po::variables_map& vm, const PictureOptions& o, const Source& source) {
  if (!vm["frames-every"].defaulted() && !o.series()) throw Error("--frames-every needs --frames BASE or --gif FILE");
  if (vm.count("slice") && !o.any())
    throw OptionError("slice", "--slice needs --png FILE, --frames BASE or --gif FILE");
  if (!o.any()) return;
  const char* option = !o.png.empty() ? "--png" : !o.frames.empty() ? "--frames" : "--gif";
  if (pictured_by_layout(source) && !layout_fits(source.graph))
    throw Error(std::string(option) + ": " + layout_limit_message(source.graph) +
                ", or write the final states with --states-out and picture them with a layout of your own");
  if (!can_picture(source)) {
    throw Error(std::string(option) +
                " needs a 2D or 3D grid source, a 1D grid (drawn as its space-time diagram), or a mesh or graph with "
                "coordinates");
  }
  if (vm.count("slice")) {
    const std::string text = vm["slice"].as<std::string>();
    if (!source.grid || source.grid->dims != 3)
      throw OptionError("slice", "--slice " + text + " needs a 3D grid source, not " + source.description);
    if (o.slice) {
      try {
        check_grid_slice(*o.slice, *source.grid);
      } catch (const Error& e) {
        throw OptionError("slice", "--" + std::string(e.what()));  // "--slice z=9 is outside the grid: ..."
      }
    }
  }
  if (!kPictureScale.holds(o.scale)) throw OptionError("png-scale", "--png-scale must be from " + kPictureScale.text());
  if (!kPictureSize.holds(o.size)) throw OptionError("png-size", "--png-size must be from " + kPictureSize.text());
  if (!kGifDelayMs.holds(o.gif_delay_ms))
    throw OptionError("gif-delay", "--gif-delay must be from " + kGifDelayMs.text() + " ms");
  check_pictures(o, source);  // the paths and a 1D grid's width: the library's check, in its words
}

PictureOptions pictures_for_model(const po::variables_map& vm, PictureOptions options, const models::ModelInfo& model,
                                  const Source& source) {
  options.state_names = model.state_names;
  if (options.any() && pictured_by_layout(source) && mpi::rank() == 0)  // seconds, before the first step
    std::cerr << "cellgraph run: laying out " << source.graph.num_vertices() << " vertices and "
              << undirected_edge_count(source.graph) << " edges with Graphviz sfdp for the pictures\n";
  const bool grid3d = source.grid && source.grid->dims == 3;
  if (grid3d && !vm.count("slice") && !model.pictured_from_above)
    options.slice = GridSlice{2, source.grid->size[2] / 2};
  return options;
}

void note_space_time(std::ostream& out, const PictureOptions& options, const Source& source, std::uint64_t first,
                     std::uint64_t last) {
  if (!options.any() || !source.grid || source.grid->dims != 1 || last < first) return;
  const SpaceTimeRows rows = SpaceTimeRows::plan(std::uint64_t(source.grid->size[0]), first, last);
  if (rows.stride == 1) return;
  out << "cellgraph run: the space-time picture shows steps " << first << " to " << last << " in " << rows.count()
      << " rows, a row every " << rows.stride << " steps (at most " << space_time_max_rows(source.grid->size[0])
      << " rows)\n";
}

}  // namespace cellgraph::cli
