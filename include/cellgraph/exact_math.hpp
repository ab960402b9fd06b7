// Math that gives the same bits on the CPU and the GPU. The CUDA and host libraries round exp()
// and pow() differently in the last place, which would break bit-identical runs; these use
// only +, *, / and exact steps, which IEEE rounds alike everywhere (the build turns off
// contraction into fused multiply-adds: -ffp-contract=off, nvcc --fmad=false).
#pragma once
#include <cstdint>
#include <cstring>
#include <limits>

#include "cellgraph/hd.hpp"

namespace cellgraph {

// x^n by squaring.
CG_HD inline double power(double x, std::uint32_t n) {
  double result = 1.0;
  while (n) {
    if (n & 1) result *= x;
    x *= x;
    n >>= 1;
  }
  return result;
}

// e^x to within 2 ulp: x = k ln2 + r with |r| <= ln2 / 2 (Cody-Waite split of ln2, so k ln2
// is exact), e^r by its Taylor series to r^13, then the exponent k placed in the bits.
CG_HD inline double portable_exp(double x) {
  if (!(x == x)) return x;  // NaN
  if (x > 709.78) return std::numeric_limits<double>::infinity();
  if (x < -745.2) return 0.0;
  const double kLog2e = 1.4426950408889634;
  const double kLn2Hi = 6.93147180369123816490e-01;  // 32 significant bits: k * hi is exact
  const double kLn2Lo = 1.90821492927058770002e-10;
  double t = x * kLog2e + 0.5;
  std::int64_t k = static_cast<std::int64_t>(t);
  if (static_cast<double>(k) > t) --k;  // floor
  const double r = (x - static_cast<double>(k) * kLn2Hi) - static_cast<double>(k) * kLn2Lo;
  double sum = 1.0 / 6227020800.0;  // 1/13!
  const double inverse_factorials[13] = {1.0 / 479001600.0,
                                         1.0 / 39916800.0,
                                         1.0 / 3628800.0,
                                         1.0 / 362880.0,
                                         1.0 / 40320.0,
                                         1.0 / 5040.0,
                                         1.0 / 720.0,
                                         1.0 / 120.0,
                                         1.0 / 24.0,
                                         1.0 / 6.0,
                                         0.5,
                                         1.0,
                                         1.0};
  for (double c : inverse_factorials) sum = sum * r + c;
  // 2^k as two factors, so that subnormal results (k < -1022) are reached too.
  auto two_to = [](std::int64_t e) {
    const std::uint64_t bits = static_cast<std::uint64_t>(e + 1023) << 52;
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
  };
  const std::int64_t half = k / 2;
  return sum * two_to(half) * two_to(k - half);
}

}  // namespace cellgraph
