// Sine and cosine that give the same bits on the CPU and the GPU (exact_math.hpp says why the
// libraries' own do not): fdlibm's kernels (Sun Microsystems, 1993) on [-pi/4, pi/4] after a
// Cody-Waite reduction by pi/2, built from +, *, / and exact integer steps only. Accurate to
// about one ulp for |x| < 10^6; movable models call them with |x| <= 2 pi.
#pragma once
#include <cstdint>

#include "cellgraph/hd.hpp"

namespace cellgraph {

struct SinCos {
  double sin, cos;
};

namespace detail {

// sin(x) for |x| <= pi/4 (fdlibm __kernel_sin with no tail).
CG_HD inline double kernel_sin(double x) {
  const double S1 = -1.66666666666666324348e-01, S2 = 8.33333333332248946124e-03, S3 = -1.98412698298579493134e-04,
               S4 = 2.75573137070700676789e-06, S5 = -2.50507602534068634195e-08, S6 = 1.58969099521155010221e-10;
  const double z = x * x, v = z * x;
  const double r = S2 + z * (S3 + z * (S4 + z * (S5 + z * S6)));
  return x + v * (S1 + z * r);
}

// cos(x) for |x| <= pi/4 (fdlibm __kernel_cos with no tail): 1 - x^2/2 carried with its
// rounding error, so that cos stays accurate near 1.
CG_HD inline double kernel_cos(double x) {
  const double C1 = 4.16666666666666019037e-02, C2 = -1.38888888888741095749e-03, C3 = 2.48015872894767294178e-05,
               C4 = -2.75573143513906633035e-07, C5 = 2.08757232129817482790e-09, C6 = -1.13596475577881948265e-11;
  const double z = x * x;
  const double r = z * (C1 + z * (C2 + z * (C3 + z * (C4 + z * (C5 + z * C6)))));
  const double hz = 0.5 * z, w = 1.0 - hz;
  return w + (((1.0 - w) - hz) + z * r);
}

}  // namespace detail

CG_HD inline SinCos portable_sincos(double x) {
  const double kTwoOverPi = 6.36619772367581382433e-01;
  const double kPio2Hi = 1.57079632673412561417e+00;  // the first 33 bits of pi/2: n * hi is exact
  const double kPio2Lo = 6.07710050650619224932e-11;  // pi/2 - kPio2Hi
  const double t = x * kTwoOverPi + 0.5;
  std::int64_t n = static_cast<std::int64_t>(t);
  if (static_cast<double>(n) > t) --n;  // floor: n is the quadrant nearest x
  const double fn = static_cast<double>(n);
  const double r = (x - fn * kPio2Hi) - fn * kPio2Lo;
  const double s = detail::kernel_sin(r), c = detail::kernel_cos(r);
  switch (n & 3) {
    case 0:
      return {s, c};
    case 1:
      return {c, -s};
    case 2:
      return {-s, -c};
    default:
      return {-c, s};
  }
}

CG_HD inline double portable_sin(double x) { return portable_sincos(x).sin; }
CG_HD inline double portable_cos(double x) { return portable_sincos(x).cos; }

}  // namespace cellgraph
