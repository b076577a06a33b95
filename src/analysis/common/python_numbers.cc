#include "profdiff/analysis/common/python_numbers.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

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

}  // namespace profdiff::analysis
