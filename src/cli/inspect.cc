// `profdiff inspect PATH [--json] [--strict]`: what was detected and loaded.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

#include "profdiff/analysis/timeline/timeline.h"
#include "profdiff/base/phase_clock.h"
#include "profdiff/base/terminal_text.h"
#include "profdiff/base/time.h"
#include "profdiff/cli/app.h"
#include "profdiff/cli/commands.h"
#include "profdiff/loaders/loader.h"

namespace profdiff::cli {
namespace {

using nlohmann::ordered_json;

struct SpanInfo {
  bool any = false;
  int64_t first_ts_ns = 0;
  int64_t last_ts_ns = 0;
  int64_t end_ns = 0;
};

// What inspect shows of the slices and the steps they mark. On a 5 M-task DB export the slices are
// 30 M (1.2 GB, a read of all of it for each pass) and the python functions 12 M more: the slices
// are summed, and their step markers collected, in one pass on this thread while the python
// functions are summed on another.
struct SliceSummary {
  std::vector<uint64_t> per_track;
  std::vector<uint64_t> by_kind = std::vector<uint64_t>(static_cast<size_t>(SliceKind::kCount), 0);
  SpanInfo span;
  std::vector<analysis::Step> steps;

  void Add(int64_t ts_ns, int64_t end_ns, TrackId track, SliceKind kind) {
    if (track < per_track.size()) ++per_track[track];
    ++by_kind[static_cast<size_t>(kind)];
    Extend(ts_ns, ts_ns, end_ns);
  }
  void Extend(int64_t first_ts_ns, int64_t last_ts_ns, int64_t end_ns) {
    if (!span.any) {
      span = {true, first_ts_ns, last_ts_ns, end_ns};
      return;
    }
    span.first_ts_ns = std::min(span.first_ts_ns, first_ts_ns);
    span.last_ts_ns = std::max(span.last_ts_ns, last_ts_ns);
    span.end_ns = std::max(span.end_ns, end_ns);
  }
  void Merge(const SliceSummary& o) {
    for (size_t t = 0; t < per_track.size() && t < o.per_track.size(); ++t) per_track[t] += o.per_track[t];
    for (size_t k = 0; k < by_kind.size(); ++k) by_kind[k] += o.by_kind[k];
    if (o.span.any) Extend(o.span.first_ts_ns, o.span.last_ts_ns, o.span.end_ns);
  }
};

// The tracks of each process, in track order: one pass over the tracks (a pass for each process
// made inspect quadratic: 300 k pids took over a minute).
std::vector<std::vector<TrackId>> TracksByProcess(const Profile& p) {
  std::vector<std::vector<TrackId>> tracks(p.processes.size());
  for (TrackId ti = 0; ti < p.tracks.size(); ++ti)
    if (p.tracks[ti].process < tracks.size()) tracks[p.tracks[ti].process].push_back(ti);
  return tracks;
}

// Slices this many or more are summed beside the python functions (fewer: one thread, no start).
constexpr size_t kSummaryThreadSlices = size_t{1} << 20;

SliceSummary Summarize(const Profile& p, int threads) {
  SliceSummary sum, functions;
  sum.per_track.assign(p.tracks.size(), 0);
  functions.per_track.assign(p.tracks.size(), 0);
  // The python functions kept compactly are slices to a reader of inspect.
  auto other = [&] {
    p.python_functions.ForEach(
        [&](const PythonFunction& f) { functions.Add(f.ts_ns, f.end_ns(), f.track, SliceKind::kPythonFunction); });
  };
  std::thread beside;
  if (threads != 1 && p.slices.size() >= kSummaryThreadSlices) beside = std::thread(other);
  std::vector<SliceId> markers;
  for (SliceId i = 0; i < p.slices.size(); ++i) {
    const Slice& s = p.slices[i];
    sum.Add(s.ts_ns, s.end_ns(), s.track, s.kind);
    if (s.kind == SliceKind::kStepMarker) markers.push_back(i);
  }
  sum.steps = analysis::StepsOfMarkers(p, markers);
  if (beside.joinable()) beside.join();
  else other();
  sum.Merge(functions);
  return sum;
}

std::string OrDash(std::string_view s) { return s.empty() ? std::string("-") : std::string(s); }

ordered_json NumOrNull(int64_t v) { return v == kNoNumber ? ordered_json(nullptr) : ordered_json(v); }

std::string Ms(int64_t ns) { return fmt::format("{:.3f}", NsToMs(ns)); }

struct FlowCounts {
  uint64_t start = 0, end = 0, step = 0;
};
FlowCounts CountFlows(const Profile& p) {
  FlowCounts c;
  for (const FlowEvent& f : p.flows) {
    if (f.phase == 's') ++c.start;
    else if (f.phase == 'f') ++c.end;
    else ++c.step;
  }
  return c;
}

// The DB export's part: schema, the tables read with their row counts, STEP_TIME.
std::string DbText(const DbInfo& db) {
  std::string o = fmt::format("db file:        {}\n", db.file);
  if (!db.schema_version.empty()) o += fmt::format("db schema:      {}\n", db.schema_version);
  o += "db tables:\n";
  for (const DbTableUse& t : db.tables)
    o += t.present ? fmt::format("  {:<24} {} rows\n", t.name, t.rows) : fmt::format("  {:<24} absent\n", t.name);
  // The kernel launches (slice pairs, not flow events: `flow events` counts the fwdbwd pairs only).
  o += fmt::format("db launches:    {} linked (API row -> task or communication op), {} ids without an end\n",
                   db.launch_links.size(), db.launch_ids_without_end);
  o += fmt::format("db steps (STEP_TIME): {}\n", db.steps.size());
  for (const DbStep& s : db.steps)
    o += fmt::format("  step {:<14} start_ns {}  end_ns {}  ({} ms)\n", s.id, s.start_ns, s.end_ns,
                     Ms(s.end_ns - s.start_ns));
  return o;
}

ordered_json DbJson(const DbInfo& db) {
  ordered_json j;
  j["file"] = db.file;
  j["schema_version"] = db.schema_version.empty() ? ordered_json(nullptr) : ordered_json(db.schema_version);
  ordered_json tables = ordered_json::array();
  for (const DbTableUse& t : db.tables)
    tables.push_back({{"name", t.name}, {"present", t.present}, {"rows", t.rows}});
  j["tables"] = std::move(tables);
  j["launch_links"] = db.launch_links.size();
  j["launch_ids_without_end"] = db.launch_ids_without_end;
  ordered_json steps = ordered_json::array();
  for (const DbStep& s : db.steps) steps.push_back({{"id", s.id}, {"start_ns", s.start_ns}, {"end_ns", s.end_ns}});
  j["steps"] = std::move(steps);
  return j;
}

}  // namespace

std::string InspectText(const Profile& p, int threads) {
  std::string o;
  const ProfileMeta& m = p.meta;
  o += fmt::format("input:          {}\n", m.input_path);
  o += fmt::format("format:         {}\n", Name(m.format));
  o += fmt::format("device:         {}\n", Name(m.device));
  o += fmt::format("path level:     {}\n", OrDash(m.path_level));
  o += fmt::format("trace file:     {}\n", OrDash(m.trace_file));
  o += fmt::format("bytes parsed:   {}\n", m.input_bytes);
  if (m.schema_version != kNoNumber) o += fmt::format("schema version: {}\n", m.schema_version);
  if (m.rank != kNoNumber) o += fmt::format("rank:           {}\n", m.rank);
  if (!m.profiler_level.empty()) o += fmt::format("profiler level: {}\n", m.profiler_level);
  if (!m.device_names.empty()) {
    o += "device names:  ";
    for (const auto& d : m.device_names) o += fmt::format(" \"{}\"", d);
    o += "\n";
  }
  o += fmt::format("files read ({}):\n", m.files.size());
  for (const auto& f : m.files) o += fmt::format("  {}\n", f);

  const SliceSummary sum = Summarize(p, threads);
  const std::vector<uint64_t>& per_track = sum.per_track;
  o += fmt::format("processes: {}, tracks: {}\n", p.processes.size(), p.tracks.size());
  const std::vector<std::vector<TrackId>> tracks_of = TracksByProcess(p);
  for (uint32_t pi = 0; pi < p.processes.size(); ++pi) {
    const Process& pr = p.processes[pi];
    o += fmt::format("  pid {}  name \"{}\"", p.str(pr.pid_text), p.str(pr.name));
    if (pr.labels != kEmptyString) o += fmt::format("  labels \"{}\"", p.str(pr.labels));
    if (pr.sort_index != kNoNumber) o += fmt::format("  sort {}", pr.sort_index);
    o += "\n";
    for (const TrackId ti : tracks_of[pi]) {
      const Track& t = p.tracks[ti];
      o += fmt::format("    tid {}  name \"{}\"  slices {}\n", p.str(t.tid_text), p.str(t.name),
                       per_track[ti]);
    }
  }

  const std::vector<uint64_t>& by_kind = sum.by_kind;
  o += fmt::format("slices: {}\n", p.slices.size() + p.python_functions.size());
  for (size_t k = 0; k < by_kind.size(); ++k)
    if (by_kind[k] != 0)
      o += fmt::format("  {:<20} {}\n", Name(static_cast<SliceKind>(k)), by_kind[k]);
  FlowCounts fc = CountFlows(p);
  o += fmt::format("flow events:    {} (start {}, end {}, step {})\n", p.flows.size(), fc.start, fc.end,
                   fc.step);
  o += fmt::format("counter events: {}\n", p.counters.size());
  o += fmt::format("memory events:  {}\n", p.memory_events.size());

  o += fmt::format("steps: {}\n", sum.steps.size());
  for (const analysis::Step& s : sum.steps)
    o += fmt::format("  {:<20} ts_ns {}  dur_ns {}  ({} ms)\n", p.str(p.slices[s.slice].name), s.start_ns,
                     s.end_ns - s.start_ns, Ms(s.end_ns - s.start_ns));

  const SpanInfo& span = sum.span;
  if (span.any)
    o += fmt::format("time span: first ts_ns {}, last ts_ns {}, end_ns {}, duration {} ms\n",
                     span.first_ts_ns, span.last_ts_ns, span.end_ns, Ms(span.end_ns - span.first_ts_ns));
  else
    o += "time span: (no slices)\n";

  const NpuTables& n = p.npu;
  if (n.db.present) o += DbText(n.db);
  o += "side tables:\n";
  if (n.kernel_details.present)
    o += fmt::format("  kernel_details:  {} rows ({})\n", n.kernel_details.rows.size(), n.kernel_details.file);
  else
    o += "  kernel_details:  absent\n";
  o += n.has_op_statistic ? fmt::format("  op_statistic:    {} rows\n", n.op_statistic.size())
                          : std::string("  op_statistic:    absent\n");
  o += n.has_operator_memory ? fmt::format("  operator_memory: {} rows\n", n.operator_memory.size())
                             : std::string("  operator_memory: absent\n");
  o += n.has_memory_record ? fmt::format("  memory_record:   {} rows\n", n.memory_record.rows)
                           : std::string("  memory_record:   absent\n");
  o += n.step_trace.present ? fmt::format("  step_trace_time: {} rows\n", n.step_trace.steps.size())
                            : std::string("  step_trace_time: absent\n");
  if (!n.communication.present)
    o += "  communication:   absent\n";
  else if (n.communication.empty)
    o += "  communication:   empty\n";
  else
    o += fmt::format("  communication:   {} steps\n", n.communication.steps.size());
  if (!n.parallel_group_names.empty())
    o += fmt::format("  parallel groups: {}\n", n.parallel_group_names.size());

  const Diagnostics& d = p.diagnostics;
  o += fmt::format("diagnostics: {} errors, {} warnings, {} notes\n",
                   d.total(DiagSeverity::kError),
                   d.total(DiagSeverity::kWarning) - d.total(DiagSeverity::kError),
                   d.total(DiagSeverity::kInfo) - d.total(DiagSeverity::kWarning));
  if (!d.empty()) o += d.Summary();
  if (!o.empty() && o.back() != '\n') o += '\n';
  return o;
}

std::string InspectJson(const Profile& p, int threads) {
  const ProfileMeta& m = p.meta;
  ordered_json j;
  j["schema"] = "profdiff.inspect/1";
  j["input_path"] = m.input_path;
  j["format"] = std::string(Name(m.format));
  j["device"] = std::string(Name(m.device));
  j["path_level"] = m.path_level.empty() ? ordered_json(nullptr) : ordered_json(m.path_level);
  j["trace_file"] = m.trace_file.empty() ? ordered_json(nullptr) : ordered_json(m.trace_file);
  j["files"] = m.files;
  j["input_bytes"] = m.input_bytes;
  j["schema_version"] = NumOrNull(m.schema_version);
  j["base_time_ns"] = NumOrNull(m.base_time_ns);
  j["rank"] = NumOrNull(m.rank);
  j["device_names"] = m.device_names;
  j["profiler_level"] = m.profiler_level.empty() ? ordered_json(nullptr) : ordered_json(m.profiler_level);

  const SliceSummary sum = Summarize(p, threads);
  const std::vector<uint64_t>& per_track = sum.per_track;
  ordered_json procs = ordered_json::array();
  const std::vector<std::vector<TrackId>> tracks_of = TracksByProcess(p);
  for (uint32_t pi = 0; pi < p.processes.size(); ++pi) {
    const Process& pr = p.processes[pi];
    ordered_json jp;
    jp["pid"] = std::string(p.str(pr.pid_text));
    jp["name"] = std::string(p.str(pr.name));
    jp["labels"] = std::string(p.str(pr.labels));
    jp["sort_index"] = NumOrNull(pr.sort_index);
    ordered_json tracks = ordered_json::array();
    for (const TrackId ti : tracks_of[pi]) {
      const Track& t = p.tracks[ti];
      ordered_json jt;
      jt["tid"] = std::string(p.str(t.tid_text));
      jt["name"] = std::string(p.str(t.name));
      jt["sort_index"] = NumOrNull(t.sort_index);
      jt["slices"] = per_track[ti];
      tracks.push_back(std::move(jt));
    }
    jp["tracks"] = std::move(tracks);
    procs.push_back(std::move(jp));
  }
  j["process_count"] = p.processes.size();
  j["track_count"] = p.tracks.size();
  j["processes"] = std::move(procs);

  j["slice_count"] = p.slices.size() + p.python_functions.size();
  const std::vector<uint64_t>& by_kind = sum.by_kind;
  ordered_json kinds = ordered_json::object();
  for (size_t k = 0; k < by_kind.size(); ++k)
    if (by_kind[k] != 0) kinds[std::string(Name(static_cast<SliceKind>(k)))] = by_kind[k];
  j["slices_by_kind"] = std::move(kinds);
  FlowCounts fc = CountFlows(p);
  j["flows"] = {{"total", p.flows.size()}, {"start", fc.start}, {"end", fc.end}, {"step", fc.step}};
  j["counter_events"] = p.counters.size();
  j["memory_events"] = p.memory_events.size();

  ordered_json steps = ordered_json::array();
  for (const analysis::Step& s : sum.steps)
    steps.push_back({{"name", std::string(p.str(p.slices[s.slice].name))},
                     {"step", s.id},
                     {"ts_ns", s.start_ns},
                     {"dur_ns", s.end_ns - s.start_ns},
                     {"end_ns", s.end_ns}});
  j["steps"] = std::move(steps);

  const SpanInfo& span = sum.span;
  if (span.any)
    j["time_span"] = {{"first_ts_ns", span.first_ts_ns},
                      {"last_ts_ns", span.last_ts_ns},
                      {"end_ns", span.end_ns},
                      {"duration_ns", span.end_ns - span.first_ts_ns},
                      {"duration_ms", NsToMs(span.end_ns - span.first_ts_ns)}};
  else
    j["time_span"] = nullptr;

  const NpuTables& n = p.npu;
  ordered_json side;
  side["kernel_details"] = {{"present", n.kernel_details.present},
                            {"rows", n.kernel_details.rows.size()},
                            {"columns", n.kernel_details.columns.size()}};
  side["op_statistic"] = {{"present", n.has_op_statistic}, {"rows", n.op_statistic.size()}};
  side["operator_memory"] = {{"present", n.has_operator_memory}, {"rows", n.operator_memory.size()}};
  side["memory_record"] = {{"present", n.has_memory_record}, {"rows", n.memory_record.rows}};
  side["step_trace_time"] = {{"present", n.step_trace.present},
                             {"rows", n.step_trace.steps.size()},
                             {"columns", n.step_trace.columns}};
  side["communication"] = {{"present", n.communication.present},
                           {"empty", n.communication.empty},
                           {"steps", n.communication.steps.size()}};
  side["parallel_groups"] = n.parallel_group_names.size();
  j["side_tables"] = std::move(side);
  if (n.db.present) j["db"] = DbJson(n.db);

  const Diagnostics& d = p.diagnostics;
  ordered_json diag;
  diag["errors"] = d.total(DiagSeverity::kError);
  diag["warnings"] = d.total(DiagSeverity::kWarning) - d.total(DiagSeverity::kError);
  diag["notes"] = d.total(DiagSeverity::kInfo) - d.total(DiagSeverity::kWarning);
  ordered_json entries = ordered_json::array();
  for (size_t i = 0; i < kDiagCount; ++i) {
    auto id = static_cast<DiagId>(i);
    const Diagnostics::Entry& e = d.entry(id);
    if (e.count == 0) continue;
    const DiagInfo& info = GetDiagInfo(id);
    ordered_json je;
    je["id"] = std::string(info.name);
    je["severity"] = std::string(SeverityName(info.severity));
    je["count"] = e.count;
    ordered_json ex = ordered_json::array();
    for (const auto& x : e.examples) ex.push_back({{"where", x.where.ToString()}, {"detail", x.detail}});
    je["examples"] = std::move(ex);
    entries.push_back(std::move(je));
  }
  diag["entries"] = std::move(entries);
  j["diagnostics"] = std::move(diag);
  return j.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

int RunInspect(const InspectOptions& options, std::ostream& out, std::ostream& err) {
  LoadOptions load_options;
  load_options.strict = options.strict;  // LoadProfile is the one place --strict is enforced
  load_options.accept_side_files = true;  // inspect also reads one side file (kernel_details.csv, ...)
  load_options.input_format = options.input_format;
  load_options.threads = options.threads;
  auto loaded = LoadProfile(options.path, load_options);
  if (!loaded.ok()) {
    err << "profdiff: error: " << EscapeForTerminal(loaded.status().ToString()) << "\n";
    return ExitCodeFor(loaded.status());
  }
  const Profile& p = **loaded;
  if (options.verbose) {
    for (const PhaseTiming& step : p.meta.load_phases)
      err << "profdiff: load " << step.name << ": " << FormatCost(step.cost) << "\n";
  }
  // The JSON escapes control characters itself; the text shows names and paths from the input.
  out << (options.json ? InspectJson(p, options.threads) : EscapeForTerminal(InspectText(p, options.threads)));
  out.flush();
  return kExitOk;
}

}  // namespace profdiff::cli
