// Float statistics as the reference's numpy / pandas / bottleneck compute them, operation for
// operation, so a value reproduced under --reference-compat is the reference's to the last bit
// (its slow-rank vote and statistics, analysis/cluster/slow_rank_vote.h). numpy 1.24 and
// bottleneck 1.3 (Debian 12's), pandas 1.5 choosing between them as it does with bottleneck
// installed (pandas' mean and sum are numpy's; its std, median, min and max are bottleneck's).
#pragma once

#include <span>

namespace profdiff::analysis {

// numpy's add.reduce of a contiguous float64 array: 0.0 + its pairwise summation (blocks of 8
// partial sums, halves above 128 elements).
double NumpySum(std::span<const double> values);
// np.mean: NumpySum / n.
double NumpyMean(std::span<const double> values);
// np.std(values, ddof): numpy's _var (mean by NumpyMean, squared deviations summed pairwise).
double NumpyStd(std::span<const double> values, int ddof);
// bottleneck.nanstd(values, ddof): the sum and the squared deviations summed in order.
double BottleneckStd(std::span<const double> values, int ddof);
// np.percentile(values, q * 100, method="linear") on values sorted ascending, q in [0, 1]: the
// value at (n - 1) * q by numpy's lerp (from the lower neighbour below t = 0.5, from the upper at or
// above it).
double NumpyQuantileSorted(std::span<const double> sorted, double q);
// The median of values sorted ascending as bottleneck computes it: the middle one, or 0.5 * (the
// two middle ones added).
double BottleneckMedianSorted(std::span<const double> sorted);

}  // namespace profdiff::analysis
