// NPU memory records from operator_memory.csv (docs/reference/memory.md#building-memory-records,
// "NPU text").
#include <algorithm>
#include <optional>
#include <string_view>
#include <unordered_map>

#include "profdiff/analysis/memory/memory_records.h"

namespace profdiff::analysis {
namespace {

struct Dequeue {
  int64_t start_ns = 0;
  const Slice* slice = nullptr;
};

// Whether `ts_ns` lies at or before the end of `s`, the end taken exactly (durations may carry
// sub-ns digits).
bool AtOrBeforeEnd(int64_t ts_ns, const Slice& s) {
  const int64_t after_start_ns = ts_ns - s.ts_ns;
  if (after_start_ns != s.dur_ns) return after_start_ns < s.dur_ns;
  return after_start_ns * Slice::kE5PerNs <= s.dur_e5();  // at the rounded end: exactly
}

class QueueIndex {
 public:
  explicit QueueIndex(const Profile& p) : p_(p) {
    for (const Slice& s : p.slices) {
      if (s.kind == SliceKind::kDequeue) {
        dequeues_.push_back({s.ts_ns, &s});
      } else if (s.kind == SliceKind::kEnqueue) {
        const int64_t corr = p.ArgInt(s, ArgKey::kCorrelationId);
        if (corr != kNoNumber) enqueue_start_[corr] = s.ts_ns;  // the last one of an id wins
      }
    }
    std::stable_sort(dequeues_.begin(), dequeues_.end(),
                     [](const Dequeue& a, const Dequeue& b) { return a.start_ns < b.start_ns; });
  }

  struct Match {
    bool in_dequeue = false;                 // a dequeue event holds the allocation
    std::optional<int64_t> enqueue_start_ns;  // ... and the enqueue of its correlation id starts here
  };
  Match For(int64_t allocation_ns) const {
    Match m;
    auto it = std::upper_bound(dequeues_.begin(), dequeues_.end(), allocation_ns,
                               [](int64_t ts, const Dequeue& d) { return ts < d.start_ns; });
    if (it == dequeues_.begin()) return m;
    const Slice& dq = *std::prev(it)->slice;
    if (!AtOrBeforeEnd(allocation_ns, dq)) return m;
    m.in_dequeue = true;
    const int64_t corr = p_.ArgInt(dq, ArgKey::kCorrelationId);
    auto e = enqueue_start_.find(corr);
    if (corr != kNoNumber && e != enqueue_start_.end()) m.enqueue_start_ns = e->second;
    return m;
  }

 private:
  const Profile& p_;
  std::vector<Dequeue> dequeues_;
  std::unordered_map<int64_t, int64_t> enqueue_start_;
};

}  // namespace

namespace {

// Ascend DB export: the OP_MEMORY rows in the order the reference reads them (ORDER BY releaseTime:
// never released first, ties in table order), which breaks ties between records placed at one time.
// With policy.memory_db_step_drops_unreleased and a step, only the rows of the reference's step
// query: releaseTime >= the STEP_TIME start and allocationTime <= its end (no row for a step that
// STEP_TIME lacks).
std::vector<const OperatorMemoryRow*> DbRowsInReadOrder(const Profile& profile, const ReferencePolicy& policy,
                                                        std::optional<int64_t> step) {
  std::vector<const OperatorMemoryRow*> rows;
  rows.reserve(profile.npu.operator_memory.size());
  const DbStep* window = nullptr;
  const bool step_query = step && policy.memory_db_step_drops_unreleased;
  if (step_query) {
    for (const DbStep& s : profile.npu.db.steps)
      if (s.id == *step) window = &s;
    if (window == nullptr) return rows;
  }
  for (const OperatorMemoryRow& row : profile.npu.operator_memory) {
    if (step_query && (row.release_ns == kAbsentNs || row.release_ns < window->start_ns ||
                       row.allocation_ns == kAbsentNs || row.allocation_ns > window->end_ns))
      continue;
    rows.push_back(&row);
  }
  std::stable_sort(rows.begin(), rows.end(), [](const OperatorMemoryRow* a, const OperatorMemoryRow* b) {
    return a->release_ns < b->release_ns;  // kAbsentNs (NULL) is the smallest
  });
  return rows;
}

std::vector<const OperatorMemoryRow*> RowsInReadOrder(const Profile& profile, const ReferencePolicy& policy,
                                                      std::optional<int64_t> step) {
  if (profile.meta.format == SourceFormat::kAscendDb) return DbRowsInReadOrder(profile, policy, step);
  std::vector<const OperatorMemoryRow*> rows;
  rows.reserve(profile.npu.operator_memory.size());
  for (const OperatorMemoryRow& row : profile.npu.operator_memory) rows.push_back(&row);
  return rows;
}

}  // namespace

std::vector<MemoryRecord> BuildNpuMemoryRecords(const Profile& profile, const ReferencePolicy& policy,
                                                std::optional<int64_t> step) {
  std::vector<MemoryRecord> out;
  if (profile.meta.path_level == "trace" || profile.npu.operator_memory.empty()) return out;
  const QueueIndex queues(profile);
  const double size_scale =
      profile.meta.format == SourceFormat::kAscendDb && policy.memory_db_bytes_as_kb ? 1024.0 : 1.0;
  const std::vector<const OperatorMemoryRow*> rows = RowsInReadOrder(profile, policy, step);
  out.reserve(rows.size());
  for (const OperatorMemoryRow* row_ptr : rows) {
    const OperatorMemoryRow& row = *row_ptr;
    // The reference skips a row whose allocation time is empty, "N/A" or 0.
    if (row.allocation_ns == kAbsentNs || row.allocation_ns == 0) continue;
    MemoryRecord r;
    r.size_kb = row.size_kb * size_scale;  // exact: the loader's bytes / 1024 times 1024
    r.allocation_ns = row.allocation_ns;
    r.release_ns = row.release_ns == 0 ? kAbsentNs : row.release_ns;
    r.ts_ns = row.allocation_ns;
    if (profile.str(row.name).find("cann::") != std::string_view::npos) {
      r.name = row.name;
      const QueueIndex::Match m = queues.For(row.allocation_ns);
      if (policy.memory_drops_unqueued_cann_rows) {
        if (!m.in_dequeue) continue;           // dropped
        r.ts_ns = m.enqueue_start_ns.value_or(0);  // time 0: under the root, never shown
      } else {
        r.ts_ns = m.enqueue_start_ns.value_or(row.allocation_ns);
      }
    }
    out.push_back(r);
  }
  return out;
}

}  // namespace profdiff::analysis
