// Linear least squares for the few parameters of the model (Householder QR: the regressors
// span many orders of magnitude, which normal equations would square), its non-negative
// variant, and the statistics that say how well measurements and predictions agree.
#include <algorithm>
#include <cmath>
#include <limits>

#include "cellgraph/error.hpp"
#include "cellgraph/perfmodel.hpp"

namespace cellgraph::perfmodel {

std::optional<std::vector<double>> least_squares(const std::vector<std::vector<double>>& rows,
                                                 const std::vector<double>& b) {
  if (rows.size() != b.size()) throw Error("least squares: rows and right-hand side differ in length");
  const std::size_t m = rows.size(), k = rows.empty() ? 0 : rows[0].size();
  if (k == 0 || m < k) return std::nullopt;
  // Column-major copy, each column scaled to unit length so that the rank test means the same
  // for seconds per byte and seconds per step.
  std::vector<std::vector<double>> a(k, std::vector<double>(m));
  std::vector<double> scale(k, 0.0), y = b;
  for (std::size_t j = 0; j < k; ++j) {
    for (std::size_t i = 0; i < m; ++i) {
      if (rows[i].size() != k) throw Error("least squares: rows of different lengths");
      a[j][i] = rows[i][j];
      scale[j] += rows[i][j] * rows[i][j];
    }
    scale[j] = std::sqrt(scale[j]);
    if (!(scale[j] > 0) || !std::isfinite(scale[j])) return std::nullopt;
    for (double& v : a[j]) v /= scale[j];
  }
  // Householder: column j's entries from row j down become (r_jj, 0, ..., 0); apply the same
  // reflection to the later columns and to y.
  for (std::size_t j = 0; j < k; ++j) {
    double norm = 0;
    for (std::size_t i = j; i < m; ++i) norm += a[j][i] * a[j][i];
    norm = std::sqrt(norm);
    if (norm < 1e-10) return std::nullopt;  // column j lies in the span of the earlier ones
    const double alpha = a[j][j] > 0 ? -norm : norm;
    std::vector<double> v(a[j].begin() + std::ptrdiff_t(j), a[j].end());
    v[0] -= alpha;
    double vv = 0;
    for (double x : v) vv += x * x;
    auto reflect = [&](std::vector<double>& col) {
      double dot = 0;
      for (std::size_t i = j; i < m; ++i) dot += v[i - j] * col[i];
      const double f = 2 * dot / vv;
      for (std::size_t i = j; i < m; ++i) col[i] -= f * v[i - j];
    };
    if (vv > 0) {
      for (std::size_t c = j; c < k; ++c) reflect(a[c]);
      reflect(y);
    }
  }
  std::vector<double> x(k);
  for (std::size_t j = k; j-- > 0;) {
    double s = y[j];
    for (std::size_t c = j + 1; c < k; ++c) s -= a[c][j] * x[c];
    x[j] = s / a[j][j];
  }
  for (std::size_t j = 0; j < k; ++j) x[j] /= scale[j];
  return x;
}

std::vector<double> nonnegative_least_squares(const std::vector<std::vector<double>>& rows,
                                              const std::vector<double>& b) {
  const std::size_t k = rows.empty() ? 0 : rows[0].size();
  if (k > 10) throw Error("nonnegative least squares: at most 10 columns");  // every subset is tried
  auto residual = [&](const std::vector<double>& x) {
    double s = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      double r = -b[i];
      for (std::size_t j = 0; j < k; ++j) r += rows[i][j] * x[j];
      s += r * r;
    }
    return s;
  };
  // The non-negative optimum is the unconstrained fit on its own set of non-zero columns, so
  // the best feasible subset fit is it. Bit k-1-j of `mask` stands for column j, so that
  // subsets holding the earlier columns come first: of equal fits (columns that the rows
  // cannot tell apart), the one keeping the earlier column wins.
  std::vector<double> best(k, 0.0);
  double best_residual = residual(best);
  for (std::uint32_t mask = (1u << k) - 1; mask > 0; --mask) {
    std::vector<std::size_t> used;
    for (std::size_t j = 0; j < k; ++j)
      if (mask >> (k - 1 - j) & 1) used.push_back(j);
    std::vector<std::vector<double>> sub(rows.size(), std::vector<double>(used.size()));
    for (std::size_t i = 0; i < rows.size(); ++i)
      for (std::size_t c = 0; c < used.size(); ++c) sub[i][c] = rows[i][used[c]];
    const auto x = least_squares(sub, b);
    if (!x || std::any_of(x->begin(), x->end(), [](double v) { return v < 0 || !std::isfinite(v); })) continue;
    std::vector<double> full(k, 0.0);
    for (std::size_t c = 0; c < used.size(); ++c) full[used[c]] = (*x)[c];
    const double r = residual(full);
    if (r < best_residual * (1 - 1e-12) - 1e-300) best = full, best_residual = r;
  }
  return best;
}

double pearson(const std::vector<double>& x, const std::vector<double>& y) {
  const std::size_t n = std::min(x.size(), y.size());
  if (n < 2) return std::numeric_limits<double>::quiet_NaN();
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < n; ++i) mx += x[i], my += y[i];
  mx /= double(n), my /= double(n);
  double sxy = 0, sxx = 0, syy = 0;
  for (std::size_t i = 0; i < n; ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
    syy += (y[i] - my) * (y[i] - my);
  }
  if (!(sxx > 0) || !(syy > 0)) return std::numeric_limits<double>::quiet_NaN();
  return sxy / std::sqrt(sxx * syy);
}

Agreement agreement(const std::vector<double>& measured, const std::vector<double>& predicted) {
  if (measured.size() != predicted.size()) throw Error("agreement: measured and predicted differ in length");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  Agreement a;
  a.rows = measured.size();
  a.pearson = pearson(measured, predicted);
  a.pearson_log = a.r_squared = nan;
  if (a.rows == 0) {
    a.mean_abs_rel = a.max_abs_rel = a.rms_rel = nan;
    return a;
  }
  bool positive = true;
  std::vector<double> lm, lp;
  double mean = 0;
  for (std::size_t i = 0; i < a.rows; ++i) {
    positive = positive && measured[i] > 0 && predicted[i] > 0;
    if (positive) lm.push_back(std::log(measured[i])), lp.push_back(std::log(predicted[i]));
    mean += measured[i];
  }
  if (positive) a.pearson_log = pearson(lm, lp);
  mean /= double(a.rows);
  double ss_res = 0, ss_tot = 0, sum_rel = 0, sum_rel2 = 0;
  for (std::size_t i = 0; i < a.rows; ++i) {
    ss_res += (measured[i] - predicted[i]) * (measured[i] - predicted[i]);
    ss_tot += (measured[i] - mean) * (measured[i] - mean);
    const double rel = std::abs(predicted[i] / measured[i] - 1);
    sum_rel += rel, sum_rel2 += rel * rel;
    a.max_abs_rel = std::max(a.max_abs_rel, rel);
  }
  if (ss_tot > 0) a.r_squared = 1 - ss_res / ss_tot;
  a.mean_abs_rel = sum_rel / double(a.rows);
  a.rms_rel = std::sqrt(sum_rel2 / double(a.rows));
  return a;
}

}  // namespace cellgraph::perfmodel
