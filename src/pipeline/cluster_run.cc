// RunCluster (cluster_run.h): discover -> map on a worker pool -> reduce -> outputs.
#include "profdiff/pipeline/cluster_run.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <filesystem>
#include <initializer_list>
#include <memory>
#include <set>
#include <system_error>
#include <utility>

#include "profdiff/analysis/cluster/communication_groups.h"
#include "profdiff/analysis/cluster/db_tables.h"
#include "profdiff/analysis/cluster/time_summary.h"
#include "profdiff/analysis/timeline/timeline.h"
#include "profdiff/loaders/cluster_discovery.h"
#include "profdiff/report/cluster/cluster_db.h"
#include "profdiff/report/cluster/cluster_html.h"
#include "profdiff/report/cluster/cluster_workbook.h"
#include "profdiff/report/cluster/communication_files.h"
#include "profdiff/report/cluster/slow_rank_csv.h"
#include "profdiff/report/cluster/time_summary_csv.h"
#include "profdiff/report/output_file.h"
#include "cluster_map.h"
#include "input_error.h"
#include "profdiff/pipeline/cluster_summaries.h"

namespace profdiff::pipeline {
namespace {

namespace fs = std::filesystem;

std::string RankListText(const std::vector<int64_t>& ranks) {
  std::string s;
  for (int64_t r : ranks) s += (s.empty() ? "" : ", ") + std::to_string(r);
  return s;
}

// Keeps the ranks of --rank_list; a rank it names that the run lacks is an input error.
Status SelectRanks(const ClusterRequest& request, const std::string& run_path, ClusterInputs& inputs) {
  if (!request.rank_list) return Status::Ok();
  std::vector<int64_t> found;
  for (const RankInput& r : inputs.ranks) found.push_back(r.rank);
  for (int64_t want : *request.rank_list) {
    if (std::find(found.begin(), found.end(), want) == found.end())
      return NotFound(fmt::format("--rank_list: the run {} has no rank {} (ranks found: {})", run_path, want,
                                  RankListText(found)));
  }
  std::erase_if(inputs.ranks, [&](const RankInput& r) {
    return std::find(request.rank_list->begin(), request.rank_list->end(), r.rank) == request.rank_list->end();
  });
  return Status::Ok();
}

struct OutputPaths {
  std::string dir;   // <-o>/cluster_analysis_output
  std::string csv;
  std::string json;
  bool communication_files = false;  // a run of Ascend text exports: the reference's JSON files too
  std::string time_summary;          // a run of DB exports: cluster_time_summary.csv ("" otherwise)
  std::string time_compare;          // and a base run of DB exports: cluster_time_compare_summary.csv
  std::string workbook, html;        // beside the JSON: profdiff_cluster.xlsx, profdiff_cluster.html
  std::string slow_rank_dir;         // SlowRankAnalysis/: the vote's rank_stats.csv, slow_op_stats.csv
  std::string cluster_db;            // a run of DB exports: cluster_analysis.db ("" otherwise)
};

// One run before the map: its ranks discovered on this machine (-d, -bp), or its summaries read
// back (--summaries, --base-summaries: the map ran elsewhere).
struct RunRanks {
  std::string path;       // the run as -d gave it, or as its summaries record it
  std::string real_path;  // its real path (the reference's DB route names ranks by it)
  std::vector<std::string> inputs;   // what no output may be or lie in
  std::vector<RankInput> to_map;     // discovered: the ranks to load and summarise
  std::optional<std::vector<analysis::RankSummary>> summaries;  // read back
};

// Each rank's export kind ("text", "db", "partial", "kineto"), of the ranks to map or the summaries read.
std::vector<std::string_view> KindsOf(const RunRanks& run) {
  std::vector<std::string_view> kinds;
  for (const RankInput& r : run.to_map) kinds.push_back(RankExportName(r.kind));
  if (run.summaries)
    for (const analysis::RankSummary& r : *run.summaries) kinds.push_back(r.export_kind);
  return kinds;
}

// Every rank's export is one of `kinds` (and the run has ranks).
bool AllExportsAre(const RunRanks& run, std::initializer_list<RankExport> kinds) {
  const std::vector<std::string_view> of = KindsOf(run);
  return !of.empty() && std::all_of(of.begin(), of.end(), [&](std::string_view k) {
    return std::any_of(kinds.begin(), kinds.end(), [&](RankExport e) { return k == RankExportName(e); });
  });
}

bool AllDbExports(const RunRanks& run) { return AllExportsAre(run, {RankExport::kAscendDb}); }

// The reference writes its communication files for a run of text exports (a DB run's go to its
// cluster_analysis.db; it reads no Kineto trace).
bool WritesCommunicationFiles(const RunRanks& run) {
  return AllExportsAre(run, {RankExport::kAscendText, RankExport::kAscendPartial});
}

std::vector<std::string> CommunicationFilePaths(const OutputPaths& out) {
  if (!out.communication_files) return {};
  const fs::path dir(out.dir);
  return {(dir / report::kCommunicationGroupJson).string(), (dir / report::kClusterCommunicationJson).string(),
          (dir / report::kClusterCommunicationMatrixJson).string()};
}

// Every output may be written, checked before any rank is loaded; no output may lie inside the run.
StatusOr<OutputPaths> CheckOutputs(const ClusterRequest& request, const std::vector<const RunRanks*>& runs,
                                   report::OutputScope& scope) {
  for (const RunRanks* run : runs)
    if (run != nullptr)
      for (const std::string& p : run->inputs) scope.ProtectInput(p);
  const fs::path base = request.output_path.empty() ? fs::path(".") : fs::path(request.output_path);
  const fs::path dir = base / kClusterOutputDir;
  PD_RETURN_IF_ERROR(report::MakeOutputDirs(dir.string(), 0750));
  OutputPaths out{dir.string(), (dir / kClusterStepTraceCsv).string(), (base / kClusterJsonFile).string(),
                  WritesCommunicationFiles(*runs.front()), "", "", (base / kClusterWorkbookFile).string(),
                  (base / kClusterHtmlFile).string(), (dir / report::kSlowRankDir).string(), ""};
  if (AllDbExports(*runs.front())) {
    out.cluster_db = (dir / analysis::kClusterAnalysisDb).string();
    out.time_summary = (dir / report::kClusterTimeSummaryCsv).string();
    if (runs.size() > 1 && runs[1] != nullptr && AllDbExports(*runs[1])) out.time_compare = (dir / report::kClusterTimeCompareSummaryCsv).string();
  }
  std::vector<std::string> all = CommunicationFilePaths(out);
  for (const std::string* p : {&out.time_summary, &out.time_compare, &out.cluster_db})
    if (!p->empty()) all.push_back(*p);
  all.insert(all.end(), {out.csv, out.workbook, out.html, out.json});
  // The vote's files, written only when it votes: an earlier run's are not overwritten without --force.
  std::error_code ec;
  if (fs::is_directory(out.slow_rank_dir, ec)) {
    all.push_back((fs::path(out.slow_rank_dir) / report::kRankStatsCsv).string());
    all.push_back((fs::path(out.slow_rank_dir) / report::kSlowOpStatsCsv).string());
  }
  for (const std::string& p : all) {
    PD_RETURN_IF_ERROR(report::CheckOutputPath(p, request.force));
    PD_RETURN_IF_ERROR(report::CheckDirectoryWritable(p));
  }
  return out;
}

// World size (the largest a rank records) and the ranks below it that the run lacks.
void FindMissingRanks(const ClusterRequest& request, report::ClusterResult& result) {
  for (const analysis::RankSummary& r : result.ranks)
    if (r.world_size != kNoNumber) result.world_size = std::max(result.world_size, r.world_size);
  if (result.world_size < 0 || request.rank_list) return;
  std::set<int64_t> found;
  for (const analysis::RankSummary& r : result.ranks) found.insert(r.rank);
  for (int64_t r = 0; r < result.world_size; ++r)
    if (!found.count(r)) result.missing_ranks.push_back(r);
}

Status CheckStepId(const ClusterRequest& request, const std::string& run_path,
                   const std::vector<analysis::RankSummary>& ranks) {
  if (!request.step_id) return Status::Ok();
  std::set<std::string> steps;
  for (const analysis::RankSummary& r : ranks)
    for (const analysis::RankStep& s : r.steps) steps.insert(s.step);
  if (steps.count(*request.step_id)) return Status::Ok();
  std::string list;
  for (const std::string& s : steps) list += (list.empty() ? "" : ", ") + s;
  return NotFound(fmt::format("--step_id {}: no rank of {} has that step (steps: {})", *request.step_id, run_path,
                              list.empty() ? "none" : list));
}

// The cross-rank analyses of one run; its warnings are said with `who` before them ("" for the run
// of -d, "base run: " for the run of -bp).
void Reduce(const ClusterRequest& request, report::ClusterResult& result, RunMessages& messages,
            std::string_view who) {
  auto warn = [&](std::string w) {
    w.insert(0, who);
    messages.Warning(w);
    result.warnings.push_back(std::move(w));
  };
  FindMissingRanks(request, result);
  if (!result.missing_ranks.empty()) {
    warn(fmt::format("the run records a world size of {}, but ranks {} were not found", result.world_size,
                     report::RankRangesText(result.missing_ranks)));
  }
  for (const analysis::RankSummary& r : result.ranks) {
    if (r.missing.empty()) continue;
    std::string list;
    for (const std::string& m : r.missing) list += (list.empty() ? "" : ", ") + m;
    warn(fmt::format("rank {} ({}) has no {}: what needs it is unknown for that rank", r.rank, r.source_path, list));
  }
  // Stage rows: the pipeline stages the reference infers from the communication groups ("pp" p2p
  // groups; none in a run without them, or without communication files).
  // A run of DB exports: the groups of the ranks' CommAnalyzerTime (the reference's
  // CommunicationGroupMapping), whatever the mode.
  const bool db_run = std::all_of(result.ranks.begin(), result.ranks.end(),
                                  [](const analysis::RankSummary& r) { return r.export_kind == "db"; });
  result.communication_groups = db_run && !result.ranks.empty()
                                    ? analysis::FindDbCommunicationGroups(result.ranks, result.policy)
                                    : analysis::FindCommunicationGroups(result.ranks, request.mode);
  result.step_table = analysis::BuildClusterStepTable(
      result.ranks,
      db_run ? analysis::DbStageGroups(result.communication_groups.parallel_info)
             : analysis::StageGroups(result.communication_groups),
      request.step_id);
  std::vector<std::string> parallel_warnings;
  analysis::AddParallelIndexes(result.ranks, result.step_table, parallel_warnings);
  for (std::string& w : parallel_warnings) warn(std::move(w));
  // The reference's ClusterTimeSummary, of a run with DB exports only (the others have no rank for it).
  if (std::any_of(result.ranks.begin(), result.ranks.end(), [](const analysis::RankSummary& r) { return r.time.present; }))
    result.time_summary = analysis::BuildClusterTimeSummary(result.ranks, request.step_id);
  else if (db_run && !result.ranks.empty())
    result.time_summary.empty_reason = "no rank's export has CANN_API (the summary counts each op in the step its launch starts in)";
  result.stragglers = analysis::FindStepStragglers(result.ranks);
  result.collectives = analysis::MatchCollectives(result.ranks);
  result.late_ranks = analysis::LastArrivals(result.collectives);
  result.waits_on = analysis::WaitsOn(result.collectives);
  result.late_causes = analysis::ExplainLateArrivals(result.collectives, result.late_ranks, result.ranks);
  result.slow_rank_vote = analysis::VoteSlowRanks(analysis::VoteOpsOf(result.ranks, request.step_id), result.policy);
  for (const std::string& note : result.collectives.notes) warn(note);
  if (request.step_id)
    std::erase_if(result.stragglers, [&](const analysis::StepStraggler& s) { return s.step != *request.step_id; });
}

// The warnings of a run's discovery, said with `who` before them.
void SayDiscoveryWarnings(const std::vector<std::string>& warnings, std::string_view who,
                          report::ClusterResult& result, RunMessages& messages) {
  for (const std::string& w : warnings) {
    messages.Warning(std::string(who) + w);
    result.warnings.push_back(std::string(who) + w);
  }
}

// Discovery of one run, its --rank_list applied.
StatusOr<RunRanks> DiscoverRun(const ClusterRequest& request, const std::string& path, std::string_view who,
                               report::ClusterResult& result, RunMessages& messages) {
  ClusterDiscoveryOptions discovery;
  discovery.input_format = request.input_format;
  auto found = DiscoverCluster(path, discovery);
  if (!found.ok()) return AsInputError(found.status());
  SayDiscoveryWarnings(found->warnings, who, result, messages);
  PD_RETURN_IF_ERROR(SelectRanks(request, path, *found));
  RunRanks run{path, RealRunPath(path), {path}, std::move(found->ranks), std::nullopt};
  for (const RankInput& r : run.to_map) run.inputs.push_back(r.path);
  return run;
}

// A run's summaries read back (the reduce), its --rank_list applied.
StatusOr<RunRanks> ReadRun(const ClusterRequest& request, const std::string& dir, std::string_view who,
                           report::ClusterResult& result, RunMessages& messages) {
  PD_ASSIGN_OR_RETURN(SummarySet set, ReadSummarySet(dir, request.rank_list, request.reference_line, request.threads));
  SayDiscoveryWarnings(set.warnings, who, result, messages);
  return RunRanks{set.run_path, set.real_path, {dir, set.run_path}, {}, std::move(set.ranks)};
}

// The run of -d (-bp), or of --summaries (--base-summaries).
StatusOr<RunRanks> AcquireRun(const ClusterRequest& request, const std::string& path, const std::string& summaries,
                              std::string_view who, report::ClusterResult& result, RunMessages& messages) {
  return summaries.empty() ? DiscoverRun(request, path, who, result, messages)
                           : ReadRun(request, summaries, who, result, messages);
}

// The summaries of a run: mapped here, or as read.
StatusOr<std::vector<analysis::RankSummary>> SummariesOf(RunRanks& run, const ClusterRequest& request,
                                                         const analysis::ReferencePolicy& policy) {
  if (run.summaries) return std::move(*run.summaries);
  return MapRanks(run.to_map, {request.strict, request.input_format, request.threads, policy});
}

// Writes one output (atomically; an existing one only with --force) and lists it in the result.
Status WriteOutput(const std::string& path, const std::string& text, const ClusterRequest& request,
                   report::ClusterResult& result) {
  PD_RETURN_IF_ERROR(report::WriteFileAtomically(path, text, request.force));
  result.outputs.push_back(fs::absolute(path).lexically_normal().string());
  return Status::Ok();
}

// The reference's communication files of the run (communication_files.h); links it leaves out are
// said once, as the reference logs them.
Status WriteCommunicationFiles(const ClusterRequest& request, const OutputPaths& paths,
                               report::ClusterResult& result, RunMessages& messages) {
  const std::vector<std::string> files = CommunicationFilePaths(paths);
  if (files.empty()) return Status::Ok();
  report::ClusterCommunicationFiles out =
      report::RenderClusterCommunicationFiles(result.ranks, result.communication_groups, request.mode);
  if (!out.unmapped_links.empty()) {
    std::string w = fmt::format(
        "{}: {} link(s) of a local rank that no profiled rank of its group maps to a global rank are left out, as "
        "the reference leaves them (first: {})",
        report::kClusterCommunicationMatrixJson, out.unmapped_links.size(), out.unmapped_links.front());
    messages.Warning(w);
    result.warnings.push_back(std::move(w));
  }
  auto write = [&](const std::string& path, const std::string& text) {
    return WriteOutput(path, text, request, result);
  };
  PD_RETURN_IF_ERROR(write(files[0], out.group_json));
  if (out.communication_json) PD_RETURN_IF_ERROR(write(files[1], *out.communication_json));
  if (out.matrix_json) {
    PD_RETURN_IF_ERROR(write(files[2], *out.matrix_json));
    result.links = analysis::LinksFromMatrixJson(*out.matrix_json);
  }
  return Status::Ok();
}

// The reference's slow_rank recipe's files (--export_type text), when the vote found a slow rank (the
// reference writes nothing otherwise).
Status WriteSlowRankVote(const ClusterRequest& request, const OutputPaths& paths, report::ClusterResult& result) {
  if (result.slow_rank_vote.ranks.empty()) return Status::Ok();
  PD_RETURN_IF_ERROR(report::MakeOutputDirs(paths.slow_rank_dir, 0750));
  const fs::path dir(paths.slow_rank_dir);
  PD_RETURN_IF_ERROR(WriteOutput((dir / report::kRankStatsCsv).string(),
                                 report::RenderRankStatsCsv(result.slow_rank_vote), request, result));
  return WriteOutput((dir / report::kSlowOpStatsCsv).string(), report::RenderSlowOpStatsCsv(result.slow_rank_vote),
                     request, result);
}

// The reference's ClusterTimeSummary of a run of DB exports, and with a base run of DB exports its
// ClusterTimeCompareSummary; when there is none, why (the reference then writes nothing).
Status WriteTimeSummaries(const ClusterRequest& request, const OutputPaths& paths, report::ClusterResult& result,
                          RunMessages& messages) {
  if (paths.time_summary.empty()) return Status::Ok();
  auto write = [&](const std::string& path, const std::string& text) {
    return WriteOutput(path, text, request, result);
  };
  auto warn = [&](std::string w) {
    messages.Warning(w);
    result.warnings.push_back(std::move(w));
  };
  if (result.time_summary.rows.empty()) {
    warn(fmt::format("{} is not written: {}", report::kClusterTimeSummaryCsv, result.time_summary.empty_reason));
  } else {
    PD_RETURN_IF_ERROR(write(paths.time_summary, report::RenderClusterTimeSummaryCsv(result.time_summary, result.policy)));
  }
  if (paths.time_compare.empty() || result.base_run == nullptr) return Status::Ok();
  const analysis::ClusterTimeSummary& base = result.base_run->time_summary;
  result.time_compare = analysis::CompareClusterTimeSummaries(result.time_summary, base);
  if (result.time_compare.empty()) {
    warn(fmt::format("{} is not written: {}", report::kClusterTimeCompareSummaryCsv,
                     !base.empty_reason.empty() ? "base run: " + base.empty_reason
                     : !result.time_summary.empty_reason.empty() ? result.time_summary.empty_reason
                                                                 : "no rank and step in both runs"));
    return Status::Ok();
  }
  return write(paths.time_compare, report::RenderClusterTimeCompareCsv(result.time_compare, result.policy));
}

// The reference's cluster_analysis.db of a run of DB exports (analysis/cluster/db_tables.h), with the
// time summaries as tables too; what it leaves out is said.
Status WriteClusterDb(const ClusterRequest& request, const RunRanks& run, const OutputPaths& paths,
                      report::ClusterResult& result, RunMessages& messages) {
  if (paths.cluster_db.empty()) return Status::Ok();
  analysis::ClusterDbInputs in;
  in.ranks = &result.ranks;
  for (const analysis::RankSummary& r : result.ranks)
    in.profile_paths.push_back(ReferenceProfilePath(run.path, run.real_path, r.source_path));
  in.mode = request.mode;
  in.policy = result.policy;
  in.mapping = &result.communication_groups.parallel_info;
  in.steps = &result.step_table;
  in.time_summary = &result.time_summary;
  in.time_compare = &result.time_compare;
  in.vote = &result.slow_rank_vote;
  analysis::ClusterDbOutput out = analysis::BuildClusterDbTables(in);
  if (auto base_info = report::ClusterBaseInfoTable(result.ranks)) out.tables.push_back(std::move(*base_info));
  for (const analysis::ResultTable& t : out.tables)
    if (t.name == "ClusterCommunicationMatrix") result.links = analysis::LinksFromMatrixTable(t);
  for (std::string& note : out.notes) {
    note.insert(0, std::string(analysis::kClusterAnalysisDb) + ": ");
    messages.Warning(note);
    result.warnings.push_back(std::move(note));
  }
  PD_RETURN_IF_ERROR(report::WriteClusterDb(paths.cluster_db, out.tables, request.force));
  result.outputs.push_back(fs::absolute(paths.cluster_db).lexically_normal().string());
  return Status::Ok();
}

// The rank --drill-down names, and why: a rank id as given, or "worst": the new straggler that holds
// back the most steps, else the rank whose mean step grew most. -1: none (no rank in both runs).
std::pair<int64_t, std::string> DrillDownRank(const ClusterRequest& request, const report::ClusterResult& result) {
  const analysis::ClusterRunComparison& c = *result.run_comparison;
  if (*request.drill_down != "worst") return {std::stoll(*request.drill_down), "asked for"};
  int64_t best = -1, best_steps = 0;
  for (const analysis::SlowRankChange& r : c.slow_ranks)
    if (r.status == "new" && r.comparison_steps > best_steps) best = r.rank, best_steps = r.comparison_steps;
  if (best >= 0) return {best, "the new straggler"};
  int64_t grew = std::numeric_limits<int64_t>::min();
  for (const analysis::RankComparison& r : c.ranks)
    if (r.comparison_step_ns - r.base_step_ns > grew) best = r.rank, grew = r.comparison_step_ns - r.base_step_ns;
  return {best, "the largest step increase"};
}

const analysis::RankSummary* FindRank(const std::vector<analysis::RankSummary>& ranks, int64_t rank) {
  for (const analysis::RankSummary& r : ranks)
    if (r.rank == rank) return &r;
  return nullptr;
}

// --drill-down: today's single-rank compare of one rank of the two runs (its own outputs checks:
// an existing workbook needs --force).
Status DrillDown(const ClusterRequest& request, const OutputPaths& paths, report::ClusterResult& result,
                 RunMessages& messages) {
  if (!request.drill_down || !result.run_comparison || result.base_run == nullptr) return Status::Ok();
  const auto [rank, why] = DrillDownRank(request, result);
  const analysis::RankSummary* cur = FindRank(result.ranks, rank);
  const analysis::RankSummary* base = FindRank(result.base_run->ranks, rank);
  if (cur == nullptr || base == nullptr)
    return NotFound(rank < 0 ? std::string("--drill-down worst: no rank is in both runs")
                             : fmt::format("--drill-down {}: rank {} is not in both runs", *request.drill_down, rank));
  CompareRequest c;
  c.comparison_path = cur->source_path;
  c.base_path = base->source_path;
  c.output_path = (fs::path(paths.dir).parent_path() / fmt::format("drill_down_rank{}.xlsx", rank)).string();
  c.enabled = {true, true, true, true, true, true};
  c.force = request.force;
  c.reference_line = request.reference_line;
  c.strict = request.strict;
  c.input_format = request.input_format;
  c.threads = request.threads;
  messages.Note(fmt::format("--drill-down: rank {} ({}) compared on its own", rank, why));
  PD_ASSIGN_OR_RETURN(CompareRunResult run, RunComparison(c, messages));
  result.drill_down = {rank, why, run.written.empty() ? c.output_path : run.written.front(), run.overall.base.e2e_ns,
                       run.overall.comparison.e2e_ns};
  for (const std::string& f : run.written) result.outputs.push_back(f);
  return Status::Ok();
}

// Two runs: the base run's result, the comparison of the two and the gate.
void CompareWithBase(const ClusterRequest& request, std::shared_ptr<report::ClusterResult> base,
                     report::ClusterResult& result, RunMessages& messages) {
  result.run_comparison = analysis::CompareRuns(base->ranks, base->stragglers, result.ranks, result.stragglers);
  result.gate = analysis::EvaluateClusterGate(*result.run_comparison, request.gate);
  result.run_detail = analysis::CompareRunDetails(*result.run_comparison,
                                                  {base->ranks, base->collectives, base->step_table},
                                                  {result.ranks, result.collectives, result.step_table});
  std::vector<std::string> warnings = result.run_comparison->warnings;
  warnings.insert(warnings.end(), result.run_detail->notes.begin(), result.run_detail->notes.end());
  for (const std::string& w : warnings) {
    messages.Warning(w);
    result.warnings.push_back(w);
  }
  result.base_run = std::move(base);
}

}  // namespace

StatusOr<report::ClusterResult> RunCluster(const ClusterRequest& request, RunMessages& messages) {
  std::optional<PhaseScope> phase(std::in_place, messages,
                                  request.summaries_dir.empty() ? "discover ranks" : "read summaries");
  report::ClusterResult result;
  result.policy = analysis::MakeReferencePolicy(request.reference_line);
  const bool two_runs = !request.base_run_path.empty() || !request.base_summaries_dir.empty();
  auto base = std::make_shared<report::ClusterResult>();
  base->policy = result.policy;
  PD_ASSIGN_OR_RETURN(RunRanks run, AcquireRun(request, request.run_path, request.summaries_dir, "", result, messages));
  result.run_path = run.path;
  std::optional<RunRanks> base_run;
  if (two_runs) {
    PD_ASSIGN_OR_RETURN(base_run, AcquireRun(request, request.base_run_path, request.base_summaries_dir, "base run: ",
                                             *base, messages));
    base->run_path = base_run->path;
  }
  report::OutputScope scope;  // what this run creates: removed unless it succeeds
  PD_ASSIGN_OR_RETURN(OutputPaths paths, CheckOutputs(request, {&run, base_run ? &*base_run : nullptr}, scope));
  phase.emplace(messages, "load and summarise ranks");
  PD_ASSIGN_OR_RETURN(result.ranks, SummariesOf(run, request, result.policy));
  PD_RETURN_IF_ERROR(CheckStepId(request, run.path, result.ranks));
  if (two_runs) {
    PD_ASSIGN_OR_RETURN(base->ranks, SummariesOf(*base_run, request, result.policy));
    PD_RETURN_IF_ERROR(CheckStepId(request, base_run->path, base->ranks));
  }
  phase.emplace(messages, "reduce");
  Reduce(request, result, messages, "");
  if (two_runs) {
    Reduce(request, *base, messages, "base run: ");
    CompareWithBase(request, std::move(base), result, messages);
  }
  phase.emplace(messages, "write outputs");
  PD_RETURN_IF_ERROR(
      WriteOutput(paths.csv, report::RenderClusterStepTraceCsv(result.step_table, result.policy), request, result));
  PD_RETURN_IF_ERROR(WriteCommunicationFiles(request, paths, result, messages));
  PD_RETURN_IF_ERROR(WriteTimeSummaries(request, paths, result, messages));
  PD_RETURN_IF_ERROR(WriteSlowRankVote(request, paths, result));
  PD_RETURN_IF_ERROR(WriteClusterDb(request, run, paths, result, messages));
  PD_RETURN_IF_ERROR(DrillDown(request, paths, result, messages));
  for (const std::string* p : {&paths.workbook, &paths.html, &paths.json})
    result.outputs.push_back(fs::absolute(*p).lexically_normal().string());
  // The workbook's sheets and the JSON tree are each a few hundred MiB at thousands of ranks: one
  // after the other, never both in memory.
  PD_RETURN_IF_ERROR(report::WriteClusterWorkbook(result, paths.workbook, request.force,
                                                  static_cast<size_t>(std::max(request.threads, 0))));
  const auto doc = report::ClusterJson(result, PROFDIFF_VERSION);
  PD_RETURN_IF_ERROR(report::WriteFileAtomically(paths.html, report::RenderClusterHtmlPage(doc), request.force));
  PD_RETURN_IF_ERROR(report::WriteFileAtomically(paths.json, doc.dump(2) + "\n", request.force));
  scope.Commit();
  return result;
}

}  // namespace profdiff::pipeline
