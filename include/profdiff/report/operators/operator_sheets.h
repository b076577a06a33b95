// The operator and module sheets (docs/reference/operators.md#operatorcompare-sheet,
// #operatorcomparestatistic-sheet, #modulecompare-sheet, #modulecomparestatistic-sheet,
// docs/reference/workbook.md): OperatorCompare, OperatorCompareStatistic, ModuleCompare,
// ModuleCompareStatistic, built from an analysis::OperatorComparison. Also the kernel-details text
// of the reference (docs/reference/loading.md#kernel-linking).
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "profdiff/analysis/operators/operator_compare.h"
#include "profdiff/report/python_float.h"  // PyFloatRepr, which the operator sheets use
#include "profdiff/report/sheet.h"

namespace profdiff::report {

// The sheets the comparison produces, in the workbook order of docs/reference/workbook.md
// (ModuleCompareStatistic, ModuleCompare, OperatorCompareStatistic, OperatorCompare); the detail
// sheets only when cmp.details. A sheet without rows is still returned (writers skip it).
std::vector<SheetSpec> BuildOperatorSheets(const analysis::OperatorComparison& cmp,
                                           std::string_view base_path_arg,
                                           std::string_view comparison_path_arg);

// One kernel line of a "Kernel Details" cell, ending in "\n":
//   GPU: "{name} [duration: {dur µs}]"   (dur as the trace wrote it: Profile::WrittenDurUs)
//   NPU: "{name}, {Task Id}, {Task Type}[, [input shapes: {shapes}]] [duration: {dur µs}]"
// `shapes` is the kernel_details.csv index of the kernel's profile (start ns -> Input Shapes).
// `task_id_key`: the arg naming the task (KernelTaskIdKey); a task without it falls back to its Task Id.
std::string KernelLine(const Profile& profile, SliceId kernel, const std::unordered_map<int64_t, StringId>& shapes,
                       ArgKey task_id_key = ArgKey::kTaskId);
// The task id a profile's kernel lines print: the Task Id, or on an Ascend DB export with
// policy.db_kernel_lines_global_task_id its globalTaskId.
ArgKey KernelTaskIdKey(const Profile& profile, const analysis::ReferencePolicy& policy);


// Python str() of an op's "Input Dims" / "Input type" arg; "N/A" when absent.
std::string OpArgText(const Profile& profile, SliceId op, ArgKey key);

// OpArgText of one profile's ops, each distinct JSON arg converted once: a sheet repeats a few
// hundred shapes over thousands of rows, and the conversion parses the JSON.
class OpArgTextCache {
 public:
  explicit OpArgTextCache(const Profile& profile) : p_(profile) {}
  std::string Get(SliceId op, ArgKey key);

 private:
  const Profile& p_;
  std::unordered_map<StringId, std::string> json_;  // JSON text id -> its Python str()
};

}  // namespace profdiff::report
