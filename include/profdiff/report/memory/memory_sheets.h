// The memory comparison's sheets (docs/reference/memory.md#memory-sheets, docs/reference/workbook.md):
// MemoryCompareStatistic and, unless --disable_details, MemoryCompare.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "profdiff/analysis/memory/memory_compare.h"
#include "profdiff/report/sheet.h"

namespace profdiff::report {

// The sheets in workbook order (MemoryCompareStatistic, MemoryCompare); a sheet without rows is still
// returned (writers skip it).
std::vector<SheetSpec> BuildMemorySheets(const analysis::MemoryComparison& cmp, std::string_view base_path_arg,
                                         std::string_view comparison_path_arg);

// One line of an "Allocated Details" cell, ending in "\n" (docs/reference/memory.md#memory-record-fields):
// "{name}, ({allocation}, {release}), [duration: {µs}], [size: {KB}]". The name is the record's own or
// that of the op it is attached to; times are µs as the input writes them (NPU: three decimals, an
// absent release "0"; GPU: the shortest exact decimal, an absent release "None").
std::string AllocatedDetailsLine(const Profile& profile, const analysis::OpTree& tree,
                                 const analysis::PlacedMemory& placed, uint32_t record);

}  // namespace profdiff::report
