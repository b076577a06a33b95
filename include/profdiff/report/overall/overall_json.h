// The overall comparison's part of the JSON result (docs/json-schema.md): the top-level keys
// "sides", "deltas", "overall_metrics" and "screen". The overall comparison always runs (the gate
// and the screen table read it), so these keys are in every result.
#pragma once

#include "profdiff/analysis/overall/overall.h"
#include "profdiff/report/json_values.h"

namespace profdiff::report {

// An object holding exactly those four keys, in that order; the envelope copies them to the top
// level.
OrderedJson OverallJsonSection(const analysis::OverallComparison& cmp);

}  // namespace profdiff::report
