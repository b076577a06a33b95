#include "profdiff/analysis/timeline/flows.h"

#include <unordered_map>

#include "profdiff/analysis/common/stable_order.h"
#include "profdiff/base/ascii.h"

namespace profdiff::analysis {
namespace {

// Pairs 's'/'f' events of one kind by id, in order of first appearance. The events are collected,
// then grouped by id with one stable sort (linear; a hash map of millions of ids is not).
class FlowPairer {
 public:
  void Add(const FlowEvent& e, uint32_t index) {
    is_string_.push_back(e.id_is_string ? 1 : 0);
    id_.push_back(static_cast<int64_t>(e.id));
    index_.push_back(index);
    is_start_.push_back(e.phase == 's');
  }
  // Groups the events by id: per id, the last 's' and the last 'f' (a later one replaces an
  // earlier), ids in order of first appearance.
  void Group() {
    const SortedRuns runs = StableRunsByPair(is_string_, id_);
    std::vector<uint32_t> head(id_.size());  // per event: the first event of its id
    uint32_t run_head = 0;
    for (size_t p = 0; p < runs.order.size(); ++p) {
      if (runs.new_run[p]) run_head = runs.order[p];
      head[runs.order[p]] = run_head;
    }
    std::vector<uint32_t> slot(id_.size());  // per first event of an id: its entry in ends_
    for (size_t i = 0; i < id_.size(); ++i) {
      if (head[i] == i) {
        slot[i] = static_cast<uint32_t>(ends_.size());
        ends_.push_back({-1, -1});
      }
      Ends& e = ends_[slot[head[i]]];
      (is_start_[i] ? e.start : e.end) = index_[i];
    }
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
  // The events added, in order.
  std::vector<uint32_t> is_string_;
  std::vector<int64_t> id_;  // the id's bits (compared for equality only)
  std::vector<uint32_t> index_;
  std::vector<bool> is_start_;
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
  launch.Group();
  fwd_bwd.Group();
  launch.Finish(out.kernel_launch, out.incomplete);
  fwd_bwd.Finish(out.fwd_bwd, out.incomplete);
  out.fwd_bwd_first_end_by_id = fwd_bwd.FirstEnd();
  return out;
}

}  // namespace profdiff::analysis
