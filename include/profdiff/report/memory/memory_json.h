// The memory comparison's section of the JSON result: the value of the "memory" key
// (docs/json-schema.md).
#pragma once

#include "profdiff/analysis/memory/memory_compare.h"
#include "profdiff/report/json_values.h"

namespace profdiff::report {

OrderedJson MemoryJsonSection(const analysis::MemoryComparison& cmp);

}  // namespace profdiff::report
