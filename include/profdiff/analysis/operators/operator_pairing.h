// The operator pairing (docs/reference/operators.md#operator-tree to #matching-keys): both sides'
// torch-operator trees, their top-layer ops (of one step on NPU sides, when asked), split into
// forward/backward segments when both sides have a backward thread, matched per segment pair with
// the policy's algorithm and gap order, then drilled down under --max_kernel_num (and, in the default
// mode, into unmatched wrappers: OperatorPairs()). The operator
// comparison builds its rows from it; the memory comparison (docs/reference/memory.md) reuses it,
// as the reference does.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "profdiff/analysis/common/reference_policy.h"
#include "profdiff/analysis/common/sequence_match.h"
#include "profdiff/analysis/timeline/op_tree.h"
#include "profdiff/analysis/timeline/timeline.h"
#include "profdiff/model/profile.h"

namespace profdiff::analysis {

struct OperatorCompareOptions {
  bool disable_details = false;  // no matching, no detail rows (statistics only)
  bool disable_module = false;   // never try the module comparison
  std::optional<int64_t> max_kernel_num;
  std::map<std::string, std::string> op_name_map;
  bool use_input_shape = false;
  // The overall or communication comparison runs too: with policy.hccl_ops_attach_only_with_comm,
  // NPU HCCL op events are attachable kernels only then (docs/reference/loading.md#kernel-linking
  // step 3; OpTreeOptions).
  bool overall_or_communication_runs = false;
  std::optional<int64_t> base_step;        // NPU sides only (a GPU side ignores it)
  std::optional<int64_t> comparison_step;
};

struct OperatorPairing {
  OpTree base_tree;
  OpTree comparison_tree;
  // The node pairs in output order (a missing side is kNoNode): segment pairs in order, each
  // matched, then each pair over --max_kernel_num replaced by its children's pairs.
  std::vector<NodePair> pairs;
  // Default mode (!policy.keep_unmatched_wrappers): `pairs` with the unmatched wrappers drilled into
  // (DrillUnmatchedWrappers), the operator comparison's rows; empty when nothing was drilled. The
  // memory comparison keeps `pairs`: a record a wrapper allocates itself would have no row once the
  // wrapper is replaced by its children.
  std::vector<NodePair> wrapper_drilled_pairs;
  WrapperDrillStats wrappers_drilled;
  const std::vector<NodePair>& OperatorPairs() const {
    return wrapper_drilled_pairs.empty() ? pairs : wrapper_drilled_pairs;
  }
  MatchAlgorithm algorithm = MatchAlgorithm::kLcs;  // the matching used (kNone: --disable_details)
  std::vector<std::string> warnings;  // a requested step without operators
};

// How the two op trees are built: side by side (the comparison's on a thread of its own), or one
// after the other on the calling thread (when the caller already keeps the other cores busy).
enum class TreeBuild { kSideBySide, kOneAfterTheOther };

// The timelines' profiles must outlive the result's use of them (the trees index their slices).
OperatorPairing PairOperators(const Timeline& base, const Timeline& comparison, const ReferencePolicy& policy,
                              const OperatorCompareOptions& options, TreeBuild build = TreeBuild::kSideBySide);

// What a pairing under other options (another --op_name_map) would match, on the trees `built`
// already holds (the trees do not depend on the name map): for trying suggested name maps without
// building the trees again.
struct PairingOutcome {
  uint64_t matched = 0;           // pairs with both sides (the operator comparison's "matched")
  uint64_t wrappers_drilled = 0;  // unmatched wrappers drilled into, both sides
};
PairingOutcome TryPairing(const Timeline& base, const Timeline& comparison, const OperatorPairing& built,
                          const ReferencePolicy& policy, const OperatorCompareOptions& options);

// The operator pairing of a run, built the first time a comparison asks for it and then shared: the
// operator, memory and API comparisons read the same trees and pairs instead of each building its
// own (on a 1 GB pair the trees are a third of the peak memory). Not thread-safe; the timelines and
// their profiles must outlive it.
class SharedOperatorPairing {
 public:
  SharedOperatorPairing(const Timeline& base, const Timeline& comparison, const ReferencePolicy& policy,
                        OperatorCompareOptions options)
      : base_(base), comparison_(comparison), policy_(policy), options_(std::move(options)) {}
  // Built by the first caller (its trees as `build` says); the comparisons that run side by side may
  // all ask at once.
  const OperatorPairing& Get(TreeBuild build = TreeBuild::kSideBySide) {
    std::call_once(once_, [this, build] {
      pairing_ = PairOperators(base_, comparison_, policy_, options_, build);
      built_.store(true, std::memory_order_release);
    });
    return *pairing_;
  }
  bool built() const { return built_.load(std::memory_order_acquire); }
  const OperatorCompareOptions& options() const { return options_; }

 private:
  const Timeline& base_;
  const Timeline& comparison_;
  const ReferencePolicy& policy_;
  OperatorCompareOptions options_;
  std::once_flag once_;
  std::atomic<bool> built_{false};
  std::optional<OperatorPairing> pairing_;
};

// The matching key of an op (docs/reference/operators.md#matching-keys): the mapped name, followed
// by the input-shape string with use_input_shape.
std::string OperatorMatchKey(const Profile& profile, SliceId op, const OperatorCompareOptions& options);

}  // namespace profdiff::analysis
