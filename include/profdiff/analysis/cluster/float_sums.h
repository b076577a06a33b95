// Sums and roundings of floats as the reference's cluster analysis computes them (pandas 1.5 on
// numpy 1.24, as Debian ships them), and the exact forms profdiff's default computes instead.
#pragma once

#include <span>

namespace profdiff::analysis {

// pandas' groupby sum of a float64 column: Kahan-compensated, in row order (NaN skipped by callers).
struct KahanSum {
  double sum = 0, compensation = 0;
  void Add(double v) {
    const double y = v - compensation;
    const double t = sum + y;
    compensation = t - sum - y;
    sum = t;
  }
};

// numpy's sum of a contiguous float64 array (what DataFrame.sum() computes, a NaN taken as 0):
// pairwise, blocks of up to 128 values summed through eight partial sums.
double NumpyPairwiseSum(std::span<const double> values);

// numpy's round(x, decimals) (Series.round): x * 10^decimals rounded to an integer (ties to even),
// divided back; it can differ from Python's correctly rounded round() by one step of the last digit.
double NumpyRound(double x, int decimals);

// The double nearest the exact sum of `values` (ties to even), whatever their order: Python's
// math.fsum. Not finite when a value is not finite (their plain sum).
double ExactSum(std::span<const double> values);

}  // namespace profdiff::analysis
