// GPU (Kineto) overall metrics, reference §5.2.
#include <algorithm>
#include <unordered_map>

#include "profdiff/analysis/overall/gpu_overall.h"

namespace profdiff::analysis {
namespace {

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

bool IsGpuFlowCat(std::string_view lower_cat) {
  return lower_cat == "async_gpu" || lower_cat == "async_cpu_to_gpu" || lower_cat == "ac2g" ||
         lower_cat == "async";
}

struct NameInfo {
  std::string lower;
  bool nccl = false;
  bool sdma = false;
  bool cube = false;
};

}  // namespace

std::pair<int64_t, int64_t> GpuBusyMicrosecondGrid(const std::vector<GpuKernelSpan>& kernels) {
  // Every integer µs t with floor(start)+1 <= t <= floor(end) gets +1 per NCCL kernel and -100 per
  // other kernel; compute = #t with sum < 0, communication = #t with sum > 0. Done as a sweep over
  // the covered integer ranges [floor(start)+1, floor(end)+1).
  struct Ev {
    int64_t t;
    int64_t delta;
  };
  std::vector<Ev> ev;
  ev.reserve(kernels.size() * 2);
  for (const auto& k : kernels) {
    int64_t a = FloorDiv(k.start_ns, 1000) + 1;
    int64_t b = FloorDiv(k.end_ns, 1000) + 1;
    if (b <= a) continue;
    int64_t w = k.nccl ? 1 : -100;
    ev.push_back({a, w});
    ev.push_back({b, -w});
  }
  std::sort(ev.begin(), ev.end(), [](const Ev& x, const Ev& y) { return x.t < y.t; });
  int64_t sum = 0, compute_us = 0, comm_us = 0;
  for (size_t i = 0; i < ev.size();) {
    int64_t t = ev[i].t;
    while (i < ev.size() && ev[i].t == t) sum += ev[i++].delta;
    if (i < ev.size()) {
      int64_t len = ev[i].t - t;
      if (sum < 0) compute_us += len;
      if (sum > 0) comm_us += len;
    }
  }
  return {compute_us * 1000, comm_us * 1000};
}

std::pair<int64_t, int64_t> GpuBusyExact(const std::vector<GpuKernelSpan>& kernels) {
  std::vector<Interval> compute, all;
  for (const auto& k : kernels) {
    all.push_back({k.start_ns, k.end_ns});
    if (!k.nccl) compute.push_back({k.start_ns, k.end_ns});
  }
  int64_t c = TotalLength(MergeIntervals(std::move(compute)));
  int64_t a = TotalLength(MergeIntervals(std::move(all)));
  return {c, a - c};
}

SideMetrics ComputeGpuSideMetrics(const Timeline& timeline, const KernelMasks& masks, const ReferencePolicy& policy) {
  const Profile& profile = timeline.p();
  SideMetrics m;
  m.device = DeviceKind::kGpu;

  // Category classification by interned string, computed once per distinct string.
  std::unordered_map<StringId, uint8_t> cat_class;  // 0 other, 1 kernel, 2 gpu_memcpy, 3 flow, 4 fwdbwd
  auto classify_cat = [&](StringId cat) {
    auto it = cat_class.find(cat);
    if (it != cat_class.end()) return it->second;
    std::string lower = ToLowerAscii(profile.str(cat));
    uint8_t c = lower == "kernel" ? 1 : lower == "gpu_memcpy" ? 2 : IsGpuFlowCat(lower) ? 3 : lower == "fwdbwd" ? 4 : 0;
    cat_class.emplace(cat, c);
    return c;
  };
  std::unordered_map<StringId, NameInfo> names;
  auto name_info = [&](StringId name) -> const NameInfo& {
    auto it = names.find(name);
    if (it != names.end()) return it->second;
    NameInfo n;
    n.lower = ToLowerAscii(profile.str(name));
    n.nccl = n.lower.starts_with("nccl");
    for (std::string_view w : {"htod", "dtod", "dtoh", "memset (device)"}) {
      if (n.lower.find(w) != std::string::npos) n.sdma = true;
    }
    n.cube = ContainsAny(n.lower, masks.cube);
    return names.emplace(name, std::move(n)).first->second;
  };

  struct K {
    SliceId id;
    int64_t stream;
    bool is_kernel;
  };
  std::vector<K> kernels;
  // Compute stream: most frequent truthy stream among compute kernels, ties -> first seen.
  std::vector<std::pair<int64_t, int64_t>> stream_counts;  // (stream, count) in first-seen order
  for (SliceId i = 0; i < profile.slices.size(); ++i) {
    const Slice& s = profile.slices[i];
    if (s.phase != 'X') continue;
    uint8_t c = classify_cat(s.cat);
    if (c != 1 && c != 2) continue;
    int64_t stream = profile.ArgInt(s, ArgKey::kStream, kNoNumber);
    kernels.push_back({i, stream, c == 1});
    if (c == 1 && stream != kNoNumber && stream != 0 && !name_info(s.name).nccl) {
      auto it = std::find_if(stream_counts.begin(), stream_counts.end(),
                             [&](const auto& p) { return p.first == stream; });
      if (it == stream_counts.end()) {
        stream_counts.emplace_back(stream, 1);
      } else {
        ++it->second;
      }
    }
  }
  if (stream_counts.empty()) {
    m.has_overlap_data = false;
    m.warnings.push_back("The profiling data does not contain kernel running data.");
    return m;
  }
  int64_t compute_stream = stream_counts[0].first, best = stream_counts[0].second;
  for (const auto& [stream, n] : stream_counts) {
    if (n > best) {
      best = n;
      compute_stream = stream;
    }
  }
  std::stable_sort(kernels.begin(), kernels.end(), [&](const K& a, const K& b) {
    return profile.slices[a.id].ts_ns < profile.slices[b.id].ts_ns;
  });

  // E2E: every kernel, or only kernels with a truthy stream (the reference's quirk).
  int64_t min_start = 0, max_end = 0;
  bool any = false;
  for (const K& k : kernels) {
    if (policy.gpu_e2e_ignores_stream0 && (k.stream == kNoNumber || k.stream == 0)) continue;
    const Slice& s = profile.slices[k.id];
    if (!any || s.ts_ns < min_start) min_start = s.ts_ns;
    if (!any || s.end_ns() > max_end) max_end = s.end_ns();
    any = true;
  }
  m.e2e.AddNs(any ? max_end - min_start : 0);

  // Flows: id -> (start ts, end ts, end track); later duplicates overwrite.
  struct FlowPair {
    bool has_s = false, has_f = false;
    int64_t s_ts = 0, f_ts = 0;
    TrackId f_track = 0;
  };
  std::unordered_map<uint64_t, size_t> flow_index[2];
  std::vector<FlowPair> flow_pairs;
  int64_t bwd_tid = kNoNumber;
  for (const FlowEvent& f : profile.flows) {
    uint8_t c = classify_cat(f.cat);
    if (c == 4) {
      if (f.phase == 'f' && bwd_tid == kNoNumber) bwd_tid = profile.tracks[f.track].tid;  // first
      continue;
    }
    if (c != 3 || (f.phase != 's' && f.phase != 'f')) continue;
    auto [it, inserted] = flow_index[f.id_is_string ? 1 : 0].emplace(f.id, flow_pairs.size());
    if (inserted) flow_pairs.emplace_back();
    FlowPair& p = flow_pairs[it->second];
    if (f.phase == 's') {
      p.has_s = true;
      p.s_ts = f.ts_ns;
    } else {
      p.has_f = true;
      p.f_ts = f.ts_ns;
      p.f_track = f.track;
    }
  }
  // Kernel start -> flow start, by timestamp only (pid/tid ignored, the reference's quirk) or by
  // (track, timestamp).
  std::unordered_map<int64_t, int64_t> by_ts;
  std::unordered_map<int64_t, std::vector<std::pair<TrackId, int64_t>>> by_ts_track;
  for (const FlowPair& p : flow_pairs) {
    if (!p.has_s || !p.has_f) continue;
    if (policy.gpu_flow_links_by_ts_only) {
      by_ts[p.f_ts] = p.s_ts;
    } else {
      auto& v = by_ts_track[p.f_ts];
      auto it = std::find_if(v.begin(), v.end(), [&](const auto& e) { return e.first == p.f_track; });
      if (it == v.end()) {
        v.emplace_back(p.f_track, p.s_ts);
      } else {
        it->second = p.s_ts;
      }
    }
  }

  // SDMA on the compute stream; busy spans; kernels to categorise.
  std::vector<GpuKernelSpan> spans;
  struct ToCat {
    SliceId id;
    bool has_flow;
    int64_t f;
  };
  std::vector<ToCat> to_cat;
  for (const K& k : kernels) {
    const Slice& s = profile.slices[k.id];
    const NameInfo& n = name_info(s.name);
    if (k.stream == compute_stream && n.sdma) {
      m.sdma_stream.AddNs(s.dur_ns);
      continue;
    }
    if (!k.is_kernel) continue;
    spans.push_back({s.ts_ns, s.end_ns(), n.nccl});
    if (n.nccl) continue;
    ToCat t{k.id, false, 0};
    if (policy.gpu_flow_links_by_ts_only) {
      auto it = by_ts.find(s.ts_ns);
      if (it != by_ts.end() && !(policy.zero_flow_start_is_no_flow && it->second == 0)) {
        t.has_flow = true;
        t.f = it->second;
      }
    } else {
      auto it = by_ts_track.find(s.ts_ns);
      if (it != by_ts_track.end()) {
        for (const auto& [track, start] : it->second) {
          if (track == s.track && !(policy.zero_flow_start_is_no_flow && start == 0)) {
            t.has_flow = true;
            t.f = start;
          }
        }
      }
    }
    to_cat.push_back(t);
  }
  auto [compute, comm] = policy.gpu_integer_us_grid ? GpuBusyMicrosecondGrid(spans) : GpuBusyExact(spans);
  m.compute.AddNs(compute);
  m.comm_not_overlapped.AddNs(comm);

  std::stable_sort(to_cat.begin(), to_cat.end(), [](const ToCat& a, const ToCat& b) {
    return (a.has_flow ? a.f : 0) < (b.has_flow ? b.f : 0);
  });
  KernelCategorizer categorizer(masks, DeviceKind::kGpu, CollectCpuCubeOps(profile, masks), bwd_tid);
  for (const ToCat& t : to_cat) {
    const Slice& s = profile.slices[t.id];
    const NameInfo& n = name_info(s.name);
    KernelToCategorize k;
    k.has_flow = t.has_flow;
    k.flow_start_ns = t.f;
    k.dur_ns = s.dur_ns;
    k.lower_name = n.lower;
    k.cube = n.cube;
    m.categories.Add(categorizer.Classify(k), s.dur_ns);
  }

  // Memory peak.
  int64_t peak = kNoNumber;
  for (const MemoryEvent& e : profile.memory_events) {
    if (e.device_id < 0 || e.total_reserved == kNoNumber) continue;
    peak = std::max(peak, e.total_reserved);
  }
  if (peak != kNoNumber) m.memory_gib = static_cast<double>(peak) / (1024.0 * 1024.0 * 1024.0);
  return m;
}

}  // namespace profdiff::analysis
