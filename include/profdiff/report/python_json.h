// JSON text as Python's json.dumps(obj) writes it with its defaults, for files the reference writes
// that way (cluster_analysis_output/*.json): ", " and ": " separators, no line breaks, non-ASCII
// escaped as \uXXXX (surrogate pairs above U+FFFF), floats as repr() ("0.0", "1e-05", "NaN",
// "Infinity"), integers as integers. Keys in the object's order.
#pragma once

#include <string>

#include "profdiff/report/json_values.h"

namespace profdiff::report {

std::string PythonJsonDumps(const OrderedJson& value);

}  // namespace profdiff::report
