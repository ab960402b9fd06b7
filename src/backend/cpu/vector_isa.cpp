#include "src/backend/cpu/vector_isa.hpp"

#include <algorithm>
#include <atomic>

#include "cellgraph/simulation.hpp"

namespace cellgraph::cpu {
namespace {

VectorIsa detected() {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
      __builtin_cpu_supports("avx512dq"))
    return VectorIsa::avx512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi2"))
    return VectorIsa::avx2;
#endif
  return VectorIsa::portable;
}

std::atomic<VectorIsa> widest_allowed{VectorIsa::avx512};

}  // namespace

VectorIsa vector_isa() {
  static const VectorIsa cpu = detected();
  return std::min(cpu, widest_allowed.load());
}

VectorIsa limit_vector_isa(VectorIsa widest) { return widest_allowed.exchange(widest); }

std::string vector_isa_name(VectorIsa isa) {
  switch (isa) {
    case VectorIsa::avx512:
      return "AVX-512";
    case VectorIsa::avx2:
      return "AVX2";
    default:
      return "portable";
  }
}

}  // namespace cellgraph::cpu

namespace cellgraph {

std::string cpu_vector_instructions() { return cpu::vector_isa_name(cpu::vector_isa()); }

}  // namespace cellgraph
