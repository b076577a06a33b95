// Memory comparison (docs/reference/memory.md#memory-sheets): records placed under the operator
// trees, operators paired as the operator comparison pairs them, rows and statistics.
#include "profdiff/analysis/memory/memory_compare.h"

#include <algorithm>
#include <charconv>
#include <deque>
#include <numeric>

#include "profdiff/analysis/common/ordered_join.h"
#include "profdiff/analysis/common/python_numbers.h"
#include "profdiff/base/time.h"

namespace profdiff::analysis {
namespace {

// Whether `ts_ns` lies after the end of op `id` (the end taken exactly: Ascend durations may carry
// sub-ns digits).
bool AfterEnd(const OpTree& tree, const Profile& p, NodeId id, int64_t ts_ns) {
  const OpNode& n = tree.node(id);
  const int64_t after_start_ns = ts_ns - n.start_ns;
  const int64_t dur_ns = n.end_ns - n.start_ns;  // the duration rounded to the ns
  if (after_start_ns < dur_ns) return false;
  if (after_start_ns > dur_ns || n.slice == kNoSlice) return after_start_ns > dur_ns;
  return after_start_ns * Slice::kE5PerNs > p.slices[n.slice].dur_e5();  // at the rounded end: exactly
}

// The op a record at `ts_ns` is attached to: the last op (in start order, ops first on ties) that
// starts at or before it, or the nearest of its ancestors whose end is not before it.
NodeId OwnerAt(const OpTree& tree, const Profile& p, int64_t ts_ns) {
  // Nodes 1..size-1 are in creation order, which is start order.
  NodeId lo = 1, hi = static_cast<NodeId>(tree.size());
  while (lo < hi) {
    const NodeId mid = lo + (hi - lo) / 2;
    if (tree.node(mid).start_ns <= ts_ns) lo = mid + 1; else hi = mid;
  }
  NodeId id = lo - 1;  // 0 (the root) when no op starts at or before ts
  while (id != kRootNode && AfterEnd(tree, p, id, ts_ns)) id = tree.node(id).parent;
  return id;
}

MemorySide MakeSide(const Profile& p, const OpTree& tree, const PlacedMemory& placed, NodeId id,
                    const ReferencePolicy& policy) {
  MemorySide side;
  if (id == kNoNode) return side;
  side.present = true;
  side.slice = tree.node(id).slice;
  side.name = p.str(p.slices[side.slice].name);
  side.records = SubtreeMemory(tree, placed, id);
  for (uint32_t r : side.records) {
    side.size_kb += placed.records[r].size_kb;
    const MemoryRecord& rec = placed.records[r];
    side.duration.AddNsRefUs(MemoryDurationNs(rec), MemoryDurationUs(rec, p.meta, policy));
  }
  return side;
}

// Σ size / 1024 over one op's records, added in the reference's order.
double SizeMb(const MemorySide& s, const std::vector<MemoryRecord>& records) {
  double mb = 0;
  for (uint32_t r : s.records) mb += records[r].size_kb / 1024;
  return mb;
}

// MemoryCompareStatistic rows, unsorted: grouped by raw op name per side, base names first (first
// appearance), then comparison-only names.
std::vector<MemoryStatRow> Statistics(const MemoryComparison& cmp) {
  FirstSeenGroups<MemoryStatSide> base_groups, comparison_groups;
  auto add = [](MemoryStatSide& g, const MemorySide& s, const PlacedMemory& placed) {
    g.size_mb += SizeMb(s, placed.records);
    g.duration += s.duration;
    ++g.count;
  };
  for (const MemoryRow& r : cmp.rows) {
    if (r.base.present) add(base_groups[r.base.name], r.base, cmp.base_memory);
    if (r.comparison.present) add(comparison_groups[r.comparison.name], r.comparison, cmp.comparison_memory);
  }
  std::vector<MemoryStatRow> out;
  for (const MatchPair& j : OrderedJoin(base_groups.keys(), comparison_groups.keys())) {
    MemoryStatRow row;
    if (j.base != kNoIndex) {
      row.name = base_groups.keys()[j.base];
      row.base = base_groups.values()[j.base];
    }
    if (j.comparison != kNoIndex) {
      row.name = comparison_groups.keys()[j.comparison];
      row.comparison = comparison_groups.values()[j.comparison];
    }
    row.diff_mb = DiffMs(row.base.size_mb, row.comparison.size_mb, cmp.policy);
    row.ratio = DiffRatio(row.base.size_mb, row.comparison.size_mb, cmp.policy);
    out.push_back(row);
  }
  return out;
}

// A GPU side's records of the selected step (default mode): those allocated inside its host window.
std::vector<MemoryRecord> RecordsOf(const Timeline& t, const ReferencePolicy& policy, std::optional<int64_t> step) {
  const Profile& p = t.p();
  if (p.meta.device == DeviceKind::kNpu) return BuildNpuMemoryRecords(p, policy, step);
  std::vector<MemoryRecord> records = BuildGpuMemoryRecords(p.memory_events, policy);
  if (step && !policy.step_selection_npu_sides_only) {
    const auto w = t.HostWindow(*step);
    std::erase_if(records, [&](const MemoryRecord& r) {
      return !w || r.allocation_ns < w->first || r.allocation_ns >= w->second;
    });
  }
  return records;
}

// Why a side has no memory records (empty when it has some).
std::string NoRecordsReason(const Profile& p, const char* side) {
  const std::string who = std::string(side) + " (" + p.meta.input_path + ")";
  if (p.meta.device != DeviceKind::kNpu)
    return who + ": no device [memory] events (profiled without profile_memory=True?), so no memory records";
  if (p.meta.path_level == "trace")
    return who + ": an Ascend trace file alone has no operator_memory.csv; give the profile directory for memory records";
  if (!p.npu.has_operator_memory) return who + ": operator_memory.csv is missing or unreadable";
  return who + ": operator_memory.csv has no row with an allocation time that can be placed";
}

void Summarise(const MemoryComparison& cmp, bool base, MemorySideSummary& s) {
  const PlacedMemory& placed = base ? cmp.base_memory : cmp.comparison_memory;
  s.records = placed.records.size();
  s.has_data = s.records > 0;
  for (NodeId o : placed.owner) s.placed += o != kRootNode ? 1 : 0;
  int64_t duration_ns = 0;
  for (const MemoryRow& r : cmp.rows) {
    const MemorySide& side = base ? r.base : r.comparison;
    s.shown += side.records.size();
    s.size_kb += side.size_kb;
    duration_ns += side.duration.Ns();
  }
  s.duration_ns = duration_ns;
}

}  // namespace

int64_t MemoryDurationNs(const MemoryRecord& r) {
  if (r.release_ns == kAbsentNs || r.allocation_ns == kAbsentNs) return 0;
  return r.release_ns - r.allocation_ns;
}

double TimeAsFloatUs(int64_t ns) {
  const std::string text = FormatNsAsMicrosShortest(ns);
  double v = 0;
  std::from_chars(text.data(), text.data() + text.size(), v);
  return v;
}

bool MemoryTimesAsFloats(const ProfileMeta& meta, const ReferencePolicy& policy) {
  if (meta.format == SourceFormat::kAscendDb) return policy.memory_db_times_as_floats;
  return meta.device == DeviceKind::kGpu && policy.memory_gpu_times_as_floats;
}

double MemoryDurationUs(const MemoryRecord& r, const ProfileMeta& meta, const ReferencePolicy& policy) {
  const int64_t ns = MemoryDurationNs(r);
  if (policy.memory_zero_allocation_no_duration && r.allocation_ns == 0) return 0.0;
  if (ns == 0 || !MemoryTimesAsFloats(meta, policy)) return NsToUs(ns);
  return TimeAsFloatUs(r.release_ns) - TimeAsFloatUs(r.allocation_ns);
}

PlacedMemory PlaceMemoryRecords(const OpTree& tree, const Profile& profile, std::vector<MemoryRecord> records) {
  PlacedMemory out;
  out.records = std::move(records);
  out.owner.reserve(out.records.size());
  for (const MemoryRecord& r : out.records) out.owner.push_back(OwnerAt(tree, profile, r.ts_ns));
  // Each node's records by timestamp, ties in build order (the reference's stable sort).
  std::vector<uint32_t> order(out.records.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return out.records[a].ts_ns < out.records[b].ts_ns; });
  out.node_begin.assign(tree.size() + 1, 0);
  for (NodeId o : out.owner) ++out.node_begin[o + 1];
  for (size_t i = 1; i < out.node_begin.size(); ++i) out.node_begin[i] += out.node_begin[i - 1];
  std::vector<uint32_t> fill(out.node_begin.begin(), out.node_begin.end() - 1);
  out.node_records.resize(out.records.size());
  for (uint32_t r : order) out.node_records[fill[out.owner[r]]++] = r;
  return out;
}

std::vector<uint32_t> SubtreeMemory(const OpTree& tree, const PlacedMemory& placed, NodeId id) {
  std::vector<uint32_t> out;
  std::deque<NodeId> queue{id};
  while (!queue.empty()) {
    const NodeId n = queue.front();
    queue.pop_front();
    out.insert(out.end(), placed.node_records.begin() + placed.node_begin[n],
               placed.node_records.begin() + placed.node_begin[n + 1]);
    for (NodeId c : tree.children(n)) queue.push_back(c);
  }
  return out;
}

namespace {

// The comparison over `pairing`, whose trees `out` already points at.
void CompareOnPairing(const Timeline& base, const Timeline& comparison, const ReferencePolicy& policy,
                      const OperatorCompareOptions& options, const OperatorPairing& pairing, MemoryComparison& out);

}  // namespace

MemoryComparison CompareMemory(const Timeline& base, const Timeline& comparison, const ReferencePolicy& policy,
                               const OperatorCompareOptions& options) {
  MemoryComparison out;
  out.details = !options.disable_details;
  auto owned = std::make_shared<const OperatorPairing>(PairOperators(base, comparison, policy, options));
  out.owned = owned;
  CompareOnPairing(base, comparison, policy, options, *owned, out);
  return out;
}

MemoryComparison CompareMemory(const Timeline& base, const Timeline& comparison, const ReferencePolicy& policy,
                               SharedOperatorPairing& shared) {
  MemoryComparison out;
  out.details = !shared.options().disable_details;
  CompareOnPairing(base, comparison, policy, shared.options(), shared.Get(), out);
  return out;
}

namespace {

void CompareOnPairing(const Timeline& base, const Timeline& comparison, const ReferencePolicy& policy,
                      const OperatorCompareOptions& options, const OperatorPairing& pairing, MemoryComparison& out) {
  out.policy = policy;
  out.base = &base.p();
  out.comparison = &comparison.p();
  out.warnings = pairing.warnings;
  out.base_tree_ = &pairing.base_tree;
  out.comparison_tree_ = &pairing.comparison_tree;
  out.base_memory = PlaceMemoryRecords(out.base_tree(), base.p(), RecordsOf(base, policy, options.base_step));
  out.comparison_memory = PlaceMemoryRecords(out.comparison_tree(), comparison.p(),
                                             RecordsOf(comparison, policy, options.comparison_step));
  if (out.base_memory.records.empty()) out.no_records.push_back(NoRecordsReason(base.p(), "base"));
  if (out.comparison_memory.records.empty()) out.no_records.push_back(NoRecordsReason(comparison.p(), "comparison"));

  out.rows.reserve(pairing.pairs.size());
  for (const NodePair& np : pairing.pairs) {
    MemoryRow row;
    row.base = MakeSide(base.p(), out.base_tree(), out.base_memory, np.base, policy);
    row.comparison = MakeSide(comparison.p(), out.comparison_tree(), out.comparison_memory, np.comparison, policy);
    row.diff_kb = DiffMs(row.base.size_kb, row.comparison.size_kb, policy);
    row.ratio = DiffRatio(row.base.size_kb, row.comparison.size_kb, policy);
    out.rows.push_back(std::move(row));
  }
  out.stats = Statistics(out);
  std::stable_sort(out.stats.begin(), out.stats.end(),
                   [](const MemoryStatRow& a, const MemoryStatRow& b) { return a.diff_mb > b.diff_mb; });
  Summarise(out, true, out.base_summary);
  Summarise(out, false, out.comparison_summary);
}

}  // namespace

}  // namespace profdiff::analysis
