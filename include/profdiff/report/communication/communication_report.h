// The communication comparison's sheet (CommunicationCompare, docs/reference/communication.md,
// docs/reference/workbook.md) and JSON section.
#pragma once

#include <string_view>
#include <vector>

#include "profdiff/analysis/communication/communication_compare.h"
#include "profdiff/report/json_values.h"
#include "profdiff/report/sheet.h"

namespace profdiff::report {

std::vector<SheetSpec> BuildCommunicationSheets(const analysis::CommunicationComparison& cmp,
                                                std::string_view base_path_arg, std::string_view comparison_path_arg);

// {"base": summary, "comparison": summary, "rows": [...]} (docs/json-schema.md#communication).
OrderedJson CommunicationJsonSection(const analysis::CommunicationComparison& cmp);

}  // namespace profdiff::report
