// NPU (Ascend text export) overall metrics, docs/reference/overall.md#npu-text-overall-metrics to
// #pg-names.
#include <algorithm>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>

#include "launch_flows.h"
#include "profdiff/base/ascii.h"
#include "profdiff/analysis/overall/npu_overall.h"

namespace profdiff::analysis {
namespace {

// Adds a trace duration: whole ns to the exact sum, with its sub-ns digits (Slice::dur_sub_e5) to
// the reference's float sum.
void AddDuration(DualSum& sum, const Slice& s) { sum.AddNsRefE5(s.dur_ns, s.dur_e5()); }

bool IsComputeTaskType(std::string_view t) {
  return t == "AI_CORE" || t == "MIX_AIC" || t == "MIX_AIV" || t == "AI_CPU" || t == "AI_VECTOR_CORE" ||
         t == "FFTS_PLUS";
}

int64_t OrZero(int64_t ns) { return ns == kAbsentNs ? 0 : ns; }

}  // namespace

std::vector<std::vector<Interval>> SelectWaitTasks(const std::vector<HcclTask>& tasks, uint32_t plane_count) {
  std::vector<std::vector<Interval>> waits(plane_count);
  std::vector<std::string> history(plane_count, "OOOO");
  for (const HcclTask& t : tasks) {
    if (t.plane >= plane_count) continue;
    std::string& h = history[t.plane];
    char kind = t.name == "RDMASend" ? 'R' : t.name == "Notify_Wait" ? 'N' : 'O';
    if (kind == 'N') {
      bool rdma = h.substr(h.size() - 4) == "RRNR" || h.substr(h.size() - 2) == "RR";
      if (!rdma) waits[t.plane].push_back({t.start_ns, t.end_ns});
    }
    h.push_back(kind);
    if (h.size() > 4) h.erase(0, h.size() - 4);
  }
  return waits;
}

std::pair<int64_t, int64_t> GroupWaitTransmit(const std::vector<Interval>& u, const std::vector<Interval>& ops,
                                              const std::vector<std::vector<Interval>>& plane_waits,
                                              const ReferencePolicy& policy) {
  const std::vector<Interval>* chosen = nullptr;
  int64_t best = 0;
  for (const auto& w : plane_waits) {
    int64_t total = 0;
    for (const Interval& i : w) total += i.end_ns - i.start_ns;
    if (chosen == nullptr || total < best) {
      chosen = &w;
      best = total;
    }
  }
  static const std::vector<Interval> kNone;
  const std::vector<Interval>& waits = chosen ? *chosen : kNone;
  if (policy.single_cursor_overlap) {
    int64_t wait = ReferenceOverlap(u, waits);
    return {wait, ReferenceOverlap(u, ops) - wait};
  }
  int64_t wait = IntersectionLength(u, waits);
  return {wait, IntersectionLength(u, ops) - wait};
}

CommunicationGroupSplit SplitUncoveredCommunication(const std::vector<Interval>& u, const std::vector<Interval>& ops,
                                                    const std::vector<Interval>& transmit_tasks,
                                                    const std::vector<Interval>& wait_tasks) {
  const std::vector<Interval> uncovered = IntersectMerged(MergeIntervals(u), MergeIntervals(ops));
  const std::vector<Interval> transmit = MergeIntervals(transmit_tasks);
  const std::vector<Interval> waiting = IntersectMerged(uncovered, MergeIntervals(wait_tasks));
  CommunicationGroupSplit split;
  split.uncovered_ns = TotalLength(uncovered);
  split.transmit_ns = TotalLength(IntersectMerged(uncovered, transmit));
  // A Notify_Wait that runs while another plane transmits is transmit time, not wait time.
  split.wait_ns = TotalLength(waiting) - TotalLength(IntersectMerged(waiting, transmit));
  split.idle_ns = split.uncovered_ns - split.transmit_ns - split.wait_ns;
  return split;
}

std::vector<Interval> UncoveredWithinOps(const std::vector<Interval>& u, const std::vector<Interval>& ops) {
  std::vector<Interval> out;
  size_t k = 0;
  Interval cur{};
  bool have_cur = false;  // a U interval clipped at the previous op's end, kept for the next op
  for (const Interval& c : ops) {
    while (true) {
      if (!have_cur) {
        if (k >= u.size()) break;
        cur = u[k++];
        have_cur = true;
      }
      if (cur.end_ns <= c.start_ns) {
        have_cur = false;
        continue;
      }
      if (cur.start_ns >= c.end_ns) break;
      Interval clipped{std::max(cur.start_ns, c.start_ns), std::min(cur.end_ns, c.end_ns)};
      out.push_back(clipped);
      if (cur.end_ns > c.end_ns) {
        cur.start_ns = c.end_ns;
        break;
      }
      have_cur = false;
    }
  }
  return out;
}

int64_t Mc2Communication(const std::vector<int64_t>& sqe_ends_ns, size_t& cursor, int64_t start_ns, int64_t end_ns) {
  while (cursor < sqe_ends_ns.size() && sqe_ends_ns[cursor] < start_ns) ++cursor;
  std::vector<int64_t> ends;
  while (cursor < sqe_ends_ns.size() && sqe_ends_ns[cursor] <= end_ns) ends.push_back(sqe_ends_ns[cursor++]);
  int64_t total = 0;
  for (size_t i = 0; i + 1 < ends.size(); i += 2) total += ends[i + 1] - ends[i];
  return total;
}

namespace {

bool IsTraceLevel(const ProfileMeta& meta) {
  return meta.path_level == "trace" || (meta.path_level.empty() && meta.format == SourceFormat::kAscendTraceView);
}

// 1. Memory peak (memory_record.csv), GiB.
double MemoryPeakGib(const NpuTables& npu) { return npu.memory_record.peak_reserved_mb / 1024.0; }

// A valid kernel_details row with its flow start F.
struct FlowedRow {
  const KernelDetailRow* row;
  bool has_flow;
  int64_t f;
};

// The valid rows (mac_time or aiv_vec_time present), stably sorted by F (rows without flow as F = 0).
// A row has no track: flows link it by their end's timestamp only.
std::vector<FlowedRow> RowsByFlowStart(const Timeline& timeline, const ReferencePolicy& policy) {
  const LaunchFlowIndex flows(timeline, /*by_ts_only=*/true, policy.zero_flow_start_is_no_flow);
  std::vector<FlowedRow> rows;
  for (const KernelDetailRow& r : timeline.p().npu.kernel_details.rows) {
    if (!r.has_mac_or_vec_time) continue;  // invalid row
    const std::optional<int64_t> f = flows.Find(r.start_ns, 0);
    rows.push_back({&r, f.has_value(), f.value_or(0)});
  }
  std::stable_sort(rows.begin(), rows.end(), [](const FlowedRow& a, const FlowedRow& b) { return a.f < b.f; });
  return rows;
}

// End times of the C_CORE_SQE tasks in start order (MC2 communication).
std::vector<int64_t> CCoreSqeEnds(const Profile& profile) {
  std::vector<Interval> sqes;
  for (const Slice& s : profile.slices)
    if (s.kind == SliceKind::kNpuTask && profile.str(s.name) == "C_CORE_SQE") sqes.push_back({s.ts_ns, s.end_ns()});
  SortByStart(sqes);
  std::vector<int64_t> ends;
  ends.reserve(sqes.size());
  for (const Interval& i : sqes) ends.push_back(i.end_ns);
  return ends;
}

// MC2 kernels: per name (first-appearance order) duration, computing and communication time.
class Mc2Accumulator {
 public:
  Mc2Accumulator(const Profile& profile, SideMetrics& m) : profile_(profile), m_(m), sqe_ends_(CCoreSqeEnds(profile)) {}

  void Add(const KernelDetailRow& r) {
    std::string name(profile_.str(r.name));
    auto it = std::find_if(m_.mc2.begin(), m_.mc2.end(), [&](const Mc2Kernel& e) { return e.name == name; });
    if (it == m_.mc2.end()) {
      it = m_.mc2.emplace(m_.mc2.end());
      it->name = name;
    }
    if (!warned_ && (r.aic_mac_time_ns == kAbsentNs || r.aic_mte2_time_ns == kAbsentNs || r.aiv_time_ns == kAbsentNs)) {
      warned_ = true;
      m_.warnings.push_back(profile_.npu.kernel_details.file + ":" + std::to_string(r.line) +
                            ": MC2 kernel without aic_mac_time/aic_mte2_time/aiv_time; missing values count as 0");
    }
    const int64_t computing =
        std::max(OrZero(r.aic_mac_time_ns), OrZero(r.aic_mte2_time_ns)) + OrZero(r.aiv_time_ns);
    it->dur.AddNs(r.dur_ns);
    it->computing.AddNs(computing);
    it->communication.AddNs(Mc2Communication(sqe_ends_, sqe_cursor_, r.start_ns, r.start_ns + r.dur_ns));
  }

 private:
  const Profile& profile_;
  SideMetrics& m_;
  std::vector<int64_t> sqe_ends_;
  size_t sqe_cursor_ = 0;
  bool warned_ = false;
};

// 2. Kernel categorisation from kernel_details.csv
//    (docs/reference/overall.md#kernel-categorisation), unless its columns make it unusable.
void CategorizeKernelDetails(const Timeline& timeline, const KernelMasks& masks, const ReferencePolicy& policy,
                             SideMetrics& m) {
  const Profile& profile = timeline.p();
  const KernelDetailsTable& kd = profile.npu.kernel_details;
  if (!kd.present || kd.rows.empty() || (!kd.has_mac_time && !kd.has_aiv_vec_time)) {
    m.hide_op_details = true;
    return;
  }
  KernelCategorizer categorizer(masks, DeviceKind::kNpu, CollectCpuCubeOps(profile, masks), timeline.backward_tid,
                                policy);
  Mc2Accumulator mc2(profile, m);
  for (const FlowedRow& x : RowsByFlowStart(timeline, policy)) {
    const KernelDetailRow& r = *x.row;
    const std::string lower_name = ascii::ToLower(profile.str(r.name));
    const std::string lower_type = ascii::ToLower(profile.str(r.type));
    KernelToCategorize k;
    k.has_flow = x.has_flow;
    k.flow_start_ns = x.f;
    k.dur_ns = r.dur_ns;
    k.lower_name = lower_name;
    k.lower_op_type = lower_type;
    k.cube = r.mac_or_aicore_positive;
    const KernelCategory c = categorizer.Classify(k);
    m.categories.Add(c, r.dur_ns);
    if (c == KernelCategory::kMc2) mc2.Add(r);
  }
}

// 4. The SDMA-stream tasks, per stream, and the streams that count (compute streams).
class SdmaStreams {
 public:
  // A task of type `type` (Profile::TaskType) on `stream`.
  void Add(std::string_view type, const Slice& task, int64_t stream) {
    if (type == "EVENT_WAIT_SQE") wait_streams_.insert(stream);
    if (IsComputeTaskType(type)) compute_streams_.insert(stream);
    if (type == "SDMA_SQE" || type == "PCIE_DMA_SQE") AddDuration(by_stream_[stream], task);
  }
  // DB: a compute task's stream counts as a compute stream whatever its type string.
  void AddComputeStream(int64_t stream) { compute_streams_.insert(stream); }
  // Compute streams: those with both an EVENT_WAIT_SQE and a compute task, or every stream with a
  // compute task when no stream waits.
  DualSum Total() const {
    std::set<int64_t> streams;
    if (!wait_streams_.empty()) {
      std::set_intersection(wait_streams_.begin(), wait_streams_.end(), compute_streams_.begin(),
                            compute_streams_.end(), std::inserter(streams, streams.end()));
    } else {
      streams = compute_streams_;
    }
    DualSum total;
    for (const auto& [stream, sum] : by_stream_)
      if (streams.count(stream)) total += sum;
    return total;
  }

 private:
  std::set<int64_t> wait_streams_, compute_streams_;
  std::map<int64_t, DualSum> by_stream_;
};

// 3. LCCL, 4. SDMA stream, 5. overlap-analysis lane, in one pass over the slices. Returns the
// "Communication(Not Overlapped)" intervals in start order.
std::vector<Interval> ReadDeviceLanes(const Profile& profile, const ReferencePolicy& policy, SideMetrics& m) {
  SdmaStreams sdma;
  std::vector<Interval> not_overlapped;
  bool any_overlap = false;
  int64_t ov_min = 0, ov_max = 0;
  for (SliceId id = 0; id < profile.slices.size(); ++id) {
    const Slice& s = profile.slices[id];
    if (s.phase != 'X') continue;
    if (s.kind == SliceKind::kNpuTask || s.kind == SliceKind::kHcclOp) {
      std::string_view name = profile.str(s.name);
      if (name.size() == 12 && ascii::ToLower(name) == "kernel_aivec") m.lccl.AddNs(s.dur_ns);
    }
    if (s.kind == SliceKind::kNpuTask) {
      const int64_t stream = profile.TaskStream(s);
      if (stream == kNoNumber || (policy.npu_sdma_ignores_stream0 && stream == 0)) continue;
      sdma.Add(profile.TaskType(id), s, stream);
    } else if (s.kind == SliceKind::kOverlap) {
      std::string_view name = profile.str(s.name);
      if (name == "Computing") AddDuration(m.compute, s);
      if (name == "Communication(Not Overlapped)") {
        AddDuration(m.comm_not_overlapped, s);
        not_overlapped.push_back({s.ts_ns, s.end_ns()});
      }
      if (!any_overlap || s.ts_ns < ov_min) ov_min = s.ts_ns;
      if (!any_overlap || s.end_ns() > ov_max) ov_max = s.end_ns();
      any_overlap = true;
    }
  }
  m.sdma_stream = sdma.Total();
  if (any_overlap) {
    m.e2e.AddNs(ov_max - ov_min);
  } else {
    m.has_overlap_data = false;
    m.warnings.push_back("Failed to get overlap analysis data.");
  }
  SortByStart(not_overlapped);
  return not_overlapped;
}

// The exact split of each step window from the overlap-analysis lane: its "Computing" slices and
// the uncovered communication `not_overlapped` (in start order).
void SplitNpuSteps(const Timeline& timeline, const std::vector<Interval>& not_overlapped, SideMetrics& m) {
  const Profile& profile = timeline.p();
  std::vector<Interval> computing;
  for (const Slice& s : profile.slices)
    if (s.phase == 'X' && s.kind == SliceKind::kOverlap && profile.str(s.name) == "Computing")
      computing.push_back({s.ts_ns, s.end_ns()});
  std::vector<Interval> busy = computing;
  busy.insert(busy.end(), not_overlapped.begin(), not_overlapped.end());
  const std::vector<Interval> merged_busy = MergeIntervals(std::move(busy));
  m.step_splits = SplitSteps(timeline.MeasuredSteps(), MergeIntervals(std::move(computing)), merged_busy);
  m.step_coverage = CoverageOfSteps(timeline.MeasuredSteps(), merged_busy);
}

// One HCCL group's op intervals and plane tasks, both in start order, and the intervals of its
// planes' data-moving and Notify_Wait tasks (Timeline::hccl's task kinds).
struct GroupEvents {
  std::vector<Interval> ops;
  std::vector<HcclTask> tasks;
  std::vector<Interval> transmit;
  std::vector<Interval> wait;
};

GroupEvents EventsOf(const Profile& profile, const HcclGroup& g) {
  GroupEvents e;
  for (SliceId id : g.ops) e.ops.push_back({profile.slices[id].ts_ns, profile.slices[id].end_ns()});
  for (uint32_t plane = 0; plane < g.planes.size(); ++plane) {
    for (SliceId id : g.planes[plane].tasks) {
      const Slice& t = profile.slices[id];
      e.tasks.push_back({t.ts_ns, t.end_ns(), profile.str(t.name), plane});
    }
    const HcclPlane& p = g.planes[plane];
    for (size_t i = 0; i < p.tasks.size() && i < p.kinds.size(); ++i) {
      const Slice& t = profile.slices[p.tasks[i]];
      if (p.kinds[i] == HcclTaskKind::kTransmit) e.transmit.push_back({t.ts_ns, t.end_ns()});
      if (p.kinds[i] == HcclTaskKind::kWait) e.wait.push_back({t.ts_ns, t.end_ns()});
    }
  }
  SortByStart(e.ops);
  std::stable_sort(e.tasks.begin(), e.tasks.end(),
                   [](const HcclTask& a, const HcclTask& b) { return a.start_ns < b.start_ns; });
  return e;
}

// 6. Wait/transmit per group and 7. uncovered overlap between groups
//    (docs/reference/overall.md#communication-wait-transmit), and the pg names.
void MeasureGroups(const Timeline& timeline, const ReferencePolicy& policy, const std::vector<Interval>& u,
                   SideMetrics& m) {
  const std::vector<HcclGroup>& groups = timeline.hccl.groups;
  std::vector<GroupEvents> events;
  events.reserve(groups.size());
  for (const HcclGroup& g : groups) {
    events.push_back(EventsOf(timeline.p(), g));
    const GroupEvents& e = events.back();
    GroupCommunication gc;
    gc.name = g.name;
    gc.split = SplitUncoveredCommunication(u, e.ops, e.transmit, e.wait);
    gc.split.group = g.name;
    if (policy.comm_wait_least_wait_plane) {
      auto waits = SelectWaitTasks(e.tasks, static_cast<uint32_t>(g.planes.size()));
      // The DB parser only knows the planes that have wait tasks: a plane without any is no candidate.
      if (timeline.p().npu.db.present)
        std::erase_if(waits, [](const std::vector<Interval>& w) { return w.empty(); });
      std::tie(gc.wait_ns, gc.transmit_ns) = GroupWaitTransmit(u, e.ops, waits, policy);
      gc.uncovered_ns = gc.wait_ns + gc.transmit_ns;
    } else {
      gc.wait_ns = gc.split.wait_ns;
      gc.transmit_ns = gc.split.transmit_ns;
      gc.uncovered_ns = gc.split.uncovered_ns;
    }
    m.groups.push_back(std::move(gc));
    if (g.pg_name) m.pg_names[g.name] = *g.pg_name;
  }
  // The single-cursor walk measures U clipped to each group's ops; the exact measure is
  // |U ∩ ops_i ∩ ops_j|.
  std::vector<std::vector<Interval>> uncovered(groups.size());
  if (policy.single_cursor_overlap)
    for (size_t g = 0; g < groups.size(); ++g) uncovered[g] = UncoveredWithinOps(u, events[g].ops);
  for (size_t i = 0; i < groups.size(); ++i) {
    for (size_t j = i + 1; j < groups.size(); ++j) {
      const int64_t ov =
          policy.single_cursor_overlap
              ? ReferenceOverlap(uncovered[i], uncovered[j])
              : IntersectionLength(u, IntersectMerged(MergeIntervals(events[i].ops), MergeIntervals(events[j].ops)));
      if (ov != 0) m.group_overlaps.push_back({m.groups[i].name, m.groups[j].name, ov});
    }
  }
}

// 9. Bandwidth (communication.json): the last step with a bandwidth block wins.
void ReadBandwidth(const CommunicationInfo& communication, SideMetrics& m) {
  const CommunicationStep* last = nullptr;
  for (const auto& step : communication.steps)
    if (step.has_collective_bandwidth) last = &step;
  if (last == nullptr) {
    m.warnings.push_back(
        "communication.json has no 'Communication Bandwidth Info' block; RDMA/SDMA bandwidth absent "
        "(msprof-analyze aborts here)");
    return;
  }
  auto bw = [&](const char* key) {
    auto it = last->collective_bandwidth.find(key);
    if (it == last->collective_bandwidth.end() || it->second.transit_time_ms <= 0) return 0.0;
    return it->second.transit_size_mb / it->second.transit_time_ms;
  };
  m.rdma_bandwidth_gb_s = bw("RDMA");
  m.sdma_bandwidth_gb_s = bw("SDMA");
}

// ---- The DB export (docs/reference/overall.md#npu-db-overall-metrics) --------------------------

// The STEP_TIME range a DB side is restricted to (everything when no step, or an unknown one, is given).
struct DbStepRange {
  int64_t lo = std::numeric_limits<int64_t>::min();
  int64_t hi = std::numeric_limits<int64_t>::max();
  bool Holds(int64_t ts_ns) const { return ts_ns >= lo && ts_ns <= hi; }
};

// The STEP_TIME row a --step selects: the last of that id (nullptr: none given or none found).
const DbStep* SelectedStep(const DbInfo& db, std::optional<int64_t> step) {
  const DbStep* found = nullptr;
  if (!step) return found;
  for (const DbStep& s : db.steps)
    if (s.id == *step) found = &s;
  return found;
}

DbStepRange StepRangeOf(const DbInfo& db, std::optional<int64_t> step) {
  DbStepRange r;
  if (const DbStep* s = SelectedStep(db, step)) {
    r.lo = s->start_ns;
    r.hi = s->end_ns;
  }
  return r;
}

// The largest MEMORY_RECORD reserved total within the selected step's range, or of the whole table.
double DbMemoryPeakMb(const NpuTables& npu, std::optional<int64_t> step) {
  const DbStep* s = SelectedStep(npu.db, step);
  return s != nullptr ? s->peak_reserved_mb : npu.memory_record.peak_reserved_mb;
}

// 3. Kernel categorisation of the compute tasks, sorted by their TASK connection id (not by time),
//    F = the start of the torch op that launched that connection id (the last such op wins).
void CategorizeDbTasks(const Timeline& timeline, const KernelMasks& masks, const ReferencePolicy& policy,
                       const DbStepRange& range, SideMetrics& m) {
  const Profile& profile = timeline.p();
  const DbInfo& db = profile.npu.db;
  const std::vector<KernelDetailRow>& rows = profile.npu.kernel_details.rows;
  std::map<int64_t, int64_t> launch_start;
  for (const DbLaunch& l : db.op_launches) launch_start[l.connection_id()] = profile.slices[l.op].ts_ns;
  std::vector<size_t> order;
  for (size_t i = 0; i < db.compute_tasks.size() && i < rows.size(); ++i)
    if (range.Holds(rows[i].start_ns)) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return db.compute_tasks[a].connection_id < db.compute_tasks[b].connection_id;
  });
  KernelCategorizer categorizer(masks, DeviceKind::kNpu, CollectCpuCubeOps(profile, masks), kNoNumber, policy);
  Mc2Accumulator mc2(profile, m);
  for (size_t i : order) {
    const DbComputeTask& t = db.compute_tasks[i];
    const KernelDetailRow& r = rows[i];
    const std::string lower_name = ascii::ToLower(profile.str(r.name));
    const std::string lower_type = ascii::ToLower(profile.str(r.type));
    auto f = launch_start.find(t.connection_id);
    KernelToCategorize k;
    k.has_flow = f != launch_start.end() && f->second != 0;
    k.flow_start_ns = k.has_flow ? f->second : 0;
    k.dur_ns = r.dur_ns;
    k.lower_name = lower_name;
    k.lower_op_type = lower_type;
    const std::string_view rts = profile.str(t.rts_type);
    k.cube = db.has_pmu ? t.pmu_cube != 0 : (rts == "KERNEL_AICORE" || rts == "KERNEL_MIX_AIC");
    const KernelCategory c = categorizer.Classify(k);
    m.categories.Add(c, r.dur_ns);
    if (c == KernelCategory::kMc2) mc2.Add(r);
  }
}

bool IsKernelRtsType(std::string_view t) {
  return t == "KERNEL_AICORE" || t == "KERNEL_AIVEC" || t == "FFTS_PLUS" || t == "KERNEL_MIX_AIC" ||
         t == "KERNEL_MIX_AIV" || t == "PROFILING_ENABLE" || t == "PROFILING_DISABLE";
}

// policy.db_compute_runs_take_busy_ends (8.2): the merged compute runs as the reference's walk saw
// them after it had merged compute and communication in place: a run that starts a busy period (a
// compute interval starts it; on a tie the compute intervals came first) ends where that period ends.
std::vector<Interval> ComputeRunsTakingBusyEnds(std::vector<Interval> compute, const std::vector<Interval>& busy) {
  size_t k = 0;
  for (const Interval& b : busy) {
    while (k < compute.size() && compute[k].start_ns < b.start_ns) ++k;
    if (k < compute.size() && compute[k].start_ns == b.start_ns) compute[k].end_ns = b.end_ns;
  }
  return compute;
}

// U: each busy period minus the merged compute runs, as the reference's walk emits it: one cursor
// over the runs; a busy period gives a piece before each run that starts in it and one after the
// last, empty ones kept. From the 8.2 line's overlong runs (above) a piece can also be of negative
// length, which the overlap walk measures as nothing.
std::vector<Interval> BusyMinusCompute(const std::vector<Interval>& busy, const std::vector<Interval>& compute) {
  std::vector<Interval> u;
  size_t k = 0;
  for (const Interval& b : busy) {
    int64_t cursor = b.start_ns;
    for (; k < compute.size() && compute[k].start_ns <= b.end_ns; ++k) {
      u.push_back({cursor, compute[k].start_ns});
      cursor = compute[k].end_ns;
    }
    u.push_back({cursor, b.end_ns});
  }
  return u;
}

// 4.-6. LCCL, SDMA stream, computing, uncovered communication and E2E from the task and op
// intervals. Returns U (uncovered communication intervals, in start order).
std::vector<Interval> MeasureDbIntervals(const Timeline& timeline, const ReferencePolicy& policy,
                                         const DbStepRange& range, SideMetrics& m) {
  const Profile& profile = timeline.p();
  const std::vector<DbComputeTask>& compute_tasks = profile.npu.db.compute_tasks;  // in slice order
  std::vector<Interval> compute, busy;
  SdmaStreams sdma;
  for (const DbComputeTask& t : compute_tasks) {
    const Slice& s = profile.slices[t.slice];
    if (range.Holds(s.ts_ns)) compute.push_back({s.ts_ns, s.end_ns()});
  }
  busy = compute;
  bool any_other = false;
  int64_t other_min = 0, other_max = 0;
  size_t next_compute = 0;  // the first compute task at or after the slice
  for (SliceId id = 0; id < profile.slices.size(); ++id) {
    const Slice& s = profile.slices[id];
    if (!range.Holds(s.ts_ns)) continue;
    if (s.kind == SliceKind::kHcclOp) {
      busy.push_back({s.ts_ns, s.end_ns()});
      if (ascii::ToLower(profile.str(s.name)) == "kernel_aivec") m.lccl.AddNs(s.dur_ns);
    }
    if (s.kind != SliceKind::kNpuTask) continue;
    while (next_compute < compute_tasks.size() && compute_tasks[next_compute].slice < id) ++next_compute;
    const bool is_compute = next_compute < compute_tasks.size() && compute_tasks[next_compute].slice == id;
    // Its TASK task type (the RTS type): a compute task keeps its own in npu.db.
    const std::string_view rts =
        is_compute ? profile.str(compute_tasks[next_compute].rts_type) : profile.TaskType(id);
    const int64_t stream = profile.TaskStream(s);
    if (!is_compute && stream != kNoNumber) sdma.Add(rts, s, stream);
    if (is_compute && stream != kNoNumber) sdma.AddComputeStream(stream);
    if (IsKernelRtsType(rts)) continue;
    other_min = any_other ? std::min(other_min, s.ts_ns) : s.ts_ns;
    other_max = any_other ? std::max(other_max, s.end_ns()) : s.end_ns();
    any_other = true;
  }
  m.sdma_stream = sdma.Total();
  const std::vector<Interval> merged_compute = MergeIntervals(compute);
  const std::vector<Interval> merged_busy = MergeIntervals(busy);
  if (merged_busy.empty()) {
    m.has_overlap_data = false;
    m.warnings.push_back("the DB export has no compute task and no communication op: no E2E time");
    return {};
  }
  m.compute.AddNs(TotalLength(merged_compute));
  m.comm_not_overlapped.AddNs(TotalLength(merged_busy) - TotalLength(merged_compute));
  int64_t first = merged_busy.front().start_ns, last = merged_busy.back().end_ns;
  if (any_other) {
    first = std::min(first, other_min);
    last = std::max(last, other_max);
  }
  m.e2e.AddNs(last - first);
  if (!timeline.steps.empty()) {
    m.step_splits = SplitSteps(timeline.MeasuredSteps(), merged_compute, merged_busy);
    m.step_coverage = CoverageOfSteps(timeline.MeasuredSteps(), merged_busy);
  }
  if (policy.db_compute_runs_take_busy_ends)
    return BusyMinusCompute(merged_busy, ComputeRunsTakingBusyEnds(merged_compute, merged_busy));
  return BusyMinusCompute(merged_busy, merged_compute);
}

SideMetrics ComputeNpuDbSideMetrics(const Timeline& timeline, const KernelMasks& masks, const ReferencePolicy& policy,
                                    std::optional<int64_t> step) {
  const Profile& profile = timeline.p();
  const DbStepRange range = StepRangeOf(profile.npu.db, step);
  SideMetrics m;
  m.device = DeviceKind::kNpu;
  // MEMORY_RECORD is the DB's memory data: without it the usage is unknown, not 0.
  m.memory_known = profile.npu.has_memory_record;
  m.memory_gib = DbMemoryPeakMb(profile.npu, step) / 1024.0;
  CategorizeDbTasks(timeline, masks, policy, range, m);
  const std::vector<Interval> u = MeasureDbIntervals(timeline, policy, range, m);
  MeasureGroups(timeline, policy, u, m);
  return m;
}

}  // namespace

SideMetrics ComputeNpuSideMetrics(const Timeline& timeline, const KernelMasks& masks, const ReferencePolicy& policy,
                                  std::optional<int64_t> db_step) {
  const Profile& profile = timeline.p();
  if (profile.npu.db.present) return ComputeNpuDbSideMetrics(timeline, masks, policy, db_step);
  const NpuTables& npu = profile.npu;
  SideMetrics m;
  m.device = DeviceKind::kNpu;
  m.trace_level = IsTraceLevel(profile.meta);
  if (!m.trace_level && npu.has_memory_record) {
    m.memory_gib = MemoryPeakGib(npu);
    m.memory_known = true;
  }
  if (m.trace_level) {
    m.warnings.push_back(
        "a trace_view.json alone (trace level): no kernel_details.csv, memory_record.csv or "
        "communication.json is read, so its computing split (all under Other Time), memory usage and "
        "bandwidths are unknown (n/a), not 0; give the *_ascend_pt directory to have them");
  }
  if (!m.trace_level) CategorizeKernelDetails(timeline, masks, policy, m);
  const std::vector<Interval> not_overlapped = ReadDeviceLanes(profile, policy, m);
  MeasureGroups(timeline, policy, not_overlapped, m);
  if (!timeline.steps.empty() && m.has_overlap_data) SplitNpuSteps(timeline, not_overlapped, m);
  if (!m.trace_level && npu.communication.present && !npu.communication.empty) ReadBandwidth(npu.communication, m);
  return m;
}

}  // namespace profdiff::analysis
