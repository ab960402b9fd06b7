#include <fstream>
#include <iostream>

#include "cellgraph/error.hpp"
#include "src/cli/cli.hpp"

namespace cellgraph::cli {
namespace {

// INI files mirror the flags: "key = value" per line, '#' or ';' comments, [sections] ignored
// (so one file can hold several commands' settings). Each line is parsed on its own so that
// errors name it.
void read_config(const std::string& path, const po::options_description& desc, po::variables_map& vm) {
  std::ifstream in(path);
  if (!in) throw Error("cannot open config file " + path);
  std::string line;
  std::vector<po::option> collected;
  for (std::size_t number = 1; std::getline(in, line); ++number) {
    auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#' || line[first] == ';' || line[first] == '[')
      continue;
    auto eq = line.find('=');
    if (eq == std::string::npos) throw ParseError(path, number, "expected 'key = value'");
    auto trim = [](std::string s) {
      s.erase(0, s.find_first_not_of(" \t\r"));
      s.erase(s.find_last_not_of(" \t\r") + 1);
      return s;
    };
    std::string key = trim(line.substr(0, eq)), value = trim(line.substr(eq + 1));
    if (key == "config") throw ParseError(path, number, "config files cannot include others");
    // On/off flags take true/false (yes/no, 1/0) in a file.
    const po::option_description* known = desc.find_nothrow(key, false);
    const bool flag = known && known->semantic()->max_tokens() == 0;
    if (flag) {
      if (value == "false" || value == "no" || value == "0") continue;
      if (value != "true" && value != "yes" && value != "1")
        throw ParseError(path, number, "'" + key + "' is on or off: true or false");
    }
    const Args one_option = flag ? Args{"--" + key} : Args{"--" + key + "=" + value};
    try {
      po::variables_map one;
      po::store(po::command_line_parser(one_option).options(desc).run(), one);
    } catch (const po::error& e) {
      throw ParseError(path, number, e.what());
    }
    collected.push_back(po::option(key, flag ? std::vector<std::string>{} : std::vector<std::string>{value}));
  }
  // Flags given on the command line are already stored and win over the file.
  po::parsed_options parsed(&desc);
  parsed.options = collected;
  po::store(parsed, vm);
}

}  // namespace

bool parse_options(const Args& args, const po::options_description& desc, const std::string& usage,
                   po::variables_map& vm) {
  try {
    po::store(po::command_line_parser(args).options(desc).run(), vm);
    if (vm.count("help")) {
      std::cout << usage << "\n\n" << desc << "\n";
      return false;
    }
    if (desc.find_nothrow("config", false) && vm.count("config"))
      read_config(vm["config"].as<std::string>(), desc, vm);
    po::notify(vm);
  } catch (const po::error& e) {
    throw Error(e.what());
  }
  return true;
}

po::options_description source_options() {
  po::options_description d("Source (one of --grid/--pattern, --graph, --mesh, --generate)");
  d.add_options()
      ("grid", po::value<std::string>(), "regular grid: W (1D), WxH (2D) or WxHxD (3D)")
      ("neighborhood", po::value<std::string>()->default_value("moore"),
       "grid stencil: moore[:r], vonneumann[:r], hex (2D), cloud (3D: Dobashi et al.'s, the cloud model's "
       "default), custom:dx,dy[,dz];... (slot k of a cell = k-th offset; moore/vonneumann/cloud list offsets "
       "in raster order)")
      ("boundary", po::value<std::string>()->default_value("periodic"),
       "grid boundary: periodic, fixed[:state] (open = fixed:0), reflective (edge cell mirrored); "
       "the cloud model's default: open")
      ("pattern", po::value<std::string>(),
       "initial pattern for a 2D grid: Golly RLE, Life 1.05/1.06, placed as Golly places it "
       "on a bounded grid; its rule is used unless --rule is given")
      ("graph", po::value<std::string>(),
       "graph file: METIS .graph, Matrix Market .mtx, or an edge list")
      ("mesh", po::value<std::string>(),
       "mesh file: Gmsh .msh (2.2, 4.1; ASCII, binary), METIS .mesh, VTK .vtk/.vtu")
      ("mesh-graph", po::value<std::string>()->default_value("dual"),
       "cells of a mesh run: dual (elements; neighbors share a face) or nodal (nodes; neighbors share an element)")
      ("element-dim", po::value<int>()->default_value(-1),
       "mesh elements of this dimension (1 lines, 2 surfaces, 3 volumes); -1: the highest in the file")
      ("ncommon", po::value<int>()->default_value(0),
       "dual graph: elements sharing at least this many nodes are neighbors; 0: a whole face")
      ("generate", po::value<std::string>(),
       "synthetic graph: rgg:N[:mean_degree] (random geometric, mesh-like), "
       "rmat:SCALE[:edge_factor] (Graph500 Kronecker, hubs) or er:N[:mean_degree] "
       "(Erdos-Renyi); seeded by --graph-seed")
      ("graph-seed", unsigned_value<std::uint64_t>(1), "seed of --generate")
      ("format", po::value<std::string>()->default_value("auto"),
       "graph file format: auto, metis, mtx, edges")
      ("base", po::value<int>()->default_value(-1),
       "edge-list vertex numbering: 0, 1, or -1 to detect (0 if any id is 0)");
  return d;
}

SourceSpec source_spec(const po::variables_map& vm, const models::ModelInfo* model) {
  SourceSpec s;
  if (vm.count("grid")) s.grid = vm["grid"].as<std::string>();
  s.neighborhood = vm["neighborhood"].as<std::string>();
  s.boundary = vm["boundary"].as<std::string>();
  if (model && vm["neighborhood"].defaulted() && !model->grid_neighborhood.empty())
    s.neighborhood = model->grid_neighborhood;
  if (model && vm["boundary"].defaulted() && !model->grid_boundary.empty()) s.boundary = model->grid_boundary;
  if (vm.count("pattern")) s.pattern_file = vm["pattern"].as<std::string>();
  if (vm.count("graph")) s.graph_file = vm["graph"].as<std::string>();
  if (vm.count("generate")) s.generator = vm["generate"].as<std::string>();
  if (vm.count("mesh")) s.mesh_file = vm["mesh"].as<std::string>();
  const std::string mesh_graph = vm["mesh-graph"].as<std::string>();
  if (mesh_graph == "dual") s.mesh_options.kind = MeshGraphKind::dual;
  else if (mesh_graph == "nodal") s.mesh_options.kind = MeshGraphKind::nodal;
  else throw Error("--mesh-graph must be dual or nodal, not '" + mesh_graph + "'");
  s.mesh_options.element_dim = vm["element-dim"].as<int>();
  s.mesh_options.ncommon = vm["ncommon"].as<int>();
  if (s.mesh_options.element_dim < -1 || s.mesh_options.element_dim > 3)
    throw Error("--element-dim must be -1, 0, 1, 2 or 3");
  if (s.mesh_options.ncommon < 0 || s.mesh_options.ncommon > 64) throw Error("--ncommon must be from 0 to 64");
  s.generator_seed = get_unsigned<std::uint64_t>(vm, "graph-seed");
  const std::string format = vm["format"].as<std::string>();
  if (format == "auto") s.graph_options.format = GraphFormat::automatic;
  else if (format == "metis") s.graph_options.format = GraphFormat::metis;
  else if (format == "mtx") s.graph_options.format = GraphFormat::matrix_market;
  else if (format == "edges") s.graph_options.format = GraphFormat::edge_list;
  else throw Error("--format must be auto, metis, mtx or edges, not '" + format + "'");
  s.graph_options.edge_list_base = vm["base"].as<int>();
  if (s.graph_options.edge_list_base < -1 || s.graph_options.edge_list_base > 1)
    throw Error("--base must be 0, 1 or -1");
  return s;
}

po::options_description layout_options() {
  po::options_description d("Compiled layout");
  d.add_options()
      ("order", po::value<std::string>()->default_value("input"),
       "vertex order within the degree-sort windows: input (the file's ids), hilbert (along a "
       "Hilbert curve through the coordinates of a mesh or rgg) or rcm (reverse Cuthill-McKee)")
      ("sort-window", unsigned_value<std::uint32_t>(CompileOptions{}.sort_window),
       "vertices are sorted by degree within windows of this many (locality vs padding)")
      ("degree-quantum", unsigned_value<std::uint32_t>(1),
       "sort by degree rounded up to a multiple of this (coarser: better locality, more padding)")
      ("hub-degree", unsigned_value<std::uint32_t>(0),
       "vertices of at least this degree are hubs walked by a whole warp; 0: max(256, 16 x mean), on graphs under "
       "2^20 vertices 1 + max(24, 2 x mean rounded down to a multiple of 8)")
      ("giant-degree", unsigned_value<std::uint32_t>(0),
       "hubs of at least this degree are walked by a whole block; 0: max(1024, 32 x mean)");
  return d;
}

CompileOptions compile_options(const po::variables_map& vm) {
  CompileOptions o;
  const std::string order = vm["order"].as<std::string>();
  if (order == "hilbert") o.order = VertexOrder::hilbert;
  else if (order == "rcm") o.order = VertexOrder::rcm;
  else if (order != "input") throw Error("--order must be input, hilbert or rcm, not '" + order + "'");
  o.sort_window = get_unsigned<std::uint32_t>(vm, "sort-window");
  o.hub_degree = get_unsigned<std::uint32_t>(vm, "hub-degree");
  o.degree_quantum = get_unsigned<std::uint32_t>(vm, "degree-quantum");
  if (o.degree_quantum == 0) throw Error("--degree-quantum must be at least 1");
  o.giant_degree = get_unsigned<std::uint32_t>(vm, "giant-degree");
  if (o.sort_window == 0) throw Error("--sort-window must be at least 1");
  return o;
}

po::options_description model_options() {
  po::options_description d("Model");
  d.add_options()
      ("model", po::value<std::string>()->default_value("lifelike"),
       "model name (see `cellgraph models`); left out, golly when the rule names a Golly rule file")
      ("rule", po::value<std::string>(),
       "the model's rule (lifelike: B3/S23, /2/3, highlife, ...; golly: a .rule file's name, WireWorld)")
      ("param", po::value<std::vector<std::string>>()->composing(),
       "model parameter NAME=VALUE (repeatable; a name's first value counts, the command line's before a config file's)")
      ("update", po::value<std::string>(),
       "how a step updates the cells: sync (all at once), colored (color classes in turn, in place: "
       "asynchronous), or alpha:A (each cell with probability A); default: the model's (sync; ising: colored)");
  return d;
}

models::Params model_params(const po::variables_map& vm) {
  models::Params p;
  // --param composes the command line's values with a config file's, the command line's first:
  // the first value of a name wins, so that flags override the file as every other option does.
  if (vm.count("param"))
    for (const std::string& kv : vm["param"].as<std::vector<std::string>>()) {
      auto eq = kv.find('=');
      if (eq == std::string::npos || eq == 0) throw Error("--param wants NAME=VALUE, not '" + kv + "'");
      p.emplace(kv.substr(0, eq), kv.substr(eq + 1));
    }
  if (vm.count("rule")) p["rule"] = vm["rule"].as<std::string>();
  return p;
}

UpdateRule update_rule(const po::variables_map& vm, const models::ModelInfo& model) {
  return vm.count("update") ? parse_update_rule(vm["update"].as<std::string>()) : model.default_update;
}

po::options_description backend_options() {
  po::options_description d("Backend");
  d.add_options()
      ("backend", po::value<std::string>()->default_value("auto"), "cpu, cuda, or auto (cuda when there is a GPU)")
      ("threads", po::value<int>()->default_value(0), "CPU threads (0: all)")
      ("seed", unsigned_value<std::uint64_t>(1), "random seed (initial fill, random models)")
      ("signal-bits", po::value<std::string>()->default_value("auto"),
       "cuda: gather one-bit neighbor signals (Life, SIR, ...) from packed words: auto, on, off")
      ("l2-residency", po::value<std::string>()->default_value("auto"),
       "cuda: keep the state neighbors are read from in the L2 cache's persisting part where it fits: auto, off")
      ("fused-sweep", po::value<std::string>()->default_value("auto"),
       "cuda: run a sweep's hubs and ordinary vertices as one kernel launch: auto (graphs, or a rank's part, with "
       "hubs under 2^20 vertices), on, off (movable runs have kernels of their own)")
      ("halo", po::value<std::string>()->default_value("auto"),
       "cuda under mpirun: trade the halo device to device (each GPU writes into its peers' memory, ranks on one "
       "host) or through host memory and MPI: auto (device where every GPU maps the others'), device, host");
  return d;
}

SimulationOptions simulation_options(const po::variables_map& vm) {
  SimulationOptions o;
  const std::string backend = vm["backend"].as<std::string>();
  if (backend == "auto") o.backend = cuda_device_available() ? BackendKind::cuda : BackendKind::cpu;
  else if (backend == "cpu") o.backend = BackendKind::cpu;
  else if (backend == "cuda") o.backend = BackendKind::cuda;
  else throw Error("--backend must be cpu, cuda or auto, not '" + backend + "'");
  o.threads = vm["threads"].as<int>();
  if (o.threads < 0) throw Error("--threads must be 0 or more");
  o.seed = get_unsigned<std::uint64_t>(vm, "seed");
  const std::string packing = vm["signal-bits"].as<std::string>();
  if (packing == "auto") o.signal_packing = SignalPacking::automatic;
  else if (packing == "on") o.signal_packing = SignalPacking::always;
  else if (packing == "off") o.signal_packing = SignalPacking::never;
  else throw Error("--signal-bits must be auto, on or off, not '" + packing + "'");
  const std::string residency = vm["l2-residency"].as<std::string>();
  if (residency != "auto" && residency != "off") throw Error("--l2-residency must be auto or off, not '" + residency + "'");
  o.l2_residency = residency == "auto";
  const std::string fusion = vm["fused-sweep"].as<std::string>();
  if (fusion == "auto") o.sweep_fusion = SweepFusion::automatic;
  else if (fusion == "on") o.sweep_fusion = SweepFusion::always;
  else if (fusion == "off") o.sweep_fusion = SweepFusion::never;
  else throw Error("--fused-sweep must be auto, on or off, not '" + fusion + "'");
  const std::string halo = vm["halo"].as<std::string>();
  if (halo == "auto") o.halo_path = HaloPath::automatic;
  else if (halo == "host") o.halo_path = HaloPath::host;
  else if (halo == "device") o.halo_path = HaloPath::device;
  else throw Error("--halo must be auto, device or host, not '" + halo + "'");
  return o;
}

}  // namespace cellgraph::cli
