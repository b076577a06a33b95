// Memory comparison (docs/reference/memory.md): the data behind the MemoryCompare and
// MemoryCompareStatistic sheets and the "memory" section of the JSON result.
//
// Each side's memory records (GPU: [memory] events; NPU text: operator_memory.csv) are placed under
// the torch-operator tree the way the reference builds it (a record goes to the deepest op on the
// tree-building cursor whose [start, end] holds its timestamp; ops win ties). The operators are
// paired by PairOperators, exactly as the operator comparison pairs them (segments, the policy's
// matching, --disable_details, --max_kernel_num drill-down, --op_name_map, --use_input_shape, the
// NPU step). A row shows the records of each op's subtree, breadth-first; every record is placed once.
//
// Durations are DualSums (exact ns sums, or the reference's float sums with float_us_sums). Sizes
// are KB doubles summed in the reference's order (Ascend and Kineto sizes are multiples of 1/1024
// KB, so those sums are exact).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "profdiff/analysis/common/dual_sum.h"
#include "profdiff/analysis/common/reference_policy.h"
#include "profdiff/analysis/memory/memory_records.h"
#include "profdiff/analysis/operators/operator_pairing.h"
#include "profdiff/analysis/timeline/op_tree.h"
#include "profdiff/analysis/timeline/timeline.h"

namespace profdiff::analysis {

// A side's records, placed in its operator tree.
struct PlacedMemory {
  std::vector<MemoryRecord> records;  // as built (BuildGpuMemoryRecords / BuildNpuMemoryRecords)
  std::vector<NodeId> owner;          // per record: the op it is attached to (kRootNode: none)
  // Per node: its own records (indices into `records`) in the reference's order (by timestamp,
  // ties in build order); CSR ranges like OpTree's children.
  std::vector<uint32_t> node_begin;  // size tree.size() + 1
  std::vector<uint32_t> node_records;
};

// Places `records` under `tree` (see the file comment).
PlacedMemory PlaceMemoryRecords(const OpTree& tree, const Profile& profile, std::vector<MemoryRecord> records);

// The records of `id`'s subtree, breadth-first (its own, then its children level by level).
std::vector<uint32_t> SubtreeMemory(const OpTree& tree, const PlacedMemory& placed, NodeId id);

// A record's duration: release − allocation when both are set, else 0.
int64_t MemoryDurationNs(const MemoryRecord& r);
// Whether the reference reads this side's memory record times as doubles: a GPU trace with
// policy.memory_gpu_times_as_floats, an Ascend DB export with policy.memory_db_times_as_floats.
bool MemoryTimesAsFloats(const ProfileMeta& meta, const ReferencePolicy& policy);
// The same in µs as the comparison shows it: the exact ns in µs, or where MemoryTimesAsFloats the
// difference of the two times as doubles (TimeAsFloatUs); 0 for an allocation at time 0 with
// policy.memory_zero_allocation_no_duration.
double MemoryDurationUs(const MemoryRecord& r, const ProfileMeta& meta, const ReferencePolicy& policy);
// The double nearest to `ns` / 1000: what Python's json.loads gives for a Kineto time written with
// at most three decimals, and what Python's int ns / 1000 gives for an Ascend DB time.
double TimeAsFloatUs(int64_t ns);

struct MemorySide {
  bool present = false;
  SliceId slice = kNoSlice;
  std::string_view name;
  std::vector<uint32_t> records;  // the op's subtree records, breadth-first
  double size_kb = 0;             // Σ sizes, in record order
  DualSum duration;               // Σ record durations
};

struct MemoryRow {
  MemorySide base;
  MemorySide comparison;
  double diff_kb = 0;  // round(comp − base, 2)
  double ratio = 1;    // 1.0 both 0, +inf base 0, else round(comp/base, 4)
};

struct MemoryStatSide {
  DualSum duration;     // shown: Ms (the reference: Σ over the ops of Σ record µs / 1000)
  double size_mb = 0;   // Σ over the ops of Σ size / 1024
  int64_t count = 0;    // ops of the name
};

struct MemoryStatRow {
  std::string_view name;  // raw op name
  MemoryStatSide base;
  MemoryStatSide comparison;
  double diff_mb = 0;
  double ratio = 1;
};

struct MemorySideSummary {
  bool has_data = false;   // the side has memory records
  uint64_t records = 0;    // records built
  uint64_t placed = 0;     // ... attached to an op (not to the tree's root)
  uint64_t shown = 0;      // ... in the subtree of a paired op
  double size_kb = 0;      // Σ size of the shown records
  int64_t duration_ns = 0; // Σ duration of the shown records
};

struct MemoryComparison {
  bool details = true;  // !disable_details: the MemoryCompare sheet is produced
  ReferencePolicy policy;
  const Profile* base = nullptr;
  const Profile* comparison = nullptr;
  // The operator trees of the pairing (the records' owners index them): the run's shared pairing's,
  // or `owned`'s when the comparison built its own.
  const OpTree& base_tree() const { return *base_tree_; }
  const OpTree& comparison_tree() const { return *comparison_tree_; }
  const OpTree* base_tree_ = nullptr;
  const OpTree* comparison_tree_ = nullptr;
  std::shared_ptr<const OperatorPairing> owned;
  PlacedMemory base_memory;
  PlacedMemory comparison_memory;
  std::vector<MemoryRow> rows;        // in pairing order
  std::vector<MemoryStatRow> stats;   // sorted by diff_mb descending (stable)
  MemorySideSummary base_summary;
  MemorySideSummary comparison_summary;
  std::vector<std::string> warnings;    // the pairing's (a step without operators)
  std::vector<std::string> no_records;  // why a side has no memory records
};

// The timelines' profiles must outlive the result.
MemoryComparison CompareMemory(const Timeline& base, const Timeline& comparison, const ReferencePolicy& policy,
                               const OperatorCompareOptions& options);
// The same on the run's shared pairing (which must outlive the result).
MemoryComparison CompareMemory(const Timeline& base, const Timeline& comparison, const ReferencePolicy& policy,
                               SharedOperatorPairing& pairing);

}  // namespace profdiff::analysis
