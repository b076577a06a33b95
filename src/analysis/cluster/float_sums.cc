// The reference's float sums and roundings, and the exact sum (float_sums.h).
#include "profdiff/analysis/cluster/float_sums.h"

#include <cmath>
#include <cstddef>
#include <vector>

namespace profdiff::analysis {
namespace {

constexpr size_t kPairwiseBlock = 128;  // numpy's PW_BLOCKSIZE

double Pairwise(const double* a, size_t n) {
  if (n < 8) {
    double res = 0.;
    for (size_t i = 0; i < n; ++i) res += a[i];
    return res;
  }
  if (n <= kPairwiseBlock) {
    double r[8];
    for (size_t k = 0; k < 8; ++k) r[k] = a[k];
    size_t i = 8;
    for (; i < n - (n % 8); i += 8)
      for (size_t k = 0; k < 8; ++k) r[k] += a[i + k];
    double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) res += a[i];
    return res;
  }
  size_t half = n / 2;
  half -= half % 8;
  return Pairwise(a, half) + Pairwise(a + half, n - half);
}

}  // namespace

double NumpyPairwiseSum(std::span<const double> values) {
  std::vector<double> v(values.begin(), values.end());
  for (double& x : v)
    if (std::isnan(x)) x = 0.0;  // pandas' nansum fills NaN with 0 before numpy sums
  return Pairwise(v.data(), v.size());
}

double NumpyRound(double x, int decimals) {
  const double f = std::pow(10.0, decimals);
  return std::nearbyint(x * f) / f;  // the default rounding mode: ties to even, as numpy's rint
}

double ExactSum(std::span<const double> values) {
  // Shewchuk's exact partial sums (non-overlapping, increasing magnitude), then the top ones added
  // with the half-way case corrected, as Python's math.fsum.
  std::vector<double> partials;
  double plain = 0;
  for (double x : values) {
    plain += x;
    if (!std::isfinite(x)) continue;
    size_t used = 0;
    for (double y : partials) {
      if (std::fabs(x) < std::fabs(y)) std::swap(x, y);
      const double hi = x + y;
      const double lo = y - (hi - x);
      if (lo != 0.0) partials[used++] = lo;
      x = hi;
    }
    partials.resize(used);
    partials.push_back(x);
  }
  if (!std::isfinite(plain)) return plain;
  if (partials.empty()) return 0.0;
  size_t n = partials.size();
  double hi = partials[--n], lo = 0;
  while (n > 0) {
    const double x = hi, y = partials[--n];
    hi = x + y;
    lo = y - (hi - x);
    if (lo != 0.0) break;
  }
  if (n > 0 && ((lo < 0 && partials[n - 1] < 0) || (lo > 0 && partials[n - 1] > 0))) {
    const double y = lo * 2, x = hi + y;
    if (y == x - hi) hi = x;
  }
  return hi;
}

}  // namespace profdiff::analysis
