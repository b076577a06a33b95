// The OverallMetrics sheet (docs/reference/overall.md#overallmetrics-sheet,
// docs/reference/workbook.md), built from the overall comparison's rows.
#pragma once

#include <string_view>

#include "profdiff/analysis/overall/overall.h"
#include "profdiff/report/sheet.h"

namespace profdiff::report {

// One row per analysis::OverallRow. A sheet with no rows means "no OverallMetrics sheet" (a side
// had e2e == 0); writers skip sheets without rows.
// `incomparable`: why the pair is not a fair comparison (GateResult::incomparable_reasons); the
// default mode's comparison banner says so.
SheetSpec BuildOverallMetricsSheet(const analysis::OverallComparison& cmp, std::string_view base_path_arg,
                                   std::string_view comparison_path_arg,
                                   const std::vector<std::string>& incomparable = {});

}  // namespace profdiff::report
