// NPU (Ascend text export) overall metrics, reference §5.3-§5.5.
#include <algorithm>
#include <set>
#include <unordered_map>

#include "launch_flows.h"
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

SideMetrics ComputeNpuSideMetrics(const Timeline& timeline, const KernelMasks& masks, const ReferencePolicy& policy) {
  const Profile& profile = timeline.p();
  SideMetrics m;
  m.device = DeviceKind::kNpu;
  m.trace_level = profile.meta.path_level == "trace" ||
                  (profile.meta.path_level.empty() && profile.meta.format == SourceFormat::kAscendTraceView);
  const NpuTables& npu = profile.npu;

  // 1. Memory peak (memory_record.csv).
  if (!m.trace_level && npu.has_memory_record) {
    double peak_mb = 0;
    for (const auto& r : npu.memory_record) peak_mb = std::max(peak_mb, r.total_reserved_mb);
    m.memory_gib = peak_mb / 1024.0;
  }

  // 2. Kernel categorisation from kernel_details.csv.
  if (!m.trace_level) {
    const KernelDetailsTable& kd = npu.kernel_details;
    if (!kd.present || kd.rows.empty() || (!kd.has_mac_time && !kd.has_aiv_vec_time)) {
      m.hide_op_details = true;
    } else {
      // A kernel_details row has no track: flows link it by their end's timestamp only.
      const LaunchFlowIndex flows(timeline, /*by_ts_only=*/true, policy.zero_flow_start_is_no_flow);
      struct Row {
        const KernelDetailRow* row;
        bool has_flow;
        int64_t f;
      };
      std::vector<Row> rows;
      for (const KernelDetailRow& r : kd.rows) {
        if (r.aiv_vec_time_ns == kAbsentNs && r.mac_time_ns == kAbsentNs) continue;  // invalid row
        const std::optional<int64_t> f = flows.Find(r.start_ns, 0);
        rows.push_back({&r, f.has_value(), f.value_or(0)});
      }
      std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
        return (a.has_flow ? a.f : 0) < (b.has_flow ? b.f : 0);
      });
      // C_CORE_SQE end times (MC2 communication).
      std::vector<Interval> sqes;
      for (const Slice& s : profile.slices) {
        if (s.kind == SliceKind::kNpuTask && profile.str(s.name) == "C_CORE_SQE") sqes.push_back({s.ts_ns, s.end_ns()});
      }
      SortByStart(sqes);
      std::vector<int64_t> sqe_ends;
      for (const Interval& i : sqes) sqe_ends.push_back(i.end_ns);
      size_t sqe_cursor = 0;

      KernelCategorizer categorizer(masks, DeviceKind::kNpu, CollectCpuCubeOps(profile, masks), timeline.backward_tid);
      bool warned_mc2 = false;
      for (const Row& x : rows) {
        const KernelDetailRow& r = *x.row;
        std::string lower_name = ToLowerAscii(profile.str(r.name));
        std::string lower_type = ToLowerAscii(profile.str(r.type));
        KernelToCategorize k;
        k.has_flow = x.has_flow;
        k.flow_start_ns = x.f;
        k.dur_ns = r.dur_ns;
        k.lower_name = lower_name;
        k.lower_op_type = lower_type;
        k.cube = (r.mac_time_ns != kAbsentNs && r.mac_time_ns > 0) ||
                 (r.aicore_time_ns != kAbsentNs && r.aicore_time_ns > 0);
        KernelCategory c = categorizer.Classify(k);
        m.categories.Add(c, r.dur_ns);
        if (c != KernelCategory::kMc2) continue;
        std::string name(profile.str(r.name));
        auto it = std::find_if(m.mc2.begin(), m.mc2.end(), [&](const Mc2Kernel& e) { return e.name == name; });
        if (it == m.mc2.end()) {
          it = m.mc2.emplace(m.mc2.end());
          it->name = name;
        }
        if (!warned_mc2 && (r.aic_mac_time_ns == kAbsentNs || r.aic_mte2_time_ns == kAbsentNs || r.aiv_time_ns == kAbsentNs)) {
          warned_mc2 = true;
          m.warnings.push_back(kd.file + ":" + std::to_string(r.line) +
                               ": MC2 kernel without aic_mac_time/aic_mte2_time/aiv_time; missing values count as 0");
        }
        int64_t computing = std::max(OrZero(r.aic_mac_time_ns), OrZero(r.aic_mte2_time_ns)) + OrZero(r.aiv_time_ns);
        int64_t communication = Mc2Communication(sqe_ends, sqe_cursor, r.start_ns, r.start_ns + r.dur_ns);
        it->dur.AddNs(r.dur_ns);
        it->computing.AddNs(computing);
        it->communication.AddNs(communication);
      }
    }
  }

  // 3. LCCL, 4. SDMA stream, 5. overlap-analysis lane.
  std::set<int64_t> wait_streams, compute_streams;
  std::map<int64_t, DualSum> sdma_by_stream;
  std::vector<Interval> not_overlapped;
  bool any_overlap = false;
  int64_t ov_min = 0, ov_max = 0;
  for (const Slice& s : profile.slices) {
    if (s.phase != 'X') continue;
    if (s.kind == SliceKind::kNpuTask || s.kind == SliceKind::kHcclOp) {
      std::string_view name = profile.str(s.name);
      if (name.size() == 12 && ToLowerAscii(name) == "kernel_aivec") {
        m.lccl.AddNs(s.dur_ns);
      }
    }
    if (s.kind == SliceKind::kNpuTask) {
      int64_t stream = profile.ArgInt(s, ArgKey::kStreamId, kNoNumber);
      if (stream == kNoNumber || (policy.npu_sdma_ignores_stream0 && stream == 0)) continue;
      std::string_view type = profile.ArgText(s, ArgKey::kTaskType);
      if (type == "EVENT_WAIT_SQE") wait_streams.insert(stream);
      if (IsComputeTaskType(type)) compute_streams.insert(stream);
      if (type == "SDMA_SQE" || type == "PCIE_DMA_SQE") {
        AddDuration(sdma_by_stream[stream], s);
      }
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
  std::set<int64_t> sdma_streams;
  if (!wait_streams.empty()) {
    std::set_intersection(wait_streams.begin(), wait_streams.end(), compute_streams.begin(), compute_streams.end(),
                          std::inserter(sdma_streams, sdma_streams.end()));
  } else {
    sdma_streams = compute_streams;
  }
  for (const auto& [stream, sum] : sdma_by_stream) {
    if (sdma_streams.count(stream)) m.sdma_stream += sum;
  }
  if (any_overlap) {
    m.e2e.AddNs(ov_max - ov_min);
  } else {
    m.has_overlap_data = false;
    m.warnings.push_back("Failed to get overlap analysis data.");
  }
  SortByStart(not_overlapped);

  // 6./7. Communication groups (§5.4): the Timeline's HCCL groups and planes.
  const std::vector<HcclGroup>& groups = timeline.hccl.groups;
  std::vector<std::vector<Interval>> group_ops(groups.size());
  std::vector<std::vector<HcclTask>> tasks(groups.size());
  for (size_t gi = 0; gi < groups.size(); ++gi) {
    for (SliceId id : groups[gi].ops) group_ops[gi].push_back({profile.slices[id].ts_ns, profile.slices[id].end_ns()});
    for (uint32_t plane = 0; plane < groups[gi].planes.size(); ++plane) {
      for (SliceId id : groups[gi].planes[plane].tasks) {
        const Slice& t = profile.slices[id];
        tasks[gi].push_back({t.ts_ns, t.end_ns(), profile.str(t.name), plane});
      }
    }
  }
  std::vector<std::vector<Interval>> uncovered(groups.size());
  for (size_t gi = 0; gi < groups.size(); ++gi) {
    SortByStart(group_ops[gi]);
    std::stable_sort(tasks[gi].begin(), tasks[gi].end(),
                     [](const HcclTask& a, const HcclTask& b) { return a.start_ns < b.start_ns; });
    auto waits = SelectWaitTasks(tasks[gi], static_cast<uint32_t>(groups[gi].planes.size()));
    auto [wait, transmit] = GroupWaitTransmit(not_overlapped, group_ops[gi], waits, policy);
    m.groups.push_back({groups[gi].name, wait, transmit});
    if (policy.single_cursor_overlap) uncovered[gi] = UncoveredWithinOps(not_overlapped, group_ops[gi]);
  }
  for (size_t i = 0; i < groups.size(); ++i) {
    for (size_t j = i + 1; j < groups.size(); ++j) {
      int64_t ov = 0;
      if (policy.single_cursor_overlap) {
        ov = ReferenceOverlap(uncovered[i], uncovered[j]);
      } else {
        // |U ∩ ops_i ∩ ops_j|
        ov = IntersectionLength(not_overlapped,
                                IntersectMerged(MergeIntervals(group_ops[i]), MergeIntervals(group_ops[j])));
      }
      if (ov != 0) m.group_overlaps.push_back({m.groups[i].name, m.groups[j].name, ov});
    }
  }
  for (const HcclGroup& g : groups)
    if (g.pg_name) m.pg_names[g.name] = *g.pg_name;

  // 9. Bandwidth (communication.json): the last step with a bandwidth block wins.
  if (!m.trace_level && npu.communication.present && !npu.communication.empty) {
    const CommunicationStep* last = nullptr;
    for (const auto& step : npu.communication.steps) {
      if (step.has_collective_bandwidth) last = &step;
    }
    if (last == nullptr) {
      m.warnings.push_back(
          "communication.json has no 'Communication Bandwidth Info' block; RDMA/SDMA bandwidth absent "
          "(msprof-analyze aborts here)");
    } else {
      auto bw = [&](const char* key) {
        auto it = last->collective_bandwidth.find(key);
        if (it == last->collective_bandwidth.end() || it->second.transit_time_ms <= 0) return 0.0;
        return it->second.transit_size_mb / it->second.transit_time_ms;
      };
      m.rdma_bandwidth_gb_s = bw("RDMA");
      m.sdma_bandwidth_gb_s = bw("SDMA");
    }
  }
  return m;
}

}  // namespace profdiff::analysis
