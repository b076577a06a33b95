// `profdiff compare`: resolve and check both inputs and the outputs, load, compare, render.
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <filesystem>
#include <future>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <system_error>
#include <vector>

#include "profdiff/analysis/overall/gate.h"
#include "profdiff/analysis/overall/kernel_masks.h"
#include "profdiff/analysis/operators/operator_compare.h"
#include "profdiff/analysis/overall/overall.h"
#include "profdiff/cli/app.h"
#include "profdiff/cli/commands.h"
#include "profdiff/loaders/loader.h"
#include "profdiff/report/csv_writer.h"
#include "profdiff/report/json_report.h"
#include "profdiff/report/operators/operator_sheets.h"
#include "profdiff/report/output_file.h"
#include "profdiff/report/overall/overall_sheet.h"
#include "profdiff/report/overall/screen.h"
#include "profdiff/report/screen.h"
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
                                              "only --enable_profiling_compare and --enable_operator_compare are",
                                              p.option, p.sheets)),
                  kExitUsage);
    if (opts.enabled.*p.flag) missing += std::string(missing.empty() ? "" : ", ") + p.sheets;
  }
  if (!missing.empty())
    note(fmt::format("note: not available yet: {}", missing));

  // Inputs: base first, then comparison (reference §1.4 rule 8).
  auto base_resolved = ResolveInput(opts.base_path);
  if (!base_resolved.ok()) return fail(base_resolved.status(), kExitInputError);
  auto comp_resolved = ResolveInput(opts.comparison_path);
  if (!comp_resolved.ok()) return fail(comp_resolved.status(), kExitInputError);

  // Kernel-categorisation masks (--config), read before any expensive work.
  std::optional<analysis::KernelMasks> masks;
  if (!opts.config_path.empty()) {
    auto m = analysis::LoadKernelMasks(opts.config_path);
    if (!m.ok()) return fail(m.status().WithContext("--config"), kExitInputError);
    masks = std::move(*m);
  }

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
  // The two inputs are independent: load the comparison on a second thread while this one loads the
  // base (loaders only build their own Profile; the loader objects are immutable). Loading dominates
  // the run time, so this nearly halves it on two cores. Errors are still reported base first.
  using Loaded = StatusOr<std::unique_ptr<Profile>>;
  std::future<Loaded> comp_future;
  try {
    comp_future = std::async(std::launch::async, [&] { return LoadProfile(opts.comparison_path, lo); });
  } catch (const std::system_error&) {
    comp_future = std::async(std::launch::deferred, [&] { return LoadProfile(opts.comparison_path, lo); });
  }
  Loaded base = LoadProfile(opts.base_path, lo);
  Loaded comp = comp_future.get();
  if (!base.ok()) return fail(base.status(), kExitInputError);
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
  // The oracles the tests hold are the 8.2 line's; h2-pipeline brings --reference-compat=LINE.
  const analysis::ReferencePolicy policy = analysis::MakeReferencePolicy(
      opts.reference_compat ? std::optional(analysis::ReferenceLine::k8_2) : std::nullopt);
  analysis::TimelineOptions to;
  if (!opts.gpu_flow_cat.empty()) to.gpu_flow_cat = opts.gpu_flow_cat;
  const analysis::Timeline base_timeline = analysis::BuildTimeline(**base, to);
  const analysis::Timeline comp_timeline = analysis::BuildTimeline(**comp, to);
  analysis::OverallOptions oo;
  oo.masks = masks;
  analysis::OverallComparison cmp = CompareOverall(base_timeline, comp_timeline, policy, oo);

  // Gate and comparability warnings.
  analysis::GateOptions go;
  go.e2e_pct = opts.gate_e2e_pct;
  go.compute_pct = opts.gate_compute_pct;
  go.comm_pct = opts.gate_comm_pct;
  go.free_pct = opts.gate_free_pct;
  go.noise_floor_ms = opts.noise_floor_ms;
  analysis::ComparabilityInputs ci;
  ci.base_steps = analysis::CountProfilerSteps(base_timeline);
  ci.comparison_steps = analysis::CountProfilerSteps(comp_timeline);
  analysis::GateResult gate = analysis::EvaluateGate(cmp, go, ci);
  for (const std::string& w : gate.warnings) err << "profdiff: warning: " << w << "\n";

  // Sheets, then every requested output.
  std::vector<report::SheetSpec> sheets;
  if (opts.enabled.profiling)
    sheets.push_back(report::BuildOverallMetricsSheet(cmp, opts.base_path, opts.comparison_path));
  // Operator/module comparison (reference §8, §9).
  std::optional<analysis::OperatorComparison> operators;
  if (opts.enabled.operators) {
    analysis::OperatorCompareOptions oco;
    oco.algorithm = opts.reference_compat ? analysis::MatchAlgorithm::kReferenceCompat : analysis::MatchAlgorithm::kLcs;
    oco.attach = opts.reference_compat ? analysis::KernelAttach::kReferenceCompat : analysis::KernelAttach::kExact;
    oco.reference_arithmetic = opts.reference_compat;
    oco.attach_hccl_ops = !opts.reference_compat || opts.enabled.communication || opts.enabled.profiling;
    oco.disable_details = opts.disable_details;
    oco.disable_module = opts.disable_module;
    oco.max_kernel_num = opts.max_kernel_num;
    oco.op_name_map = opts.op_name_map;
    oco.use_input_shape = opts.use_input_shape;
    if (!opts.gpu_flow_cat.empty()) oco.gpu_flow_cat = opts.gpu_flow_cat;
    if (opts.base_step != kVoidStep) oco.base_step = opts.base_step;
    if (opts.comparison_step != kVoidStep) oco.comparison_step = opts.comparison_step;
    operators = analysis::CompareOperators(**base, **comp, oco);
    for (const std::string& w : operators->warnings) err << "profdiff: warning: " << w << "\n";
    for (report::SheetSpec& s : report::BuildOperatorSheets(*operators, opts.base_path, opts.comparison_path))
      sheets.push_back(std::move(s));
  }
  std::vector<std::string> written;
  if (!opts.no_xlsx) {
    report::WorkbookOptions wo;
    wo.force = opts.force;
    wo.base_path_arg = opts.base_path;
    wo.comparison_path_arg = opts.comparison_path;
    // Why no sheet has rows, for the explanatory sheet: one reason per comparison that ran.
    std::string why;
    if (opts.enabled.profiling)
      why += "the overall comparison needs an end-to-end time on both sides (no kernels or device tasks "
             "were found on a side)";
    if (opts.enabled.operators)
      why += std::string(why.empty() ? "" : "; ") + "the operator comparison found no operators on either side";
    wo.empty_reason = "no sheet has rows: " + (why.empty() ? std::string("no comparison was run") : why);
    Status s = report::WriteWorkbook(sheets, workbook, wo);
    if (!s.ok()) return fail(s, s.code() == StatusCode::kAlreadyExists ? kExitUsage : kExitInputError);
    written.push_back(fs::absolute(workbook).string());
  }
  if (!opts.csv_dir.empty()) {
    auto csvs = report::WriteCsvDir(sheets, opts.csv_dir, opts.force);
    if (!csvs.ok())
      return fail(csvs.status(), csvs.status().code() == StatusCode::kAlreadyExists ? kExitUsage : kExitInputError);
    written.insert(written.end(), csvs->begin(), csvs->end());
  }
  std::string json_text;
  if (!opts.json_path.empty() || opts.format == OutputFormat::kJson) {
    report::JsonReportContext ctx;
    ctx.tool_version = PROFDIFF_VERSION;
    ctx.base = report::JsonInputFromProfile(**base);
    ctx.base.path = opts.base_path;
    ctx.comparison = report::JsonInputFromProfile(**comp);
    ctx.comparison.path = opts.comparison_path;
    ctx.gate = &gate;
    ctx.warnings = opts.warnings;
    ctx.base_diagnostics = &(*base)->diagnostics;
    ctx.comparison_diagnostics = &(*comp)->diagnostics;
    ctx.outputs = written;
    ctx.operators = operators ? &*operators : nullptr;
    if (!opts.json_path.empty()) ctx.outputs.push_back(fs::absolute(opts.json_path).string());
    json_text = report::RenderJsonReport(cmp, ctx);
    if (!opts.json_path.empty()) {
      Status s = report::WriteFileAtomically(opts.json_path, json_text, opts.force);
      if (!s.ok()) return fail(s, s.code() == StatusCode::kAlreadyExists ? kExitUsage : kExitInputError);
    }
  }

  // stdout: the screen table (and the verdict), or the JSON result.
  if (opts.format == OutputFormat::kJson) {
    out << json_text;
  } else {
    bool tty = &out == &std::cout && ::isatty(STDOUT_FILENO) != 0;
    report::ColorMode cm = opts.color == ColorMode::kAlways  ? report::ColorMode::kAlways
                           : opts.color == ColorMode::kNever ? report::ColorMode::kNever
                                                             : report::ColorMode::kAuto;
    bool color = report::ResolveColor(cm, tty, std::getenv("NO_COLOR"));
    if (opts.enabled.profiling) {
      out << report::RenderScreenTable(cmp, color);
      if (cmp.rows.empty())
        note("no OverallMetrics sheet: a side has no end-to-end time (no kernels or device tasks were found)");
    }
    out << report::RenderVerdict(gate, color);
  }
  out.flush();
  for (const std::string& f : written)
    note("The comparison result file has been generated: " + f);
  if (!opts.json_path.empty()) note("The JSON result has been written: " + fs::absolute(opts.json_path).string());
  return gate.ran ? analysis::GateExitCode(gate.verdict) : kExitOk;
}

}  // namespace profdiff::cli
