// Value helpers shared by the JSON result's envelope (json_report.cc) and the per-comparison
// sections (report/<comparison>/<comparison>_json.cc).
#pragma once

#include <nlohmann/json.hpp>

namespace profdiff::report {

using OrderedJson = nlohmann::ordered_json;

// JSON has no NaN or infinity: a finite number is written as is, NaN as null, +inf / -inf as the
// strings "INF" / "-INF" (the workbook's spelling of an infinite ratio), and -0.0 as 0.0.
OrderedJson JsonNumber(double v);

}  // namespace profdiff::report
