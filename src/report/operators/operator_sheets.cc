#include "profdiff/report/operators/operator_sheets.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "profdiff/analysis/common/python_text.h"
#include "profdiff/base/time.h"

namespace profdiff::report {

namespace {

using analysis::OperatorComparison;

Cell Str(std::string_view s) { return s.empty() ? Cell::Blank() : Cell::String(std::string(s)); }
Cell Num(double v) { return Cell::Number(v); }
Cell Int(int64_t v) { return Cell::Number(static_cast<double>(v)); }

std::string ArgIdText(const Profile& p, const Slice& s, ArgKey key) {
  const std::optional<Arg> a = p.FindArg(s, key);
  if (!a || a->type == ArgType::kNull) return "None";
  if (a->type == ArgType::kInt) return std::to_string(a->i());
  if (a->type == ArgType::kBool) return a->i() ? "True" : "False";
  return std::string(p.str(a->text()));
}

// A kernel's task id for its line: `key`'s arg (kGlobalTaskId: a DB export task's compute row's
// global task id), the task id when it has none.
std::string TaskIdText(const Profile& p, SliceId kernel, ArgKey key) {
  const Slice& k = p.slices[kernel];
  if (key == ArgKey::kGlobalTaskId && p.IsDbTask(k)) {
    if (const std::optional<size_t> row = p.DbComputeRow(kernel))
      return std::to_string(p.npu.db.compute_tasks[*row].global_task_id);
  }
  return ArgIdText(p, k, !p.FindArg(k, key) ? ArgKey::kTaskId : key);
}

std::string KernelsText(const Profile& p, const std::vector<SliceId>& kernels,
                        const std::unordered_map<int64_t, StringId>& shapes, const analysis::ReferencePolicy& policy) {
  std::string out;
  const ArgKey task_id_key = KernelTaskIdKey(p, policy);
  for (SliceId k : kernels) out += KernelLine(p, k, shapes, task_id_key);
  return out;
}

const std::unordered_map<int64_t, StringId>& ShapesOf(const OperatorComparison& cmp, bool base) {
  return base ? cmp.base_kernel_shapes : cmp.comparison_kernel_shapes;
}

SheetSpec OperatorCompareSheet(const OperatorComparison& cmp, std::string_view b, std::string_view c) {
  SheetSpec s;
  s.name = "OperatorCompare";
  s.base_banner = {1, 5, BaseBannerText(b)};
  s.comparison_banner = {6, 10, ComparisonBannerText(c)};
  s.columns = {
      {"Order Id", 10, CellFormat::kDefault, false},
      {"Operator Name", 30, CellFormat::kBoldStr, false},
      {"Input Shape", 20, CellFormat::kDefault, false},
      {"Input Type", 20, CellFormat::kDefault, false},
      {"Kernel Details", 20, CellFormat::kDefault, false},
      {"Device Duration(us)", 20, CellFormat::kDefaultFloat, false},
      {"Operator Name", 30, CellFormat::kBoldStr, false},
      {"Input Shape", 20, CellFormat::kDefault, false},
      {"Input Type", 20, CellFormat::kDefault, false},
      {"Kernel Details", 20, CellFormat::kDefault, false},
      {"Device Duration(us)", 20, CellFormat::kDefaultFloat, false},
      {"Diff Duration(us)", 20, CellFormat::kDefaultFloat, false},
      {"Diff Ratio", 20, CellFormat::kDefaultRatio, true},
  };
  s.rows.reserve(cmp.operator_rows.size());
  int64_t order = 0;
  OpArgTextCache base_args(*cmp.base), comparison_args(*cmp.comparison);
  for (const analysis::OperatorRow& r : cmp.operator_rows) {
    RowSpec row;
    row.cells.reserve(13);
    row.cells.push_back(Int(++order));
    auto side = [&](const analysis::OperatorSide& os, const Profile& p, bool is_base) {
      OpArgTextCache& args = is_base ? base_args : comparison_args;
      if (!os.present) {
        row.cells.insert(row.cells.end(), {Cell::Blank(), Cell::Blank(), Cell::Blank(), Cell::Blank(), Num(0)});
        return;
      }
      row.cells.push_back(Str(os.name));
      row.cells.push_back(Str(args.Get(os.slice, ArgKey::kInputDims)));
      row.cells.push_back(Str(args.Get(os.slice, ArgKey::kInputType)));
      row.cells.push_back(Str(KernelsText(p, os.kernels, ShapesOf(cmp, is_base), cmp.policy)));
      row.cells.push_back(Num(os.device.Us(cmp.policy)));
    };
    side(r.base, *cmp.base, true);
    side(r.comparison, *cmp.comparison, false);
    row.cells.push_back(Num(r.diff_us));
    row.cells.push_back(RatioCell(r.ratio));
    s.rows.push_back(std::move(row));
  }
  return s;
}

SheetSpec OperatorStatisticSheet(const OperatorComparison& cmp, std::string_view b, std::string_view c) {
  SheetSpec s;
  s.name = "OperatorCompareStatistic";
  s.base_banner = {2, 3, BaseBannerText(b)};
  s.comparison_banner = {4, 5, ComparisonBannerText(c)};
  s.columns = {
      {"Top", 10, CellFormat::kDefault, false},
      {"Operator Name", 30, CellFormat::kBoldStr, false},
      {"Base Device Duration(ms)", 25, CellFormat::kDefaultFloat, false},
      {"Base Operator Number", 25, CellFormat::kDefault, false},
      {"Comparison Device Duration(ms)", 30, CellFormat::kDefaultFloat, false},
      {"Comparison Operator Number", 30, CellFormat::kDefault, false},
      {"Diff Duration(ms)", 20, CellFormat::kDefaultFloat, false},
      {"Diff Ratio", 20, CellFormat::kDefaultRatio, true},
  };
  int64_t top = 0;
  for (const analysis::OperatorStatRow& r : cmp.operator_stats) {
    RowSpec row;
    row.cells = {Int(++top),
                 Str(r.name),
                 Num(r.base.Ms(cmp.policy)),
                 Int(r.base_count),
                 Num(r.comparison.Ms(cmp.policy)),
                 Int(r.comparison_count),
                 Num(r.diff_ms),
                 RatioCell(r.ratio)};
    s.rows.push_back(std::move(row));
  }
  return s;
}

// A ModuleCompare block's TOTAL row; Module Class/Level/Name from the base module if present.
RowSpec ModuleTotalRow(const OperatorComparison& cmp, const analysis::ModuleBlock& blk, int64_t order) {
  const analysis::ModuleSide& m = blk.base.present ? blk.base : blk.comparison;
  RowSpec total;
  total.cells = {Int(order),
                 Str(m.module_class),
                 Int(m.level),
                 Str(m.display_name),
                 Cell::String("TOTAL"),
                 Cell::Blank(),
                 Num(blk.base.self.Us(cmp.policy)),
                 Num(blk.base.total.Us(cmp.policy)),
                 Cell::String("TOTAL"),
                 Cell::Blank(),
                 Num(blk.comparison.self.Us(cmp.policy)),
                 Num(blk.comparison.total.Us(cmp.policy)),
                 Num(blk.total_diff_us),
                 Num(blk.self_diff_us),
                 RatioCell(blk.total_ratio),
                 Str(blk.base.call_stack),
                 Str(blk.comparison.call_stack)};
  return total;
}

// An operator row of a ModuleCompare block; call stacks only when the self diff is positive.
RowSpec ModuleOperatorRow(const OperatorComparison& cmp, const analysis::ModuleBlock& blk,
                          const analysis::ModuleOpRow& r, int64_t order) {
  const analysis::ModuleSide& m = blk.base.present ? blk.base : blk.comparison;
  const bool stacks = r.self_diff_us > 0;
  RowSpec row;
  row.cells = {Int(order),
               Str(m.module_class),
               Int(m.level),
               Str(m.display_name),
               Str(r.base.name),
               Str(KernelsText(*cmp.base, r.base.kernels, cmp.base_kernel_shapes, cmp.policy)),
               Num(r.base.device.Us(cmp.policy)),
               Cell::Blank(),
               Str(r.comparison.name),
               Str(KernelsText(*cmp.comparison, r.comparison.kernels, cmp.comparison_kernel_shapes, cmp.policy)),
               Num(r.comparison.device.Us(cmp.policy)),
               Cell::Blank(),
               Cell::Blank(),
               Num(r.self_diff_us),
               RatioCell(r.ratio),
               stacks ? Str(r.base.call_stack) : Cell::Blank(),
               stacks ? Str(r.comparison.call_stack) : Cell::Blank()};
  return row;
}

SheetSpec ModuleCompareSheet(const OperatorComparison& cmp, std::string_view b, std::string_view c) {
  SheetSpec s;
  s.name = "ModuleCompare";
  s.base_banner = {4, 7, BaseBannerText(b)};
  s.comparison_banner = {8, 11, ComparisonBannerText(c)};
  s.columns = {
      {"Order Id", 10, CellFormat::kDefault, false},
      {"Module Class", 20, CellFormat::kDefault, false},
      {"Module Level", 15, CellFormat::kDefault, false},
      {"Module Name", 35, CellFormat::kDefault, false},
      {"Operator Name", 25, CellFormat::kDefault, false},
      {"Kernel Details", 20, CellFormat::kDefault, false},
      {"Device Self Time(us)", 20, CellFormat::kDefaultFloat, false},
      {"Device Total Time(us)", 20, CellFormat::kDefaultFloat, false},
      {"Operator Name", 25, CellFormat::kDefault, false},
      {"Kernel Details", 20, CellFormat::kDefault, false},
      {"Device Self Time(us)", 20, CellFormat::kDefaultFloat, false},
      {"Device Total Time(us)", 20, CellFormat::kDefaultFloat, false},
      {"Device Total Time Diff(us)", 20, CellFormat::kDefaultFloat, false},
      {"Device Self Time Diff(us)", 20, CellFormat::kDefaultFloat, false},
      {"Diff Total Ratio", 15, CellFormat::kDefaultRatio, true},
      {"Base Call Stack", 30, CellFormat::kDefault, false, false, /*call_stack=*/true},
      {"Comparison Call Stack", 30, CellFormat::kDefault, false, false, /*call_stack=*/true},
  };
  int64_t order = 0;
  for (const analysis::ModuleBlock& blk : cmp.module_blocks) {
    s.rows.push_back(ModuleTotalRow(cmp, blk, ++order));
    for (const analysis::ModuleOpRow& r : blk.ops) s.rows.push_back(ModuleOperatorRow(cmp, blk, r, ++order));
  }
  return s;
}

std::string StatKernelsText(const std::vector<analysis::ModuleStatKernel>& kernels,
                            const analysis::ReferencePolicy& policy) {
  std::string out;
  char buf[64];
  for (const analysis::ModuleStatKernel& k : kernels) {
    std::snprintf(buf, sizeof buf, "%.3f", k.total.Ms(policy));
    out += std::string(k.name) + ", [number: " + std::to_string(k.total.count) + "], [duration_ms: " + buf + "]\n";
  }
  return out;
}

// A ModuleCompareStatistic block's "[ TOTAL ]" row.
RowSpec StatTotalRow(const OperatorComparison& cmp, const analysis::ModuleStatBlock& blk, int64_t order) {
  RowSpec total;
  total.cells = {Int(order),
                 Str(blk.module_class),
                 Int(blk.level),
                 Str(blk.display_name),
                 Cell::String("[ TOTAL ]"),
                 Cell::Blank(),
                 Num(blk.base.self.Ms(cmp.policy)),
                 Int(blk.base.count),
                 Num(blk.base.total.Ms(cmp.policy)),
                 Cell::Blank(),
                 Num(blk.comparison.self.Ms(cmp.policy)),
                 Int(blk.comparison.count),
                 Num(blk.comparison.total.Ms(cmp.policy)),
                 Num(blk.total_diff_ms),
                 Num(blk.self_diff_ms),
                 RatioCell(blk.total_ratio),
                 Str(blk.base.call_stack),
                 Str(blk.comparison.call_stack)};
  return total;
}

// One operator name's row of a ModuleCompareStatistic block.
RowSpec StatOperatorRow(const OperatorComparison& cmp, const analysis::ModuleStatBlock& blk,
                        const analysis::ModuleStatOpRow& r, int64_t order) {
  RowSpec row;
  row.cells = {Int(order),
               Str(blk.module_class),
               Int(blk.level),
               Str(blk.display_name),
               Str(r.name),
               Str(StatKernelsText(r.base.kernels, cmp.policy)),
               Num(r.base.device.Ms(cmp.policy)),
               Int(r.base.count),
               Cell::Blank(),
               Str(StatKernelsText(r.comparison.kernels, cmp.policy)),
               Num(r.comparison.device.Ms(cmp.policy)),
               Int(r.comparison.count),
               Cell::Blank(),
               Cell::Blank(),
               Num(r.self_diff_ms),
               RatioCell(r.ratio),
               Cell::Blank(),
               Cell::Blank()};
  return row;
}

SheetSpec ModuleStatisticSheet(const OperatorComparison& cmp, std::string_view b, std::string_view c) {
  SheetSpec s;
  s.name = "ModuleCompareStatistic";
  s.base_banner = {5, 8, BaseBannerText(b)};
  s.comparison_banner = {9, 12, ComparisonBannerText(c)};
  s.columns = {
      {"Order Id", 10, CellFormat::kDefault, false},
      {"Module Class", 20, CellFormat::kDefault, false},
      {"Module Level", 15, CellFormat::kDefault, false},
      {"Module Name", 35, CellFormat::kDefault, false},
      {"Operator Name", 25, CellFormat::kDefault, false},
      {"Kernel Details", 20, CellFormat::kDefault, false},
      {"Device Self Time(ms)", 20, CellFormat::kDefaultFloat, false},
      {"Number", 10, CellFormat::kDefault, false},
      {"Device Total Time(ms)", 20, CellFormat::kDefaultFloat, false},
      {"Kernel Details", 20, CellFormat::kDefault, false},
      {"Device Self Time(ms)", 20, CellFormat::kDefaultFloat, false},
      {"Number", 10, CellFormat::kDefault, false},
      {"Device Total Time(ms)", 20, CellFormat::kDefaultFloat, false},
      {"Device Total Time Diff(ms)", 20, CellFormat::kDefaultFloat, false},
      {"Device Self Time Diff(ms)", 20, CellFormat::kDefaultFloat, false},
      {"Diff Total Ratio", 15, CellFormat::kDefaultRatio, true},
      {"Base Call Stack", 30, CellFormat::kDefault, false, false, /*call_stack=*/true},
      {"Comparison Call Stack", 30, CellFormat::kDefault, false, false, /*call_stack=*/true},
  };
  int64_t order = 0;
  for (const analysis::ModuleStatBlock& blk : cmp.module_stats) {
    s.rows.push_back(StatTotalRow(cmp, blk, ++order));
    for (const analysis::ModuleStatOpRow& r : blk.ops) s.rows.push_back(StatOperatorRow(cmp, blk, r, ++order));
  }
  return s;
}

}  // namespace

ArgKey KernelTaskIdKey(const Profile& p, const analysis::ReferencePolicy& policy) {
  return p.meta.format == SourceFormat::kAscendDb && policy.db_kernel_lines_global_task_id ? ArgKey::kGlobalTaskId
                                                                                          : ArgKey::kTaskId;
}

std::string KernelLine(const Profile& p, SliceId kernel, const std::unordered_map<int64_t, StringId>& shapes,
                       ArgKey task_id_key) {
  const Slice& k = p.slices[kernel];
  std::string line(p.str(k.name));
  if (k.kind == SliceKind::kNpuTask || k.kind == SliceKind::kHcclOp) {
    line += ", " + TaskIdText(p, kernel, task_id_key) + ", ";
    // A DB export's task keeps its type outside its args (Profile::TaskType); it always has one.
    line += p.IsDbTask(k) ? std::string(p.TaskType(kernel)) : ArgIdText(p, k, ArgKey::kTaskType);
    if (k.kind == SliceKind::kNpuTask) {
      auto it = shapes.find(k.ts_ns);
      if (it != shapes.end() && !p.str(it->second).empty())
        line += ", [input shapes: " + std::string(p.str(it->second)) + "]";
    }
  }
  line += " [duration: " + PyFloatRepr(p.WrittenDurUs(kernel)) + "]\n";
  return line;
}

std::string OpArgText(const Profile& p, SliceId op, ArgKey key) { return analysis::PythonStrOfArg(p, op, key); }

std::string OpArgTextCache::Get(SliceId op, ArgKey key) {
  const std::optional<Arg> a = p_.FindArg(p_.slices[op], key);
  if (!a || a->type != ArgType::kJson) return OpArgText(p_, op, key);
  auto [it, fresh] = json_.try_emplace(a->text());
  if (fresh) it->second = analysis::PythonStrOfJson(p_.str(a->text()));
  return it->second;
}

std::vector<SheetSpec> BuildOperatorSheets(const OperatorComparison& cmp, std::string_view base_path_arg,
                                           std::string_view comparison_path_arg) {
  std::vector<SheetSpec> out;
  if (cmp.kind == analysis::OperatorCompareKind::kModule) {
    out.push_back(ModuleStatisticSheet(cmp, base_path_arg, comparison_path_arg));
    if (cmp.details) out.push_back(ModuleCompareSheet(cmp, base_path_arg, comparison_path_arg));
  } else if (cmp.kind == analysis::OperatorCompareKind::kOperator) {
    out.push_back(OperatorStatisticSheet(cmp, base_path_arg, comparison_path_arg));
    if (cmp.details) out.push_back(OperatorCompareSheet(cmp, base_path_arg, comparison_path_arg));
  }
  return out;
}

}  // namespace profdiff::report
