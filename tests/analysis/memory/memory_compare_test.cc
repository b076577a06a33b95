// NPU memory records and the memory comparison on hand-built profiles
// (docs/reference/memory.md#building-memory-records, #memory-sheets).
#include "profdiff/analysis/memory/memory_compare.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../../common/profile_builder.h"

namespace profdiff::analysis {
namespace {

using testing::ProfileBuilder;

constexpr int64_t kUs = 1000;

void AddRow(Profile& p, std::string_view name, double size_kb, int64_t allocation_ns, int64_t release_ns) {
  OperatorMemoryRow r;
  r.name = p.strings.Intern(name);
  r.size_kb = size_kb;
  r.allocation_ns = allocation_ns;
  r.release_ns = release_ns;
  p.npu.operator_memory.push_back(r);
  p.npu.has_operator_memory = true;
}

// An Ascend profile with an enqueue (correlation 7) at 100 µs whose task is dequeued over
// [200, 300] µs, and a dequeue [500, 600] µs whose enqueue is missing (correlation 8).
Profile NpuWithQueues() {
  ProfileBuilder b(DeviceKind::kNpu);
  const TrackId main = b.Track("1", "1"), queue = b.Track("1", "2");
  b.Add(main, SliceKind::kEnqueue, "Enqueue", "enqueue", 100 * kUs, 10 * kUs, {{ArgKey::kCorrelationId, 7}});
  b.Add(queue, SliceKind::kDequeue, "Dequeue@x", "dequeue", 200 * kUs, 100 * kUs, {{ArgKey::kCorrelationId, 7}});
  b.Add(queue, SliceKind::kDequeue, "Dequeue@y", "dequeue", 500 * kUs, 100 * kUs, {{ArgKey::kCorrelationId, 8}});
  return std::move(b.p);
}

TEST(NpuMemoryRecords, CannRowsLandAtTheirEnqueueOthersAtTheirAllocation) {
  Profile p = NpuWithQueues();
  AddRow(p, "aten::empty", 2.5, 50 * kUs, 80 * kUs);
  AddRow(p, "cann::Conv2D", 4, 300 * kUs, kAbsentNs);  // at the dequeue's end: still inside
  AddRow(p, "aten::skipped", 1, kAbsentNs, 90 * kUs);  // no allocation time: not a record
  for (const ReferencePolicy& policy : {ExactPolicy(), ReferenceCompatPolicy(ReferenceLine::k8_2)}) {
    const std::vector<MemoryRecord> r = BuildNpuMemoryRecords(p, policy);
    ASSERT_EQ(r.size(), 2u);
    EXPECT_EQ(r[0].ts_ns, 50 * kUs);
    EXPECT_EQ(r[0].name, kEmptyString);
    EXPECT_EQ(MemoryDurationNs(r[0]), 30 * kUs);
    EXPECT_EQ(r[1].ts_ns, 100 * kUs);  // the enqueue's start
    EXPECT_EQ(p.str(r[1].name), "cann::Conv2D");
    EXPECT_EQ(MemoryDurationNs(r[1]), 0);  // never released
  }
  p.meta.path_level = "trace";  // a trace_view.json given alone has no side files
  EXPECT_TRUE(BuildNpuMemoryRecords(p, ExactPolicy()).empty());
}

TEST(NpuMemoryRecords, UnqueuedCannRowsDropOnlyUnderReferenceCompat) {
  Profile p = NpuWithQueues();
  AddRow(p, "cann::NoDequeue", 1, 400 * kUs, kAbsentNs);  // between the two dequeues
  AddRow(p, "cann::NoEnqueue", 2, 550 * kUs, kAbsentNs);  // its dequeue has no enqueue
  const std::vector<MemoryRecord> exact = BuildNpuMemoryRecords(p, ExactPolicy());
  ASSERT_EQ(exact.size(), 2u);
  EXPECT_EQ(exact[0].ts_ns, 400 * kUs);  // placed at its own allocation time
  EXPECT_EQ(exact[1].ts_ns, 550 * kUs);
  const std::vector<MemoryRecord> compat = BuildNpuMemoryRecords(p, ReferenceCompatPolicy(ReferenceLine::k26_1));
  ASSERT_EQ(compat.size(), 1u);  // the first is dropped
  EXPECT_EQ(compat[0].ts_ns, 0);   // the second lands at time 0, under the root
}

// An Ascend DB export (OP_MEMORY) with step 5 over [100, 900] µs: sizes are bytes / 1024 in the
// model, rows come in table order.
TEST(NpuMemoryRecords, DbRowsInReleaseOrderBytesAndStepQueryOnlyUnderReferenceCompat) {
  Profile p = NpuWithQueues();
  p.meta.format = SourceFormat::kAscendDb;
  p.npu.db.steps.push_back({5, 100 * kUs, 900 * kUs});
  AddRow(p, "a", 3.0, 300 * kUs, 700 * kUs);        // 3072 bytes
  AddRow(p, "b", 0.5, 200 * kUs, kAbsentNs);        // NULL releaseTime: never released
  AddRow(p, "c", 1.0, 150 * kUs, 400 * kUs);
  AddRow(p, "d", 2.0, 50 * kUs, 80 * kUs);          // released before the step
  auto ts = [](const std::vector<MemoryRecord>& r) {
    std::vector<int64_t> out;
    for (const MemoryRecord& m : r) out.push_back(m.ts_ns / kUs);
    return out;
  };
  // Every mode reads the rows in the reference's order: by release time, never released first.
  EXPECT_EQ(ts(BuildNpuMemoryRecords(p, ExactPolicy())), (std::vector<int64_t>{200, 50, 150, 300}));
  const ReferencePolicy old_line = ReferenceCompatPolicy(ReferenceLine::k8_2);
  const ReferencePolicy current = ReferenceCompatPolicy(ReferenceLine::k26_1);
  EXPECT_EQ(BuildNpuMemoryRecords(p, ExactPolicy())[0].size_kb, 0.5);
  EXPECT_EQ(BuildNpuMemoryRecords(p, current)[0].size_kb, 0.5);
  EXPECT_EQ(BuildNpuMemoryRecords(p, old_line)[0].size_kb, 512);  // 8.2: the bytes, as KB
  // With the step: the default keeps what the operator tree shows; the reference's step query drops
  // the unreleased allocation and the one released before the step.
  EXPECT_EQ(ts(BuildNpuMemoryRecords(p, ExactPolicy(), 5)), (std::vector<int64_t>{200, 50, 150, 300}));
  EXPECT_EQ(ts(BuildNpuMemoryRecords(p, current, 5)), (std::vector<int64_t>{150, 300}));
  EXPECT_TRUE(BuildNpuMemoryRecords(p, current, 6).empty());  // a step STEP_TIME lacks
  p.meta.format = SourceFormat::kAscendProfileDir;  // the text export: file order, KB as written
  EXPECT_EQ(ts(BuildNpuMemoryRecords(p, old_line, 5)), (std::vector<int64_t>{300, 200, 150, 50}));
  EXPECT_EQ(BuildNpuMemoryRecords(p, old_line)[1].size_kb, 0.5);
}

// A DB export's queue rows are linked by their PYTORCH_API connectionId. Enqueue A (id 1) at 100 µs is
// dequeued over [200, 300] µs, B (id 2, 110 µs) over [400, 500], and "Enqueue@y" (id 3, 130 µs) over
// [600, 650] by "Dequeue@y". The "cann::" rows come in release order: r1 at 250, r2 at 450, r3 at 220
// (in A, after the cursor left it), r4 at 620.
TEST(NpuMemoryRecords, DbCannRowsByConnectionIdAndTheReferenceCursor) {
  ProfileBuilder b(DeviceKind::kNpu);
  b.p.meta.format = SourceFormat::kAscendDb;
  const TrackId main = b.Track("1", "1"), queue = b.Track("1", "2");
  b.Add(main, SliceKind::kEnqueue, "Enqueue", "enqueue", 100 * kUs, 5 * kUs, {{ArgKey::kConnectionId, 1}});
  b.Add(main, SliceKind::kEnqueue, "Enqueue", "enqueue", 110 * kUs, 5 * kUs, {{ArgKey::kConnectionId, 2}});
  b.Add(main, SliceKind::kEnqueue, "Enqueue@y", "enqueue", 130 * kUs, 5 * kUs, {{ArgKey::kConnectionId, 3}});
  b.Add(queue, SliceKind::kDequeue, "Dequeue@a", "dequeue", 200 * kUs, 100 * kUs, {{ArgKey::kConnectionId, 1}});
  b.Add(queue, SliceKind::kDequeue, "Dequeue@b", "dequeue", 400 * kUs, 100 * kUs, {{ArgKey::kConnectionId, 2}});
  b.Add(queue, SliceKind::kDequeue, "Dequeue@y", "dequeue", 600 * kUs, 50 * kUs, {{ArgKey::kConnectionId, 3}});
  Profile p = std::move(b.p);
  AddRow(p, "cann::r1", 1, 250 * kUs, 600 * kUs);
  AddRow(p, "cann::r2", 1, 450 * kUs, 700 * kUs);
  AddRow(p, "cann::r3", 1, 220 * kUs, 800 * kUs);
  AddRow(p, "cann::r4", 1, 620 * kUs, 900 * kUs);
  auto ts = [](const std::vector<MemoryRecord>& r) {
    std::vector<int64_t> out;
    for (const MemoryRecord& m : r) out.push_back(m.ts_ns / kUs);
    return out;
  };
  // Default: each row at the enqueue of the dequeue holding it, with its own name.
  const std::vector<MemoryRecord> exact = BuildNpuMemoryRecords(p, ExactPolicy());
  EXPECT_EQ(ts(exact), (std::vector<int64_t>{100, 110, 100, 130}));
  EXPECT_EQ(p.str(exact[0].name), "cann::r1");
  // 26.1: one forward cursor; r3 comes after the cursor left A and is dropped; no own names.
  const std::vector<MemoryRecord> current = BuildNpuMemoryRecords(p, ReferenceCompatPolicy(ReferenceLine::k26_1));
  EXPECT_EQ(ts(current), (std::vector<int64_t>{100, 110, 130}));
  EXPECT_EQ(current[0].name, kEmptyString);
  // 8.2: "Enqueue@y" is a dequeue, so id 3 has no enqueue and r4 is dropped too.
  EXPECT_EQ(ts(BuildNpuMemoryRecords(p, ReferenceCompatPolicy(ReferenceLine::k8_2))),
            (std::vector<int64_t>{100, 110}));
}

TEST(MemoryCompare, DbTimesAreDoublesOnlyUnderReferenceCompat) {
  MemoryRecord r;
  r.allocation_ns = 1736410576404541230;  // 1736410576404541.25 as a double
  r.release_ns = 1736410576404576260;     // 1736410576404576.25
  ProfileMeta db;
  db.device = DeviceKind::kNpu;
  db.format = SourceFormat::kAscendDb;
  EXPECT_FALSE(MemoryTimesAsFloats(db, ExactPolicy()));
  EXPECT_TRUE(MemoryTimesAsFloats(db, ReferenceCompatPolicy(ReferenceLine::k26_1)));
  EXPECT_DOUBLE_EQ(MemoryDurationUs(r, db, ExactPolicy()), 35.03);
  EXPECT_EQ(MemoryDurationUs(r, db, ReferenceCompatPolicy(ReferenceLine::k26_1)), 35.0);
  EXPECT_EQ(TimeAsFloatUs(r.allocation_ns), 1736410576404541.25);
  db.format = SourceFormat::kAscendProfileDir;  // the text export's times are decimals
  EXPECT_DOUBLE_EQ(MemoryDurationUs(r, db, ReferenceCompatPolicy(ReferenceLine::k26_1)), 35.03);
}

// Base: A [0, 1000] µs with child B [100, 200] µs; comparison: A [0, 1000] µs alone. Records are
// allocated by non-cann rows at their own time.
struct Pair {
  Profile base;
  Profile comparison;
};
Pair TwoTrees() {
  ProfileBuilder b(DeviceKind::kNpu), c(DeviceKind::kNpu);
  const TrackId bt = b.Track("1", "1"), ct = c.Track("1", "1");
  b.Add(bt, SliceKind::kCpuOp, "A", "cpu_op", 0, 1000 * kUs);
  b.Add(bt, SliceKind::kCpuOp, "B", "cpu_op", 100 * kUs, 100 * kUs);
  c.Add(ct, SliceKind::kCpuOp, "A", "cpu_op", 0, 1000 * kUs);
  AddRow(b.p, "m1", 1024, 500 * kUs, 700 * kUs);  // after B's end: back up to A
  AddRow(b.p, "m2", 512, 150 * kUs, 160 * kUs);   // inside B
  AddRow(b.p, "m3", 256, 2000 * kUs, 2100 * kUs); // after every op: the root, never shown
  AddRow(c.p, "m4", 2048, 1000 * kUs, 1001 * kUs);  // at A's end: still A's
  return {std::move(b.p), std::move(c.p)};
}

TEST(MemoryCompare, PlacesRecordsUnderTheCursorOpAndShowsSubtreesBreadthFirst) {
  const Pair pr = TwoTrees();
  const Timeline bt = BuildTimeline(pr.base, {}), ct = BuildTimeline(pr.comparison, {});
  const MemoryComparison cmp = CompareMemory(bt, ct, ExactPolicy(), {});
  ASSERT_EQ(cmp.rows.size(), 1u);
  const MemoryRow& r = cmp.rows[0];
  ASSERT_TRUE(r.base.present && r.comparison.present);
  // A's own record (m1, at 500 µs) first, then B's (m2) — not in timestamp order.
  ASSERT_EQ(r.base.records.size(), 2u);
  EXPECT_EQ(cmp.base_memory.records[r.base.records[0]].allocation_ns, 500 * kUs);
  EXPECT_EQ(cmp.base_memory.records[r.base.records[1]].allocation_ns, 150 * kUs);
  EXPECT_EQ(cmp.base_memory.owner[2], kRootNode);
  EXPECT_DOUBLE_EQ(r.base.size_kb, 1536);
  EXPECT_DOUBLE_EQ(r.comparison.size_kb, 2048);
  EXPECT_DOUBLE_EQ(r.diff_kb, 512);
  EXPECT_DOUBLE_EQ(r.ratio, 2048.0 / 1536);  // exact in the default mode (1.3333 under the reference's rounding)
  EXPECT_EQ(r.base.duration.Ns(), 210 * kUs);
  EXPECT_EQ(cmp.base_summary.records, 3u);
  EXPECT_EQ(cmp.base_summary.placed, 2u);
  EXPECT_EQ(cmp.base_summary.shown, 2u);
  EXPECT_TRUE(cmp.warnings.empty() && cmp.no_records.empty());
}

// The reference's statistic example: two ops with two records of 10240 KB / 2000 µs each against one
// such op -> [name, 8.0, 40.0, 2, 4.0, 20.0, 1, -20.0, 0.5].
TEST(MemoryCompare, StatisticGroupsByNameAndSortsByMemoryDiff) {
  ProfileBuilder b(DeviceKind::kNpu), c(DeviceKind::kNpu);
  const TrackId bt = b.Track("1", "1"), ct = c.Track("1", "1");
  for (int64_t start : {0, 10000}) {
    b.Add(bt, SliceKind::kCpuOp, "op", "cpu_op", start * kUs, 5000 * kUs);
    for (int i = 0; i < 2; ++i) AddRow(b.p, "x", 10240, (start + 1 + i) * kUs, (start + 2001 + i) * kUs);
  }
  c.Add(ct, SliceKind::kCpuOp, "op", "cpu_op", 0, 5000 * kUs);
  c.Add(ct, SliceKind::kCpuOp, "other", "cpu_op", 6000 * kUs, 10 * kUs);
  for (int i = 0; i < 2; ++i) AddRow(c.p, "x", 10240, (1 + i) * kUs, (2001 + i) * kUs);
  AddRow(c.p, "y", 1024, 6001 * kUs, 6002 * kUs);
  const Timeline btl = BuildTimeline(b.p, {}), ctl = BuildTimeline(c.p, {});
  for (const ReferencePolicy& policy : {ExactPolicy(), ReferenceCompatPolicy(ReferenceLine::k8_2)}) {
    const MemoryComparison cmp = CompareMemory(btl, ctl, policy, {});
    ASSERT_EQ(cmp.stats.size(), 2u);
    EXPECT_EQ(cmp.stats[0].name, "other");  // +1 MB sorts before -20 MB
    const MemoryStatRow& s = cmp.stats[1];
    EXPECT_EQ(s.name, "op");
    EXPECT_DOUBLE_EQ(s.base.duration.Ms(policy), 8.0);
    EXPECT_DOUBLE_EQ(s.base.size_mb, 40.0);
    EXPECT_EQ(s.base.count, 2);
    EXPECT_DOUBLE_EQ(s.comparison.duration.Ms(policy), 4.0);
    EXPECT_DOUBLE_EQ(s.comparison.size_mb, 20.0);
    EXPECT_EQ(s.comparison.count, 1);
    EXPECT_DOUBLE_EQ(s.diff_mb, -20.0);
    EXPECT_DOUBLE_EQ(s.ratio, 0.5);
  }
}

TEST(MemoryCompare, SaysWhyASideHasNoRecords) {
  Pair pr = TwoTrees();
  pr.comparison.npu.operator_memory.clear();
  pr.comparison.npu.has_operator_memory = false;
  pr.comparison.meta.input_path = "cmp_ascend_pt";
  const Timeline bt = BuildTimeline(pr.base, {}), ct = BuildTimeline(pr.comparison, {});
  const MemoryComparison cmp = CompareMemory(bt, ct, ExactPolicy(), {});
  ASSERT_EQ(cmp.no_records.size(), 1u);
  EXPECT_EQ(cmp.no_records[0], "comparison (cmp_ascend_pt): operator_memory.csv is missing or unreadable");
  EXPECT_FALSE(cmp.comparison_summary.has_data);
}

// The rows follow the operator pairing's options: --op_name_map pairs differently named ops,
// --disable_details pairs nothing, an NPU step keeps that step's operators.
TEST(MemoryCompare, FollowsTheOperatorPairingOptions) {
  ProfileBuilder b(DeviceKind::kNpu), c(DeviceKind::kNpu);
  const TrackId bt = b.Track("1", "1"), ct = c.Track("1", "1");
  b.Add(bt, SliceKind::kStepMarker, "ProfilerStep#7", "cpu_op", 0, 100 * kUs);
  b.Add(bt, SliceKind::kCpuOp, "aten::relu", "cpu_op", 10 * kUs, 10 * kUs);
  b.Add(bt, SliceKind::kStepMarker, "ProfilerStep#8", "cpu_op", 200 * kUs, 100 * kUs);
  b.Add(bt, SliceKind::kCpuOp, "aten::tanh", "cpu_op", 210 * kUs, 10 * kUs);
  c.Add(ct, SliceKind::kStepMarker, "ProfilerStep#7", "cpu_op", 0, 100 * kUs);
  c.Add(ct, SliceKind::kCpuOp, "aten::gelu", "cpu_op", 10 * kUs, 10 * kUs);
  AddRow(b.p, "x", 4, 12 * kUs, 13 * kUs);
  AddRow(b.p, "x", 8, 212 * kUs, 213 * kUs);
  AddRow(c.p, "x", 2, 12 * kUs, 13 * kUs);
  const Timeline btl = BuildTimeline(b.p, {}), ctl = BuildTimeline(c.p, {});

  OperatorCompareOptions o;
  o.base_step = 7;
  o.comparison_step = 7;
  o.op_name_map = {{"aten::gelu", "aten::relu"}};
  MemoryComparison cmp = CompareMemory(btl, ctl, ExactPolicy(), o);
  ASSERT_EQ(cmp.rows.size(), 1u);  // step 7 only; relu paired with gelu through the map
  EXPECT_EQ(cmp.rows[0].base.name, "aten::relu");
  EXPECT_EQ(cmp.rows[0].comparison.name, "aten::gelu");
  EXPECT_DOUBLE_EQ(cmp.rows[0].diff_kb, -2);
  ASSERT_EQ(cmp.stats.size(), 2u);  // the statistic groups by raw names

  o.disable_details = true;
  cmp = CompareMemory(btl, ctl, ExactPolicy(), o);
  EXPECT_FALSE(cmp.details);
  ASSERT_EQ(cmp.rows.size(), 2u);  // no matching: base items, then comparison items
  EXPECT_FALSE(cmp.rows[0].comparison.present);
  EXPECT_FALSE(cmp.rows[1].base.present);

  o = {};
  o.base_step = 9;  // a step the base does not have
  cmp = CompareMemory(btl, ctl, ExactPolicy(), o);
  ASSERT_EQ(cmp.warnings.size(), 1u);
  EXPECT_NE(cmp.warnings[0].find("step 9"), std::string::npos);
}

TEST(MemoryCompare, ZeroAllocationDurationOnlyUnderReferenceCompat) {
  MemoryRecord r;
  r.allocation_ns = 0;
  r.release_ns = 1500;
  ProfileMeta gpu;
  gpu.device = DeviceKind::kGpu;
  EXPECT_EQ(MemoryDurationNs(r), 1500);
  EXPECT_EQ(MemoryDurationUs(r, gpu, ExactPolicy()), 1.5);
  EXPECT_EQ(MemoryDurationUs(r, gpu, ReferenceCompatPolicy(ReferenceLine::k8_2)), 0.0);
  r.allocation_ns = 1000;
  EXPECT_EQ(MemoryDurationUs(r, gpu, ReferenceCompatPolicy(ReferenceLine::k8_2)), 0.5);
}

}  // namespace
}  // namespace profdiff::analysis
