// GPU (Kineto) overall metrics, docs/reference/overall.md#gpu-overall-metrics.
#include <algorithm>
#include <optional>
#include <string>
#include <unordered_map>

#include "launch_flows.h"
#include "profdiff/analysis/common/device_kernels.h"
#include "profdiff/analysis/common/stable_order.h"
#include "profdiff/base/ascii.h"
#include "profdiff/analysis/overall/gpu_overall.h"

namespace profdiff::analysis {
namespace {

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

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
    int64_t w = k.comm ? 1 : -100;
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
    if (!k.comm) compute.push_back({k.start_ns, k.end_ns});
  }
  int64_t c = TotalLength(MergeIntervals(std::move(compute)));
  int64_t a = TotalLength(MergeIntervals(std::move(all)));
  return {c, a - c};
}

namespace {

// What the reference's GPU overall sees in a slice category (compared lower-cased).
enum class DeviceEventClass : uint8_t {
  kNone,    // not a device kernel
  kKernel,  // "kernel"
  kMemcpy,  // "gpu_memcpy": counts for e2e and SDMA, never for busy time or categories
};

// What a kernel name says, lower-cased once per distinct string.
struct NameInfo {
  std::string lower;
  bool comm = false;       // communication: starts with "nccl" (the reference), or the device-kernel table
  bool comm_word = false;  // reads like communication: communication on a stream of communication alone
  bool sdma = false;       // a copy or memset ("htod", "dtod", "dtoh", "memset (device)")
  bool cube = false;       // CUBE_MASK, or (default mode) a GEMM library's kernel
};

// Per-profile caches of the category class and the name facts, by interned string.
class StringFacts {
 public:
  StringFacts(const Profile& profile, const KernelMasks& masks, const ReferencePolicy& policy)
      : profile_(profile),
        masks_(masks),
        policy_(policy),
        names_table_(masks.comm_kernels, masks.comm_words, masks.gemm_kernels) {}

  DeviceEventClass Class(StringId cat) {
    auto it = classes_.find(cat);
    if (it != classes_.end()) return it->second;
    const std::string lower = ascii::ToLower(profile_.str(cat));
    const DeviceEventClass c = lower == "kernel"       ? DeviceEventClass::kKernel
                               : lower == "gpu_memcpy" ? DeviceEventClass::kMemcpy
                                                       : DeviceEventClass::kNone;
    return classes_.emplace(cat, c).first->second;
  }
  const NameInfo& Name(StringId name) {
    auto it = names_.find(name);
    if (it != names_.end()) return it->second;
    NameInfo n;
    n.lower = ascii::ToLower(profile_.str(name));
    const bool nccl = n.lower.starts_with("nccl");
    n.comm = nccl || (!policy_.gpu_comm_is_nccl_prefix_only && names_table_.IsCommunication(n.lower));
    n.comm_word = n.comm || (!policy_.gpu_comm_is_nccl_prefix_only && names_table_.IsStreamWord(n.lower));
    for (std::string_view w : {"htod", "dtod", "dtoh", "memset (device)"})
      if (n.lower.find(w) != std::string::npos) n.sdma = true;
    n.cube = ContainsAny(n.lower, masks_.cube) || (!policy_.gpu_cube_is_mask_only && names_table_.IsGemm(n.lower));
    return names_.emplace(name, std::move(n)).first->second;
  }

 private:
  const Profile& profile_;
  const KernelMasks& masks_;
  const ReferencePolicy& policy_;
  DeviceKernelNames names_table_;
  std::unordered_map<StringId, DeviceEventClass> classes_;
  std::unordered_map<StringId, NameInfo> names_;  // node-based: references stay valid
};

struct DeviceEvent {
  SliceId id;
  int64_t stream;  // kNoNumber without a stream arg
  bool is_kernel;  // false: gpu_memcpy
  bool comm = false;  // a communication kernel (NameInfo::comm, or a stream word on a communication stream)
};

struct DeviceEvents {
  std::vector<DeviceEvent> events;       // kernels and memcpys, stably sorted by start
  std::optional<int64_t> compute_stream;  // nullopt: no compute kernel on an eligible stream
};

// The device events, and the compute stream: the most frequent stream among non-communication
// kernels with a stream arg (ties: the first seen); stream 0 is eligible unless
// policy.gpu_compute_stream_nonzero_only (the reference tests the stream's truthiness). A kernel
// whose name only reads like communication (NameInfo::comm_word) is communication when every kernel
// of its stream does.
DeviceEvents CollectDeviceEvents(const Profile& profile, StringFacts& facts, const ReferencePolicy& policy) {
  DeviceEvents d;
  std::unordered_map<int64_t, bool> computes;  // stream -> some kernel on it does not read like communication
  for (SliceId i = 0; i < profile.slices.size(); ++i) {
    const Slice& s = profile.slices[i];
    if (s.phase != 'X') continue;
    const DeviceEventClass c = facts.Class(profile.Cat(s));
    if (c == DeviceEventClass::kNone) continue;
    const bool is_kernel = c == DeviceEventClass::kKernel;
    const int64_t stream = profile.ArgInt(s, ArgKey::kStream, kNoNumber);
    d.events.push_back({i, stream, is_kernel});
    if (is_kernel) computes[stream] |= !facts.Name(s.name).comm_word;
  }
  std::vector<std::pair<int64_t, int64_t>> stream_counts;  // (stream, count) in first-seen order
  for (DeviceEvent& e : d.events) {
    if (!e.is_kernel) continue;
    const NameInfo& n = facts.Name(profile.slices[e.id].name);
    e.comm = n.comm || (n.comm_word && e.stream != kNoNumber && !computes[e.stream]);
    if (e.stream == kNoNumber || (policy.gpu_compute_stream_nonzero_only && e.stream == 0) || e.comm) continue;
    auto it = std::find_if(stream_counts.begin(), stream_counts.end(),
                           [&](const auto& p) { return p.first == e.stream; });
    if (it == stream_counts.end()) {
      stream_counts.emplace_back(e.stream, 1);
    } else {
      ++it->second;
    }
  }
  StableSortByKey(d.events, [&](const DeviceEvent& e) { return profile.slices[e.id].ts_ns; });
  int64_t best = 0;
  for (const auto& [stream, n] : stream_counts) {
    if (n > best) {
      best = n;
      d.compute_stream = stream;
    }
  }
  return d;
}

// The reference's warning for a side without a compute stream. When its kernels are all on stream 0
// (a ROCm trace, a single-stream CUDA trace) and the policy ignores that stream, it also says so and
// how to compare them (issue 34: "all N kernels are on stream 0, which the reference ignores").
std::string NoKernelRunningDataWarning(const DeviceEvents& d, const ReferencePolicy& policy) {
  std::string text = "The profiling data does not contain kernel running data.";
  int64_t kernels = 0, on_stream0 = 0;
  for (const DeviceEvent& e : d.events) {
    if (!e.is_kernel || e.comm) continue;
    ++kernels;
    on_stream0 += e.stream == 0;
  }
  if (policy.gpu_compute_stream_nonzero_only && kernels > 0 && on_stream0 == kernels)
    text += " All " + std::to_string(kernels) +
            " compute kernels are on stream 0, which the reference ignores; drop --reference-compat to "
            "compare them.";
  return text;
}

// E2E: from the first start to the last end of every device event, or only of those with a truthy
// stream (policy.gpu_e2e_ignores_stream0, the reference's quirk).
int64_t E2eNs(const Profile& profile, const std::vector<DeviceEvent>& events, const ReferencePolicy& policy) {
  int64_t min_start = 0, max_end = 0;
  bool any = false;
  for (const DeviceEvent& e : events) {
    if (policy.gpu_e2e_ignores_stream0 && (e.stream == kNoNumber || e.stream == 0)) continue;
    const Slice& s = profile.slices[e.id];
    if (!any || s.ts_ns < min_start) min_start = s.ts_ns;
    if (!any || s.end_ns() > max_end) max_end = s.end_ns();
    any = true;
  }
  return any ? max_end - min_start : 0;
}

// A computing (non-communication) kernel with its flow start F.
struct FlowedKernel {
  SliceId id;
  bool has_flow;
  int64_t f;
};

// Copies on the compute stream go to SDMA time; every other kernel is a busy span; non-NCCL kernels
// are categorised later, in F order. Memcpys elsewhere count for nothing but e2e.
std::vector<FlowedKernel> SplitDeviceEvents(const Timeline& timeline, const ReferencePolicy& policy,
                                            const DeviceEvents& d, StringFacts& facts, SideMetrics& m,
                                            std::vector<GpuKernelSpan>& spans) {
  const Profile& profile = timeline.p();
  const LaunchFlowIndex flows(timeline, policy.gpu_flow_links_by_ts_only, policy.zero_flow_start_is_no_flow);
  std::vector<FlowedKernel> kernels;
  for (const DeviceEvent& e : d.events) {
    const Slice& s = profile.slices[e.id];
    const NameInfo& n = facts.Name(s.name);
    if (e.stream == d.compute_stream && n.sdma) {
      m.sdma_stream.AddNs(s.dur_ns);
      continue;
    }
    if (!e.is_kernel) continue;
    spans.push_back({s.ts_ns, s.end_ns(), e.comm});
    if (e.comm) continue;
    const std::optional<int64_t> f = flows.Find(s.ts_ns, s.track);
    kernels.push_back({e.id, f.has_value(), f.value_or(0)});
  }
  StableSortByKey(kernels, [](const FlowedKernel& k) { return k.f; });
  return kernels;
}

void Categorize(const Timeline& timeline, const KernelMasks& masks, const ReferencePolicy& policy,
                const std::vector<FlowedKernel>& kernels, StringFacts& facts, SideMetrics& m) {
  const Profile& profile = timeline.p();
  KernelCategorizer categorizer(masks, DeviceKind::kGpu, CollectCpuCubeOps(profile, masks), timeline.backward_tid,
                                policy);
  for (const FlowedKernel& t : kernels) {
    const Slice& s = profile.slices[t.id];
    const NameInfo& n = facts.Name(s.name);
    KernelToCategorize k;
    k.has_flow = t.has_flow;
    k.flow_start_ns = t.f;
    k.dur_ns = s.dur_ns;
    k.lower_name = n.lower;
    k.cube = n.cube;
    m.categories.Add(categorizer.Classify(k), s.dur_ns);
  }
}

// The exact split of each step window (kernels only: copies and memsets are not busy time).
void SplitGpuSteps(const std::vector<Step>& steps, const std::vector<GpuKernelSpan>& spans, SideMetrics& m) {
  std::vector<Interval> compute, all;
  for (const GpuKernelSpan& k : spans) {
    all.push_back({k.start_ns, k.end_ns});
    if (!k.comm) compute.push_back({k.start_ns, k.end_ns});
  }
  const std::vector<Interval> busy = MergeIntervals(std::move(all));
  m.step_splits = SplitSteps(steps, MergeIntervals(std::move(compute)), busy);
  m.step_coverage = CoverageOfSteps(steps, busy);
}

// Memory peak: the largest Total Reserved of the device memory events, GiB (0 without any).
// The peak of Total Reserved over device [memory] events, in GiB; nullopt when there is none.
std::optional<double> MemoryPeakGib(const Profile& profile) {
  int64_t peak = kNoNumber;
  for (const MemoryEvent& e : profile.memory_events) {
    if (e.device_id < 0 || e.total_reserved == kNoNumber) continue;
    peak = std::max(peak, e.total_reserved);
  }
  if (peak == kNoNumber) return std::nullopt;
  return static_cast<double>(peak) / (1024.0 * 1024.0 * 1024.0);
}

}  // namespace

SideMetrics ComputeGpuSideMetrics(const Timeline& timeline, const KernelMasks& masks, const ReferencePolicy& policy,
                                  std::optional<int64_t> step) {
  const Profile& profile = timeline.p();
  SideMetrics m;
  m.device = DeviceKind::kGpu;
  StringFacts facts(profile, masks, policy);
  DeviceEvents d = CollectDeviceEvents(profile, facts, policy);
  std::vector<Step> steps = timeline.MeasuredSteps();
  std::optional<Interval> window;  // the selected step's window
  if (step) {
    window = StepWindow(steps, *step);
    std::erase_if(d.events, [&](const DeviceEvent& e) {
      const int64_t ts = profile.slices[e.id].ts_ns;
      return !window || ts < window->start_ns || ts >= window->end_ns;
    });
    std::erase_if(steps, [&](const Step& s) { return s.id != *step; });
  }
  if (!d.compute_stream) {
    m.has_overlap_data = false;
    m.warnings.push_back(NoKernelRunningDataWarning(d, policy));
    return m;
  }
  // A selected step lasts its window (its idle tail included), or until its last event ends.
  const int64_t span = E2eNs(profile, d.events, policy);
  m.e2e.AddNs(window && span > 0 ? std::max(window->end_ns - window->start_ns, span) : span);
  std::vector<GpuKernelSpan> spans;
  const std::vector<FlowedKernel> kernels = SplitDeviceEvents(timeline, policy, d, facts, m, spans);
  auto [compute, comm] = policy.gpu_integer_us_grid ? GpuBusyMicrosecondGrid(spans) : GpuBusyExact(spans);
  m.compute.AddNs(compute);
  m.comm_not_overlapped.AddNs(comm);
  Categorize(timeline, masks, policy, kernels, facts, m);
  if (!steps.empty()) SplitGpuSteps(steps, spans, m);
  const std::optional<double> memory = MemoryPeakGib(profile);
  m.memory_gib = memory.value_or(0);
  m.memory_known = memory.has_value();
  return m;
}

}  // namespace profdiff::analysis
