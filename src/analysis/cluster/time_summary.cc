// ClusterTimeSummary and its comparison (time_summary.h).
#include "profdiff/analysis/cluster/time_summary.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <map>
#include <span>
#include <string_view>
#include <tuple>
#include <utility>

#include "profdiff/analysis/cluster/communication_groups.h"
#include "profdiff/analysis/cluster/float_sums.h"
#include "profdiff/analysis/cluster/rank_summary.h"

namespace profdiff::analysis {
namespace {

constexpr int64_t kNullStep = std::numeric_limits<int64_t>::min();  // a LEFT JOIN's NULL: counts nowhere
constexpr int kComputeType = OverlapInterval::kComputing, kCommType = OverlapInterval::kCommunication,
              kMemoryType = OverlapInterval::kMemory;

// ---- the map step: one rank ---------------------------------------------------------------------

// The steps a launch at `t` counts in: each STEP_TIME window that holds it (ends included), none
// (kNullStep) when no window does, -1 for every launch of an export without STEP_TIME.
class StepFinder {
 public:
  StepFinder(const std::vector<DbStep>& steps, bool has_step_time) : steps_(steps), has_(has_step_time) {}
  template <typename F>
  void ForEach(int64_t t, F f) const {
    if (!has_) return f(int64_t{-1});
    bool any = false;
    for (const DbStep& s : steps_) {
      if (t < s.start_ns || t > s.end_ns) continue;
      any = true;
      f(s.id);
    }
    if (!any) f(kNullStep);
  }

 private:
  const std::vector<DbStep>& steps_;
  bool has_;
};

struct OverlapRow {
  int64_t start_ns, end_ns, step;
  int type;
};

void AddCommOps(const Profile& p, const StepFinder& steps, RankTimeInputs& out, std::vector<OverlapRow>& overlap) {
  for (const Slice& s : p.slices) {
    if (s.kind != SliceKind::kHcclOp) continue;
    const int64_t conn = p.ArgInt(s, ArgKey::kConnectionId);
    if (conn == kNoNumber) continue;
    const uint64_t hash = GroupNameHash(p.ArgText(s, ArgKey::kGroupName));
    for (const auto& [id, api_start] : CannApiStarts(p.npu.db, conn)) {
      out.has_comm_ops = true;
      steps.ForEach(api_start, [&](int64_t step) {
        overlap.push_back({s.ts_ns, s.end_ns(), step, kCommType});
        if (step != kNullStep) out.comm_ops.push_back({hash, std::string(p.str(s.name)), step, s.dur_ns});
      });
    }
  }
}

void AddComputeAndMemory(const Profile& p, const StepFinder& steps, std::vector<OverlapRow>& compute,
                         std::vector<OverlapRow>& memory) {
  for (const DbComputeTask& t : p.npu.db.compute_tasks) {
    const Slice& s = p.slices[t.slice];
    if (s.dur_ns == 0 || t.connection_id == kNoNumber) continue;  // the reference's TASK.startNs != TASK.endNs
    for (const auto& [id, api_start] : CannApiStarts(p.npu.db, t.connection_id))
      steps.ForEach(api_start, [&](int64_t step) { compute.push_back({s.ts_ns, s.end_ns(), step, kComputeType}); });
  }
  for (SliceId i = 0; i < p.slices.size(); ++i) {
    const Slice& s = p.slices[i];
    if (s.kind != SliceKind::kNpuTask || p.TaskType(i) != "MEMCPY_ASYNC") continue;
    steps.ForEach(s.ts_ns, [&](int64_t step) { memory.push_back({s.ts_ns, s.end_ns(), step, kMemoryType}); });
  }
}

// Per step with a memory copy: the copies' total time and the part nothing else covers.
void AddMemorySteps(std::vector<OverlapRow> overlap, std::map<int64_t, RankTimeStep>& steps) {
  std::stable_sort(overlap.begin(), overlap.end(), [](const OverlapRow& a, const OverlapRow& b) {
    return a.start_ns != b.start_ns ? a.start_ns < b.start_ns : a.end_ns < b.end_ns;
  });
  std::map<int64_t, std::vector<OverlapInterval>> by_step;
  for (const OverlapRow& i : overlap)
    if (i.step != kNullStep) by_step[i.step].push_back({i.start_ns, i.end_ns, i.type});
  for (const auto& [step, rows] : by_step) {
    int64_t memory = 0;
    bool any = false;
    for (const OverlapInterval& r : rows) {
      if (r.type != kMemoryType) continue;
      any = true;
      memory += r.end_ns - r.start_ns;
    }
    if (!any) continue;
    RankTimeStep& s = steps.try_emplace(step, RankTimeStep{step}).first->second;
    s.memory_ns = memory;
    s.memory_not_overlap_ns = MemoryNotOverlapNs(rows);
  }
}

bool HasTable(const DbInfo& db, std::string_view name) {
  for (const DbTableUse& t : db.tables)
    if (t.name == name) return t.present;
  return false;
}

}  // namespace

std::span<const std::pair<int64_t, int64_t>> CannApiStarts(const DbInfo& db, int64_t connection_id) {
  auto [lo, hi] = std::equal_range(db.cann_api_starts.begin(), db.cann_api_starts.end(),
                                   std::pair<int64_t, int64_t>{connection_id, 0},
                                   [](const auto& a, const auto& b) { return a.first < b.first; });
  return {lo, hi};
}

int64_t MemoryNotOverlapNs(std::span<const OverlapInterval> rows) {
  if (rows.empty()) return 0;
  int64_t total = 0;
  int64_t cur_start = rows.front().start_ns, cur_end = rows.front().start_ns;
  int cur_type = -1;
  for (const OverlapInterval& r : rows) {
    if (cur_type == kMemoryType) {
      const int64_t tmp_end = r.start_ns > cur_end ? cur_end : r.start_ns;
      if (cur_start < tmp_end) total += tmp_end - cur_start;
    }
    if (r.start_ns > cur_end) {
      cur_start = r.start_ns;
      cur_end = r.end_ns;
      cur_type = r.type;
    } else {
      const bool longer = r.end_ns > cur_end;
      cur_type = longer ? r.type : cur_type;
      cur_start = longer ? cur_end : r.end_ns;
      cur_end = longer ? r.end_ns : cur_end;
    }
  }
  if (cur_type == kMemoryType) total += cur_end - cur_start;
  return total;
}

RankTimeInputs SummarizeRankTime(const Profile& p) {
  RankTimeInputs out;
  const DbInfo& db = p.npu.db;
  if (!db.present || !db.has_cann_api) return out;
  out.present = true;
  out.has_comm_groups = db.comm_analyzer_time_rows > 0;
  const bool has_step_time = HasTable(db, "STEP_TIME");
  const StepFinder finder(db.steps, has_step_time);
  std::map<int64_t, RankTimeStep> steps;
  for (const DbStep& s : db.steps) steps[s.id] = RankTimeStep{s.id, s.end_ns - s.start_ns};
  if (steps.empty()) steps[-1] = RankTimeStep{-1};  // the reference's row without a step time
  // The reference's UNION ALL order: computing, communication, memory (then sorted by start, end).
  std::vector<OverlapRow> compute, comm, memory;
  AddCommOps(p, finder, out, comm);
  AddComputeAndMemory(p, finder, compute, memory);
  compute.insert(compute.end(), comm.begin(), comm.end());
  compute.insert(compute.end(), memory.begin(), memory.end());
  AddMemorySteps(std::move(compute), steps);
  for (auto& [id, s] : steps) out.steps.push_back(s);
  return out;
}

// ---- the reduce: every rank --------------------------------------------------------------------

namespace {

constexpr size_t kTraceCount = 5;  // computing, communication not overlapped, overlapped, communication, free
constexpr std::string_view kTraceColumns[kTraceCount] = {kColComputing, kColCommNotOverlapped, kColOverlapped,
                                                          kColCommunication, kColFree};

// One (rank, step) of the reference's outer merge of its four tables.
struct RowParts {
  bool trace = false;
  std::array<int64_t, kTraceCount> trace_ns{};
  std::array<double, kTraceCount> trace_us{};
  int64_t step_time_ns = kAbsentNs;
  bool comm = false;
  int64_t wait_ns = 0, transmit_ns = 0;
  KahanSum wait_us, transmit_us;
  int64_t memory_ns = kAbsentNs, memory_not_overlap_ns = kAbsentNs;
};
using RowMap = std::map<std::pair<int64_t, int64_t>, RowParts>;

std::optional<int64_t> StepNumber(std::string_view text) {
  if (text.empty()) return -1;  // the reference's fillna("-1")
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

bool AddStepTrace(const RankSummary& r, RowMap& rows) {
  if (r.step_source != RankStepSource::kStepTraceTime && r.step_source != RankStepSource::kAnalysisDb) return false;
  bool any = false;
  for (const RankStep& s : r.steps) {
    const std::optional<int64_t> step = StepNumber(s.step);
    if (!step) continue;
    RowParts& a = rows[{r.rank, *step}];
    a.trace = any = true;
    for (size_t i = 0; i < kTraceCount; ++i) {
      const auto col = std::find(r.columns.begin(), r.columns.end(), kTraceColumns[i]);
      const size_t c = static_cast<size_t>(col - r.columns.begin());
      const bool has = col != r.columns.end() && c < s.values_ns.size();
      a.trace_ns[i] = has ? s.values_ns[c] : kAbsentNs;
      a.trace_us[i] = has && c < s.values_us_float.size() ? s.values_us_float[c] : std::numeric_limits<double>::quiet_NaN();
    }
  }
  return any;
}

// Each op's transmit stage (the shortest duration of its group, name and step over the ranks) and
// wait stage (its own less that), summed per rank and step in the reference's row order.
bool AddTransmitAndWait(const std::vector<const RankSummary*>& ranks, RowMap& rows) {
  std::map<std::tuple<uint64_t, std::string_view, int64_t>, int64_t> shortest;
  for (const RankSummary* r : ranks) {
    for (const RankCommOpTime& op : r->time.comm_ops) {
      auto [it, added] = shortest.try_emplace({op.group, op.name, op.step}, op.dur_ns);
      if (!added) it->second = std::min(it->second, op.dur_ns);
    }
  }
  if (shortest.empty()) return false;
  for (const RankSummary* r : ranks) {
    for (const RankCommOpTime& op : r->time.comm_ops) {
      const int64_t min_ns = shortest.at({op.group, op.name, op.step});
      RowParts& a = rows[{r->rank, op.step}];
      a.comm = true;
      a.wait_ns += op.dur_ns - min_ns;
      a.transmit_ns += min_ns;
      a.wait_us.Add(static_cast<double>(op.dur_ns) / 1000.0 - static_cast<double>(min_ns) / 1000.0);
      a.transmit_us.Add(static_cast<double>(min_ns) / 1000.0);
    }
  }
  return true;
}

void Set(TimeSummaryRow& row, TimeMetric m, int64_t ns, double us) {
  row.ns[static_cast<size_t>(m)] = ns == kAbsentNs ? 0 : ns;
  row.us[static_cast<size_t>(m)] = us != us ? 0.0 : us;  // the reference's fillna(0)
}

double Us(int64_t ns) { return ns == kAbsentNs ? std::numeric_limits<double>::quiet_NaN() : static_cast<double>(ns) / 1000.0; }

TimeSummaryRow MakeRow(std::pair<int64_t, int64_t> key, const RowParts& a, bool one_comm_rank) {
  TimeSummaryRow row;
  row.rank = key.first;
  row.step = key.second;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (size_t i = 0; i < kTraceCount; ++i)
    Set(row, static_cast<TimeMetric>(static_cast<size_t>(TimeMetric::kComputation) + i),
        a.trace ? a.trace_ns[i] : kAbsentNs, a.trace ? a.trace_us[i] : nan);
  if (a.step_time_ns != kAbsentNs) {
    Set(row, TimeMetric::kStepTime, a.step_time_ns, Us(a.step_time_ns));
  } else if (a.trace && a.trace_ns[0] != kAbsentNs && a.trace_ns[1] != kAbsentNs && a.trace_ns[4] != kAbsentNs) {
    // No step time: computing + communication not overlapped + free, as the reference fills it.
    Set(row, TimeMetric::kStepTime, a.trace_ns[0] + a.trace_ns[1] + a.trace_ns[4],
        a.trace_us[0] + a.trace_us[1] + a.trace_us[4]);
  } else {
    Set(row, TimeMetric::kStepTime, kAbsentNs, nan);
  }
  const bool comm = a.comm && !one_comm_rank;  // one rank alone has no one to wait for
  Set(row, TimeMetric::kWaitStage, comm ? a.wait_ns : 0, comm ? a.wait_us.sum : 0.0);
  Set(row, TimeMetric::kTransmitStage, comm ? a.transmit_ns : 0, comm ? a.transmit_us.sum : 0.0);
  Set(row, TimeMetric::kMemory, a.memory_ns, Us(a.memory_ns));
  Set(row, TimeMetric::kMemoryNotOverlap, a.memory_not_overlap_ns, Us(a.memory_not_overlap_ns));
  const auto free = static_cast<size_t>(TimeMetric::kFree), not_overlap = static_cast<size_t>(TimeMetric::kMemoryNotOverlap);
  row.ns[free] -= row.ns[not_overlap];
  row.us[free] -= row.us[not_overlap];
  return row;
}

// Why the reference writes no summary for these ranks, or "" when it writes one.
std::string EmptyReason(const std::vector<const RankSummary*>& ranks, bool any_trace) {
  if (ranks.empty()) return "no rank is an Ascend DB export";
  if (!any_trace) return "no rank has analysis.db's StepTraceTime";
  for (const RankSummary* r : ranks)
    if (r->time.has_comm_groups) return "";
  return "no rank has communication groups (analysis.db's CommAnalyzerTime): no wait and transmit stage time";
}

}  // namespace

std::string_view TimeMetricName(TimeMetric m) {
  static constexpr std::string_view kNames[kTimeMetricCount] = {
      "stepTime", "computation", "communicationNotOverlapComputation", "communicationOverlapComputation",
      "communication", "free", "communicationWaitStageTime", "communicationTransmitStageTime", "memory",
      "memoryNotOverlapComputationCommunication"};
  return kNames[static_cast<size_t>(m)];
}

std::string_view TimeMetricTextName(TimeMetric m) {
  static constexpr std::string_view kNames[kTimeMetricCount] = {
      "Step Time(us)", "Computation(us)", "Communication Not Overlap Computation(us)",
      "Communication Overlap Computation(us)", "Communication(us)", "Free(us)", "Communication Wait Stage Time(us)",
      "Communication Transmit Stage Time(us)", "Memory(us)", "Memory Not Overlap Computation Communication(us)"};
  return kNames[static_cast<size_t>(m)];
}

ClusterTimeSummary BuildClusterTimeSummary(const std::vector<RankSummary>& all_ranks,
                                           const std::optional<std::string>& step_id) {
  ClusterTimeSummary out;
  std::vector<const RankSummary*> ranks;
  for (const RankSummary& r : all_ranks)
    if (r.time.present) ranks.push_back(&r);
  RowMap rows;
  bool any_trace = false;
  int comm_ranks = 0;
  for (const RankSummary* r : ranks) {
    for (const RankTimeStep& s : r->time.steps) {
      RowParts& a = rows[{r->rank, s.step}];
      a.step_time_ns = s.step_time_ns;
      a.memory_ns = s.memory_ns;
      a.memory_not_overlap_ns = s.memory_not_overlap_ns;
    }
    any_trace = AddStepTrace(*r, rows) || any_trace;
    comm_ranks += r->time.has_comm_ops ? 1 : 0;
  }
  out.empty_reason = EmptyReason(ranks, any_trace);
  if (out.empty_reason.empty() && !AddTransmitAndWait(ranks, rows))
    out.empty_reason = "no communication op is launched in a step: no wait and transmit stage time";
  if (!out.empty_reason.empty()) return out;
  const std::optional<int64_t> only = step_id ? StepNumber(*step_id) : std::nullopt;
  for (const auto& [key, parts] : rows) {
    if (step_id && (!only || key.second != *only)) continue;
    out.rows.push_back(MakeRow(key, parts, comm_ranks == 1));
  }
  return out;
}

std::vector<TimeCompareRow> CompareClusterTimeSummaries(const ClusterTimeSummary& current,
                                                        const ClusterTimeSummary& base) {
  std::map<std::pair<int64_t, int64_t>, const TimeSummaryRow*> base_rows;
  for (const TimeSummaryRow& r : base.rows) base_rows.emplace(std::pair{r.rank, r.step}, &r);
  std::vector<TimeCompareRow> out;
  for (const TimeSummaryRow& r : current.rows) {
    auto it = base_rows.find({r.rank, r.step});
    if (it != base_rows.end()) out.push_back({r.rank, r.step, r, *it->second});
  }
  return out;
}

}  // namespace profdiff::analysis
