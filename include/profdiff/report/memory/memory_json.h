// The memory comparison's section of the JSON result: the value of the "memory" key
// (docs/json-schema.md).
#pragma once

#include <memory>

#include "profdiff/analysis/memory/memory_compare.h"
#include "profdiff/report/json_values.h"

namespace profdiff::report {

// The section with its "rows" made one at a time while the document is written; the body keeps the
// comparison alive.
JsonBody MemoryJsonBody(std::shared_ptr<const analysis::MemoryComparison> cmp);
// The same, rows made (tests).
OrderedJson MemoryJsonSection(const analysis::MemoryComparison& cmp);

}  // namespace profdiff::report
