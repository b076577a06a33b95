// The reference's float sums and roundings, and the exact sum (float_sums.h).
#include "profdiff/analysis/cluster/float_sums.h"

#include <cmath>
#include <cstddef>
#include <vector>

#include "profdiff/analysis/common/numpy_numbers.h"

namespace profdiff::analysis {

double NumpyPairwiseSum(std::span<const double> values) {
  std::vector<double> v(values.begin(), values.end());
  for (double& x : v)
    if (std::isnan(x)) x = 0.0;  // pandas' nansum fills NaN with 0 before numpy sums
  return NumpySum(v);  // numpy's own: 0.0 + the pairwise sum (a sum of -0.0s is 0.0, as numpy's)
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
