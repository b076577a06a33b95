#include "profdiff/analysis/common/python_numbers.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include "profdiff/analysis/common/reference_policy.h"

namespace profdiff::analysis {

double PyRound(double x, int ndigits) {
  if (!std::isfinite(x)) return x;
  // glibc's printf rounds the exact binary value correctly (like Python's round via dtoa).
  char buf[512];
  std::snprintf(buf, sizeof buf, "%.*f", ndigits, x);
  double r = std::strtod(buf, nullptr);
  return r == 0 ? std::copysign(0.0, x) : r;
}

double DiffMs(double base_ms, double comparison_ms) { return PyRound(comparison_ms - base_ms, 2); }

double DiffRatio(double base, double comparison) {
  if (base == 0 && comparison == 0) return 1.0;
  if (base == 0) return std::numeric_limits<double>::infinity();
  return PyRound(comparison / base, 4);
}

double PolicyRound(double x, int ndigits, const ReferencePolicy& policy) {
  return policy.rounded_diffs_and_ratios ? PyRound(x, ndigits) : x;
}

double DiffMs(double base_ms, double comparison_ms, const ReferencePolicy& policy) {
  return PolicyRound(comparison_ms - base_ms, 2, policy);
}

double DiffRatio(double base, double comparison, const ReferencePolicy& policy) {
  if (policy.rounded_diffs_and_ratios) return DiffRatio(base, comparison);
  if (base == 0 && comparison == 0) return 1.0;
  if (base == 0) return std::numeric_limits<double>::infinity();
  return comparison / base;
}

}  // namespace profdiff::analysis
