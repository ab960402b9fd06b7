// The dense kernels' front door: what each kernel supports, the factories, host hashes.
#include <omp.h>

#include <cctype>

#include "cellgraph/dense/cell_hash.hpp"
#include "cellgraph/error.hpp"
#include "cellgraph/simulation.hpp"
#include "dense/automata.hpp"

namespace cellgraph::dense {
namespace {

std::string shape_reason(const GridShape& shape, std::uint32_t num_states) {
  if (shape.dims < 1 || shape.dims > 3) return "grids have 1, 2 or 3 dimensions";
  for (int axis = 0; axis < 3; ++axis)
    if (shape.size[axis] < 1 || (axis >= shape.dims && shape.size[axis] != 1))
      return "every grid size must be at least 1";
  if (shape.edge == Edge::fixed && shape.edge_value >= num_states)
    return "the fixed boundary's state " + std::to_string(shape.edge_value) + " is not a state of the rule";
  return "";
}

void require(const std::string& reason, const std::string& kernel) {
  if (!reason.empty()) throw Error("the " + kernel + " kernel cannot run this: " + reason);
}

}  // namespace

std::string unsupported_reason(KernelKind kind, const GridShape& shape, const LifeRule& rule) {
  if (std::string reason = shape_reason(shape, rule.states); !reason.empty()) return reason;
  if (rule.states > 256) return "it holds at most 256 states";
  if (kind == KernelKind::bitpacked) {
    if (shape.dims != 2 || shape.neighborhood != Neighborhood::moore)
      return "bit-packed kernels run 2D Moore grids only";
    if (!rule.two_state()) return "bit-packed kernels run two-state rules only (no Generations)";
  }
  return "";
}

std::unique_ptr<Automaton> make_life_automaton(KernelKind kind, Device device, const GridShape& shape,
                                               const LifeRule& rule, const KernelOptions& options) {
  const std::string kernel = kind == KernelKind::byte ? "byte" : "bit-packed";
  require(unsupported_reason(kind, shape, rule), kernel);
  if (options.generations_per_pass < 0 || options.generations_per_pass > 32)
    throw Error("generations per pass must be from 1 to 32, or 0 for the kernel's choice");
  if (device == Device::cpu)
    return kind == KernelKind::byte ? make_cpu_byte_life(shape, rule, options.threads)
                                    : make_cpu_bitpacked(shape, rule, options.threads);
#if CELLGRAPH_HAVE_CUDA
  if (!cuda_device_available()) throw Error("the cuda " + kernel + " kernel: no CUDA device is available");
  return kind == KernelKind::byte ? make_cuda_byte_life(shape, rule, options.generations_per_pass)
                                  : make_cuda_bitpacked(shape, rule, options.generations_per_pass);
#else
  throw Error("this build of cellgraph has no CUDA backend (configure where nvcc is found)");
#endif
}

std::string cloud_unsupported_reason(const GridShape& shape) {
  if (std::string reason = shape_reason(shape, 1); !reason.empty()) return reason;
  if (shape.dims != 3) return "the cloud model runs on 3D grids";
  return "";
}

std::unique_ptr<Automaton> make_cloud_automaton(Device device, const GridShape& shape, const CloudRule& rule,
                                                const KernelOptions& options) {
  require(cloud_unsupported_reason(shape), "bit-packed cloud");
  if (device == Device::cpu) return make_cpu_bitpacked_cloud(shape, rule, options.threads);
#if CELLGRAPH_HAVE_CUDA
  if (!cuda_device_available()) throw Error("the cuda bit-packed cloud kernel: no CUDA device is available");
  return make_cuda_bitpacked_cloud(shape, rule);
#else
  throw Error("this build of cellgraph has no CUDA backend (configure where nvcc is found)");
#endif
}

std::unique_ptr<Automaton> make_elementary_automaton(Device device, const GridShape& shape, const ElementaryRule& rule,
                                                     int threads) {
  std::string reason = shape_reason(shape, 2);
  if (reason.empty() && shape.dims != 1) reason = "elementary rules run on 1D grids";
  require(reason, "byte");
  if (device == Device::cpu) return make_cpu_byte_elementary(shape, rule, threads);
#if CELLGRAPH_HAVE_CUDA
  if (!cuda_device_available()) throw Error("the cuda byte kernel: no CUDA device is available");
  return make_cuda_byte_elementary(shape, rule);
#else
  throw Error("this build of cellgraph has no CUDA backend (configure where nvcc is found)");
#endif
}

void check_states(const std::vector<std::uint8_t>& states, const GridShape& shape, std::uint32_t num_states) {
  if (states.size() != shape.cell_count())
    throw Error("expected " + std::to_string(shape.cell_count()) + " cell states, got " +
                std::to_string(states.size()));
  for (std::uint8_t s : states)
    if (s >= num_states)
      throw Error("state " + std::to_string(s) + " is not a state of this rule (0.." + std::to_string(num_states - 1) +
                  ")");
}

void check_cloud_states(const std::vector<std::uint8_t>& states, const GridShape& shape) {
  if (states.size() != shape.cell_count())
    throw Error("expected " + std::to_string(shape.cell_count()) + " cell states, got " +
                std::to_string(states.size()));
  for (std::uint8_t s : states)
    if (s >= 8) throw Error("state " + std::to_string(s) + " is not a cloud cell (cld + 2 hum + 4 act: 0..7)");
}

template <class State>
static std::uint64_t hash_of(const std::vector<State>& states) {
  std::uint64_t sum = 0;
  const std::int64_t n = std::int64_t(states.size());
#pragma omp parallel for reduction(+ : sum) schedule(static)
  for (std::int64_t id = 0; id < n; ++id)
    if (states[id]) sum += cell_hash(std::uint64_t(id), std::uint32_t(states[id]));
  return sum;
}

std::uint64_t states_hash(const std::vector<std::uint8_t>& states) { return hash_of(states); }
std::uint64_t states_hash(const std::vector<std::uint32_t>& states) { return hash_of(states); }

std::string CellMismatch::describe() const {
  return "cell " + std::to_string(id) + " (x " + std::to_string(x) + ", y " + std::to_string(y) + ", z " +
         std::to_string(z) + "): " + std::to_string(a) + " != " + std::to_string(b);
}

std::optional<CellMismatch> first_mismatch(const Automaton& a, const Automaton& b) {
  const std::vector<std::uint8_t> sa = a.states(), sb = b.states();
  if (sa.size() != sb.size()) throw Error(a.name() + " and " + b.name() + " run different grids");
  for (std::size_t id = 0; id < sa.size(); ++id)
    if (sa[id] != sb[id]) {
      const std::int64_t w = a.shape().size[0], h = a.shape().size[1], i = std::int64_t(id);
      return CellMismatch{id, i % w, (i / w) % h, i / (w * h), sa[id], sb[id]};
    }
  return std::nullopt;
}

bool parse_elementary_rule(const std::string& text, ElementaryRule& rule) {
  if (text.size() < 2 || text.size() > 4 || std::toupper(static_cast<unsigned char>(text[0])) != 'W') return false;
  int number = 0;
  for (std::size_t i = 1; i < text.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return false;
    number = number * 10 + (text[i] - '0');
  }
  if (number > 255) return false;
  rule.number = std::uint8_t(number);
  return true;
}

}  // namespace cellgraph::dense
