#include "profdiff/analysis/timeline/op_tree.h"

#include <algorithm>
#include <deque>
#include <unordered_map>
#include <unordered_set>

namespace profdiff::analysis {

namespace {

bool EqualsLower(std::string_view s, std::string_view lower) {
  if (s.size() != lower.size()) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    char ch = s[i];
    if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
    if (ch != lower[i]) return false;
  }
  return true;
}

// Step id of a node named "...ProfilerStep#N...": the integer after the first '#'.
bool ParseStepNode(std::string_view name, int64_t* step_id) {
  if (name.find("ProfilerStep#") == std::string_view::npos) return false;
  std::string_view rest = name.substr(name.find('#') + 1);
  int64_t v = 0;
  size_t n = 0;
  while (n < rest.size() && n < 18 && rest[n] >= '0' && rest[n] <= '9') v = v * 10 + (rest[n++] - '0');
  *step_id = n == 0 ? kNoNumber : v;
  return true;
}

struct TrackTs {
  TrackId track;
  int64_t ts_ns;
  bool operator==(const TrackTs&) const = default;
};
struct TrackTsHash {
  size_t operator()(const TrackTs& k) const {
    uint64_t h = static_cast<uint64_t>(k.ts_ns) * 0x9E3779B97F4A7C15ULL;
    return static_cast<size_t>(h ^ (uint64_t{k.track} * 0xC2B2AE3D27D4EB4FULL) ^ (h >> 29));
  }
};

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

}  // namespace

bool IsKernelFlowCategory(std::string_view cat, DeviceKind device,
                          const std::optional<std::string>& gpu_flow_cat) {
  if (device == DeviceKind::kNpu) return EqualsLower(cat, "async_npu");
  if (gpu_flow_cat) {
    // The lower-cased category must equal the option exactly as given.
    if (cat.size() != gpu_flow_cat->size()) return false;
    for (size_t i = 0; i < cat.size(); ++i) {
      char ch = cat[i];
      if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
      if (ch != (*gpu_flow_cat)[i]) return false;
    }
    return true;
  }
  return EqualsLower(cat, "ac2g") || EqualsLower(cat, "async_cpu_to_gpu") ||
         EqualsLower(cat, "async_gpu") || EqualsLower(cat, "async");
}

bool IsAttachableKernel(SliceKind kind, DeviceKind device, bool include_hccl_ops) {
  if (device == DeviceKind::kNpu)
    return kind == SliceKind::kNpuTask || (include_hccl_ops && kind == SliceKind::kHcclOp);
  return kind == SliceKind::kKernel || kind == SliceKind::kGpuMemcpy;
}

LinkedFlows LinkFlows(const Profile& profile, const OpTreeOptions& options) {
  LinkedFlows out;
  const DeviceKind device = profile.meta.device;
  // 3. Kernel index: (track, ts) -> kernel slice (a later slice with the same key wins).
  std::unordered_map<TrackTs, SliceId, TrackTsHash> kernel_at;
  for (SliceId s = 0; s < profile.slices.size(); ++s) {
    const Slice& sl = profile.slices[s];
    if (!IsAttachableKernel(sl.kind, device, options.attach_hccl_ops)) continue;
    // The reference's GPU kernel class is lower(cat) in {kernel, gpu_memcpy}: old Kineto "Memcpy"
    // events are not kernels there (§3.2). Only --reference-compat reproduces that.
    if (options.attach == KernelAttach::kReferenceCompat && device != DeviceKind::kNpu) {
      std::string_view cat = profile.str(sl.cat);
      if (!EqualsLower(cat, "kernel") && !EqualsLower(cat, "gpu_memcpy")) continue;
    }
    kernel_at[{sl.track, sl.ts_ns}] = s;
  }

  // 4. Flows by id in first-seen order; a later 's' or 'f' with the same id overwrites.
  struct FlowEnds {
    int64_t start = -1, end = -1;  // indices into profile.flows
  };
  std::unordered_map<FlowKey, uint32_t, FlowKeyHash> flow_index;
  std::vector<FlowEnds> flows;
  for (size_t f = 0; f < profile.flows.size(); ++f) {
    const FlowEvent& fe = profile.flows[f];
    if (fe.phase != 's' && fe.phase != 'f') continue;
    if (!IsKernelFlowCategory(profile.str(fe.cat), device, options.gpu_flow_cat)) continue;
    auto [it, inserted] = flow_index.try_emplace(FlowKey{fe.id, fe.id_is_string},
                                                 static_cast<uint32_t>(flows.size()));
    if (inserted) flows.emplace_back();
    (fe.phase == 's' ? flows[it->second].start : flows[it->second].end) = static_cast<int64_t>(f);
  }

  std::unordered_map<int64_t, uint32_t> group_of;
  for (const FlowEnds& fl : flows) {
    if (fl.start < 0 || fl.end < 0) continue;
    ++out.flows_used;
    const FlowEvent& e = profile.flows[fl.end];
    auto k = kernel_at.find({e.track, e.ts_ns});
    if (k == kernel_at.end()) {
      ++out.flows_unlinked;
      continue;
    }
    const int64_t ts = profile.flows[fl.start].ts_ns;
    out.links.push_back({static_cast<uint32_t>(fl.start), k->second});
    auto [it, inserted] = group_of.try_emplace(ts, static_cast<uint32_t>(out.dict.size()));
    if (inserted) out.dict.push_back({ts, {}});
    out.dict[it->second].kernels.push_back(k->second);
  }
  return out;
}

OpTree BuildOpTree(const Profile& profile, const OpTreeOptions& options) {
  OpTree tree;

  // 1. Torch ops in parse order, stably sorted by start.
  std::vector<SliceId> ops;
  for (SliceId s = 0; s < profile.slices.size(); ++s)
    if (IsTorchOpKind(profile.slices[s].kind)) ops.push_back(s);
  std::stable_sort(ops.begin(), ops.end(), [&](SliceId a, SliceId b) {
    return profile.slices[a].ts_ns < profile.slices[b].ts_ns;
  });
  tree.stats_.torch_ops = ops.size();

  // 2. Nesting by inclusive containment in the current parent.
  auto& nodes = tree.nodes_;
  nodes.reserve(ops.size() + 1);
  nodes.push_back(OpNode{});  // root
  NodeId last = kRootNode;
  for (SliceId s : ops) {
    const Slice& sl = profile.slices[s];
    while (last != kRootNode && sl.ts_ns > nodes[last].end_ns) last = nodes[last].parent;
    OpNode n;
    n.slice = s;
    n.parent = last;
    n.start_ns = sl.ts_ns;
    n.end_ns = sl.end_ns();
    n.depth = nodes[last].depth + 1;
    n.is_step = ParseStepNode(profile.str(sl.name), &n.step_id);
    nodes.push_back(n);
    ++nodes[last].children_count;
    last = static_cast<NodeId>(nodes.size() - 1);
  }
  // Children in creation order (CSR).
  {
    uint32_t offset = 0;
    for (OpNode& n : nodes) {
      n.children_begin = offset;
      offset += n.children_count;
      n.children_count = 0;
    }
    tree.child_ids_.resize(offset);
    for (NodeId id = 1; id < nodes.size(); ++id) {
      OpNode& p = nodes[nodes[id].parent];
      tree.child_ids_[p.children_begin + p.children_count++] = id;
    }
  }

  LinkedFlows linked = LinkFlows(profile, options);
  tree.stats_.flows_used = linked.flows_used;
  tree.stats_.flows_unlinked = linked.flows_unlinked;

  // (node, kernel) attachments in flow order.
  std::vector<std::pair<NodeId, SliceId>> attach;
  if (options.attach == KernelAttach::kReferenceCompat) {
    // kernel_dict[flow start ts] -> kernels; every op starting at that ts receives them.
    std::unordered_map<int64_t, const std::vector<SliceId>*> by_start;
    for (const KernelGroup& g : linked.dict) by_start.emplace(g.ts_ns, &g.kernels);
    std::unordered_set<int64_t> used_starts;
    for (NodeId id = 1; id < nodes.size(); ++id) {
      auto it = by_start.find(nodes[id].start_ns);
      if (it == by_start.end()) continue;
      used_starts.insert(it->first);
      for (SliceId k : *it->second) attach.emplace_back(id, k);
    }
    for (const auto& [ts, ks] : by_start)
      if (!used_starts.count(ts)) tree.stats_.kernels_without_op += ks->size();
  } else {
    // Per track: its nodes in start order and their track-local enclosing node.
    std::unordered_map<TrackId, std::vector<NodeId>> track_nodes;
    for (NodeId id = 1; id < nodes.size(); ++id)
      track_nodes[profile.slices[nodes[id].slice].track].push_back(id);
    std::unordered_map<NodeId, NodeId> track_parent;  // node -> enclosing node on the same track
    for (auto& [track, list] : track_nodes) {
      std::vector<NodeId> stack;
      for (NodeId id : list) {
        while (!stack.empty() && nodes[id].start_ns > nodes[stack.back()].end_ns) stack.pop_back();
        track_parent[id] = stack.empty() ? kNoNode : stack.back();
        stack.push_back(id);
      }
    }
    for (const LinkedFlow& lf : linked.links) {
      const FlowEvent& s = profile.flows[lf.start_flow];
      NodeId owner = kNoNode;
      auto tn = track_nodes.find(s.track);
      if (tn != track_nodes.end()) {
        const auto& list = tn->second;
        auto it = std::upper_bound(list.begin(), list.end(), s.ts_ns,
                                   [&](int64_t ts, NodeId id) { return ts < nodes[id].start_ns; });
        NodeId cand = it == list.begin() ? kNoNode : *(it - 1);
        while (cand != kNoNode && nodes[cand].end_ns < s.ts_ns) cand = track_parent[cand];
        owner = cand;
      }
      if (owner == kNoNode) {
        ++tree.stats_.kernels_without_op;
        continue;
      }
      attach.emplace_back(owner, lf.kernel);
    }
  }
  std::stable_sort(attach.begin(), attach.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  tree.kernel_ids_.reserve(attach.size());
  for (size_t i = 0; i < attach.size(); ++i) {
    OpNode& n = nodes[attach[i].first];
    if (n.kernels_count == 0) n.kernels_begin = static_cast<uint32_t>(i);
    ++n.kernels_count;
    tree.kernel_ids_.push_back(attach[i].second);
  }
  tree.stats_.kernels_attached = attach.size();
  // kernel_num: own kernels added to the node and every ancestor except the root. Children have
  // larger ids than their parents, so one reverse pass accumulates subtrees.
  for (NodeId id = 1; id < nodes.size(); ++id) nodes[id].kernel_num = nodes[id].kernels_count;
  for (NodeId id = static_cast<NodeId>(nodes.size()) - 1; id >= 1; --id)
    if (nodes[id].parent != kRootNode) nodes[nodes[id].parent].kernel_num += nodes[id].kernel_num;
  return tree;
}

std::vector<SliceId> OpTree::SubtreeKernels(NodeId id) const {
  std::vector<SliceId> out;
  std::deque<NodeId> queue{id};
  while (!queue.empty()) {
    NodeId n = queue.front();
    queue.pop_front();
    for (SliceId k : kernels(n)) out.push_back(k);
    for (NodeId c : children(n)) queue.push_back(c);
  }
  return out;
}

int64_t OpTree::SelfNs(NodeId id) const {
  if (id == kRootNode) return 0;
  int64_t self = nodes_[id].end_ns - nodes_[id].start_ns;
  for (NodeId c : children(id)) self -= nodes_[c].end_ns - nodes_[c].start_ns;
  return self;
}

TopLayer OpTree::TopLayerOps(std::optional<int64_t> step) const {
  TopLayer top;
  top.step_found = !step.has_value();
  for (NodeId c : children(kRootNode)) {
    const OpNode& n = nodes_[c];
    if (n.is_step) {
      if (step && n.step_id != *step) continue;
      if (step) top.step_found = true;
      for (NodeId g : children(c)) top.ops.push_back(g);
    } else if (!step) {
      top.ops.push_back(c);
    }
  }
  return top;
}

std::vector<NodeId> OpTree::AllLayerOps(std::optional<int64_t> step) const {
  std::vector<NodeId> out;
  if (!step) {
    for (NodeId id = 1; id < nodes_.size(); ++id)
      if (!nodes_[id].is_step) out.push_back(id);
    return out;
  }
  TopLayer top = TopLayerOps(step);
  std::deque<NodeId> queue(top.ops.begin(), top.ops.end());
  while (!queue.empty()) {
    NodeId n = queue.front();
    queue.pop_front();
    out.push_back(n);
    for (NodeId c : children(n)) queue.push_back(c);
  }
  return out;
}

std::optional<StringId> FindBwdThread(const Profile& profile) {
  std::optional<StringId> found;
  for (const FlowEvent& fe : profile.flows) {
    if (fe.phase != 'f' || !EqualsLower(profile.str(fe.cat), "fwdbwd")) continue;
    found = profile.tracks[fe.track].tid_text;
    if (profile.meta.device != DeviceKind::kNpu) break;  // GPU: the first; NPU: the last
  }
  return found;
}

std::vector<SegmentItem> SegmentItemsFor(const Profile& profile, const OpTree& tree,
                                         std::span<const NodeId> ops, std::optional<StringId> bwd_tid) {
  std::vector<SegmentItem> items;
  items.reserve(ops.size());
  for (NodeId id : ops) {
    const OpNode& n = tree.node(id);
    bool bwd = bwd_tid && n.slice != kNoSlice &&
               profile.tracks[profile.slices[n.slice].track].tid_text == *bwd_tid;
    items.push_back({n.start_ns, bwd});
  }
  return items;
}

std::vector<NodePair> ToNodePairs(std::span<const MatchPair> pairs, std::span<const NodeId> base,
                                  std::span<const NodeId> comparison) {
  std::vector<NodePair> out;
  out.reserve(pairs.size());
  for (const MatchPair& p : pairs)
    out.push_back({p.base == kNoIndex ? kNoNode : base[p.base],
                   p.comparison == kNoIndex ? kNoNode : comparison[p.comparison]});
  return out;
}

std::vector<NodePair> DrillDown(const OpTree& base, const OpTree& comparison, std::vector<NodePair> pairs,
                                int64_t max_kernel_num, const ChildMatcher& match) {
  std::vector<NodePair> out;
  std::vector<NodePair> stack(pairs.rbegin(), pairs.rend());
  while (!stack.empty()) {
    NodePair p = stack.back();
    stack.pop_back();
    if (p.base == kNoNode || p.comparison == kNoNode || base.children(p.base).empty() ||
        comparison.children(p.comparison).empty() ||
        std::max(base.node(p.base).kernel_num, comparison.node(p.comparison).kernel_num) <= max_kernel_num) {
      out.push_back(p);
      continue;
    }
    auto bc = base.children(p.base);
    auto cc = comparison.children(p.comparison);
    std::vector<NodePair> sub = ToNodePairs(match(bc, cc), bc, cc);
    stack.insert(stack.end(), sub.rbegin(), sub.rend());
  }
  return out;
}

}  // namespace profdiff::analysis
