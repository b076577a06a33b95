// Operator pairing (docs/reference/operators.md#fwd-bwd-segmentation to #matching-keys), shared by
// the operator comparison and, later, the memory comparison.
#include "profdiff/analysis/operators/operator_pairing.h"

#include <future>
#include <span>
#include <unordered_map>

#include "profdiff/analysis/common/python_text.h"
#include "profdiff/base/ordered_parallel.h"

namespace profdiff::analysis {

namespace {

// The shape string of docs/reference/operators.md#matching-keys: a list of lists -> items joined by
// ",", elements joined by ";\r\n".
std::string ShapeKeyText(const Profile& p, const Slice& s) {
  const std::optional<Arg> a = p.FindArg(s, ArgKey::kInputDims);
  if (!a) return "N/A";
  if (a->type == ArgType::kJson) {
    std::string_view raw = p.str(a->text());
    PyValue v;
    if (!ParseJsonForPython(raw, v) || v.type != PyValue::Type::kList) return std::string(raw);
    std::string out;
    for (size_t i = 0; i < v.items.size(); ++i) {
      if (i) out += ";\r\n";
      const PyValue& dim = v.items[i];
      if (dim.type != PyValue::Type::kList) {
        out += PythonStr(dim);  // the reference fails here; profdiff uses the element's str()
        continue;
      }
      for (size_t k = 0; k < dim.items.size(); ++k) {
        if (k) out.push_back(',');
        out += PythonStr(dim.items[k]);
      }
    }
    return out;
  }
  if (a->type == ArgType::kNull) return "None";
  if (a->type == ArgType::kBool) return a->i() ? "True" : "False";
  if (a->type == ArgType::kInt) return std::to_string(a->i());
  return std::string(p.str(a->text()));
}

// Matching keys of both trees' nodes in one key space, each computed once, on demand. Without
// --use_input_shape a node's key depends on its op's name alone: it is looked up by the name's
// string id (a few hundred names against ~10^5 nodes a side on a 1 GB trace), so that a node costs an
// id lookup instead of building and hashing its key text (which grew to 170 ns a node with the trace,
// as the nodes' slices and names fall out of the caches).
class NodeKeys {
 public:
  NodeKeys(const Timeline& base, const OpTree& base_tree, const Timeline& comparison, const OpTree& comparison_tree,
           const OperatorCompareOptions& options)
      : sides_{Side(base.p(), base_tree, options), Side(comparison.p(), comparison_tree, options)}, options_(options) {}

  std::vector<MatchKey> Base(std::span<const NodeId> ids) { return Of(sides_[0], ids); }
  std::vector<MatchKey> Comparison(std::span<const NodeId> ids) { return Of(sides_[1], ids); }

 private:
  static constexpr MatchKey kUnset = UINT32_MAX;
  struct Side {
    Side(const Profile& p, const OpTree& t, const OperatorCompareOptions& options)
        : profile(&p), tree(&t), by_node(options.use_input_shape ? t.size() : 0, kUnset) {}
    const Profile* profile;
    const OpTree* tree;
    std::vector<MatchKey> by_node;                  // with --use_input_shape: per node
    std::unordered_map<StringId, MatchKey> by_name;  // otherwise: per op name
  };

  MatchKey KeyOf(Side& side, NodeId id) {
    const SliceId slice = side.tree->node(id).slice;
    if (!options_.use_input_shape) {
      const auto [it, added] = side.by_name.try_emplace(side.profile->slices[slice].name, kUnset);
      if (added) it->second = keys_.Key(OperatorMatchKey(*side.profile, slice, options_));
      return it->second;
    }
    MatchKey& k = side.by_node[id];
    if (k == kUnset) k = keys_.Key(OperatorMatchKey(*side.profile, slice, options_));
    return k;
  }

  std::vector<MatchKey> Of(Side& side, std::span<const NodeId> ids) {
    std::vector<MatchKey> out;
    out.reserve(ids.size());
    for (NodeId id : ids) out.push_back(KeyOf(side, id));
    return out;
  }

  Side sides_[2];
  const OperatorCompareOptions& options_;
  KeyMap keys_;
};

// A side's top-layer ops; a step id applies to NPU sides only under policy.step_selection_npu_sides_only.
TopLayer TopLayerOf(const Timeline& timeline, const OpTree& tree, const std::optional<int64_t>& step,
                    const ReferencePolicy& policy, std::vector<std::string>& warnings) {
  const bool npu = timeline.p().meta.device == DeviceKind::kNpu;
  const std::optional<int64_t> used = npu || !policy.step_selection_npu_sides_only ? step : std::nullopt;
  TopLayer top = tree.TopLayerOps(used);
  if (!top.step_found)
    warnings.push_back("There is no operator infomation for step " + std::to_string(*used) +
                       ", please check whether the data contains this step.");
  return top;
}

}  // namespace

std::string OperatorMatchKey(const Profile& profile, SliceId op, const OperatorCompareOptions& options) {
  const Slice& s = profile.slices[op];
  std::string name(profile.str(s.name));
  if (!options.op_name_map.empty()) {
    auto it = options.op_name_map.find(name);
    if (it != options.op_name_map.end()) name = it->second;
  }
  if (options.use_input_shape) name += ShapeKeyText(profile, s);
  return name;
}

namespace {

// Everything of a pairing but its trees: `bt` and `ct` are the two sides' op trees (out's own, or a
// built pairing's when a trial reuses them).
void PairOnTrees(const Timeline& base, const OpTree& bt, const Timeline& comparison, const OpTree& ct,
                 const ReferencePolicy& policy, const OperatorCompareOptions& options, OperatorPairing& out) {
  out.algorithm = options.disable_details ? MatchAlgorithm::kNone : policy.matching;
  const TopLayer btop = TopLayerOf(base, bt, options.base_step, policy, out.warnings);
  const TopLayer ctop = TopLayerOf(comparison, ct, options.comparison_step, policy, out.warnings);

  NodeKeys keys(base, bt, comparison, ct, options);
  // docs/reference/operators.md#fwd-bwd-segmentation: segments only when both sides have a backward
  // thread.
  const bool use_segments = base.backward_track.has_value() && comparison.backward_track.has_value();
  std::vector<SegmentItem> bitems, citems;
  if (use_segments) {
    bitems = SegmentItemsFor(base, bt, btop.ops);
    citems = SegmentItemsFor(comparison, ct, ctop.ops);
  }
  // Keys are numbered in order of first use: base first, then comparison (the numbering never changes
  // a pairing, only equality counts, but it keeps runs reproducible).
  const std::vector<MatchKey> bkeys = keys.Base(btop.ops);
  const std::vector<MatchKey> ckeys = keys.Comparison(ctop.ops);
  const std::vector<MatchPair> pairs =
      MatchSegmented(out.algorithm, bkeys, bitems, ckeys, citems, use_segments, policy.gap_order);
  out.pairs = ToNodePairs(pairs, btop.ops, ctop.ops);
  const ChildMatcher matcher = [&](std::span<const NodeId> b, std::span<const NodeId> c) {
    const std::vector<MatchKey> bk = keys.Base(b);
    const std::vector<MatchKey> ck = keys.Comparison(c);
    return MatchSequences(out.algorithm, bk, ck, policy.gap_order);
  };
  if (options.max_kernel_num) out.pairs = DrillDown(bt, ct, std::move(out.pairs), *options.max_kernel_num, matcher);
  if (!policy.keep_unmatched_wrappers && out.algorithm != MatchAlgorithm::kNone) {
    out.wrapper_drilled_pairs =
        DrillUnmatchedWrappers(base.p(), bt, comparison.p(), ct, out.pairs, matcher, &out.wrappers_drilled);
    if (out.wrappers_drilled.base + out.wrappers_drilled.comparison == 0) out.wrapper_drilled_pairs.clear();
  }
}

}  // namespace

OperatorPairing PairOperators(const Timeline& base, const Timeline& comparison, const ReferencePolicy& policy,
                              const OperatorCompareOptions& options, TreeBuild build) {
  OperatorPairing out;
  OpTreeOptions tree_options;
  tree_options.overall_or_communication_runs = options.overall_or_communication_runs;
  // The two trees are independent: the comparison's builds on another thread meanwhile (or, when no
  // thread can be had or none is wanted, after the base's).
  auto build_comparison = [&] { return BuildOpTree(comparison, policy, tree_options); };
  std::future<OpTree> comparison_tree = build == TreeBuild::kSideBySide
                                            ? StartTask(build_comparison)
                                            : std::async(std::launch::deferred, build_comparison);
  out.base_tree = BuildOpTree(base, policy, tree_options);
  out.comparison_tree = comparison_tree.get();
  PairOnTrees(base, out.base_tree, comparison, out.comparison_tree, policy, options, out);
  return out;
}

PairingOutcome TryPairing(const Timeline& base, const Timeline& comparison, const OperatorPairing& built,
                          const ReferencePolicy& policy, const OperatorCompareOptions& options) {
  OperatorPairing trial;
  PairOnTrees(base, built.base_tree, comparison, built.comparison_tree, policy, options, trial);
  PairingOutcome outcome;
  for (const NodePair& p : trial.OperatorPairs()) outcome.matched += p.base != kNoNode && p.comparison != kNoNode;
  outcome.wrappers_drilled = trial.wrappers_drilled.base + trial.wrappers_drilled.comparison;
  return outcome;
}

}  // namespace profdiff::analysis
