// numpy / bottleneck float statistics (numpy_numbers.h).
#include "profdiff/analysis/common/numpy_numbers.h"

#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

namespace profdiff::analysis {
namespace {

double PairwiseSum(const double* a, size_t n) {
  if (n < 8) {
    double res = 0.0;
    for (size_t i = 0; i < n; ++i) res += a[i];
    return res;
  }
  if (n <= 128) {
    double r[8];
    for (size_t j = 0; j < 8; ++j) r[j] = a[j];
    size_t i = 8;
    for (; i < n - (n % 8); i += 8) {
      for (size_t j = 0; j < 8; ++j) r[j] += a[i + j];
    }
    double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) res += a[i];
    return res;
  }
  size_t n2 = n / 2;
  n2 -= n2 % 8;
  return PairwiseSum(a, n2) + PairwiseSum(a + n2, n - n2);
}

}  // namespace

double NumpySum(std::span<const double> values) { return 0.0 + PairwiseSum(values.data(), values.size()); }

double NumpyMean(std::span<const double> values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  return NumpySum(values) / static_cast<double>(values.size());
}

double NumpyStd(std::span<const double> values, int ddof) {
  const auto n = static_cast<double>(values.size());
  if (values.size() <= static_cast<size_t>(ddof < 0 ? 0 : ddof)) return std::numeric_limits<double>::quiet_NaN();
  const double mean = NumpyMean(values);
  std::vector<double> squares(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    const double d = values[i] - mean;
    squares[i] = d * d;
  }
  return std::sqrt(NumpySum(squares) / (n - ddof));
}

double BottleneckStd(std::span<const double> values, int ddof) {
  if (values.size() <= static_cast<size_t>(ddof < 0 ? 0 : ddof)) return std::numeric_limits<double>::quiet_NaN();
  double sum = 0.0;
  for (double v : values) sum += v;
  const double mean = sum / static_cast<double>(values.size());
  double squares = 0.0;
  for (double v : values) {
    const double d = v - mean;
    squares += d * d;
  }
  return std::sqrt(squares / static_cast<double>(values.size() - static_cast<size_t>(ddof)));
}

double NumpyQuantileSorted(std::span<const double> sorted, double q) {
  if (sorted.empty()) return std::numeric_limits<double>::quiet_NaN();
  const auto n = static_cast<double>(sorted.size());
  const double virtual_index = (n - 1.0) * q;  // numpy's linear method
  const double below = std::floor(virtual_index);
  const double t = virtual_index - below;
  const auto last = static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<size_t>(below < 0 ? 0.0 : (below > last ? last : below));
  const auto hi = static_cast<size_t>(below + 1 > last ? last : below + 1);
  const double a = sorted[lo], b = sorted[hi];
  const double diff = b - a;
  return t >= 0.5 ? b - diff * (1.0 - t) : a + diff * t;
}

double BottleneckMedianSorted(std::span<const double> sorted) {
  if (sorted.empty()) return std::numeric_limits<double>::quiet_NaN();
  const size_t n = sorted.size();
  if (n % 2 == 1) return sorted[n / 2];
  return 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
}

}  // namespace profdiff::analysis
