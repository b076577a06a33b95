#include "profdiff/analysis/timeline/op_tree.h"

#include <algorithm>
#include <deque>
#include <span>
#include <unordered_map>
#include <unordered_set>

#include "profdiff/analysis/common/stable_order.h"
#include "profdiff/base/ascii.h"

namespace profdiff::analysis {

namespace {

// For each kernel launch, the attachable kernel starting where its end points (same track and ts;
// of several, the later slice), or kNoSlice. One stable sort of the kernels and the launch ends
// by (track, ts): in each run of equal keys the kernels come first, in slice order.
std::vector<SliceId> KernelsAtLaunchEnds(const Timeline& timeline, const ReferencePolicy& policy,
                                         const OpTreeOptions& options) {
  const Profile& profile = timeline.p();
  const DeviceKind device = profile.meta.device;
  const bool hccl_ops = HcclOpsAttachable(policy, options);
  std::vector<uint32_t> tracks;
  std::vector<int64_t> ts;
  std::vector<SliceId> kernels;
  for (SliceId s = 0; s < profile.slices.size(); ++s) {
    const Slice& sl = profile.slices[s];
    if (!IsAttachableKernel(sl.kind, device, hccl_ops)) continue;
    // The reference's GPU kernel class is lower(cat) in {kernel, gpu_memcpy}: old Kineto "Memcpy"
    // events are not kernels there (docs/reference/inputs.md#kineto-trace).
    if (policy.old_memcpy_not_kernel && device != DeviceKind::kNpu) {
      std::string_view cat = profile.str(profile.Cat(sl));
      if (!ascii::EqualsLower(cat, "kernel") && !ascii::EqualsLower(cat, "gpu_memcpy")) continue;
    }
    tracks.push_back(sl.track);
    ts.push_back(sl.ts_ns);
    kernels.push_back(s);
  }
  const FlowLinks& flows = timeline.flows;
  const size_t num_kernels = kernels.size();
  for (uint32_t i = 0; i < flows.kernel_launch.size(); ++i) {
    const FlowPoint end = flows.LaunchEnd(profile, i);
    tracks.push_back(end.track);
    ts.push_back(end.ts_ns);
  }
  std::vector<SliceId> out(flows.kernel_launch.size(), kNoSlice);
  const SortedRuns runs = StableRunsByPair(tracks, ts);
  SliceId winner = kNoSlice;
  for (size_t p = 0; p < runs.order.size(); ++p) {
    if (runs.new_run[p]) winner = kNoSlice;
    const uint32_t item = runs.order[p];
    if (item < num_kernels)
      winner = kernels[item];
    else
      out[item - num_kernels] = winner;
  }
  return out;
}

}  // namespace

bool HcclOpsAttachable(const ReferencePolicy& policy, const OpTreeOptions& options) {
  return !policy.hccl_ops_attach_only_with_comm || options.overall_or_communication_runs;
}

bool IsAttachableKernel(SliceKind kind, DeviceKind device, bool include_hccl_ops) {
  if (device == DeviceKind::kNpu)
    return kind == SliceKind::kNpuTask || (include_hccl_ops && kind == SliceKind::kHcclOp);
  return kind == SliceKind::kKernel || kind == SliceKind::kGpuMemcpy;
}

KernelDict LinkKernels(const Timeline& timeline, const ReferencePolicy& policy, const OpTreeOptions& options) {
  const Profile& profile = timeline.p();
  KernelDict out;
  const std::vector<SliceId> kernel_at = KernelsAtLaunchEnds(timeline, policy, options);
  const FlowLinks& flows = timeline.flows;
  std::vector<int64_t> starts;  // of the linked launches
  for (uint32_t i = 0; i < flows.kernel_launch.size(); ++i) {
    ++out.flows_used;
    if (kernel_at[i] == kNoSlice) {
      ++out.flows_unlinked;
      continue;
    }
    out.links.push_back({i, kernel_at[i]});
    starts.push_back(flows.LaunchStart(profile, i).ts_ns);
  }
  // Groups by start ts, in order of first appearance.
  uint32_t num_groups = 0;
  const std::vector<uint32_t> group_of = FirstSeenIds(starts, &num_groups);
  out.groups.resize(num_groups);
  std::vector<uint32_t> sizes(num_groups, 0);
  for (uint32_t g : group_of) ++sizes[g];
  for (size_t k = 0; k < out.links.size(); ++k) {
    KernelGroup& g = out.groups[group_of[k]];
    if (g.kernels.empty()) {
      g.ts_ns = starts[k];
      g.kernels.reserve(sizes[group_of[k]]);
    }
    g.kernels.push_back(out.links[k].kernel);
  }
  return out;
}

namespace {

// An Ascend DB export's linked kernels by CANN connection id (the launch id), in launch order.
std::unordered_map<int64_t, std::vector<SliceId>> KernelsByConnectionId(const Timeline& timeline,
                                                                         const KernelDict& dict) {
  std::unordered_map<int64_t, std::vector<SliceId>> kernels_of;
  for (const KernelLink& link : dict.links) {
    if (const std::optional<int64_t> id = timeline.flows.LaunchId(timeline.p(), link.launch))
      kernels_of[*id].push_back(link.kernel);
  }
  return kernels_of;
}

}  // namespace

void GroupDbKernelsByLastConnection(const Timeline& timeline, KernelDict& dict) {
  const Profile& profile = timeline.p();
  const auto kernels_of = KernelsByConnectionId(timeline, dict);
  std::vector<KernelGroup> groups;
  std::unordered_map<int64_t, size_t> group_of;
  for (const DbLaunch& l : profile.npu.db.op_launches) {
    auto k = kernels_of.find(l.connection_id());
    if (k == kernels_of.end()) continue;
    const int64_t ts = profile.slices[l.op].ts_ns;
    auto [it, inserted] = group_of.try_emplace(ts, groups.size());
    if (inserted) groups.push_back({ts, {}});
    groups[it->second].kernels = k->second;  // the last one wins
  }
  dict.groups = std::move(groups);
}

// Builds an OpTree in steps (docs/reference/operators.md#operator-tree,
// docs/reference/loading.md#kernel-linking); a friend of OpTree.
class OpTreeBuilder {
 public:
  OpTreeBuilder(const Timeline& timeline, const ReferencePolicy& policy, const OpTreeOptions& options)
      : timeline_(timeline), p_(timeline.p()), policy_(policy), options_(options), nodes_(tree_.nodes_) {}

  OpTree Build() {
    if (policy_.db_api_row_per_connection_id && p_.meta.format == SourceFormat::kAscendDb) IndexDbConnections();
    AddNodes();
    IndexChildren();
    const KernelDict dict = LinkKernels(timeline_, policy_, options_);
    tree_.stats_.flows_used = dict.flows_used;
    tree_.stats_.flows_unlinked = dict.flows_unlinked;
    std::vector<std::pair<NodeId, SliceId>> attach =
        by_connection_ ? AttachByConnectionId(dict)
                       : (policy_.attach_kernels_by_start_ts ? AttachByStartTs(dict) : AttachToInnermost(dict));
    StoreKernels(attach);
    WriteNodeRanges();
    return std::move(tree_);
  }

 private:
  // Torch ops in parse order, stably sorted by start, nested by inclusive containment in the current
  // parent. Step nodes take their id from the timeline's steps.
  void AddNodes() {
    std::vector<SliceId> ops;
    for (SliceId s = 0; s < p_.slices.size(); ++s)
      if (IsTorchOpKind(p_.slices[s].kind)) ops.push_back(s);
    StableSortByKey(ops, [&](SliceId s) { return p_.slices[s].ts_ns; });
    tree_.stats_.torch_ops = ops.size();
    std::unordered_map<SliceId, int64_t> step_id_of;
    for (const Step& st : timeline_.steps) step_id_of.emplace(st.slice, st.id);
    nodes_.reserve(ops.size() + 1);
    for (auto* v : {&parent_, &track_}) v->reserve(ops.size() + 1);
    for (auto* v : {&start_, &end_}) v->reserve(ops.size() + 1);
    nodes_.push_back(OpNode{});  // root
    AddCompact(nodes_.back(), 0);
    NodeId last = kRootNode;
    for (SliceId s : ops) {
      const Slice& sl = p_.slices[s];
      while (last != kRootNode && sl.ts_ns > nodes_[last].end_ns) last = nodes_[last].parent;
      OpNode n;
      n.slice = s;
      n.start_ns = sl.ts_ns;
      n.end_ns = sl.end_ns();
      n.is_step = sl.kind == SliceKind::kStepMarker;
      if (n.is_step) {
        auto it = step_id_of.find(s);
        if (it != step_id_of.end()) n.step_id = it->second;
      }
      // One node, or with by_connection_ one per connection id, each nested in the previous copy.
      const std::vector<int64_t>* conns = nullptr;
      if (by_connection_) {
        auto it = connections_of_.find(s);
        if (it != connections_of_.end()) conns = &it->second;
      }
      const size_t copies = conns == nullptr ? 1 : conns->size();
      for (size_t c = 0; c < copies; ++c) {
        n.parent = last;
        n.depth = nodes_[last].depth + 1;
        nodes_.push_back(n);
        AddCompact(n, sl.track);
        if (by_connection_) node_connection_.push_back(conns == nullptr ? kNoNumber : (*conns)[c]);
        last = static_cast<NodeId>(nodes_.size() - 1);
      }
    }
  }

  // The fields the later steps read, per node, beside the nodes: each step reads the few it needs
  // instead of the whole 64-byte nodes (on a 1 GB trace a million nodes, 66 MB, which a pass read
  // from memory instead of the cache; nine passes were the op tree's cost growing with the trace).
  void AddCompact(const OpNode& n, TrackId track) {
    parent_.push_back(n.parent);
    start_.push_back(n.start_ns);
    end_.push_back(n.end_ns);
    track_.push_back(track);
  }

  // policy.db_api_row_per_connection_id on an Ascend DB side: each op's CANN connection ids, in the
  // order the reference's join returns them (PYTORCH_API, then CONNECTION_IDS, order).
  void IndexDbConnections() {
    by_connection_ = true;
    node_connection_.push_back(kNoNumber);  // the root
    for (const DbLaunch& l : p_.npu.db.op_launches) connections_of_[l.op].push_back(l.connection_id());
  }

  // The reference's DB rule: every node gets the kernels launched through its connection id.
  std::vector<std::pair<NodeId, SliceId>> AttachByConnectionId(const KernelDict& dict) {
    const auto kernels_of = KernelsByConnectionId(timeline_, dict);
    std::vector<std::pair<NodeId, SliceId>> attach;
    std::unordered_set<int64_t> used;
    for (NodeId id = 1; id < nodes_.size(); ++id) {
      auto it = kernels_of.find(node_connection_[id]);
      if (it == kernels_of.end()) continue;
      used.insert(it->first);
      for (SliceId k : it->second) attach.emplace_back(id, k);
    }
    for (const auto& [conn, ks] : kernels_of)
      if (!used.count(conn)) tree_.stats_.kernels_without_op += ks.size();
    return attach;
  }

  // Children in creation order (CSR): child_begin_[id] .. child_begin_[id + 1].
  void IndexChildren() {
    const size_t n = parent_.size();
    child_begin_.assign(n + 1, 0);
    for (NodeId id = 1; id < n; ++id) ++child_begin_[parent_[id] + 1];
    for (size_t i = 0; i < n; ++i) child_begin_[i + 1] += child_begin_[i];
    tree_.child_ids_.resize(child_begin_[n]);
    std::vector<uint32_t> fill(child_begin_.begin(), child_begin_.end() - 1);
    for (NodeId id = 1; id < n; ++id) tree_.child_ids_[fill[parent_[id]]++] = id;
  }

  // The reference's rule: kernel_dict[flow start ts] goes to every op starting at that ts. The
  // groups (distinct starts) and the nodes are joined by start with one stable sort: in a run of
  // equal starts the group comes first.
  std::vector<std::pair<NodeId, SliceId>> AttachByStartTs(const KernelDict& dict) {
    const size_t num_groups = dict.groups.size();
    std::vector<int64_t> starts;
    starts.reserve(num_groups + nodes_.size());
    for (const KernelGroup& g : dict.groups) starts.push_back(g.ts_ns);
    for (NodeId id = 1; id < start_.size(); ++id) starts.push_back(start_[id]);
    std::vector<uint32_t> group_of(nodes_.size(), UINT32_MAX);  // per node
    std::vector<uint8_t> used(num_groups, 0);
    const SortedRuns runs = StableRunsByKey(starts);
    uint32_t group = UINT32_MAX;
    for (size_t p = 0; p < runs.order.size(); ++p) {
      if (runs.new_run[p]) group = UINT32_MAX;
      const uint32_t item = runs.order[p];
      if (item < num_groups) {
        if (group == UINT32_MAX)
          group = item;
        else
          used[item] = 1;  // a second group with the same start is never looked up (nor counted)
      } else if (group != UINT32_MAX) {
        group_of[item - num_groups + 1] = group;
        used[group] = 1;
      }
    }
    std::vector<std::pair<NodeId, SliceId>> attach;
    for (NodeId id = 1; id < nodes_.size(); ++id)
      if (group_of[id] != UINT32_MAX)
        for (SliceId k : dict.groups[group_of[id]].kernels) attach.emplace_back(id, k);
    for (size_t g = 0; g < num_groups; ++g)
      if (!used[g]) tree_.stats_.kernels_without_op += dict.groups[g].kernels.size();
    return attach;
  }

  // profdiff's rule: each kernel once, to the innermost op on the flow start's track containing it.
  // Each track's nodes in start order are searched from where the track's last launch was found:
  // launches come about in time order, so a search is a few steps forward (a binary search over
  // the track's whole list missed the cache at every step once the list outgrew it).
  std::vector<std::pair<NodeId, SliceId>> AttachToInnermost(const KernelDict& dict) {
    std::vector<std::pair<NodeId, SliceId>> attach;
    attach.reserve(dict.links.size());
    const TrackNodes tracks = NodesByTrack();
    std::vector<size_t> cursor(tracks.track_ids.size(), 0);
    for (const KernelLink& link : dict.links) {
      const FlowPoint s = timeline_.flows.LaunchStart(p_, link.launch);
      NodeId owner = kNoNode;
      const uint32_t k = s.track < tracks.index_of.size() ? tracks.index_of[s.track] : kNoTrack;
      if (k != kNoTrack) {
        const std::span<const int64_t> starts(tracks.starts.data() + tracks.begin[k], tracks.begin[k + 1] - tracks.begin[k]);
        cursor[k] = UpperBoundFrom(starts, cursor[k], s.ts_ns);
        owner = cursor[k] == 0 ? kNoNode : tracks.nodes[tracks.begin[k] + cursor[k] - 1];
        while (owner != kNoNode && end_[owner] < s.ts_ns) owner = tracks.parent[owner];
      }
      if (owner == kNoNode) {
        ++tree_.stats_.kernels_without_op;
        continue;
      }
      attach.emplace_back(owner, link.kernel);
    }
    return attach;
  }

  // The nodes of each track in start (node) order, their starts beside them, and each node's
  // track-local enclosing node.
  static constexpr uint32_t kNoTrack = UINT32_MAX;
  struct TrackNodes {
    std::vector<uint32_t> index_of;  // TrackId -> its index here, kNoTrack for a track without nodes
    std::vector<TrackId> track_ids;
    std::vector<size_t> begin;   // per track, into nodes/starts; one more at the end
    std::vector<NodeId> nodes;
    std::vector<int64_t> starts;
    std::vector<NodeId> parent;  // per node
  };
  TrackNodes NodesByTrack() const {
    TrackNodes t;
    const size_t n = track_.size();
    t.index_of.assign(p_.tracks.size(), kNoTrack);
    std::vector<uint32_t> track_of(n, 0);
    for (NodeId id = 1; id < n; ++id) {
      uint32_t& k = t.index_of[track_[id]];
      if (k == kNoTrack) {
        k = static_cast<uint32_t>(t.track_ids.size());
        t.track_ids.push_back(track_[id]);
      }
      track_of[id] = k;
    }
    t.begin.assign(t.track_ids.size() + 1, 0);
    for (NodeId id = 1; id < n; ++id) ++t.begin[track_of[id] + 1];
    for (size_t k = 0; k < t.track_ids.size(); ++k) t.begin[k + 1] += t.begin[k];
    std::vector<size_t> fill(t.begin.begin(), t.begin.end() - 1);
    t.nodes.resize(n > 0 ? n - 1 : 0);
    t.starts.resize(t.nodes.size());
    for (NodeId id = 1; id < n; ++id) {
      const size_t at = fill[track_of[id]]++;
      t.nodes[at] = id;
      t.starts[at] = start_[id];
    }
    t.parent.assign(n, kNoNode);
    std::vector<NodeId> stack;
    for (size_t k = 0; k < t.track_ids.size(); ++k) {
      stack.clear();
      for (size_t i = t.begin[k]; i < t.begin[k + 1]; ++i) {
        const NodeId id = t.nodes[i];
        while (!stack.empty() && start_[id] > end_[stack.back()]) stack.pop_back();
        t.parent[id] = stack.empty() ? kNoNode : stack.back();
        stack.push_back(id);
      }
    }
    return t;
  }

  // The first position of `starts` (ascending) whose start is after `ts`, searched from `from` (the
  // last answer): galloping forward from it, or a binary search below it when `ts` is earlier.
  static size_t UpperBoundFrom(std::span<const int64_t> starts, size_t from, int64_t ts) {
    const size_t n = starts.size();
    size_t lo = 0, hi = from;  // the answer is in [lo, hi]
    if (from == 0 || starts[from - 1] <= ts) {
      lo = from;
      for (size_t step = 1; hi < n && starts[hi] <= ts; step *= 2) {
        lo = hi + 1;
        hi = lo + step;
      }
      hi = std::min(hi, n);
    }
    return static_cast<size_t>(std::upper_bound(starts.begin() + static_cast<ptrdiff_t>(lo),
                                                starts.begin() + static_cast<ptrdiff_t>(hi), ts) -
                               starts.begin());
  }

  // (node, kernel) attachments in flow order -> per-node kernel ranges (a counting sort by node,
  // stable) and subtree kernel counts (kernel_num: own kernels added to the node and every ancestor
  // except the root; children have larger ids than their parents, so one reverse pass adds up the
  // subtrees).
  void StoreKernels(const std::vector<std::pair<NodeId, SliceId>>& attach) {
    const size_t n = parent_.size();
    kernel_begin_.assign(n + 1, 0);
    for (const auto& [node, kernel] : attach) ++kernel_begin_[node + 1];
    for (size_t i = 0; i < n; ++i) kernel_begin_[i + 1] += kernel_begin_[i];
    tree_.kernel_ids_.resize(attach.size());
    std::vector<uint32_t> fill(kernel_begin_.begin(), kernel_begin_.end() - 1);
    for (const auto& [node, kernel] : attach) tree_.kernel_ids_[fill[node]++] = kernel;
    tree_.stats_.kernels_attached = attach.size();
    kernel_num_.assign(n, 0);
    for (NodeId id = static_cast<NodeId>(n) - 1; id >= 1; --id) {
      kernel_num_[id] += kernel_begin_[id + 1] - kernel_begin_[id];
      if (parent_[id] != kRootNode) kernel_num_[parent_[id]] += kernel_num_[id];
    }
  }

  // The children and kernel ranges and the subtree kernel counts, into the nodes in one pass.
  void WriteNodeRanges() {
    for (NodeId id = 0; id < nodes_.size(); ++id) {
      OpNode& node = nodes_[id];
      node.children_begin = child_begin_[id];
      node.children_count = child_begin_[id + 1] - child_begin_[id];
      node.kernels_count = kernel_begin_[id + 1] - kernel_begin_[id];
      node.kernels_begin = node.kernels_count > 0 ? kernel_begin_[id] : 0;
      node.kernel_num = kernel_num_[id];
    }
  }

  const Timeline& timeline_;
  const Profile& p_;
  const ReferencePolicy& policy_;
  const OpTreeOptions& options_;
  OpTree tree_;
  std::vector<OpNode>& nodes_;
  bool by_connection_ = false;                                        // IndexDbConnections
  std::unordered_map<SliceId, std::vector<int64_t>> connections_of_;  // op slice -> connection ids
  std::vector<int64_t> node_connection_;                              // node -> its connection id
  // Per node (AddCompact), and the ranges the later steps find (the nodes get them at the end).
  std::vector<NodeId> parent_;
  std::vector<int64_t> start_, end_;
  std::vector<TrackId> track_;
  std::vector<uint32_t> child_begin_, kernel_begin_;  // per node, and one more at the end
  std::vector<int64_t> kernel_num_;
};

OpTree BuildOpTree(const Timeline& timeline, const ReferencePolicy& policy, const OpTreeOptions& options) {
  return OpTreeBuilder(timeline, policy, options).Build();
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

std::vector<SegmentItem> SegmentItemsFor(const Timeline& timeline, const OpTree& tree, std::span<const NodeId> ops) {
  const Profile& p = timeline.p();
  std::vector<SegmentItem> items;
  items.reserve(ops.size());
  const std::optional<StringId> bwd_tid =
      timeline.backward_track ? std::optional<StringId>(p.tracks[*timeline.backward_track].tid_text) : std::nullopt;
  for (NodeId id : ops) {
    const OpNode& n = tree.node(id);
    bool bwd = bwd_tid && n.slice != kNoSlice && p.tracks[p.slices[n.slice].track].tid_text == *bwd_tid;
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


namespace {

bool IsRuntime(const OpTree& tree, const Profile& p, NodeId id) {
  const SliceId s = tree.node(id).slice;
  return s != kNoSlice && p.slices[s].kind == SliceKind::kCudaRuntime;
}

// A wrapper: children, no kernel of its own, and at least one child that is not a runtime call (an
// op whose children are only cudaLaunchKernel & co. is an operator itself).
bool IsWrapper(const OpTree& tree, const Profile& p, NodeId id) {
  if (tree.children(id).empty() || tree.node(id).kernels_count != 0) return false;
  for (NodeId child : tree.children(id))
    if (!IsRuntime(tree, p, child)) return true;
  return false;
}

// `nodes` with each wrapper replaced by its children; `count`: the wrappers replaced.
std::vector<NodeId> ExpandWrappers(const OpTree& tree, const Profile& p, const std::vector<NodeId>& nodes,
                                   uint64_t* count) {
  std::vector<NodeId> out;
  *count = 0;
  for (NodeId id : nodes) {
    if (!IsWrapper(tree, p, id)) {
      out.push_back(id);
      continue;
    }
    ++*count;
    for (NodeId child : tree.children(id)) out.push_back(child);
  }
  return out;
}


class WrapperDriller {
 public:
  WrapperDriller(const Profile& bp, const OpTree& base, const Profile& cp, const OpTree& comparison,
                 const ChildMatcher& match)
      : bp_(bp), base_(base), cp_(cp), comparison_(comparison), match_(match) {}

  // Every gap of `pairs` drilled, the matched pairs kept in place.
  std::vector<NodePair> Pairs(const std::vector<NodePair>& pairs, int depth) {
    std::vector<NodePair> out;
    for (size_t i = 0; i < pairs.size();) {
      if (pairs[i].base != kNoNode && pairs[i].comparison != kNoNode) {
        out.push_back(pairs[i++]);
        continue;
      }
      size_t j = i;
      while (j < pairs.size() && (pairs[j].base == kNoNode || pairs[j].comparison == kNoNode)) ++j;
      std::vector<NodePair> gap(pairs.begin() + static_cast<std::ptrdiff_t>(i), pairs.begin() + static_cast<std::ptrdiff_t>(j));
      std::vector<NodePair> drilled = Gap(gap, depth);
      out.insert(out.end(), drilled.begin(), drilled.end());
      i = j;
    }
    return out;
  }

 private:
  // Pairs of two runtime calls (cudaLaunchKernel and cudaLaunchKernel of two different operators)
  // are not a match worth drilling for.
  bool RealMatch(NodeId b, NodeId c) const {
    return b != kNoNode && c != kNoNode && !(IsRuntime(base_, bp_, b) && IsRuntime(comparison_, cp_, c));
  }
  size_t RealMatches(const std::vector<MatchPair>& pairs, const std::vector<NodeId>& b,
                     const std::vector<NodeId>& c) const {
    size_t n = 0;
    for (const MatchPair& p : pairs)
      n += p.base != kNoIndex && p.comparison != kNoIndex && RealMatch(b[static_cast<size_t>(p.base)], c[static_cast<size_t>(p.comparison)]);
    return n;
  }

  // One gap: the best of the three expansions when it matches anything, its own gaps drilled again;
  // else the gap unchanged.
  std::vector<NodePair> Gap(const std::vector<NodePair>& gap, int depth) {
    std::vector<NodeId> b, c;
    for (const NodePair& p : gap) {
      if (p.base != kNoNode) b.push_back(p.base);
      if (p.comparison != kNoNode) c.push_back(p.comparison);
    }
    if (b.empty() || c.empty() || depth >= kMaxWrapperDepth) return gap;
    uint64_t nb = 0, nc = 0;
    const std::vector<NodeId> bx = ExpandWrappers(base_, bp_, b, &nb), cx = ExpandWrappers(comparison_, cp_, c, &nc);
    struct Option {
      const std::vector<NodeId>* b;
      const std::vector<NodeId>* c;
      uint64_t drilled_b, drilled_c;
    };
    const Option options[3] = {{&bx, &c, nb, 0}, {&b, &cx, 0, nc}, {&bx, &cx, nb, nc}};
    const Option* best = nullptr;
    std::vector<MatchPair> best_pairs;
    size_t best_matched = 0;
    for (const Option& o : options) {
      if (o.drilled_b + o.drilled_c == 0) continue;
      if (static_cast<uint64_t>(o.b->size()) * o.c->size() > kMaxWrapperDrillCells) continue;
      std::vector<MatchPair> m = match_(*o.b, *o.c);
      const size_t matched = RealMatches(m, *o.b, *o.c);
      if (matched > best_matched) {
        best = &o;
        best_matched = matched;
        best_pairs = std::move(m);
      }
    }
    if (best == nullptr) return gap;
    std::vector<NodePair> out = Pairs(ToNodePairs(best_pairs, *best->b, *best->c), depth + 1);
    Collapse(true, b, out);
    Collapse(false, c, out);
    return out;
  }

  // A wrapper of `nodes` none of whose descendants in `out` got a real match goes back in their place
  // (one row for it instead of rows for its unmatched children; a runtime call its drilling paired
  // stays on the other side alone): only wrappers that found a match inside stay drilled.
  void Collapse(bool base_side, const std::vector<NodeId>& nodes, std::vector<NodePair>& out) const {
    const OpTree& tree = base_side ? base_ : comparison_;
    const Profile& p = base_side ? bp_ : cp_;
    NodeId NodePair::*side = base_side ? &NodePair::base : &NodePair::comparison;
    NodeId NodePair::*other = base_side ? &NodePair::comparison : &NodePair::base;
    for (NodeId w : nodes) {
      if (!IsWrapper(tree, p, w)) continue;
      std::vector<size_t> at;  // entries of out under w
      bool matched = false;
      for (size_t i = 0; i < out.size(); ++i) {
        const NodeId n = out[i].*side;
        if (n == kNoNode || n == w || !Under(tree, n, w)) continue;
        at.push_back(i);
        matched |= base_side ? RealMatch(n, out[i].*other) : RealMatch(out[i].*other, n);
      }
      if (matched || at.empty()) continue;
      std::vector<NodePair> collapsed;
      size_t next = 0;
      for (size_t i = 0; i < out.size(); ++i) {
        if (next < at.size() && at[next] == i) {
          if (next++ == 0) {
            NodePair alone;
            alone.*side = w;
            collapsed.push_back(alone);
          }
          if (out[i].*other == kNoNode) continue;
          NodePair rest;  // the other side's node, now without a partner
          rest.*other = out[i].*other;
          collapsed.push_back(rest);
          continue;
        }
        collapsed.push_back(out[i]);
      }
      out = std::move(collapsed);
    }
  }

  static bool Under(const OpTree& tree, NodeId n, NodeId ancestor) {
    for (NodeId a = tree.node(n).parent; a != kNoNode; a = tree.node(a).parent)
      if (a == ancestor) return true;
    return false;
  }

  const Profile& bp_;
  const OpTree& base_;
  const Profile& cp_;
  const OpTree& comparison_;
  const ChildMatcher& match_;
};

// Wrappers of one side drilled into: the ancestors of the drilled pairs' nodes up to (and including)
// the node of the original pairs they replaced.
uint64_t CountDrilled(const OpTree& tree, const std::vector<NodePair>& before, const std::vector<NodePair>& after,
                      NodeId NodePair::*side) {
  // Per node: in the original pairs, in the drilled ones, counted as drilled (flags, not hash sets:
  // the walk below visits every node of the pairs).
  constexpr uint8_t kOriginal = 1, kNow = 2, kDrilled = 4;
  std::vector<uint8_t> flags(tree.size(), 0);
  for (const NodePair& p : before)
    if (p.*side != kNoNode) flags[p.*side] |= kOriginal;
  for (const NodePair& p : after)
    if (p.*side != kNoNode) flags[p.*side] |= kNow;
  uint64_t drilled = 0;
  for (const NodePair& p : after) {
    const NodeId n = p.*side;
    if (n == kNoNode || (flags[n] & kOriginal)) continue;
    for (NodeId a = tree.node(n).parent; a != kNoNode && !(flags[a] & kNow); a = tree.node(a).parent) {
      if (flags[a] & kDrilled) break;
      flags[a] |= kDrilled;
      ++drilled;
      if (flags[a] & kOriginal) break;
    }
  }
  return drilled;
}

}  // namespace

std::vector<NodePair> DrillUnmatchedWrappers(const Profile& base_profile, const OpTree& base,
                                             const Profile& comparison_profile, const OpTree& comparison,
                                             const std::vector<NodePair>& pairs, const ChildMatcher& match,
                                             WrapperDrillStats* stats) {
  WrapperDriller driller(base_profile, base, comparison_profile, comparison, match);
  std::vector<NodePair> out = driller.Pairs(pairs, 0);
  if (stats != nullptr) {
    *stats = {CountDrilled(base, pairs, out, &NodePair::base),
              CountDrilled(comparison, pairs, out, &NodePair::comparison)};
  }
  return out;
}

}  // namespace profdiff::analysis
