// Torch-operator tree of one profile (docs/reference/operators.md#operator-tree) with kernels
// attached through the kernel-launch flows of its Timeline
// (docs/reference/loading.md#kernel-linking), step nodes, top-layer / all-layer operator lists, and
// the --max_kernel_num drill-down over matched pairs (docs/reference/operators.md#drill-down).
// Memory records are not part of this tree.
//
// Torch ops are the slices with IsTorchOpKind(kind) (cpu_op, user_annotation, runtime calls,
// ProfilerStep#N). They are stably sorted by start and nested by "start <= enclosing op's end"
// (inclusive), mixing all threads and processes into one tree, exactly as the reference does. Step
// nodes are the step markers (SliceKind::kStepMarker); their ids come from Timeline::steps.
//
// Kernels (GPU: kKernel, kGpuMemcpy; NPU: kNpuTask, kHcclOp) are linked to the CPU side by the
// kernel-launch flows: a flow end ('f') names the kernel on its own track with its own ts; the flow
// start ('s') names the launching op. Two attachment rules (ReferencePolicy::attach_kernels_by_start_ts):
//  * by start ts (the reference's quirk): the kernel goes to EVERY torch op whose start equals the
//    flow start's ts (any track), which counts a kernel twice when a cpu_op and its cudaLaunchKernel
//    child start at the same ts.
//  * otherwise (profdiff's default): the kernel goes once, to the innermost torch op on the flow
//    start's track whose [start, end] contains the flow start's ts.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "profdiff/analysis/common/reference_policy.h"
#include "profdiff/analysis/common/sequence_match.h"
#include "profdiff/analysis/timeline/timeline.h"
#include "profdiff/model/profile.h"

namespace profdiff::analysis {

using NodeId = uint32_t;
inline constexpr NodeId kNoNode = UINT32_MAX;
inline constexpr NodeId kRootNode = 0;
inline constexpr SliceId kNoSlice = UINT32_MAX;

struct OpTreeOptions {
  // The overall or communication comparison runs in the same invocation. NPU HCCL op slices
  // (communication ops) are attachable kernels; the reference collects them only then
  // (docs/reference/loading.md#kernel-linking step 3), which
  // ReferencePolicy::hccl_ops_attach_only_with_comm reproduces.
  bool overall_or_communication_runs = false;
};

// Whether NPU HCCL op slices are attachable kernels under this policy and these options.
bool HcclOpsAttachable(const ReferencePolicy& policy, const OpTreeOptions& options);

struct OpNode {
  SliceId slice = kNoSlice;  // kNoSlice for the root
  NodeId parent = kNoNode;
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  uint32_t depth = 0;             // root 0, top-level ops 1
  uint32_t children_begin = 0;    // range in OpTree::child_ids
  uint32_t children_count = 0;
  uint32_t kernels_begin = 0;     // range in OpTree::kernel_ids (own kernels)
  uint32_t kernels_count = 0;
  int64_t kernel_num = 0;         // kernels attached in the subtree (0 for the root)
  int64_t step_id = kNoNumber;    // for step nodes: N of "ProfilerStep#N" (Timeline::steps)
  bool is_step = false;
};

struct OpTreeStats {
  uint64_t torch_ops = 0;
  uint64_t flows_used = 0;        // kernel-launch flows (both ends)
  uint64_t flows_unlinked = 0;    // ... whose end names no kernel (track + ts)
  uint64_t kernels_attached = 0;  // attachments made (attach_kernels_by_start_ts may attach a kernel twice)
  uint64_t kernels_without_op = 0;  // linked kernels that no op received
};

struct TopLayer {
  std::vector<NodeId> ops;
  bool step_found = true;  // false: a step id was requested and no step node has it
};

class OpTree {
 public:
  size_t size() const { return nodes_.size(); }  // including the root
  const OpNode& node(NodeId id) const { return nodes_[id]; }
  std::span<const NodeId> children(NodeId id) const {
    return {child_ids_.data() + nodes_[id].children_begin, nodes_[id].children_count};
  }
  // The kernel slices attached to the node itself.
  std::span<const SliceId> kernels(NodeId id) const {
    return {kernel_ids_.data() + nodes_[id].kernels_begin, nodes_[id].kernels_count};
  }
  // Kernels of the node's subtree, breadth-first (own kernels, then children level by level) — the
  // order of the reference's "Kernel Details" cell
  // (docs/reference/operators.md#operatorcompare-sheet).
  std::vector<SliceId> SubtreeKernels(NodeId id) const;
  // API self time: dur − Σ children's dur.
  int64_t SelfNs(NodeId id) const;

  // Root's children in order, a step node replaced by its children; with `step`, only the children
  // of the step node(s) with that id.
  TopLayer TopLayerOps(std::optional<int64_t> step = std::nullopt) const;
  // Without a step: every node but the root and step nodes, in creation (start) order. With a step:
  // breadth-first from that step's top-layer ops (empty when the step is absent).
  std::vector<NodeId> AllLayerOps(std::optional<int64_t> step = std::nullopt) const;

  const OpTreeStats& stats() const { return stats_; }

 private:
  friend class OpTreeBuilder;
  std::vector<OpNode> nodes_;
  std::vector<NodeId> child_ids_;
  std::vector<SliceId> kernel_ids_;
  OpTreeStats stats_;
};

// `timeline` (and its profile) must outlive the tree.
OpTree BuildOpTree(const Timeline& timeline, const ReferencePolicy& policy, const OpTreeOptions& options = {});

// The reference's kernel_dict (docs/reference/loading.md#kernel-linking): kernels linked by
// kernel-launch flows, grouped by the flow start's ts, keys in first-insertion order (flows in
// order of their id's first appearance), kernels in flow order.
struct KernelGroup {
  int64_t ts_ns = 0;
  std::vector<SliceId> kernels;
};
struct KernelLink {
  uint32_t launch = 0;  // index of the kernel-launch link in timeline.flows.kernel_launch
  SliceId kernel = 0;   // the kernel its end names (track + ts)
};
struct KernelDict {
  std::vector<KernelLink> links;  // one per flow whose end names a kernel, in flow order
  std::vector<KernelGroup> groups;
  uint64_t flows_used = 0;
  uint64_t flows_unlinked = 0;
};
// Kernels are what IsAttachableKernel accepts, except that policy.old_memcpy_not_kernel drops GPU
// events whose category is not "kernel" or "gpu_memcpy" (old Kineto "Memcpy").
KernelDict LinkKernels(const Timeline& timeline, const ReferencePolicy& policy, const OpTreeOptions& options = {});
// The reference's module kernel dict of an Ascend DB export: `dict`'s groups replaced by one per op
// start, holding the kernels of the last (PYTORCH_API row, connection id) starting there that
// launched any (Profile::npu.db.op_launches order), starts in first-insertion order.
void GroupDbKernelsByLastConnection(const Timeline& timeline, KernelDict& dict);

// True for slices that flows can attach as kernels: GPU kKernel/kGpuMemcpy, NPU kNpuTask (and kHcclOp
// with include_hccl_ops).
bool IsAttachableKernel(SliceKind kind, DeviceKind device, bool include_hccl_ops = true);

// Segment items for the top-layer ops (start, on the backward thread: the tid as written equals that
// of Timeline::backward_track) — input to MatchSegmented().
std::vector<SegmentItem> SegmentItemsFor(const Timeline& timeline, const OpTree& tree, std::span<const NodeId> ops);

// ---- Drill-down (docs/reference/operators.md#drill-down) ----------------------------------------

struct NodePair {
  NodeId base = kNoNode;
  NodeId comparison = kNoNode;
  friend bool operator==(const NodePair&, const NodePair&) = default;
};

// Matches two child lists; returns index pairs into them (e.g. MatchSequences on their keys).
using ChildMatcher =
    std::function<std::vector<MatchPair>(std::span<const NodeId> base, std::span<const NodeId> comparison)>;

// Processes `pairs` depth-first in order: a pair stays if a side is missing, a side has no children,
// or max(kernel_num) <= max_kernel_num; otherwise it is replaced by the matching of the two nodes'
// children, which are processed next, in order.
std::vector<NodePair> DrillDown(const OpTree& base, const OpTree& comparison, std::vector<NodePair> pairs,
                                int64_t max_kernel_num, const ChildMatcher& match);

// ---- Drilling into unmatched wrappers (profdiff's default mode; docs/deviations.md) ------------
// A wrapper is a node with children, no kernel of its own (every kernel of its subtree belongs to a
// child's subtree) and no runtime call among its children (an op that calls cudaLaunchKernel is an
// operator, not a wrapper), e.g. "autograd::engine::evaluate_function: AddmmBackward0" or a
// record_function annotation around the forward pass: replacing it by its children loses no device
// time. A wrapper none of whose descendants finds a match goes back in their place (one row). For each gap of `pairs` (a maximal run of one-sided pairs), the gap's base nodes and
// comparison nodes are re-matched with the base side's wrappers replaced by their children, then the
// comparison side's, then both; the first of the three with the most matched pairs is kept when it
// matches more than the gap did (none), and its own gaps are drilled again (up to kMaxWrapperDepth
// levels). A gap whose lists are too long to re-match (their product over kMaxWrapperDrillCells) is
// left as it is.
inline constexpr int kMaxWrapperDepth = 8;
inline constexpr uint64_t kMaxWrapperDrillCells = uint64_t{1} << 24;

struct WrapperDrillStats {
  uint64_t base = 0;        // base wrappers replaced by their children
  uint64_t comparison = 0;
};

std::vector<NodePair> DrillUnmatchedWrappers(const Profile& base_profile, const OpTree& base,
                                             const Profile& comparison_profile, const OpTree& comparison,
                                             const std::vector<NodePair>& pairs, const ChildMatcher& match,
                                             WrapperDrillStats* stats);

// Maps index pairs from MatchSequences over node lists back to node ids.
std::vector<NodePair> ToNodePairs(std::span<const MatchPair> pairs, std::span<const NodeId> base,
                                  std::span<const NodeId> comparison);

}  // namespace profdiff::analysis
