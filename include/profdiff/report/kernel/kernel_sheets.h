// The kernel comparison's sheets (docs/reference/kernels.md, docs/reference/workbook.md):
// KernelCompare, or KernelTypeCompare with --use_kernel_type.
#pragma once

#include <string_view>
#include <vector>

#include "profdiff/analysis/kernel/kernel_compare.h"
#include "profdiff/report/sheet.h"

namespace profdiff::report {

// The sheet of the comparison's kind (none when a side lacked the data; a sheet without rows is not
// written).
std::vector<SheetSpec> BuildKernelSheets(const analysis::KernelComparison& cmp, std::string_view base_path_arg,
                                         std::string_view comparison_path_arg);

}  // namespace profdiff::report
