// GPU (Kineto) overall metrics, reference §5.2.
#include <algorithm>
#include <unordered_map>

#include "launch_flows.h"
#include "profdiff/analysis/overall/gpu_overall.h"

namespace profdiff::analysis {
namespace {

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

// What the reference's GPU overall sees in a slice category (compared lower-cased).
enum class DeviceEventClass : uint8_t {
  kNone,    // not a device kernel
  kKernel,  // "kernel"
  kMemcpy,  // "gpu_memcpy": counts for e2e and SDMA, never for busy time or categories
};

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
  std::unordered_map<StringId, DeviceEventClass> cat_class;
  auto classify_cat = [&](StringId cat) {
    auto it = cat_class.find(cat);
    if (it != cat_class.end()) return it->second;
    std::string lower = ToLowerAscii(profile.str(cat));
    DeviceEventClass c = lower == "kernel"       ? DeviceEventClass::kKernel
                         : lower == "gpu_memcpy" ? DeviceEventClass::kMemcpy
                                                 : DeviceEventClass::kNone;
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
    const DeviceEventClass c = classify_cat(s.cat);
    if (c == DeviceEventClass::kNone) continue;
    const bool is_kernel = c == DeviceEventClass::kKernel;
    int64_t stream = profile.ArgInt(s, ArgKey::kStream, kNoNumber);
    kernels.push_back({i, stream, is_kernel});
    if (is_kernel && stream != kNoNumber && stream != 0 && !name_info(s.name).nccl) {
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

  // Kernel start -> flow start (F).
  const LaunchFlowIndex flows(timeline, policy.gpu_flow_links_by_ts_only, policy.zero_flow_start_is_no_flow);

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
    const std::optional<int64_t> f = flows.Find(s.ts_ns, s.track);
    to_cat.push_back({k.id, f.has_value(), f.value_or(0)});
  }
  auto [compute, comm] = policy.gpu_integer_us_grid ? GpuBusyMicrosecondGrid(spans) : GpuBusyExact(spans);
  m.compute.AddNs(compute);
  m.comm_not_overlapped.AddNs(comm);

  std::stable_sort(to_cat.begin(), to_cat.end(), [](const ToCat& a, const ToCat& b) {
    return (a.has_flow ? a.f : 0) < (b.has_flow ? b.f : 0);
  });
  KernelCategorizer categorizer(masks, DeviceKind::kGpu, CollectCpuCubeOps(profile, masks), timeline.backward_tid);
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
