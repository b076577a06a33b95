// Memory records for the memory comparison (docs/reference/memory.md#memory-record-fields,
// #building-memory-records): one allocation each, with the timestamp that decides under which
// operator it is attached.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "profdiff/analysis/common/reference_policy.h"
#include "profdiff/model/profile.h"

namespace profdiff::analysis {

struct MemoryRecord {
  StringId name = kEmptyString;   // own name (CANN allocations); empty = the owning op's name
  double size_kb = 0;
  int64_t ts_ns = 0;              // where the record lands in the operator tree
  int64_t allocation_ns = 0;
  int64_t release_ns = kAbsentNs; // kAbsentNs: never released
};

// GPU: the trace's [memory] events (device id >= 0), replayed per address in timestamp order. An
// allocation at an address that is still open emits the open one unreleased; a free closes the
// address (see memory_drops_mismatched_free for a free of another size); allocations still open at
// the end are emitted unreleased. Records come out in the order they are emitted.
std::vector<MemoryRecord> BuildGpuMemoryRecords(const std::vector<MemoryEvent>& events,
                                                const ReferencePolicy& policy);

// NPU text export: the operator_memory.csv rows (profile.npu.operator_memory, file order) with an
// allocation time. A row whose Name contains "cann::" was allocated on the dequeue thread: its record
// takes its own name and lands at the start of the enqueue event of the dequeue event that holds the
// allocation (the dequeue with the greatest start <= allocation, which must end at or after it; the
// enqueue with the same correlation_id). Other rows land at their allocation time, unnamed. What
// happens to a "cann::" row without such a dequeue or enqueue is memory_drops_unqueued_cann_rows.
// Empty at "trace" path level (no side files are read there).
// Ascend DB export (OP_MEMORY): the same rule over the rows in the reference's order (by release
// time, never released first); with policy.memory_db_bytes_as_kb the sizes are the table's bytes
// used as KB, and with policy.memory_db_step_drops_unreleased and a `step` only the rows of the
// reference's step query (released at or after the step's start, allocated at or before its end).
std::vector<MemoryRecord> BuildNpuMemoryRecords(const Profile& profile, const ReferencePolicy& policy,
                                                std::optional<int64_t> step = std::nullopt);

}  // namespace profdiff::analysis
