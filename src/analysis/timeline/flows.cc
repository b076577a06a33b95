#include "profdiff/analysis/timeline/flows.h"

#include <unordered_map>

#include "profdiff/base/ascii.h"

namespace profdiff::analysis {
namespace {

struct FlowKey {
  uint64_t id;
  bool is_string;
  bool operator==(const FlowKey&) const = default;
};
struct FlowKeyHash {
  size_t operator()(const FlowKey& k) const {
    return static_cast<size_t>((k.id * 0x9E3779B97F4A7C15ULL) ^ (k.is_string ? 0x5bd1e995ULL : 0));
  }
};

// Pairs 's'/'f' events of one kind by id, in order of first appearance.
class FlowPairer {
 public:
  void Add(const FlowEvent& e, uint32_t index) {
    auto [it, inserted] = index_.try_emplace(FlowKey{e.id, e.id_is_string}, static_cast<uint32_t>(ends_.size()));
    if (inserted) ends_.push_back({-1, -1});
    (e.phase == 's' ? ends_[it->second].start : ends_[it->second].end) = index;
  }
  // The end of the first id (in order of first appearance) that has one, complete or not.
  std::optional<uint32_t> FirstEnd() const {
    for (const Ends& e : ends_)
      if (e.end >= 0) return static_cast<uint32_t>(e.end);
    return std::nullopt;
  }
  void Finish(std::vector<FlowLink>& out, uint64_t& incomplete) const {
    for (const Ends& e : ends_) {
      if (e.start < 0 || e.end < 0) {
        ++incomplete;
        continue;
      }
      out.push_back({static_cast<uint32_t>(e.start), static_cast<uint32_t>(e.end)});
    }
  }

 private:
  struct Ends {
    int64_t start, end;
  };
  std::unordered_map<FlowKey, uint32_t, FlowKeyHash> index_;
  std::vector<Ends> ends_;
};

}  // namespace

FlowKind ClassifyFlowCategory(std::string_view cat, DeviceKind device,
                              const std::optional<std::string>& gpu_flow_cat) {
  if (ascii::EqualsLower(cat, "fwdbwd")) return FlowKind::kFwdBwd;
  if (device == DeviceKind::kNpu) return ascii::EqualsLower(cat, "async_npu") ? FlowKind::kKernelLaunch : FlowKind::kOther;
  if (gpu_flow_cat) return ascii::EqualsLower(cat, *gpu_flow_cat) ? FlowKind::kKernelLaunch : FlowKind::kOther;
  for (std::string_view c : {"ac2g", "async_cpu_to_gpu", "async_gpu", "async"})
    if (ascii::EqualsLower(cat, c)) return FlowKind::kKernelLaunch;
  return FlowKind::kOther;
}

namespace {

FlowPoint PointOf(const Profile& p, uint32_t index, bool slice) {
  if (slice) return {p.slices[index].ts_ns, p.slices[index].track};
  return {p.flows[index].ts_ns, p.flows[index].track};
}

}  // namespace

FlowPoint FlowLinks::LaunchStart(const Profile& p, size_t i) const {
  return PointOf(p, kernel_launch[i].start, launches_are_slices);
}

FlowPoint FlowLinks::LaunchEnd(const Profile& p, size_t i) const {
  return PointOf(p, kernel_launch[i].end, launches_are_slices);
}

std::optional<int64_t> FlowLinks::LaunchId(const Profile& p, size_t i) const {
  if (launches_are_slices) return p.npu.db.launch_links[i].connection_id;
  const FlowEvent& s = p.flows[kernel_launch[i].start];
  if (s.id_is_string) return std::nullopt;
  return static_cast<int64_t>(s.id);
}

FlowLinks LinkFlows(const Profile& profile, const std::optional<std::string>& gpu_flow_cat) {
  FlowLinks out;
  // An Ascend DB export: its launches were paired by the loader (its flow events are fwdbwd only).
  if (profile.meta.format == SourceFormat::kAscendDb) {
    out.launches_are_slices = true;
    out.kernel_launch.reserve(profile.npu.db.launch_links.size());
    for (const DbLaunchLink& l : profile.npu.db.launch_links) out.kernel_launch.push_back({l.start, l.end});
    out.incomplete = profile.npu.db.launch_ids_without_end;
  }
  std::unordered_map<StringId, FlowKind> kind_of;  // per distinct category string
  FlowPairer launch, fwd_bwd;
  for (size_t f = 0; f < profile.flows.size(); ++f) {
    const FlowEvent& e = profile.flows[f];
    if (e.phase != 's' && e.phase != 'f') continue;
    auto it = kind_of.find(e.cat);
    if (it == kind_of.end())
      it = kind_of.emplace(e.cat, ClassifyFlowCategory(profile.str(e.cat), profile.meta.device, gpu_flow_cat)).first;
    const auto index = static_cast<uint32_t>(f);
    if (it->second == FlowKind::kKernelLaunch && !out.launches_are_slices) launch.Add(e, index);
    if (it->second == FlowKind::kFwdBwd) {
      fwd_bwd.Add(e, index);
      if (e.phase == 'f') {
        if (!out.first_fwd_bwd_end) out.first_fwd_bwd_end = index;
        out.last_fwd_bwd_end = index;
      }
    }
  }
  launch.Finish(out.kernel_launch, out.incomplete);
  fwd_bwd.Finish(out.fwd_bwd, out.incomplete);
  out.fwd_bwd_first_end_by_id = fwd_bwd.FirstEnd();
  return out;
}

}  // namespace profdiff::analysis
