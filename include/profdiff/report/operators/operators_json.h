// The operator/module comparison's section of the JSON result: the value of the "operators" key
// (docs/json-schema.md).
#pragma once

#include "profdiff/analysis/operators/operator_compare.h"
#include "profdiff/report/json_values.h"

namespace profdiff::report {

OrderedJson OperatorsJsonSection(const analysis::OperatorComparison& cmp);

}  // namespace profdiff::report
