// The vector instruction sets the fast CPU backend is compiled for, and the one this CPU runs.
#pragma once
#include <string>

namespace cellgraph::cpu {

enum class VectorIsa { portable, avx2, avx512 };  // widening order

// The widest set this CPU runs, no wider than limit_vector_isa() allows.
VectorIsa vector_isa();
// Caps what vector_isa() returns (tests run every variant on one CPU); returns the old cap.
VectorIsa limit_vector_isa(VectorIsa widest);
std::string vector_isa_name(VectorIsa isa);

}  // namespace cellgraph::cpu

// A function compiled for one instruction set (the fast sweep's walks), and the bodies they
// share, inlined into each.
// GCC would otherwise swap or jam a walk's loops over entries and lanes, and run the lanes
// scalar.
#if defined(__GNUC__) && !defined(__clang__)
#define CG_LANE_LOOPS __attribute__((optimize("no-loop-interchange", "no-loop-unroll-and-jam")))
#else
#define CG_LANE_LOOPS
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define CG_TARGET_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx2,fma,bmi2"))) CG_LANE_LOOPS
#define CG_TARGET_AVX2 __attribute__((target("avx2,fma,bmi2"))) CG_LANE_LOOPS
#else
#define CG_TARGET_AVX512 CG_LANE_LOOPS
#define CG_TARGET_AVX2 CG_LANE_LOOPS
#endif
// A loop over a slice's lanes, whose iterations touch different lanes' data: vectorize it
// without checking that its arrays overlap.
#if defined(__clang__)
#define CG_LANES_INDEPENDENT _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__)
#define CG_LANES_INDEPENDENT _Pragma("GCC ivdep")
#else
#define CG_LANES_INDEPENDENT
#endif
#if defined(__GNUC__) || defined(__clang__)
#define CG_ALWAYS_INLINE __attribute__((always_inline)) inline
#else
#define CG_ALWAYS_INLINE inline
#endif
