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
// absent release "0"; GPU: the shortest exact decimal, or with policy.memory_gpu_times_as_floats the
// exact value of the time's double; an absent release "None").
std::string AllocatedDetailsLine(const Profile& profile, const analysis::OpTree& tree,
                                 const analysis::PlacedMemory& placed, uint32_t record,
                                 const analysis::ReferencePolicy& policy);

// The exact decimal value of a finite double, as Python's str(Decimal(x)) prints a float of ordinary
// size ("88437691101.718994140625", "1000", "0.5").
std::string ExactDecimalOfDouble(double v);

}  // namespace profdiff::report
