#include "profdiff/report/json_values.h"

#include <cmath>

namespace profdiff::report {

OrderedJson JsonNumber(double v) {
  if (std::isnan(v)) return nullptr;
  if (std::isinf(v)) return v > 0 ? "INF" : "-INF";
  return v;
}

}  // namespace profdiff::report
