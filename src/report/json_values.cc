#include "profdiff/report/json_values.h"

#include <cmath>

namespace profdiff::report {

OrderedJson JsonNumber(double v) {
  if (std::isnan(v)) return nullptr;
  if (std::isinf(v)) return v > 0 ? "INF" : "-INF";
  if (v == 0) return 0.0;  // never -0.0: a consumer would print "-0"
  return v;
}

OrderedJson MaterializeJsonBody(const JsonBody& body) {
  OrderedJson value = body.value;
  for (const auto& [key, rows] : body.rows) {
    OrderedJson array = OrderedJson::array();
    for (size_t i = 0; i < rows.count; ++i) array.push_back(rows.row(i));
    value[key] = std::move(array);
  }
  return value;
}

}  // namespace profdiff::report
