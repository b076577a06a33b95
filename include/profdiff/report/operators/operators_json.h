// The operator/module comparison's section of the JSON result: the value of the "operators" key
// (docs/json-schema.md).
#pragma once

#include <memory>

#include "profdiff/analysis/operators/operator_compare.h"
#include "profdiff/report/json_values.h"

namespace profdiff::report {

// The section with its rows ("operator_rows" / "module_rows") made one at a time while the document is
// written; the body keeps the comparison alive.
JsonBody OperatorsJsonBody(std::shared_ptr<const analysis::OperatorComparison> cmp);
// The same, rows made (tests).
OrderedJson OperatorsJsonSection(const analysis::OperatorComparison& cmp);

}  // namespace profdiff::report
