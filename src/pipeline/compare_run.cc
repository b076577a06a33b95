// RunComparison: the steps of one `profdiff compare` run, each a function, in the order the
// reference checks things (docs/reference/command-line.md#argument-validation): comparisons,
// inputs, --config, outputs (all before any expensive work), then load, timelines, step ids, the
// overall comparison and the gate, the table's comparisons, outputs.
#include "profdiff/pipeline/compare_run.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <span>
#include <system_error>
#include <utility>
#include <vector>

#include "profdiff/analysis/common/reference_policy.h"
#include "profdiff/analysis/overall/kernel_masks.h"
#include "profdiff/analysis/timeline/timeline.h"
#include "profdiff/base/file_kind.h"
#include "profdiff/base/ordered_parallel.h"
#include "profdiff/base/phase_clock.h"
#include "profdiff/loaders/loader.h"
#include "profdiff/pipeline/comparisons.h"
#include "profdiff/report/csv_writer.h"
#include "profdiff/report/html/html_report.h"
#include "profdiff/report/json_report.h"
#include "profdiff/report/output_file.h"
#include "profdiff/report/overall/overall_json.h"
#include "profdiff/report/xlsx_writer.h"
#include "input_error.h"

namespace profdiff::pipeline {
namespace {

namespace fs = std::filesystem;


// Both inputs resolve to a profile, base first (docs/reference/command-line.md#argument-validation
// rule 8).
Status CheckInputs(const CompareRequest& request) {
  for (const std::string* path : {&request.base_path, &request.comparison_path}) {
    auto resolved = ResolveInput(*path, false, request.input_format);
    if (!resolved.ok()) return AsInputError(resolved.status());
  }
  return Status::Ok();
}

// Kernel-categorisation masks (--config); nullopt: the reference's shipped defaults.
StatusOr<std::optional<analysis::KernelMasks>> LoadMasks(const CompareRequest& request) {
  if (request.config_path.empty()) return std::optional<analysis::KernelMasks>();
  // Only a regular file is read: a FIFO would block the read forever, a directory is no INI file.
  if (struct stat st {}; ::stat(request.config_path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    return NotFound(fmt::format("--config: {}: is a {}, not a regular file", request.config_path,
                                FileKindName(st.st_mode)));
  auto masks = analysis::LoadKernelMasks(request.config_path);
  if (!masks.ok()) return AsInputError(masks.status().WithContext("--config"));
  return std::optional<analysis::KernelMasks>(std::move(*masks));
}

// `mkdir -p DIR` with mode 0750 (docs/reference/command-line.md#argument-validation rule 9); the
// directories made are this run's outputs (removed again when it fails).
Status MakeDirs(const std::string& dir) { return report::MakeOutputDirs(dir, 0750); }

// No output may be an input or lie inside one (an input directory, the --config file).
void ProtectInputs(const CompareRequest& request, report::OutputScope& outputs) {
  for (const std::string* path : {&request.base_path, &request.comparison_path, &request.config_path})
    outputs.ProtectInput(*path);
}

// Every output may be written (rule 9), checked before any expensive work: directories exist and
// are writable, existing files need --force. A timestamped default workbook name is reserved at
// once (the first free of NAME, NAME_2, ...), so runs started in the same second never collide.
// Returns the workbook path (empty with --no-xlsx); `reserved` tells whether this run created it.
StatusOr<std::string> CheckOutputs(const CompareRequest& request,
                                   std::chrono::system_clock::time_point now, bool* reserved) {
  *reserved = false;
  std::string workbook;
  if (!request.no_xlsx) {
    PD_ASSIGN_OR_RETURN(workbook, report::ResolveWorkbookPath(request.output_path, now));
    fs::path parent = fs::path(workbook).parent_path();
    if (!parent.empty()) PD_RETURN_IF_ERROR(MakeDirs(parent.string()));
  }
  if (!request.json_path.empty()) {
    PD_RETURN_IF_ERROR(report::CheckOutputPath(request.json_path, request.force));
    PD_RETURN_IF_ERROR(report::CheckDirectoryWritable(request.json_path));
  }
  if (!request.html_path.empty()) {
    PD_RETURN_IF_ERROR(report::CheckOutputPath(request.html_path, request.force));
    PD_RETURN_IF_ERROR(report::CheckDirectoryWritable(request.html_path));
  }
  if (!request.csv_dir.empty()) {
    PD_RETURN_IF_ERROR(MakeDirs(request.csv_dir));
    PD_RETURN_IF_ERROR(report::CheckDirectoryWritable((fs::path(request.csv_dir) / "x.csv").string()));
  }
  if (request.no_xlsx) return workbook;
  // The workbook file last: a reserved name is created, and every check that can fail comes first.
  const std::string default_name = report::DefaultWorkbookName(now);
  if (fs::path(workbook).filename() == default_name &&
      fs::path(request.output_path).filename() != default_name) {
    PD_ASSIGN_OR_RETURN(workbook, report::ReserveUniquePath(workbook));
    *reserved = true;
    return workbook;
  }
  PD_RETURN_IF_ERROR(report::CheckOutputPath(workbook, request.force));
  PD_RETURN_IF_ERROR(report::CheckDirectoryWritable(workbook));
  return workbook;
}

struct LoadedSides {
  std::unique_ptr<Profile> base;
  std::unique_ptr<Profile> comparison;
};

// Bytes on disk of the trace file (or DB) a path resolves to; 0 when it cannot tell.
uint64_t TraceFileBytes(const std::string& path, InputFormat format) {
  StatusOr<ResolvedInput> r = ResolveInput(path, false, format);
  if (!r.ok()) return 0;
  const std::string& file = r->trace_file.empty() ? r->db_file : r->trace_file;
  std::error_code ec;
  const uintmax_t size = file.empty() ? 0 : fs::file_size(file, ec);
  return ec ? 0 : static_cast<uint64_t>(size);
}

// Loads both sides. The two inputs are independent: each loads on its own thread (loaders only
// build their own Profile; the loader objects are immutable), so loading, which dominates the run
// time, nearly halves on two cores; this thread reports the bytes read ten times a second. Errors are
// still reported base first.
StatusOr<LoadedSides> LoadSides(const CompareRequest& request, RunMessages& messages) {
  std::atomic<uint64_t> read{0};
  std::atomic<uint64_t> inflated{0};
  LoadOptions load_options;
  load_options.strict = request.strict;  // LoadProfile is the one place --strict is enforced
  load_options.input_format = request.input_format;
  load_options.threads = request.threads;
  // Only the module comparison (part of the operator comparison) reads python functions.
  load_options.python_functions = request.enabled.operators && !request.disable_module;
  load_options.trace_bytes_read = &read;
  load_options.trace_bytes_inflated = &inflated;
  const uint64_t total = TraceFileBytes(request.base_path, request.input_format) +
                         TraceFileBytes(request.comparison_path, request.input_format);
  using Loaded = StatusOr<std::unique_ptr<Profile>>;
  auto start = [&](const std::string& path) {
    return StartTask([&load_options, path] { return LoadProfile(path, load_options); });
  };
  std::future<Loaded> base_future = start(request.base_path);
  std::future<Loaded> comparison_future = start(request.comparison_path);
  for (std::future<Loaded>* f : {&base_future, &comparison_future}) {
    while (f->wait_for(std::chrono::milliseconds(100)) == std::future_status::timeout)
      messages.LoadProgress(read.load(std::memory_order_relaxed), total, inflated.load(std::memory_order_relaxed));
  }
  Loaded base = base_future.get();
  Loaded comparison = comparison_future.get();
  if (!base.ok()) return AsInputError(base.status());
  if (!comparison.ok()) return AsInputError(comparison.status());
  return LoadedSides{std::move(*base), std::move(*comparison)};
}

// A side file that exists but could not be read leaves its data out of every comparison that reads
// it; the user hears which file and why (the file and line or byte), the comparisons still run, and
// each one that comes out empty says so in its own words.
void WarnUnreadableSideFiles(const Profile& p, std::string_view side, RunMessages& messages) {
  for (const SideFileOutcome& f : p.npu.side_files) {
    if (f.state != SideFileState::kUnreadable) continue;
    messages.Warning(fmt::format("{}: {} could not be read and is left out of the comparisons: {}",
                                 side, f.name, f.error));
  }
}

// docs/reference/command-line.md#argument-validation, docs/reference/communication.md: a step id on
// an NPU side must exist; on a GPU side it is only a warning in --reference-compat, and must exist
// (a ProfilerStep marker) in the default mode, which restricts the side to that step.
Status CheckStep(const analysis::Timeline& timeline, int64_t step, const analysis::ReferencePolicy& policy,
                 std::string_view side, RunMessages& messages) {
  if (step == kVoidStep) return Status::Ok();
  const bool gpu = timeline.p().meta.device == DeviceKind::kGpu;
  if (gpu && policy.gpu_ignores_step_selection) {
    messages.Warning(
        "step id is invalid in GPU data, please use this when comparing between NPU datas.");
    return Status::Ok();
  }
  if (timeline.HasStep(step)) return Status::Ok();
  if (gpu && timeline.step_ids.empty())
    return NotFound(fmt::format("Invalid step id: {}: the {} GPU trace has no ProfilerStep markers", step, side));
  if (timeline.step_ids.empty())  // an empty list of valid steps would say nothing
    return NotFound(fmt::format("Invalid step id: {}: the {} profile has no ProfilerStep markers (a MindSpore "
                                "profile records none)",
                                step, side));
  std::string list;
  for (size_t i = 0; i < timeline.step_ids.size(); ++i)
    list += (i ? ", " : "") + std::to_string(timeline.step_ids[i]);
  return NotFound(
      fmt::format("Invalid step id: {}, please choose from the valid steps: {}", step, list));
}

// The step a side's overall comparison is restricted to (GPU in the default mode, an Ascend DB side).
std::optional<int64_t> RestrictedStep(const analysis::Timeline& timeline, int64_t step,
                                      const analysis::ReferencePolicy& policy) {
  if (step == kVoidStep) return std::nullopt;
  const Profile& p = timeline.p();
  if (p.meta.device == DeviceKind::kGpu && !policy.gpu_ignores_step_selection) return step;
  if (p.npu.db.present) return step;
  return std::nullopt;
}

// The step a side's per-step numbers (the gate's basis) read: the selected step of any side in the
// default mode; under --reference-compat the sides the reference restricts (RestrictedStep).
std::optional<int64_t> GateStep(const analysis::Timeline& timeline, int64_t step, const analysis::ReferencePolicy& policy) {
  if (step == kVoidStep) return std::nullopt;
  if (!policy.reference_compat) return step;
  return RestrictedStep(timeline, step, policy);
}

// How many top-level operators of each side the pairing matched (nullopt without matching).
std::optional<analysis::OperatorMatch> OperatorMatchOf(analysis::SharedOperatorPairing& pairing) {
  if (pairing.options().disable_details) return std::nullopt;
  const analysis::OperatorPairing& p = pairing.Get();
  if (p.algorithm == analysis::MatchAlgorithm::kNone) return std::nullopt;
  analysis::OperatorMatch m;
  for (const analysis::NodePair& n : p.OperatorPairs()) {
    m.base_items += n.base != analysis::kNoNode ? 1 : 0;
    m.comparison_items += n.comparison != analysis::kNoNode ? 1 : 0;
    m.matched += (n.base != analysis::kNoNode && n.comparison != analysis::kNoNode) ? 1 : 0;
  }
  return m;
}

// The --gate-* options of a request.
analysis::GateOptions GateOptionsOf(const CompareRequest& request) {
  analysis::GateOptions gate_options;
  gate_options.e2e_pct = request.gate_e2e_pct;
  gate_options.compute_pct = request.gate_compute_pct;
  gate_options.comm_pct = request.gate_comm_pct;
  gate_options.free_pct = request.gate_free_pct;
  gate_options.noise_floor_ms = request.noise_floor_ms;
  gate_options.whole_capture = request.whole_capture;
  gate_options.allow_cross_device = request.allow_cross_device;
  gate_options.min_match_pct = request.min_match_pct;
  return gate_options;
}

// Whether the run reads the operator pairing: the operator, memory and API comparisons build their
// rows on it, a gate reads its match (the share of top-level operators matched).
bool PairingRead(const CompareRequest& request) {
  return request.enabled.operators || request.enabled.memory || request.enabled.api || GateOptionsOf(request).any();
}

// The CI gate and the comparability warnings (shown whether or not a gate was asked for: the
// caller shows gate.warnings). The operator match is read from the run's pairing, built here when no
// comparison built it yet and a gate was asked for.
analysis::GateResult RunGate(const CompareRequest& request, const analysis::ReferencePolicy& policy,
                             const analysis::OverallComparison& overall, const analysis::Timeline& base,
                             const analysis::Timeline& comparison, analysis::SharedOperatorPairing& pairing) {
  const analysis::GateOptions gate_options = GateOptionsOf(request);
  analysis::ComparabilityInputs in;
  in.base_steps = analysis::CountProfilerSteps(base);
  in.comparison_steps = analysis::CountProfilerSteps(comparison);
  in.base_selected_step = GateStep(base, request.base_step, policy);
  in.comparison_selected_step = GateStep(comparison, request.comparison_step, policy);
  in.base_step_stats = analysis::StepDurations(base, in.base_selected_step);
  in.comparison_step_stats = analysis::StepDurations(comparison, in.comparison_selected_step);
  in.base_device = base.identity;
  in.comparison_device = comparison.identity;
  in.base_format = base.p().meta.format;
  in.comparison_format = comparison.p().meta.format;
  in.base_device_events = base.device.device_events;
  in.comparison_device_events = comparison.device.device_events;
  in.step_selected = request.base_step != kVoidStep;
  if (PairingRead(request)) in.operator_match = OperatorMatchOf(pairing);
  return analysis::EvaluateGate(overall, gate_options, in);
}

// What the table's enabled comparisons produced.
struct TableOutput {
  std::vector<report::SheetSpec> sheets;      // in workbook order
  std::vector<report::JsonSection> sections;  // one per row with a JSON key, table order
  std::string empty_reason;                   // for the explanatory sheet
  std::vector<report::EmptyComparison> empty;  // the enabled comparisons without rows, table order
  std::vector<report::SummaryPart> summary;   // the rows' parts of the summary, table order
};

// A comparison that ran without rows: its sheet names and the most specific reason known.
report::EmptyComparison EmptyComparisonOf(const ComparisonEntry& e, const ComparisonOutput& out) {
  report::EmptyComparison empty;
  empty.comparison = std::string(e.name);
  for (const report::SheetSpec& s : out.sheets) empty.sheets.push_back(s.name);
  if (empty.sheets.empty()) empty.sheets.assign(e.sheets.begin(), e.sheets.end());
  empty.reason = !out.empty_reason.empty() ? out.empty_reason : std::string(e.empty_reason);
  return empty;
}

// What an enabled row produced, and what it cost on the worker that ran it.
struct RowRun {
  ComparisonOutput out;
  PhaseCost cost;
};

// Runs the gate and the enabled rows side by side on `threads` workers (0: one per core): the gate
// first (it builds the operator pairing, which the operator, memory and API rows wait for), then the
// rows heaviest first, so that a row without the pairing (kernel, communication) uses the other core
// meanwhile; the rows that read the gate's verdict (reads_gate) run after it. A row reads only what
// the run built before (the timelines, the overall comparison), the gate and the pairing, built once;
// rows share no other state. The results are indexed like the table, so that the caller takes them
// in table order, as a serial run makes them.
std::vector<std::optional<RowRun>> RunRows(const ComparisonInputs& inputs, size_t threads,
                                           const std::function<void()>& gate, PhaseCost& gate_cost) {
  const std::span<const ComparisonEntry> table = Comparisons();
  std::vector<size_t> order, after_gate;
  for (size_t i = 0; i < table.size(); ++i)
    if (inputs.request.enabled.*table[i].enabled) (table[i].reads_gate ? after_gate : order).push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return table[a].weight > table[b].weight; });
  std::vector<std::optional<RowRun>> runs(table.size());
  auto run_row = [&](size_t row) {
    PhaseClock clock(PhaseClock::Cpu::kThisThread);
    RowRun run;
    run.out = table[row].run(inputs);
    run.cost = clock.Lap();
    return run;
  };
  (void)OrderedParallel<RowRun>(
      order.size() + 1, threads, order.size() + 1,
      [&](size_t k) {
        if (k > 0) return run_row(order[k - 1]);
        PhaseClock clock(PhaseClock::Cpu::kThisThread);
        gate();
        return RowRun{{}, clock.Lap()};
      },
      [&](size_t k, RowRun run) {
        if (k == 0) gate_cost = run.cost;
        else runs[order[k - 1]] = std::move(run);
        return Status::Ok();
      });
  for (size_t row : after_gate) runs[row] = run_row(row);
  return runs;
}

TableOutput RunTable(const ComparisonInputs& inputs, const std::function<void()>& gate, RunMessages& messages) {
  TableOutput table;
  std::vector<std::pair<int, std::vector<report::SheetSpec>>> sheet_groups;
  std::vector<std::optional<RowRun>> runs;
  PhaseCost gate_cost;
  {
    PhaseScope phase(messages, "gate and comparisons");
    runs = RunRows(inputs, static_cast<size_t>(std::max(0, inputs.request.threads)), gate, gate_cost);
  }
  // Each part's own cost: its wall time and its worker's CPU time (they ran side by side).
  messages.PhaseDone({"gate", gate_cost});
  for (const std::string& w : inputs.gate.warnings) messages.Warning(w);
  for (size_t i = 0; i < Comparisons().size(); ++i) {
    const ComparisonEntry& e = Comparisons()[i];
    ComparisonOutput out;
    if (runs[i]) {
      messages.PhaseDone({std::string(e.name), runs[i]->cost});
      out = std::move(runs[i]->out);
      for (const std::string& w : out.warnings) messages.Warning(w);
      if (out.summary) table.summary.push_back(std::move(*out.summary));
      if (!report::HasRows(out.sheets)) table.empty.push_back(EmptyComparisonOf(e, out));
      sheet_groups.emplace_back(e.sheet_order, std::move(out.sheets));
    }
    if (!e.json_key.empty())
      table.sections.push_back({std::string(e.json_key), runs[i] ? std::move(out.json) : report::JsonBody()});
  }
  std::stable_sort(sheet_groups.begin(), sheet_groups.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& group : sheet_groups)
    for (report::SheetSpec& s : group.second) table.sheets.push_back(std::move(s));
  // No sheet with rows: the writer's NoComparisonData sheet says why, in both modes. Some: the default
  // mode lists the comparisons without rows on a sheet of their own.
  std::string why;
  for (const report::EmptyComparison& e : table.empty)
    if (!e.reason.empty()) why += (why.empty() ? "" : "; ") + e.reason;
  table.empty_reason = "no sheet has rows: " + (why.empty() ? std::string("no comparison was run") : why);
  if (!inputs.policy.workbook_silent_on_empty_comparisons && !table.empty.empty() && report::HasRows(table.sheets))
    table.sheets.push_back(report::BuildEmptyComparisonsSheet(table.empty));
  return table;
}

// The workbook and the CSV files; returns the absolute paths written.
// A workbook this run reserved is its own to replace.
// A sheet cut at the rows a sheet holds is a line on `cut_sheets`.
StatusOr<std::vector<std::string>> WriteSheets(const CompareRequest& request,
                                               const analysis::ReferencePolicy& policy,
                                               const std::string& workbook, bool reserved,
                                               const TableOutput& table,
                                               std::vector<std::string>& cut_sheets) {
  std::vector<std::string> written;
  if (!request.no_xlsx) {
    report::WorkbookOptions workbook_options;
    workbook_options.force = request.force || reserved;
    workbook_options.base_path_arg = request.base_path;
    workbook_options.comparison_path_arg = request.comparison_path;
    workbook_options.fit_text_columns = !policy.workbook_reference_widths;
    workbook_options.wrap_banners = !policy.workbook_one_line_banners;
    workbook_options.infinite_ratio_as_number = !policy.workbook_ratio_inf_text;
    workbook_options.empty_reason = table.empty_reason;
    workbook_options.cut_sheets = &cut_sheets;
    workbook_options.threads = static_cast<size_t>(std::max(0, request.threads));
    PD_RETURN_IF_ERROR(report::WriteWorkbook(table.sheets, workbook, workbook_options));
    written.push_back(fs::absolute(workbook).string());
  }
  if (!request.csv_dir.empty()) {
    PD_ASSIGN_OR_RETURN(std::vector<std::string> csvs,
                        report::WriteCsvDir(table.sheets, request.csv_dir, request.force,
                                            policy.csv_workbook_grid ? report::CsvLayout::kWorkbookGrid
                                                                     : report::CsvLayout::kTidy,
                                            !policy.csv_formula_text_bare));
    written.insert(written.end(), csvs.begin(), csvs.end());
  }
  return written;
}

// The JSON result, when --json FILE, --format json or --html FILE asks for it; written to FILE, and
// the HTML page built from the same document written to its FILE (each in the run's OutputScope, so
// a run that fails later removes it).
Status WriteJsonAndHtml(const CompareRequest& request, const LoadedSides& sides,
                        const analysis::ReferencePolicy& policy, TableOutput& table,
                        CompareRunResult& result) {
  if (!request.wants_json()) return Status::Ok();
  report::JsonReportContext context;
  context.tool_version = PROFDIFF_VERSION;
  context.mode = std::string(analysis::PolicyModeName(policy));
  if (policy.reference_compat)
    context.reference_line = std::string(analysis::ReferenceLineName(policy.line));
  context.base = report::JsonInputFromProfile(*sides.base);
  context.base.path = request.base_path;
  context.comparison = report::JsonInputFromProfile(*sides.comparison);
  context.comparison.path = request.comparison_path;
  context.overall = report::OverallJsonSection(result.overall);
  context.warnings = request.warnings;
  context.base_diagnostics = &sides.base->diagnostics;
  context.comparison_diagnostics = &sides.comparison->diagnostics;
  context.outputs = result.written;
  if (!request.json_path.empty()) {
    result.json_file = fs::absolute(request.json_path).string();
    context.outputs.push_back(result.json_file);
  }
  if (!request.html_path.empty()) {
    result.html_file = fs::absolute(request.html_path).string();
    context.outputs.push_back(result.html_file);
  }
  context.empty_comparisons = table.empty;
  context.sections = std::move(table.sections);
  // The document is streamed: each section's rows are made one at a time as they are written. The
  // text is kept only for stdout (--format json).
  if (request.format == OutputFormat::kJson) result.json_text = report::RenderJsonReport(context, result.gate);
  if (!request.json_path.empty()) {
    PD_RETURN_IF_ERROR(report::WriteJsonReport(context, result.gate, request.json_path, request.force));
  }
  if (request.html_path.empty()) return Status::Ok();
  // The page shows the statistics and the largest diffs, never the rows.
  const report::OrderedJson document = report::BuildJsonSummaryDocument(context, result.gate);
  report::html::HtmlPageContext page;
  page.document = &document;
  page.base_step = request.base_step;
  page.comparison_step = request.comparison_step;
  PD_RETURN_IF_ERROR(report::WriteFileAtomically(request.html_path, report::html::RenderHtmlPage(page),
                                                 request.force));
  return Status::Ok();
}

}  // namespace

StatusOr<CompareRunResult> RunComparison(const CompareRequest& request, RunMessages& messages) {
  for (const std::string& w : request.warnings) messages.Warning(w);
  std::optional<PhaseScope> phase(std::in_place, messages, "check inputs and outputs");
  PD_RETURN_IF_ERROR(CheckInputs(request));
  PD_ASSIGN_OR_RETURN(std::optional<analysis::KernelMasks> masks, LoadMasks(request));
  report::OutputScope outputs;  // what this run creates: removed unless it succeeds
  ProtectInputs(request, outputs);
  bool reserved = false;
  PD_ASSIGN_OR_RETURN(std::string workbook,
                      CheckOutputs(request, std::chrono::system_clock::now(), &reserved));
  phase.emplace(messages, "load inputs");
  PD_ASSIGN_OR_RETURN(LoadedSides sides, LoadSides(request, messages));
  WarnUnreadableSideFiles(*sides.base, "base", messages);
  WarnUnreadableSideFiles(*sides.comparison, "comparison", messages);
  phase.reset();
  // A DB side's load by table (the two sides load side by side: CPU time and RSS are the process's).
  for (const auto& [side, p] : {std::pair{"base", sides.base.get()}, std::pair{"comparison", sides.comparison.get()}})
    for (const PhaseTiming& step : p->meta.load_phases)
      messages.PhaseDone({fmt::format("load {}: {}", side, step.name), step.cost});

  // Built once per run and read by every comparison.
  phase.emplace(messages, "build timelines");
  const analysis::ReferencePolicy policy = analysis::MakeReferencePolicy(request.reference_line);
  analysis::TimelineOptions timeline_options;
  if (!request.gpu_flow_cat.empty()) timeline_options.gpu_flow_cat = request.gpu_flow_cat;
  // The two sides' timelines are independent: the comparison's builds on another core meanwhile.
  auto build_comparison = [&] { return analysis::BuildTimeline(*sides.comparison, timeline_options); };
  std::future<analysis::Timeline> comparison_future = StartTask(build_comparison);
  const analysis::Timeline base = analysis::BuildTimeline(*sides.base, timeline_options);
  const analysis::Timeline comparison = comparison_future.get();
  PD_RETURN_IF_ERROR(CheckStep(base, request.base_step, policy, "base", messages));
  PD_RETURN_IF_ERROR(CheckStep(comparison, request.comparison_step, policy, "comparison", messages));

  phase.reset();
  CompareRunResult result;
  TableOutput table;
  {  // the shared operator pairing lives while the rows run, not while the outputs are written
    analysis::SharedOperatorPairing pairing(base, comparison, policy, OperatorOptionsFor(request));
    // The pairing needs only the timelines: when anything reads it, it is built on another core
    // while the overall comparison (one core) runs here, its two trees one after the other so that
    // the two keep a core each. Its cost is its own phase.
    std::future<PhaseCost> early_pairing;
    if (PairingRead(request) && request.threads != 1)
      early_pairing = StartTask([&pairing] {
        PhaseClock clock(PhaseClock::Cpu::kThisThread);
        (void)pairing.Get(analysis::TreeBuild::kOneAfterTheOther);
        return clock.Lap();
      });
    auto step = [](int64_t id) { return id == kVoidStep ? std::nullopt : std::optional<int64_t>(id); };
    phase.emplace(messages, "overall", early_pairing.valid() ? PhaseClock::Cpu::kThisThread : PhaseClock::Cpu::kProcess);
    result.overall = RunOverallComparison(base, comparison, policy, masks, step(request.base_step),
                                          step(request.comparison_step));
    phase.reset();
    // The gate fills result.gate before any row that reads it runs (RunRows).
    auto gate = [&] { result.gate = RunGate(request, policy, result.overall, base, comparison, pairing); };
    table = RunTable(ComparisonInputs{base, comparison, policy, request, result.overall, pairing, result.gate}, gate,
                     messages);
    if (early_pairing.valid()) messages.PhaseDone({"operator pairing", early_pairing.get()});
  }
  result.summary_parts = std::move(table.summary);
  result.base_steps = analysis::CountProfilerSteps(base).value_or(0);
  result.comparison_steps = analysis::CountProfilerSteps(comparison).value_or(0);
  phase.emplace(messages, "write outputs");
  std::vector<std::string> cut_sheets;
  PD_ASSIGN_OR_RETURN(result.written, WriteSheets(request, policy, workbook, reserved, table, cut_sheets));
  for (const std::string& w : cut_sheets) messages.Warning(w);
  std::vector<report::SheetSpec>().swap(table.sheets);  // written: their cells are not needed again
  PD_RETURN_IF_ERROR(WriteJsonAndHtml(request, sides, policy, table, result));
  outputs.Commit();
  return result;
}

}  // namespace profdiff::pipeline
