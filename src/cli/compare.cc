// `profdiff compare`: resolve and check both inputs and the outputs, load, compare, render.
#include <fmt/format.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "profdiff/analysis/overall.h"
#include "profdiff/cli/app.h"
#include "profdiff/cli/commands.h"
#include "profdiff/loaders/loader.h"
#include "profdiff/report/output_file.h"
#include "profdiff/report/sheet.h"
#include "profdiff/report/xlsx_writer.h"

namespace profdiff::cli {
namespace {

namespace fs = std::filesystem;

// The comparisons of the reference that profdiff does not produce yet, with their sheet names.
struct Pending {
  bool EnabledComparisons::*flag;
  const char* option;
  const char* sheets;
};
constexpr Pending kNotYet[] = {
    {&EnabledComparisons::operators, "--enable_operator_compare",
     "OperatorCompare/OperatorCompareStatistic/ModuleCompare/ModuleCompareStatistic"},
    {&EnabledComparisons::memory, "--enable_memory_compare", "MemoryCompare/MemoryCompareStatistic"},
    {&EnabledComparisons::communication, "--enable_communication_compare", "CommunicationCompare"},
    {&EnabledComparisons::api, "--enable_api_compare", "ApiCompare"},
    {&EnabledComparisons::kernel, "--enable_kernel_compare", "KernelCompare/KernelTypeCompare"},
};

// `mkdir -p DIR` with mode 0750 (reference §1.4 rule 9).
Status MakeDirs(const std::string& dir) {
  std::error_code ec;
  if (fs::is_directory(dir, ec)) return Status::Ok();
  if (fs::exists(dir, ec))
    return InvalidArgument(fmt::format("Invalid output directory, it is a file: {}", dir));
  fs::create_directories(dir, ec);
  if (ec) return IoError(fmt::format("Failed to make directory: {}: {}", dir, ec.message()));
  ::chmod(dir.c_str(), 0750);
  return Status::Ok();
}

// Ids of the "ProfilerStep#N" host ops, in order of appearance, without duplicates.
std::vector<int64_t> StepIds(const Profile& p) {
  std::vector<int64_t> ids;
  std::set<int64_t> seen;
  for (const Slice& s : p.slices) {
    if (s.kind == SliceKind::kGpuAnnotation || s.kind == SliceKind::kKernel) continue;
    int64_t id = StepIdFromName(p.str(s.name));
    if (id != kNoNumber && seen.insert(id).second) ids.push_back(id);
  }
  return ids;
}

// Reference §1.4 / §11: a step id on a GPU side is a warning; on an NPU side it must exist.
Status CheckStep(const Profile& p, int64_t step, std::ostream& err, bool quiet) {
  if (step == kVoidStep) return Status::Ok();
  if (p.meta.device == DeviceKind::kGpu) {
    if (!quiet)
      err << "profdiff: warning: step id is invalid in GPU data, please use this when comparing between "
             "NPU datas.\n";
    return Status::Ok();
  }
  std::vector<int64_t> ids = StepIds(p);
  for (int64_t id : ids)
    if (id == step) return Status::Ok();
  std::string list;
  for (size_t i = 0; i < ids.size(); ++i) list += (i ? ", " : "") + std::to_string(ids[i]);
  return InvalidArgument(
      fmt::format("Invalid step id: {}, please choose from the valid steps: {}", step, list));
}

}  // namespace

int RunCompare(const CompareOptions& opts, std::ostream& out, std::ostream& err) {
  auto fail = [&](const Status& s, int code) {
    err << "profdiff: error: " << s.message() << "\n";
    return code;
  };
  auto note = [&](const std::string& msg) {
    if (!opts.quiet) err << "profdiff: " << msg << "\n";
  };
  for (const std::string& w : opts.warnings) err << "profdiff: warning: " << w << "\n";

  // Comparisons that are not built yet: refused when asked for by name, noted when implied.
  std::string missing;
  for (const Pending& p : kNotYet) {
    if (opts.requested.*p.flag)
      return fail(InvalidArgument(fmt::format("{}: the {} sheet(s) are not available yet in profdiff; "
                                              "only --enable_profiling_compare (OverallMetrics) is",
                                              p.option, p.sheets)),
                  kExitUsage);
    if (opts.enabled.*p.flag) missing += std::string(missing.empty() ? "" : ", ") + p.sheets;
  }
  if (!missing.empty())
    note(fmt::format("note: only the overall comparison is produced; not available yet: {}", missing));

  // Inputs: base first, then comparison (reference §1.4 rule 8).
  auto base_resolved = ResolveInput(opts.base_path);
  if (!base_resolved.ok()) return fail(base_resolved.status(), kExitInputError);
  auto comp_resolved = ResolveInput(opts.comparison_path);
  if (!comp_resolved.ok()) return fail(comp_resolved.status(), kExitInputError);

  // Outputs (rule 9), before any expensive work.
  auto now = std::chrono::system_clock::now();
  std::string workbook;
  if (!opts.no_xlsx) {
    auto wb = report::ResolveWorkbookPath(opts.output_path, now);
    if (!wb.ok()) return fail(wb.status(), kExitUsage);
    workbook = *wb;
    fs::path parent = fs::path(workbook).parent_path();
    if (!parent.empty()) {
      Status s = MakeDirs(parent.string());
      if (!s.ok()) return fail(s, ExitCodeFor(s));
    }
    Status s = report::CheckOutputPath(workbook, opts.force);
    if (!s.ok()) return fail(s, s.code() == StatusCode::kAlreadyExists ? kExitUsage : kExitInputError);
  }
  if (!opts.json_path.empty()) {
    Status s = report::CheckOutputPath(opts.json_path, opts.force);
    if (!s.ok()) return fail(s, s.code() == StatusCode::kAlreadyExists ? kExitUsage : kExitInputError);
  }
  if (!opts.csv_dir.empty()) {
    Status s = MakeDirs(opts.csv_dir);
    if (!s.ok()) return fail(s, ExitCodeFor(s));
  }

  // Load.
  LoadOptions lo;
  lo.strict = opts.strict;
  auto base = LoadProfile(opts.base_path, lo);
  if (!base.ok()) return fail(base.status(), kExitInputError);
  auto comp = LoadProfile(opts.comparison_path, lo);
  if (!comp.ok()) return fail(comp.status(), kExitInputError);
  if (opts.strict) {
    for (const Profile* p : {base->get(), comp->get()}) {
      Status s = p->diagnostics.CheckStrict();
      if (!s.ok()) return fail(s.WithContext("--strict"), kExitInputError);
    }
  }
  {
    Status s = CheckStep(**base, opts.base_step, err, opts.quiet);
    if (!s.ok()) return fail(s, kExitInputError);
    s = CheckStep(**comp, opts.comparison_step, err, opts.quiet);
    if (!s.ok()) return fail(s, kExitInputError);
  }

  // Compute.
  analysis::OverallOptions oo;
  oo.mode = opts.reference_compat ? analysis::ArithmeticMode::kReferenceCompat : analysis::ArithmeticMode::kExact;
  analysis::OverallComparison cmp = CompareOverall(**base, **comp, oo);

  // Render.
  (void)out;
  std::vector<report::SheetSpec> sheets;
  if (opts.enabled.profiling)
    sheets.push_back(report::BuildOverallMetricsSheet(cmp, opts.base_path, opts.comparison_path));
  if (!opts.no_xlsx) {
    report::WorkbookOptions wo;
    wo.force = opts.force;
    wo.base_path_arg = opts.base_path;
    wo.comparison_path_arg = opts.comparison_path;
    wo.empty_reason = "one side has no end-to-end time (no kernels/device tasks), so no OverallMetrics rows";
    Status s = report::WriteWorkbook(sheets, workbook, wo);
    if (!s.ok()) return fail(s, s.code() == StatusCode::kAlreadyExists ? kExitUsage : kExitInputError);
    note("The comparison result file has been generated: " + fs::absolute(workbook).string());
  }
  return kExitOk;
}

}  // namespace profdiff::cli
