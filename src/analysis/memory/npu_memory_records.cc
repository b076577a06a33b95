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

// The arg that links an enqueue to its dequeue: the trace's correlation_id, or in a DB export the
// PYTORCH_API connectionId the two rows share.
ArgKey QueueKey(const Profile& p) {
  return p.meta.format == SourceFormat::kAscendDb ? ArgKey::kConnectionId : ArgKey::kCorrelationId;
}

class QueueIndex {
 public:
  explicit QueueIndex(const Profile& p) : p_(p), key_(QueueKey(p)) {
    for (const Slice& s : p.slices) {
      if (s.kind == SliceKind::kDequeue) {
        dequeues_.push_back({s.ts_ns, &s});
      } else if (s.kind == SliceKind::kEnqueue) {
        const int64_t corr = p.ArgInt(s, key_);
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
    const int64_t corr = p_.ArgInt(dq, key_);
    auto e = enqueue_start_.find(corr);
    if (corr != kNoNumber && e != enqueue_start_.end()) m.enqueue_start_ns = e->second;
    return m;
  }

 private:
  const Profile& p_;
  ArgKey key_;
  std::vector<Dequeue> dequeues_;
  std::unordered_map<int64_t, int64_t> enqueue_start_;
};

// The reference's DB queue pairs (policy.memory_db_cann_rows_forward_cursor): per PYTORCH_API
// connectionId the last enqueue and the last dequeue row (with policy.memory_db_queue_enqueue_exact_name
// an enqueue is a queue row named exactly "Enqueue" and every other queue row a dequeue; otherwise
// the Enqueue*/Dequeue* rows), the ids with both, sorted by the dequeue's start; one cursor walks them
// forward for all the rows, which come in release order.
class DbQueueCursor {
 public:
  DbQueueCursor(const Profile& p, const ReferencePolicy& policy) {
    struct Ends {
      const Slice* enqueue = nullptr;
      const Slice* dequeue = nullptr;
    };
    std::vector<int64_t> order;
    std::unordered_map<int64_t, Ends> by_id;
    for (const Slice& s : p.slices) {
      const bool queue = s.kind == SliceKind::kEnqueue || s.kind == SliceKind::kDequeue ||
                         (s.kind == SliceKind::kOther && p.str(p.Cat(s)) == "queue");
      const int64_t id = queue ? p.ArgInt(s, ArgKey::kConnectionId) : kNoNumber;
      if (id == kNoNumber) continue;
      bool enqueue = s.kind == SliceKind::kEnqueue, dequeue = s.kind == SliceKind::kDequeue;
      if (policy.memory_db_queue_enqueue_exact_name) {
        enqueue = p.str(s.name) == "Enqueue";
        dequeue = !enqueue;
      }
      if (!enqueue && !dequeue) continue;
      auto [it, fresh] = by_id.try_emplace(id);
      if (fresh) order.push_back(id);
      (enqueue ? it->second.enqueue : it->second.dequeue) = &s;
    }
    for (int64_t id : order) {
      const Ends& e = by_id[id];
      if (e.enqueue != nullptr && e.dequeue != nullptr)
        pairs_.push_back({e.enqueue->ts_ns, e.dequeue->ts_ns, e.dequeue});
    }
    std::stable_sort(pairs_.begin(), pairs_.end(),
                     [](const Pair& a, const Pair& b) { return a.dequeue_start_ns < b.dequeue_start_ns; });
  }

  // The enqueue start a "cann::" row allocated at `allocation_ns` lands at; nullopt drops the row.
  std::optional<int64_t> Next(int64_t allocation_ns) {
    while (next_ < pairs_.size()) {
      const Pair& q = pairs_[next_];
      if (allocation_ns < q.dequeue_start_ns) return std::nullopt;
      if (!AtOrBeforeEnd(allocation_ns, *q.dequeue)) {
        ++next_;
        continue;
      }
      return q.enqueue_start_ns;
    }
    return std::nullopt;
  }

 private:
  struct Pair {
    int64_t enqueue_start_ns;
    int64_t dequeue_start_ns;
    const Slice* dequeue;
  };
  std::vector<Pair> pairs_;
  size_t next_ = 0;
};

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
  const bool db = profile.meta.format == SourceFormat::kAscendDb;
  // One of the two ways to a cann:: row's enqueue, each built by one pass over the slices.
  std::optional<DbQueueCursor> cursor;
  std::optional<QueueIndex> queues;
  if (db && policy.memory_db_cann_rows_forward_cursor) {
    cursor.emplace(profile, policy);
  } else {
    queues.emplace(profile);
  }
  const double size_scale = db && policy.memory_db_bytes_as_kb ? 1024.0 : 1.0;
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
      if (!(db && policy.memory_db_records_unnamed)) r.name = row.name;
      if (cursor) {
        const std::optional<int64_t> at = cursor->Next(row.allocation_ns);
        if (!at) continue;  // dropped
        r.ts_ns = *at;
        out.push_back(r);
        continue;
      }
      const QueueIndex::Match m = queues->For(row.allocation_ns);
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
