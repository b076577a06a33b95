// ApiCompare (docs/reference/api.md, docs/reference/api.md): torch-op totals grouped by name.
// Only the grouping core so far: not yet in the pipeline table (no sheet, no JSON section).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace profdiff::analysis {

// One all-layer op of one side: its name, duration and self time (dur − Σ direct children's dur).
struct ApiOp {
  std::string name;
  int64_t dur_ns = 0;
  int64_t self_ns = 0;
};

// Exact per-side sums for one api name; the report rounds (ms, 2 places) as the reference does.
struct ApiSide {
  int64_t total_ns = 0;
  int64_t self_ns = 0;
  int64_t calls = 0;
};

struct ApiRow {
  std::string name;
  ApiSide base;
  ApiSide comparison;
};

// Names in first-appearance order on the base side, then comparison-only names in their order.
// No rows when either side is empty (docs/reference/api.md).
std::vector<ApiRow> CompareApis(const std::vector<ApiOp>& base, const std::vector<ApiOp>& comparison);

}  // namespace profdiff::analysis
