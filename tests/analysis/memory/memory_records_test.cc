// GPU memory records from [memory] events (docs/reference/memory.md#building-memory-records).
#include "profdiff/analysis/memory/memory_records.h"

#include <gtest/gtest.h>

#include <vector>

namespace profdiff::analysis {
namespace {

MemoryEvent Ev(int64_t ts_ns, uint64_t addr, int64_t bytes, int64_t device_id = 0) {
  MemoryEvent e;
  e.ts_ns = ts_ns;
  e.addr = addr;
  e.bytes = bytes;
  e.device_id = device_id;
  return e;
}

// The spec's oracle: addr 3 never freed, addr 1 freed twice (second free ignored), addr 2 freed;
// input deliberately out of timestamp order.
TEST(GpuMemoryRecords, ReplaysPerAddressInTimestampOrder) {
  std::vector<MemoryEvent> events = {Ev(5, 2, -512), Ev(0, 3, 512), Ev(1, 1, 512), Ev(2, 1, -512),
                                     Ev(3, 1, -512), Ev(4, 2, 512), Ev(6, 9, 512, -1)};
  for (const ReferencePolicy& policy : {ExactPolicy(), ReferenceCompatPolicy(ReferenceLine::k8_2)}) {
    std::vector<MemoryRecord> r = BuildGpuMemoryRecords(events, policy);
    ASSERT_EQ(r.size(), 3u);  // the device -1 event is not a device allocation
    EXPECT_EQ(r[0].allocation_ns, 1);
    EXPECT_EQ(r[0].release_ns, 2);
    EXPECT_EQ(r[0].ts_ns, 1);
    EXPECT_DOUBLE_EQ(r[0].size_kb, 0.5);
    EXPECT_EQ(r[1].allocation_ns, 4);
    EXPECT_EQ(r[1].release_ns, 5);
    EXPECT_EQ(r[2].allocation_ns, 0);
    EXPECT_EQ(r[2].release_ns, kAbsentNs);
  }
}

TEST(GpuMemoryRecords, ReallocatingAnOpenAddressEmitsTheOldRecordUnreleased) {
  std::vector<MemoryEvent> events = {Ev(10, 7, 2048), Ev(20, 7, 1024), Ev(30, 7, -1024)};
  std::vector<MemoryRecord> r = BuildGpuMemoryRecords(events, ExactPolicy());
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].allocation_ns, 10);
  EXPECT_EQ(r[0].release_ns, kAbsentNs);
  EXPECT_DOUBLE_EQ(r[0].size_kb, 2.0);
  EXPECT_EQ(r[1].allocation_ns, 20);
  EXPECT_EQ(r[1].release_ns, 30);
}

TEST(GpuMemoryRecords, MismatchedFreeDropsOnlyUnderReferenceCompat) {
  std::vector<MemoryEvent> events = {Ev(10, 7, 2048), Ev(20, 7, -1024), Ev(30, 7, -2048)};
  std::vector<MemoryRecord> exact = BuildGpuMemoryRecords(events, ExactPolicy());
  ASSERT_EQ(exact.size(), 1u);
  EXPECT_EQ(exact[0].release_ns, 20);
  for (ReferenceLine line : {ReferenceLine::k8_2, ReferenceLine::k26_1}) {
    // The mismatched free closes the address, so the later matching free finds nothing either.
    EXPECT_TRUE(BuildGpuMemoryRecords(events, ReferenceCompatPolicy(line)).empty());
  }
}

}  // namespace
}  // namespace profdiff::analysis
