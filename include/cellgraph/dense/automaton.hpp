// Dense grid kernels: the same automata as the graph engine on a regular grid, stored as a
// plain array (a byte per cell) or bit-packed (a bit per cell), for the comparison runs
// (`cellgraph compare`). Cell id = x + W * (y + H * z), as in GridSpec::cell_id.
//
//   byte       Life-like and Generations rules on 1D, 2D and 3D grids (Moore or von Neumann,
//              range 1), and Wolfram's elementary rules on 1D rows.
//   bitpacked  two-state Life-like rules on 2D Moore grids only: 64 cells per word on the CPU,
//              32 per word and several generations per pass on the GPU; and the cloud model
//              (models/cloud.hpp) on 3D grids, three bit planes (cld, hum, act).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cellgraph/dense/boundary.hpp"
#include "cellgraph/dense/cloud_rule.hpp"
#include "cellgraph/dense/rule.hpp"

namespace cellgraph::dense {

enum class KernelKind { byte, bitpacked };
enum class Device { cpu, cuda };
enum class Neighborhood { moore, von_neumann };  // range 1

struct GridShape {
  int dims = 2;
  std::int64_t size[3] = {1, 1, 1};  // x, y, z; unused axes 1
  Neighborhood neighborhood = Neighborhood::moore;
  Edge edge = Edge::periodic;
  std::uint32_t edge_value = 0;  // the state outside a fixed boundary

  std::uint64_t cell_count() const { return std::uint64_t(size[0]) * std::uint64_t(size[1]) * std::uint64_t(size[2]); }
};

class Automaton {
 public:
  virtual ~Automaton() = default;
  virtual std::string name() const = 0;  // "bitpacked (cuda, 32-bit words, 32 generations per pass, ...)"
  virtual const GridShape& shape() const = 0;

  virtual void advance(std::uint64_t steps) = 0;  // returns when the steps are done
  virtual std::uint64_t step() const = 0;

  // Each cell live (state 1) with probability `density`, drawn as cellgraph::random_fill draws
  // (cloud automata: cld so, hum and act as the model draws them; `seed` also keys their steps'
  // draws, 0 until the first fill).
  virtual void fill_random(std::uint64_t seed, double density) = 0;
  // One byte per cell in cell-id order; set_states also resets the step to 0.
  virtual void set_states(const std::vector<std::uint8_t>& states) = 0;
  virtual std::vector<std::uint8_t> states() const = 0;
  // Sum of cell_hash(id, state) over cells that are not 0 (cell_hash.hpp), and their number:
  // computed where the cells are, without copying them out.
  virtual std::uint64_t hash() const = 0;
  virtual std::uint64_t population() const = 0;
  // Memory moved per cell update by one pass of the kernel, for the bandwidth column.
  virtual double bytes_per_update() const = 0;
};

struct KernelOptions {
  int threads = 0;  // CPU threads; 0: all
  // GPU tile kernels (bit-packed, and byte on 2D Moore grids): generations fused per launch, 1
  // to 32 (the byte kernel runs at most 16); 0: the kernel's choice.
  int generations_per_pass = 0;
};

// Throws Error when the kernel does not support the grid, rule or boundary (the message says
// which), or when `device` is cuda and the build or machine has none.
std::unique_ptr<Automaton> make_life_automaton(KernelKind kind, Device device, const GridShape& shape,
                                               const LifeRule& rule, const KernelOptions& options = {});
// A 1D row (shape.dims == 1) of 0/1 cells on the byte kernel.
std::unique_ptr<Automaton> make_elementary_automaton(Device device, const GridShape& shape, const ElementaryRule& rule,
                                                     int threads = 0);

// The graph engine (source/grid.hpp's graph, compiled, the lifelike model) behind the same
// interface: the reference every dense kernel is checked against. Grids up to 2^32 cells.
std::unique_ptr<Automaton> make_graph_automaton(Device device, const GridShape& shape, const LifeRule& rule,
                                                int threads = 0);

// Why `kind` cannot run this grid and rule, or "" when it can.
std::string unsupported_reason(KernelKind kind, const GridShape& shape, const LifeRule& rule);

// The cloud model on a 3D grid with the cloud neighborhood (shape.neighborhood is not read),
// a fixed boundary being fixed:0. States are a byte per cell, cloud_code: cld + 2 hum + 4 act,
// so the hash covers all three variables. Only the bit-packed kernel runs it. Throws Error
// when it cannot (the message says why), or when `device` is cuda and there is none.
std::unique_ptr<Automaton> make_cloud_automaton(Device device, const GridShape& shape, const CloudRule& rule,
                                                const KernelOptions& options = {});
// The graph engine running models::Cloud on the same grid: the reference.
std::unique_ptr<Automaton> make_graph_cloud_automaton(Device device, const GridShape& shape, const CloudRule& rule,
                                                      int threads = 0);
// Why the cloud model cannot run on this grid, or "" when it can.
std::string cloud_unsupported_reason(const GridShape& shape);

// The first cell (in id order) where two automata on the same shape differ.
struct CellMismatch {
  std::uint64_t id;
  std::int64_t x, y, z;
  std::uint32_t a, b;
  std::string describe() const;  // "cell 17 (x 17, y 0): 1 != 0"
};
std::optional<CellMismatch> first_mismatch(const Automaton& a, const Automaton& b);

// A Life-like or Generations rule in any spelling the lifelike model takes (B3/S23, /2/3, ...).
LifeRule parse_life_rule(const std::string& text);
// Golly's spelling of it.
std::string rule_text(const LifeRule& rule);

// Host helpers shared by the kernels and the CLI.
std::uint64_t states_hash(const std::vector<std::uint8_t>& states);
std::uint64_t states_hash(const std::vector<std::uint32_t>& states);
// "Wolfram rule" names: W30, w110 (0-255). False when `text` is not one.
bool parse_elementary_rule(const std::string& text, ElementaryRule& rule);

}  // namespace cellgraph::dense
