#include "profdiff/report/json_values.h"

#include <cmath>

namespace profdiff::report {

OrderedJson JsonNumber(double v) {
  if (std::isnan(v)) return nullptr;
  if (std::isinf(v)) return v > 0 ? "INF" : "-INF";
  if (v == 0) return 0.0;  // never -0.0: a consumer would print "-0"
  return v;
}

}  // namespace profdiff::report
