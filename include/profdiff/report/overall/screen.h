// The overall comparison's screen table (docs/reference/overall.md#screen-table): "Model Profiling
// Time Distribution" in PrettyTable's default style (report/screen.h), byte for byte.
#pragma once

#include <string>

#include "profdiff/analysis/overall/overall.h"

namespace profdiff::report {

// Header "" + the column headers, then the base row and the comparison row, each starting with the
// side's label ("GPU"/"NPU"). Empty when there are no screen columns. `color` makes the title and the
// header bold.
std::string RenderScreenTable(const analysis::OverallComparison& cmp, bool color = false);

}  // namespace profdiff::report
