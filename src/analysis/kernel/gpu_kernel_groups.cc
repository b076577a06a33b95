// A GPU side's KernelCompare groups: its device kernels by kernel name and the input shapes of the
// torch op that launched them (docs/deviations.md, kernel comparison row 6).
#include <algorithm>
#include <deque>
#include <unordered_map>
#include <utility>

#include "kernel_groups.h"
#include "profdiff/analysis/common/python_text.h"
#include "profdiff/analysis/common/stable_order.h"
#include "profdiff/analysis/timeline/op_tree.h"

namespace profdiff::analysis {
namespace {

// The innermost cpu_op of a track around a point: per track, its ops by start (the longer first on
// a tie) with their track-local parent. Runtime calls (cudaLaunchKernel) and annotations are not
// ops here: the op that called them is.
class LaunchingOps {
 public:
  explicit LaunchingOps(const Profile& p) : p_(p) {
    for (SliceId i = 0; i < p.slices.size(); ++i)
      if (p.slices[i].kind == SliceKind::kCpuOp) tracks_[p.slices[i].track].ops.push_back(i);
    for (auto& [track, t] : tracks_) {
      std::stable_sort(t.ops.begin(), t.ops.end(), [&](SliceId a, SliceId b) {
        const Slice &x = p.slices[a], &y = p.slices[b];
        return x.ts_ns != y.ts_ns ? x.ts_ns < y.ts_ns : x.end_ns() > y.end_ns();
      });
      std::vector<size_t> stack;
      t.parent.resize(t.ops.size(), kNone);
      for (size_t i = 0; i < t.ops.size(); ++i) {
        while (!stack.empty() && p.slices[t.ops[i]].ts_ns > p.slices[t.ops[stack.back()]].end_ns()) stack.pop_back();
        if (!stack.empty()) t.parent[i] = stack.back();
        stack.push_back(i);
      }
    }
  }

  // The innermost op of `track` whose [start, end] holds `ts_ns`; nullopt when none does.
  std::optional<SliceId> At(TrackId track, int64_t ts_ns) const {
    auto it = tracks_.find(track);
    if (it == tracks_.end()) return std::nullopt;
    const Track& t = it->second;
    auto after = std::upper_bound(t.ops.begin(), t.ops.end(), ts_ns,
                                  [&](int64_t ts, SliceId op) { return ts < p_.slices[op].ts_ns; });
    size_t i = after == t.ops.begin() ? kNone : static_cast<size_t>(after - t.ops.begin()) - 1;
    while (i != kNone && p_.slices[t.ops[i]].end_ns() < ts_ns) i = t.parent[i];
    if (i == kNone) return std::nullopt;
    return t.ops[i];
  }

 private:
  static constexpr size_t kNone = SIZE_MAX;
  struct Track {
    std::vector<SliceId> ops;
    std::vector<size_t> parent;  // index into ops, kNone for a top-level op
  };
  const Profile& p_;
  std::unordered_map<TrackId, Track> tracks_;
};

// The shapes text of each launched kernel: its launching op's Input Dims as Python prints them (the
// operator sheets' Input Shape). Texts are kept once each (JSON args converted once per distinct text).
class LaunchShapes {
 public:
  LaunchShapes(const Timeline& timeline, const ReferencePolicy& policy) {
    const Profile& p = timeline.p();
    const LaunchingOps ops(p);
    const KernelDict dict = LinkKernels(timeline, policy);
    of_kernel_.assign(p.slices.size(), nullptr);
    for (const KernelLink& link : dict.links) {
      const FlowPoint start = timeline.flows.LaunchStart(p, link.launch);
      if (const std::optional<SliceId> op = ops.At(start.track, start.ts_ns)) of_kernel_[link.kernel] = &Text(p, *op);
    }
  }
  std::string_view Of(SliceId kernel) const {
    const std::string* text = of_kernel_[kernel];
    return text == nullptr ? std::string_view("N/A") : std::string_view(*text);
  }

 private:
  const std::string& Text(const Profile& p, SliceId op) {
    const std::optional<Arg> a = p.FindArg(p.slices[op], ArgKey::kInputDims);
    if (a && a->type == ArgType::kJson) {
      auto [it, fresh] = by_json_.try_emplace(a->text(), nullptr);
      if (fresh) it->second = &texts_.emplace_back(PythonStrOfArg(p, op, ArgKey::kInputDims));
      return *it->second;
    }
    return texts_.emplace_back(PythonStrOfArg(p, op, ArgKey::kInputDims));
  }
  std::deque<std::string> texts_;  // stable addresses
  std::unordered_map<StringId, const std::string*> by_json_;
  std::vector<const std::string*> of_kernel_;  // per slice; nullptr: no launching op
};

}  // namespace

bool IsGpuSide(const Profile& p) {
  return p.meta.device == DeviceKind::kGpu ||
         (p.meta.device == DeviceKind::kUnknown && p.meta.format == SourceFormat::kKinetoJson);
}

SideGroups GroupGpuKernels(const Timeline& timeline, std::optional<int64_t> step, const ReferencePolicy& policy) {
  const Profile& p = timeline.p();
  std::optional<StepSpan> window;
  if (step) window = SpanOf(timeline.MeasuredSteps(), *step);
  std::vector<SliceId> kernels;
  for (SliceId i = 0; i < p.slices.size(); ++i) {
    const Slice& s = p.slices[i];
    if (s.phase != 'X') continue;
    if (s.kind != SliceKind::kKernel && s.kind != SliceKind::kGpuMemcpy && s.kind != SliceKind::kGpuMemset) continue;
    if (step && (!window || s.ts_ns < window->start_ns || s.ts_ns >= window->end_ns)) continue;
    kernels.push_back(i);
  }
  StableSortByKey(kernels, [&](SliceId k) { return p.slices[k].ts_ns; });
  GroupBuilder groups;
  if (kernels.empty()) return std::move(groups).Finish(KernelSource::kDeviceKernels, policy);
  const LaunchShapes shapes(timeline, policy);
  for (SliceId k : kernels) groups.Add(p.str(p.slices[k].name), shapes.Of(k), p.slices[k].dur_ns);
  return std::move(groups).Finish(KernelSource::kDeviceKernels, policy);
}

}  // namespace profdiff::analysis
