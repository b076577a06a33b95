// The kernel comparison's section of the JSON result: the value of the "kernels" key
// (docs/json-schema.md).
#pragma once

#include "profdiff/analysis/kernel/kernel_compare.h"
#include "profdiff/report/json_values.h"

namespace profdiff::report {

OrderedJson KernelsJsonSection(const analysis::KernelComparison& cmp);

}  // namespace profdiff::report
