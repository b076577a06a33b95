#include "profdiff/analysis/api/api_compare.h"

#include <unordered_map>

namespace profdiff::analysis {

namespace {

// Adds one side's ops to the rows, creating a row the first time a name is seen.
void Accumulate(const std::vector<ApiOp>& ops, bool base_side, std::vector<ApiRow>& rows,
                std::unordered_map<std::string, size_t>& index) {
  for (const ApiOp& op : ops) {
    auto [it, inserted] = index.try_emplace(op.name, rows.size());
    if (inserted) rows.push_back(ApiRow{.name = op.name, .base = {}, .comparison = {}});
    ApiSide& side = base_side ? rows[it->second].base : rows[it->second].comparison;
    side.total_ns += op.dur_ns;
    side.self_ns += op.self_ns;
    side.calls += 1;
  }
}

}  // namespace

std::vector<ApiRow> CompareApis(const std::vector<ApiOp>& base, const std::vector<ApiOp>& comparison) {
  std::vector<ApiRow> rows;
  if (base.empty() || comparison.empty()) return rows;
  std::unordered_map<std::string, size_t> index;
  Accumulate(base, true, rows, index);
  Accumulate(comparison, false, rows, index);
  return rows;
}

}  // namespace profdiff::analysis
