// KernelTypeCompare (--use_kernel_type, docs/reference/kernels.md#kerneltypecompare; by kernel
// category for GPU sides, docs/deviations.md kernel row 6): internal to analysis/kernel.
#pragma once

#include "profdiff/analysis/kernel/kernel_compare.h"

namespace profdiff::analysis {

// A directory input (its side files were looked for): the reference's data-presence warnings are
// only logged for these (docs/reference/messages.md#messages).
inline bool IsDirectoryInput(const Profile& p) {
  return p.meta.format == SourceFormat::kAscendProfileDir || p.meta.format == SourceFormat::kAscendOutputDir;
}

// Fills out.kind, out.type_rows, out.base/out.comparison and out.warnings from op_statistic.csv.
void CompareByType(const Timeline& base, const Timeline& comparison, KernelComparison& out);

// The same from the overall comparison's kernel categories of each side (options.*_categories): a
// GPU side's KernelTypeCompare, and a GPU vs NPU pair's.
void CompareByCategory(const Timeline& base, const Timeline& comparison, const KernelCompareOptions& options,
                       KernelComparison& out);

}  // namespace profdiff::analysis
