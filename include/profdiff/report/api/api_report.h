// The API comparison's sheet (ApiCompare, docs/reference/api.md, docs/reference/workbook.md) and
// its section of the JSON result (the value of the "api" key, docs/json-schema.md).
#pragma once

#include <string_view>
#include <vector>

#include "profdiff/analysis/api/api_compare.h"
#include "profdiff/report/json_values.h"
#include "profdiff/report/sheet.h"

namespace profdiff::report {

// The ApiCompare sheet (a sheet without rows is not written).
std::vector<SheetSpec> BuildApiSheets(const analysis::ApiComparison& cmp, std::string_view base_path_arg,
                                      std::string_view comparison_path_arg);

OrderedJson ApiJsonSection(const analysis::ApiComparison& cmp);

}  // namespace profdiff::report
