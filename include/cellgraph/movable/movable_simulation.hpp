// Movable models: cells that carry coordinates, with neighbor lists rebuilt as they move.
//
// A movable model is an ordinary model (model.hpp: Vars, Acc, init, gather, combine, apply)
// whose first `dims` variables are the cell's position, plus:
//
//   static constexpr int dims = 2;   // or 3: variables 0 .. dims-1 are x, y (, z)
//   using Coordinate = double;       // their type (float or double)
//   Box box;                         // where the cells live (box.hpp: periodic or closed)
//   double radius;                   // neighbors: the other cells within this distance
//
// Its apply() moves the cell (and keeps it in the box: wraps it in a periodic box). A step of
// a movable run is: neighbor lists up to date (rebuilt, or filtered from a Verlet list, see
// below), then one synchronous step of the ordinary sweep over them. A rebuild bins the cells
// (cell list), finds the neighbors within radius + skin, compiles them into the sliced layout
// (compile_neighbors), and moves every state variable from the old layout's order to the new
// one's in one gather. The state stays in layout order between rebuilds.
//
// Verlet lists (skin > 0): the lists hold every cell within radius + skin at the rebuild; each
// step keeps, in order, those now within the radius (a filter pass over the compiled lists),
// and the lists are rebuilt once a cell has moved by skin / 2 since the last rebuild. The
// model sees exactly its neighbors within the radius whatever the skin: results do not depend
// on it. Lists are in ascending particle id, so a cell folds its neighbors in that order on
// every backend (hubs as the fold contract says), and runs are bit-identical on the CPU and
// the GPU and for any thread count.
//
// Partitioned runs (MovableOptions::parts > 1, one region of the box per part, particles
// migrating between parts with every variable, a halo of r + skin; the same results as one
// process): partition/movable/partitioned_movable.hpp.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "cellgraph/graph.hpp"
#include "cellgraph/layout.hpp"
#include "cellgraph/movable/box.hpp"
#include "cellgraph/simulation.hpp"

namespace cellgraph {

struct MovableOptions {
  double skin = 0;  // Verlet skin; 0: lists rebuilt every step
  CompileOptions compile;
  // Partitioned runs (partition/movable/partitioned_movable.hpp): this part and the number of
  // parts, which trade particles through SimulationOptions::halo. One part: a whole run.
  std::uint32_t part = 0, parts = 1;
};

// Work spent keeping neighbor lists up to date.
struct RebuildStats {
  std::uint64_t rebuilds = 0;
  double seconds = 0;         // rebuilds: search, compile, moving the state
  std::uint64_t entries = 0;  // list entries (radius + skin) of the last rebuild
  // Partitioned runs, this part's: particles handed to other parts, halo cells of the last rebuild.
  std::uint64_t migrated = 0;
  std::uint64_t halo = 0;
};

class MovableSimulation {
 public:
  virtual ~MovableSimulation() = default;
  virtual std::string backend_name() const = 0;
  virtual std::uint32_t num_particles() const = 0;
  virtual const Box& box() const = 0;
  virtual double radius() const = 0;
  virtual double skin() const = 0;

  virtual void advance(std::uint64_t steps) = 0;
  virtual std::uint64_t step() const = 0;

  // Every state variable of every particle in particle id order, one byte array per variable
  // (sizeof(variable) bytes each), as Simulation::export_state. Importing sets the step and
  // rebuilds the lists before the next step.
  virtual std::vector<std::vector<std::uint8_t>> export_state() const = 0;
  virtual void import_state(const std::vector<std::vector<std::uint8_t>>& variables, std::uint64_t step) = 0;
  // Variable i of every particle, in particle id order, as doubles.
  virtual std::vector<double> variable(int i) const = 0;
  // Positions as box.dims coordinates per particle, in particle id order.
  std::vector<double> positions() const;

  // The model's observables (model.hpp: observe() with each cell's fold over its current
  // neighbors, which may rebuild or filter the lists first, as the next step would).
  virtual std::vector<std::string> observable_names() const = 0;
  virtual std::vector<double> observables() = 0;

  // The neighbor lists at the current positions, in particle ids, each in the order the model
  // folds it (ascending id): rebuilt or filtered now if the next step would do so.
  virtual Graph current_neighbors() = 0;
  // The compiled layout of the last rebuild (lists within radius + skin), copied to the host.
  virtual Layout rebuilt_layout() const = 0;
  virtual RebuildStats rebuild_stats() const = 0;
};

}  // namespace cellgraph
