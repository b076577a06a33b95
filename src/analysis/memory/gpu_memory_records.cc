// GPU memory records from Kineto [memory] events (docs/reference/memory.md#building-memory-records,
// first bullet).
#include <algorithm>
#include <cstddef>
#include <map>

#include "profdiff/analysis/memory/memory_records.h"

namespace profdiff::analysis {

std::vector<MemoryRecord> BuildGpuMemoryRecords(const std::vector<MemoryEvent>& events,
                                                const ReferencePolicy& policy) {
  std::vector<const MemoryEvent*> sorted;
  for (const MemoryEvent& e : events) {
    if (e.device_id >= 0) sorted.push_back(&e);
  }
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const MemoryEvent* a, const MemoryEvent* b) { return a->ts_ns < b->ts_ns; });

  std::vector<MemoryRecord> out;
  // Open allocations by address, each with its allocation's position in the replay: the records
  // still open at the end are emitted in allocation order.
  struct Open {
    MemoryRecord record;
    size_t seq = 0;
  };
  std::map<uint64_t, Open> open;
  size_t seq = 0;
  for (const MemoryEvent* e : sorted) {
    if (e->bytes > 0) {
      auto it = open.find(e->addr);
      if (it != open.end()) {
        out.push_back(it->second.record);
        open.erase(it);
      }
      MemoryRecord r;
      r.size_kb = static_cast<double>(e->bytes) / 1024.0;
      r.ts_ns = e->ts_ns;
      r.allocation_ns = e->ts_ns;
      open.emplace(e->addr, Open{r, seq++});
    } else if (e->bytes < 0) {
      auto it = open.find(e->addr);
      if (it == open.end()) continue;  // a free without an open allocation is ignored
      MemoryRecord r = it->second.record;
      open.erase(it);
      const bool same_size = static_cast<double>(-e->bytes) / 1024.0 == r.size_kb;
      if (!same_size && policy.memory_drops_mismatched_free) continue;
      r.release_ns = e->ts_ns;
      out.push_back(r);
    }
  }
  std::vector<const Open*> left;
  for (const auto& [addr, o] : open) left.push_back(&o);
  std::sort(left.begin(), left.end(), [](const Open* a, const Open* b) { return a->seq < b->seq; });
  for (const Open* o : left) out.push_back(o->record);
  return out;
}

}  // namespace profdiff::analysis
