// Overall comparison (docs/reference/overall.md, docs/reference/numbers.md) on profiles built in
// code.
#include "profdiff/analysis/overall/overall.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numeric>

#include "../../common/profile_builder.h"
#include "profdiff/analysis/overall/gpu_overall.h"
#include "profdiff/analysis/overall/npu_overall.h"

namespace profdiff::analysis {
namespace {

using testing::ProfileBuilder;
constexpr int64_t us(int64_t x) { return x * 1000; }

ReferencePolicy Exact() { return MakeReferencePolicy(std::nullopt); }
// The oracles these tests restate are the reference's 8.2 line.
ReferencePolicy Compat() { return MakeReferencePolicy(ReferenceLine::k8_2); }

SideMetrics GpuSide(const Profile& p, const ReferencePolicy& policy) {
  return ComputeGpuSideMetrics(BuildTimeline(p, {}), KernelMasks::Defaults(), policy);
}
SideMetrics NpuSide(const Profile& p, const ReferencePolicy& policy) {
  return ComputeNpuSideMetrics(BuildTimeline(p, {}), KernelMasks::Defaults(), policy);
}
const OverallRow* FindRow(const OverallComparison& c, const std::string& label) {
  for (const auto& r : c.rows)
    if (r.label == label) return &r;
  return nullptr;
}
OverallComparison Compare(const Profile& base, const Profile& comparison, const ReferencePolicy& policy,
                          const OverallOptions& options = {}) {
  return CompareOverall(BuildTimeline(base, {}), BuildTimeline(comparison, {}), policy, options);
}

// ---- Interval measures ----------------------------------------------------------------------------

// docs/deviations.md #5: with overlapping events (e.g. two HCCL ops of a group that overlap) the
// reference's cursor walk counts the overlap twice; the exact intersection does not.
TEST(OverallIntervals, ReferenceOverlapDoubleCountsOverlappingEvents) {
  EXPECT_EQ(ReferenceOverlap({{0, 10}}, {{0, 6}, {2, 8}}), 12);  // more than |U| = 10
  EXPECT_EQ(IntersectionLength({{0, 10}}, {{0, 6}, {2, 8}}), 8);
  std::vector<Interval> u = {{0, us(10)}};
  std::vector<Interval> ops = {{0, us(6)}, {us(2), us(8)}};
  auto compat = GroupWaitTransmit(u, ops, {}, Compat());
  auto exact = GroupWaitTransmit(u, ops, {}, Exact());
  EXPECT_EQ(compat.second, us(12));
  EXPECT_EQ(exact.second, us(8));
}

// ---- GPU (docs/reference/overall.md#gpu-overall-metrics) ----------------------------------------

TEST(OverallGpu, MicrosecondGridVersusExact) {
  // [0.5 µs, 2.7 µs]: grid marks t = 1, 2 -> 2 µs; exact 2.2 µs.
  auto g = GpuBusyMicrosecondGrid({{500, 2700, false}});
  auto e = GpuBusyExact({{500, 2700, false}});
  EXPECT_EQ(g.first, 2000);
  EXPECT_EQ(e.first, 2200);
  // A sub-µs kernel inside one µs covers no mark.
  EXPECT_EQ(GpuBusyMicrosecondGrid({{10100, 10900, false}}).first, 0);
  EXPECT_EQ(GpuBusyExact({{10100, 10900, false}}).first, 800);
  // NCCL [20.5, 25] and compute [22, 30]: grid nccl marks 21..25, compute 23..30.
  std::vector<GpuKernelSpan> k = {{20500, 25000, true}, {22000, 30000, false}};
  EXPECT_EQ(GpuBusyMicrosecondGrid(k), (std::pair<int64_t, int64_t>{8000, 2000}));
  EXPECT_EQ(GpuBusyExact(k), (std::pair<int64_t, int64_t>{8000, 1500}));
}

// A small GPU timeline: kernels on stream 7 (compute) and 9 (NCCL), one on stream 0, a memcpy.
Profile MakeGpuProfile() {
  ProfileBuilder b(DeviceKind::kGpu);
  TrackId cpu = b.Track("100", "100");
  TrackId s7 = b.Track("0", "7");
  TrackId s9 = b.Track("0", "9");
  TrackId s0 = b.Track("0", "0");
  b.Add(cpu, SliceKind::kCpuOp, "aten::mm", "cpu_op", 900, 100);
  b.Add(cpu, SliceKind::kCpuOp, "aten::conv2d", "cpu_op", 3900, 100);
  b.Add(s7, SliceKind::kKernel, "volta_sgemm_128x64", "kernel", 1000, 2000, {{ArgKey::kStream, 7}});
  b.Add(s7, SliceKind::kKernel, "elementwise_kernel", "kernel", 4000, 1000, {{ArgKey::kStream, 7}});
  b.Add(s0, SliceKind::kKernel, "k0", "kernel", 0, 500, {{ArgKey::kStream, 0}});
  b.Add(s7, SliceKind::kGpuMemcpy, "Memcpy HtoD (Pageable -> Device)", "gpu_memcpy", 6000, 500, {{ArgKey::kStream, 7}});
  b.Add(s9, SliceKind::kKernel, "ncclKernel_AllReduce", "kernel", 4500, 3500, {{ArgKey::kStream, 9}});
  b.Flow(1, "ac2g", 910, cpu, 1000, s7);  // aten::mm -> sgemm
  b.Flow(2, "ac2g", 3910, cpu, 4000, s9);  // ends at the elementwise kernel's ts but on another track
  MemoryEvent mem;
  mem.device_id = 0;
  mem.total_reserved = int64_t{2} * 1024 * 1024 * 1024;
  b.p.memory_events.push_back(mem);
  return std::move(b.p);
}

TEST(OverallGpu, CompatQuirksStreamZeroGridAndTimestampOnlyFlows) {
  Profile p = MakeGpuProfile();
  SideMetrics m = GpuSide(p, Compat());
  EXPECT_EQ(m.e2e.Ns(), 7000);  // stream-0 kernel ignored: 1.0 .. 8.0 µs
  EXPECT_EQ(m.compute.Ns(), 3000);  // marks 2,3 (sgemm) and 5 (elementwise; the NCCL mark there is covered)
  EXPECT_EQ(m.comm_not_overlapped.Ns(), 3000);  // marks 6,7,8
  EXPECT_EQ(m.FreeTime().Ns(), 1000);
  EXPECT_EQ(m.sdma_stream.Ns(), 500);
  EXPECT_EQ(m.sdma_stream.count, 1);
  EXPECT_EQ(m.categories.Count(KernelCategory::kMatmulCube), 1);
  // Flow matched by timestamp only: the elementwise kernel is attributed to aten::conv2d.
  EXPECT_EQ(m.categories.Count(KernelCategory::kConvFwdVector), 1);
  EXPECT_EQ(m.categories.Count(KernelCategory::kVectorNoTrans), 1);  // k0 (stream 0)
  EXPECT_DOUBLE_EQ(m.memory_gib, 2.0);
}

TEST(OverallGpu, ExactCountsStreamZeroAndMatchesFlowsByTrack) {
  Profile p = MakeGpuProfile();
  SideMetrics m = GpuSide(p, Exact());
  EXPECT_EQ(m.e2e.Ns(), 8000);
  EXPECT_EQ(m.compute.Ns(), 3500);
  EXPECT_EQ(m.comm_not_overlapped.Ns(), 3000);
  EXPECT_EQ(m.FreeTime().Ns(), 1500);
  EXPECT_EQ(m.categories.Count(KernelCategory::kMatmulCube), 1);
  EXPECT_EQ(m.categories.Count(KernelCategory::kConvFwdVector), 0);
  EXPECT_EQ(m.categories.Count(KernelCategory::kVectorNoTrans), 2);
}

TEST(OverallGpu, NoComputeKernelMeansNoOverall) {
  ProfileBuilder b(DeviceKind::kGpu);
  TrackId s = b.Track("0", "7");
  b.Add(s, SliceKind::kKernel, "ncclKernel", "kernel", 0, 10, {{ArgKey::kStream, 7}});
  SideMetrics m = GpuSide(b.p, Exact());
  EXPECT_EQ(m.e2e.Ns(), 0);
  ASSERT_EQ(m.warnings.size(), 1u);
  EXPECT_NE(m.warnings[0].find("does not contain kernel running data"), std::string::npos);
}

// ---- NPU (docs/reference/overall.md#npu-text-overall-metrics, #communication-wait-transmit) -----

TEST(OverallNpu, WaitTransmitOracle) {
  // Plane 0: a real wait (100), then RDMA transfers whose Notify_Waits are excluded ("RR", "RRNR").
  std::vector<HcclTask> tasks = {
      {us(0), us(100), "Notify_Wait", 0},     {us(0), us(500), "Notify_Wait", 1},
      {us(100), us(200), "RDMASend", 0},      {us(200), us(300), "RDMASend", 0},
      {us(300), us(400), "Notify_Wait", 0},   {us(400), us(500), "RDMASend", 0},
      {us(500), us(600), "Notify_Wait", 0},
  };
  auto waits = SelectWaitTasks(tasks, 2);
  ASSERT_EQ(waits[0].size(), 1u);  // only [0, 100]
  ASSERT_EQ(waits[1].size(), 1u);
  std::vector<Interval> u = {{0, us(2200)}};
  std::vector<Interval> ops = {{0, us(2200)}};
  for (const ReferencePolicy& policy : {Compat(), Exact()}) {
    auto [wait, transmit] = GroupWaitTransmit(u, ops, waits, policy);  // plane 0 has the smaller wait
    EXPECT_EQ(wait, us(100));
    EXPECT_EQ(transmit, us(2100));
  }
  // A group without planes has no wait.
  auto [w0, t0] = GroupWaitTransmit(u, ops, {}, Exact());
  EXPECT_EQ(w0, 0);
  EXPECT_EQ(t0, us(2200));
}

TEST(OverallNpu, UncoveredRangesAndMc2Pairing) {
  auto r = UncoveredWithinOps({{0, 10}, {20, 30}}, {{5, 15}, {25, 35}});
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].start_ns, 5);
  EXPECT_EQ(r[0].end_ns, 10);
  EXPECT_EQ(r[1].start_ns, 25);
  EXPECT_EQ(r[1].end_ns, 30);
  // A U interval spanning two ops is clipped to each.
  auto s = UncoveredWithinOps({{0, 100}}, {{10, 20}, {30, 40}});
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[1].start_ns, 30);
  EXPECT_EQ(s[1].end_ns, 40);
  size_t cursor = 0;
  EXPECT_EQ(Mc2Communication({5, 10, 15, 20}, cursor, 0, 25), 10);
  EXPECT_EQ(cursor, 4u);
}

// An NPU profile with every ingredient of docs/reference/overall.md#npu-text-overall-metrics.
// `shift` changes the comparison side a little.
Profile MakeNpuProfile(int64_t extra_free_us = 0, bool with_pg = true) {
  ProfileBuilder b(DeviceKind::kNpu);
  TrackId cpu = b.Track("1", "1");
  TrackId hw1 = b.Track("2", "1");
  TrackId hw2 = b.Track("2", "2");
  TrackId hw0 = b.Track("2", "0");
  TrackId g0 = b.Track("3", "10", "Group 0 Communication", 1);
  TrackId p0 = b.Track("3", "11", "Plane 0", 2);
  TrackId g1 = b.Track("3", "20", "Group 1 Communication", 3);
  TrackId p1 = b.Track("3", "21", "Plane 0", 4);
  TrackId ov = b.Track("4", "1");
  auto task = [&](TrackId t, const char* name, int64_t ts, int64_t dur, int64_t stream, const char* type) {
    return b.Add(t, SliceKind::kNpuTask, name, "", us(ts), us(dur), {{ArgKey::kStreamId, stream}},
                 {{ArgKey::kTaskType, type}});
  };
  // SDMA stream (oracle of docs/reference/README.md#oracle-tests): EVENT_WAIT on 1, SDMA 30 on 1,
  // AI_CORE on 1 and 2 -> 30 / 1.
  task(hw1, "wait", 0, 1, 1, "EVENT_WAIT_SQE");
  task(hw1, "MatMul", 1, 4, 1, "AI_CORE");
  task(hw2, "Add", 1, 4, 2, "AI_CORE");
  task(hw1, "sdma", 10, 30, 1, "SDMA_SQE");
  task(hw2, "sdma", 10, 50, 2, "SDMA_SQE");  // stream 2 has no EVENT_WAIT: not a compute stream
  // Stream 0: skipped under npu_sdma_ignores_stream0 (the reference's quirk), counted by default.
  task(hw0, "wait", 0, 1, 0, "EVENT_WAIT_SQE");
  task(hw0, "Mul", 0, 1, 0, "AI_CORE");
  task(hw0, "sdma", 50, 7, 0, "SDMA_SQE");
  // LCCL: 100 + 50.
  task(hw2, "kernel_aivec", 60, 100, 2, "AI_VECTOR_CORE");
  task(hw2, "Kernel_AIVEC", 170, 50, 2, "AI_VECTOR_CORE");
  // MC2 communication SQEs: ends 5, 10, 15, 20 (shifted by 1000).
  for (int64_t end : {5, 10, 15, 20}) task(hw1, "C_CORE_SQE", 1000 + end - 1, 1, 1, "C_CORE");
  // Overlap lane (docs/reference/README.md#oracle-tests): Computing 100 + 30, Not Overlapped 50,
  // span 0..200 (+extra free).
  b.Add(ov, SliceKind::kOverlap, "Computing", "", 0, us(100));
  b.Add(ov, SliceKind::kOverlap, "Communication(Not Overlapped)", "", us(100), us(50));
  b.Add(ov, SliceKind::kOverlap, "Computing", "", us(150), us(30));
  b.Add(ov, SliceKind::kOverlap, "Free", "", us(180), us(20 + extra_free_us));
  // HCCL: group 0 op [100, 150], group 1 op [120, 150]; a wait on group 0's plane [100, 110].
  b.Add(g0, SliceKind::kHcclOp, "hcom_allReduce_1", "", us(100), us(50));
  b.Add(p0, SliceKind::kHcclTask, "Notify_Wait", "", us(100), us(10));
  b.Add(p0, SliceKind::kHcclTask, "Memcpy", "", us(110), us(40));
  b.Add(g1, SliceKind::kHcclOp, "hcom_broadcast_1", "", us(120), us(30));
  b.Add(p1, SliceKind::kHcclTask, "Memcpy", "", us(120), us(30));
  if (with_pg) b.p.npu.parallel_group_names["0"] = "tp";
  // Side tables.
  b.p.npu.has_memory_record = true;
  b.p.npu.memory_record = {.rows = 2, .peak_reserved_mb = 2048};
  b.p.npu.communication.present = true;
  CommunicationStep step;
  step.step = "step1";
  step.has_collective_bandwidth = true;
  step.collective_bandwidth["RDMA"] = {100, 10, 0};
  step.collective_bandwidth["SDMA"] = {30, 0, 0};
  b.p.npu.communication.steps.push_back(step);
  // kernel_details: a matmul launched by aten::mm, a trans vector kernel, an MC2 kernel.
  auto& kd = b.p.npu.kernel_details;
  kd.present = true;
  kd.has_aiv_vec_time = true;
  b.Add(cpu, SliceKind::kCpuOp, "aten::mm", "cpu_op", us(1), us(2));
  b.Flow(1, "async_npu", us(1), cpu, us(1), hw1);
  auto row = [&](const char* type, const char* name, int64_t start, int64_t dur, int64_t aicore) {
    KernelDetailRow r;
    r.type = b.p.strings.Intern(type);
    r.name = b.p.strings.Intern(name);
    r.start_ns = us(start);
    r.dur_ns = us(dur);
    r.mac_or_aicore_positive = aicore != kAbsentNs && aicore > 0;
    r.has_mac_or_vec_time = true;  // aiv_vec_time 0
    kd.rows.push_back(r);
    return &kd.rows.back();
  };
  row("MatMulV2", "MatMul_1", 1, 4, us(3));
  row("Cast", "Cast_1", 20, 2, kAbsentNs);
  row("Add", "Add_1", 22, 1, kAbsentNs);
  KernelDetailRow* mc2 = row("MatmulAllReduce", "MatmulAllReduce", 1000, 25, us(25));
  mc2->aic_mac_time_ns = us(10);
  mc2->aic_mte2_time_ns = us(20);
  mc2->aiv_time_ns = us(5);
  KernelDetailRow* invalid = row("Add", "Add_invalid", 30, 1, kAbsentNs);
  invalid->has_mac_or_vec_time = false;  // neither aiv_vec_time nor mac_time: skipped
  return std::move(b.p);
}

TEST(OverallNpu, SideMetricsOracles) {
  Profile p = MakeNpuProfile();
  SideMetrics m = NpuSide(p, Compat());
  EXPECT_EQ(m.compute.Ns(), us(130));
  EXPECT_EQ(m.comm_not_overlapped.Ns(), us(50));
  EXPECT_EQ(m.e2e.Ns(), us(200));
  EXPECT_EQ(m.lccl.Ns(), us(150));
  EXPECT_EQ(m.lccl.count, 2);
  EXPECT_EQ(m.sdma_stream.Ns(), us(30));
  EXPECT_EQ(m.sdma_stream.count, 1);
  EXPECT_DOUBLE_EQ(m.memory_gib, 2.0);
  ASSERT_TRUE(m.rdma_bandwidth_gb_s.has_value());
  EXPECT_DOUBLE_EQ(*m.rdma_bandwidth_gb_s, 10.0);
  EXPECT_DOUBLE_EQ(*m.sdma_bandwidth_gb_s, 0.0);  // transit time 0
  EXPECT_EQ(m.categories.Count(KernelCategory::kMatmulCube), 1);
  EXPECT_EQ(m.categories.Count(KernelCategory::kVectorTrans), 1);
  EXPECT_EQ(m.categories.Count(KernelCategory::kVectorNoTrans), 1);
  EXPECT_EQ(m.categories.Count(KernelCategory::kMc2), 1);
  ASSERT_EQ(m.mc2.size(), 1u);
  EXPECT_EQ(m.mc2[0].computing.Ns(), us(25));
  EXPECT_EQ(m.mc2[0].communication.Ns(), us(10));
  ASSERT_EQ(m.groups.size(), 2u);
  EXPECT_EQ(m.groups[0].name, "Group 0 Communication");
  EXPECT_EQ(m.groups[0].wait_ns, us(10));
  EXPECT_EQ(m.groups[0].transmit_ns, us(40));
  EXPECT_EQ(m.groups[1].wait_ns, 0);
  EXPECT_EQ(m.groups[1].transmit_ns, us(30));
  ASSERT_EQ(m.group_overlaps.size(), 1u);
  EXPECT_EQ(m.group_overlaps[0].overlap_ns, us(30));
  EXPECT_EQ(m.pg_names.at("Group 0 Communication"), "tp");

  SideMetrics e = NpuSide(p, Exact());
  EXPECT_EQ(e.sdma_stream.Ns(), us(37));  // stream 0 counted
  EXPECT_EQ(e.sdma_stream.count, 2);
  EXPECT_EQ(e.group_overlaps[0].overlap_ns, us(30));
}

TEST(OverallNpu, MissingBandwidthBlockIsNotFatal) {
  Profile p = MakeNpuProfile();
  p.npu.communication.steps[0].has_collective_bandwidth = false;
  SideMetrics m = NpuSide(p, Compat());
  EXPECT_FALSE(m.rdma_bandwidth_gb_s.has_value());
  EXPECT_FALSE(m.sdma_bandwidth_gb_s.has_value());
  ASSERT_FALSE(m.warnings.empty());
  EXPECT_EQ(m.e2e.Ns(), us(200));  // everything else still computed
}

TEST(OverallNpu, HideOpDetailsAndTraceLevel) {
  Profile p = MakeNpuProfile();
  p.npu.kernel_details.has_aiv_vec_time = false;  // neither mac_time nor aiv_vec_time column
  SideMetrics h = NpuSide(p, Exact());
  EXPECT_TRUE(h.hide_op_details);
  EXPECT_EQ(h.categories.Count(KernelCategory::kMatmulCube), 0);

  Profile t = MakeNpuProfile();
  t.meta.path_level = "trace";
  SideMetrics m = NpuSide(t, Exact());
  EXPECT_TRUE(m.trace_level);
  EXPECT_FALSE(m.hide_op_details);
  EXPECT_EQ(m.memory_gib, 0);
  EXPECT_FALSE(m.rdma_bandwidth_gb_s.has_value());
  for (const DualSum& c : m.categories.sums) EXPECT_EQ(c.count, 0);
  EXPECT_EQ(m.compute.Ns(), us(130));
}

TEST(OverallNpu, NoOverlapLaneMeansNoRows) {
  ProfileBuilder b(DeviceKind::kNpu);
  SideMetrics m = NpuSide(b.p, Exact());
  EXPECT_EQ(m.e2e.Ns(), 0);
  ASSERT_FALSE(m.warnings.empty());
  EXPECT_EQ(m.warnings[0], "Failed to get overlap analysis data.");
  Profile other = MakeNpuProfile();
  OverallComparison c = Compare(b.p, other, Exact());
  EXPECT_TRUE(c.rows.empty());
  EXPECT_FALSE(c.base.has_overall);
  EXPECT_TRUE(c.comparison.has_overall);
}

// --gpu_flow_cat reaches the overall comparison through the Timeline (the reference applies it in
// its loader, so every comparison sees the same links).
TEST(OverallFlows, GpuFlowCatChangesWhichFlowsLinkKernels) {
  ProfileBuilder g(DeviceKind::kGpu);
  TrackId cpu = g.Track("100", "100");
  TrackId s7 = g.Track("0", "7");
  g.Add(cpu, SliceKind::kCpuOp, "aten::mm", "cpu_op", 900, 100);
  g.Add(s7, SliceKind::kKernel, "volta_sgemm_128x64", "kernel", 1000, 2000, {{ArgKey::kStream, 7}});
  g.Flow(1, "my_launch", 910, cpu, 1000, s7);
  for (const ReferencePolicy& policy : {Exact(), Compat()}) {
    OverallComparison by_default = Compare(g.p, g.p, policy);
    EXPECT_EQ(FindRow(by_default, "\tMatmul"), nullptr);
    EXPECT_NE(FindRow(by_default, "\tCube"), nullptr);  // no known flow: a cube kernel without its op
    TimelineOptions custom;
    custom.gpu_flow_cat = "my_launch";
    OverallComparison with_cat =
        CompareOverall(BuildTimeline(g.p, custom), BuildTimeline(g.p, custom), policy, OverallOptions{});
    ASSERT_NE(FindRow(with_cat, "\tMatmul"), nullptr);
    EXPECT_EQ(FindRow(with_cat, "\tMatmul")->base.number, 1);
    EXPECT_EQ(FindRow(with_cat, "\tCube"), nullptr);
  }
}

// docs/deviations.md #10: the reference stores "no flow" as a flow start of 0, so a kernel launched by
// an op starting at ts 0 loses its CPU op; profdiff's default keeps the link.
TEST(OverallFlows, FlowStartingAtZeroLinksByDefaultOnly) {
  ProfileBuilder g(DeviceKind::kGpu);
  TrackId cpu = g.Track("100", "100");
  TrackId s7 = g.Track("0", "7");
  g.Add(cpu, SliceKind::kCpuOp, "aten::mm", "cpu_op", 0, 100);
  g.Add(s7, SliceKind::kKernel, "volta_sgemm_128x64", "kernel", 1000, 2000, {{ArgKey::kStream, 7}});
  g.Flow(1, "ac2g", 0, cpu, 1000, s7);
  for (const ReferencePolicy& policy : {Exact(), Compat()}) {
    SideMetrics m = GpuSide(g.p, policy);
    EXPECT_EQ(m.categories.Count(KernelCategory::kMatmulCube), policy.zero_flow_start_is_no_flow ? 0 : 1);
    EXPECT_EQ(m.categories.Count(KernelCategory::kOtherCube), policy.zero_flow_start_is_no_flow ? 1 : 0);
  }
  // NPU: a kernel_details row at the flow's end; its op type says nothing, its CPU op says matmul.
  ProfileBuilder nb(DeviceKind::kNpu);
  nb.p = MakeNpuProfile();
  TrackId cpu_n = nb.Track("1", "1");  // MakeNpuProfile's CPU and hardware tracks
  TrackId hw1 = nb.Track("2", "1");
  nb.Add(cpu_n, SliceKind::kCpuOp, "aten::matmul", "cpu_op", 0, us(1));
  nb.Flow(9, "async_npu", 0, cpu_n, us(500), hw1);
  KernelDetailRow r;
  r.type = nb.p.strings.Intern("Cast");
  r.name = nb.p.strings.Intern("Cast_at_500");
  r.start_ns = us(500);
  r.dur_ns = us(2);
  r.mac_or_aicore_positive = true;  // aicore_time 1 us
  r.has_mac_or_vec_time = true;     // aiv_vec_time 0
  nb.p.npu.kernel_details.rows.push_back(r);
  SideMetrics exact = NpuSide(nb.p, Exact());
  SideMetrics compat = NpuSide(nb.p, Compat());
  EXPECT_EQ(exact.categories.Count(KernelCategory::kMatmulCube), 2);  // MatMul_1 and Cast_at_500
  EXPECT_EQ(compat.categories.Count(KernelCategory::kMatmulCube), 1);
  EXPECT_EQ(compat.categories.Count(KernelCategory::kOtherCube),
            exact.categories.Count(KernelCategory::kOtherCube) + 1);
}

// docs/deviations.md #11: a FusedInferAttention kernel of kernel_details.csv is flash attention by
// default and on the 26.1 line; the 8.2 line leaves it to the cube/vector rules.
TEST(OverallNpu, FusedInferAttentionCountsAsFlashAttentionExceptOnThe8Point2Line) {
  Profile p = MakeNpuProfile();
  KernelDetailRow r;
  r.type = p.strings.Intern("FusedInferAttentionScore");
  r.name = p.strings.Intern("FusedInferAttentionScore_1");
  r.start_ns = us(600);
  r.dur_ns = us(7);
  r.mac_or_aicore_positive = true;  // aicore_time 6 us
  r.has_mac_or_vec_time = true;     // aiv_vec_time 0
  p.npu.kernel_details.rows.push_back(r);
  for (const ReferencePolicy& policy :
       {Exact(), MakeReferencePolicy(ReferenceLine::k26_1), MakeReferencePolicy(ReferenceLine::k8_2)}) {
    SideMetrics m = NpuSide(p, policy);
    const int64_t fa = policy.fused_infer_attention_is_fa ? 1 : 0;
    EXPECT_EQ(m.categories.Count(KernelCategory::kFaFwdCube), fa) << PolicyModeName(policy);
    EXPECT_EQ(m.categories.Ns(KernelCategory::kFaFwdCube), fa * us(7));
    EXPECT_EQ(m.categories.Count(KernelCategory::kOtherCube), 1 - fa);
    OverallComparison c = Compare(p, p, policy);
    EXPECT_EQ(FindRow(c, "\tFlash Attention (Forward)") != nullptr, fa == 1);
  }
}

// ---- Rows, screen, summary ----------------------------------------------------------------------
// See docs/reference/overall.md#overallmetrics-sheet; docs/reference/overall.md#screen-table.

// ---- Exact communication split (docs/deviations.md row 12) ----------------------------------------

TEST(OverallNpu, ExactCommunicationSplitOnHandMadeIntervals) {
  // U ∩ ops = [10, 90] (80). Transmit tasks overlap each other ([20, 40], 20) and one is empty;
  // the waits of two planes overlap ([10, 70]) and overlap the transmit, which wins.
  CommunicationGroupSplit s =
      SplitUncoveredCommunication({{0, 100}}, {{10, 90}}, {{25, 40}, {20, 30}, {50, 50}}, {{30, 70}, {10, 60}});
  EXPECT_EQ(s.uncovered_ns, 80);
  EXPECT_EQ(s.transmit_ns, 20);
  EXPECT_EQ(s.wait_ns, 40);  // [10, 20] + [40, 70]
  EXPECT_EQ(s.idle_ns, 20);  // [70, 90]
  EXPECT_TRUE(s.group.empty());
  // Only the uncovered part of a wait counts; tasks outside the ops or U count nothing.
  s = SplitUncoveredCommunication({{0, 50}, {60, 100}}, {{0, 100}}, {{200, 300}}, {{40, 70}, {150, 160}});
  EXPECT_EQ(s.uncovered_ns, 90);
  EXPECT_EQ(s.transmit_ns, 0);
  EXPECT_EQ(s.wait_ns, 20);  // [40, 50] + [60, 70]
  EXPECT_EQ(s.idle_ns, 70);
  // Overlapping ops are one stretch of communication; zero-length tasks are nothing.
  s = SplitUncoveredCommunication({{0, 100}}, {{0, 60}, {40, 100}}, {{10, 10}}, {{20, 20}});
  EXPECT_EQ(s.uncovered_ns, 100);
  EXPECT_EQ(s.transmit_ns + s.wait_ns, 0);
  EXPECT_EQ(s.idle_ns, 100);
  s = SplitUncoveredCommunication({}, {{0, 10}}, {{0, 10}}, {{0, 10}});
  EXPECT_EQ(s.uncovered_ns + s.transmit_ns + s.wait_ns + s.idle_ns, 0);
}

// A group whose Plane 0 never waits (as on the 910B profiles): the reference's rule picks it, so
// its Wait is 0 and everything is Transmit; the exact split reads every plane.
Profile MakeWaitingNpuProfile() {
  ProfileBuilder b(DeviceKind::kNpu);
  TrackId hw = b.Track("2", "4", "Stream 4", 0);
  TrackId g0 = b.Track("3", "10", "Group 0 Communication", 1);
  TrackId p0 = b.Track("3", "11", "Plane 0", 2);
  TrackId p1 = b.Track("3", "12", "Plane 1", 3);
  TrackId p2 = b.Track("3", "13", "Plane 2", 4);
  TrackId ov = b.Track("4", "1");
  b.Add(ov, SliceKind::kOverlap, "Computing", "", 0, us(20));
  b.Add(ov, SliceKind::kOverlap, "Communication(Not Overlapped)", "", us(20), us(100));
  b.Add(g0, SliceKind::kHcclOp, "hcom_allReduce_1", "", us(20), us(100));
  b.Add(p0, SliceKind::kHcclTask, "Memcpy", "", us(20), us(5));
  b.Add(p1, SliceKind::kHcclTask, "Notify_Wait", "", us(25), us(55));
  b.Add(p1, SliceKind::kHcclTask, "Memcpy", "", us(80), us(10));
  b.Add(p1, SliceKind::kHcclTask, "Notify_Record", "", us(90), us(1));
  b.Add(p2, SliceKind::kHcclTask, "Notify Wait", "", us(30), us(40));  // the same instants, other spelling
  b.Add(p2, SliceKind::kHcclTask, "Reduce_Inline", "", us(85), us(15));
  // The hardware view of a wait is not on a plane of the group: not counted.
  b.Add(hw, SliceKind::kNpuTask, "Notify Wait", "", us(100), us(15), {{ArgKey::kStreamId, 4}},
        {{ArgKey::kTaskType, "Notify Wait"}});
  return std::move(b.p);
}

TEST(OverallNpu, ExactCommunicationSplitByDefaultTheReferenceRuleUnderCompat) {
  Profile p = MakeWaitingNpuProfile();
  SideMetrics e = NpuSide(p, Exact());
  ASSERT_EQ(e.groups.size(), 1u);
  const CommunicationGroupSplit& s = e.groups[0].split;
  EXPECT_EQ(s.group, "Group 0 Communication");
  EXPECT_EQ(s.uncovered_ns, us(100));
  EXPECT_EQ(s.transmit_ns, us(25));  // [20, 25] + [80, 100]
  EXPECT_EQ(s.wait_ns, us(55));      // [25, 80]
  EXPECT_EQ(s.idle_ns, us(20));      // [100, 120]
  EXPECT_EQ(e.groups[0].wait_ns, us(55));
  EXPECT_EQ(e.groups[0].transmit_ns, us(25));
  EXPECT_EQ(e.groups[0].uncovered_ns, us(100));
  EXPECT_EQ(e.wait_ns(), us(55));

  for (const ReferencePolicy& compat : {Compat(), MakeReferencePolicy(ReferenceLine::k26_1)}) {
    SideMetrics c = NpuSide(p, compat);
    ASSERT_EQ(c.groups.size(), 1u);
    EXPECT_EQ(c.groups[0].wait_ns, 0);  // Plane 0 has the least Notify_Wait time: none
    EXPECT_EQ(c.groups[0].transmit_ns, us(100));
    EXPECT_EQ(c.groups[0].uncovered_ns, us(100));
    EXPECT_EQ(c.groups[0].split.wait_ns, us(55));  // the split is kept in every mode
  }

  // Rows: the group row is the uncovered communication in both modes; Wait and Transmit follow
  // the mode. The summary carries the split.
  OverallComparison d = Compare(p, p, Exact());
  EXPECT_DOUBLE_EQ(FindRow(d, "\tGroup 0 Communication")->base.duration_ms, 0.1);
  EXPECT_DOUBLE_EQ(FindRow(d, "\t\tWait")->base.duration_ms, 0.055);
  EXPECT_DOUBLE_EQ(FindRow(d, "\t\tTransmit")->base.duration_ms, 0.025);
  ASSERT_EQ(d.base.communication_groups.size(), 1u);
  EXPECT_EQ(d.base.communication_groups[0].idle_ns, us(20));
  EXPECT_EQ(d.base.wait_ns, us(55));
  OverallComparison r = Compare(p, p, Compat());
  EXPECT_DOUBLE_EQ(FindRow(r, "\tGroup 0 Communication")->base.duration_ms, 0.1);
  EXPECT_EQ(FindRow(r, "\t\tWait"), nullptr);  // 0 on both sides: no row
  EXPECT_DOUBLE_EQ(FindRow(r, "\t\tTransmit")->base.duration_ms, 0.1);
  EXPECT_EQ(r.base.communication_groups.size(), 1u);
}

std::vector<std::string> Labels(const OverallComparison& c) {
  std::vector<std::string> out;
  for (const auto& r : c.rows) out.push_back(r.label);
  return out;
}

TEST(OverallRows, NpuVsNpuLabelsOrderAndValues) {
  Profile base = MakeNpuProfile(0, true);
  Profile comp = MakeNpuProfile(20, true);
  OverallComparison c = Compare(base, comp, Compat());
  std::vector<std::string> expected = {
      "Computing Time",
      "\tMatmulAllReduce",
      "\t\tComputing",
      "\t\tCommunication",
      "\tMatmul",
      "\t\tMatmul (Cube)",
      "\tVector",
      "\t\tVector (Trans)",
      "\t\tVector (No Trans)",
      "\tOther",
      "Uncovered Communication Time",
      "\ttp: Communication",
      "\t\tWait",
      "\t\tTransmit",
      "\tGroup 1 Communication",
      "\t\tTransmit",
      "\tUncovered Communication Overlapped",
      "\t\ttp & Group 1 Communication",
      "Free Time",
      "\tSDMA",
      "\tFree",
      "E2E Time",
  };
  EXPECT_EQ(Labels(c), expected);
  const OverallRow* computing = FindRow(c, "Computing Time");
  ASSERT_NE(computing, nullptr);
  EXPECT_EQ(computing->fill, RowFill::kBlue);
  EXPECT_EQ(computing->base.number, 3);  // MC2 not counted
  EXPECT_DOUBLE_EQ(computing->base.duration_ms, 0.13);
  EXPECT_DOUBLE_EQ(computing->base.duration_ratio, 0.13 / 0.2);
  const OverallRow* other = FindRow(c, "\tOther");
  ASSERT_NE(other, nullptr);  // 130 - (4 + 2 + 1 + 25) = 98 µs
  EXPECT_NEAR(other->base.duration_ms, 0.098, 1e-12);
  EXPECT_FALSE(other->base.number.has_value());
  const OverallRow* e2e = FindRow(c, "E2E Time");
  EXPECT_DOUBLE_EQ(e2e->comparison.duration_ms, 0.22);
  EXPECT_EQ(e2e->diff_ms, 0.02);
  EXPECT_EQ(e2e->diff_ratio, 1.1);
  EXPECT_EQ(e2e->base.duration_ratio, 1);
  const OverallRow* free_row = FindRow(c, "\tFree");  // free 200-130-150-50 < 0 ... minus SDMA
  EXPECT_DOUBLE_EQ(free_row->base.duration_ms, (200.0 - 130 - 150 - 50 - 30) / 1000);
  const OverallRow* group = FindRow(c, "\ttp: Communication");
  EXPECT_EQ(group->fill, RowFill::kLightBlue);
  EXPECT_EQ(group->indent, 1);
  EXPECT_DOUBLE_EQ(group->base.duration_ms, 0.05);
  EXPECT_EQ(FindRow(c, "\t\tTransmit")->indent, 2);
  EXPECT_EQ(FindRow(c, "\t\tTransmit")->fill, RowFill::kNone);
}

TEST(OverallRows, GroupsOnlyOnOneSideAndNamesWithoutPg) {
  Profile base = MakeNpuProfile(0, false);
  Profile comp = MakeNpuProfile(0, false);
  // Rename the comparison's group 1 so it only exists there.
  for (auto& t : comp.tracks) {
    if (comp.str(t.name) == "Group 1 Communication") t.name = comp.strings.Intern("Group 7 Communication");
  }
  OverallComparison c = Compare(base, comp, Exact());
  auto labels = Labels(c);
  auto pos = [&](const std::string& l) { return std::find(labels.begin(), labels.end(), l) - labels.begin(); };
  ASSERT_LT(pos("\tGroup 0 Communication"), static_cast<long>(labels.size()));
  ASSERT_LT(pos("\tGroup 1 Communication"), pos("\tGroup 7 Communication"));
  const OverallRow* only_base = FindRow(c, "\tGroup 1 Communication");
  EXPECT_FALSE(only_base->comparison.present);
  EXPECT_EQ(only_base->comparison.duration_ms, 0);
  EXPECT_EQ(only_base->diff_ratio, 0);
  const OverallRow* only_comp = FindRow(c, "\tGroup 7 Communication");
  EXPECT_FALSE(only_comp->base.present);
  EXPECT_TRUE(std::isinf(only_comp->diff_ratio));
  // Overlap rows: base pair and comparison-only pair.
  EXPECT_NE(FindRow(c, "\t\tGroup 0 Communication & Group 1 Communication"), nullptr);
  EXPECT_NE(FindRow(c, "\t\tGroup 0 Communication & Group 7 Communication"), nullptr);
}

TEST(OverallScreen, CompatQuirksVersusDefault) {
  Profile base = MakeNpuProfile();
  // Base without waits: drop the Notify_Wait.
  for (auto& s : base.slices) {
    if (base.str(s.name) == "Notify_Wait") s.name = base.strings.Intern("Memcpy");
  }
  Profile comp = MakeNpuProfile();
  OverallComparison c = Compare(base, comp, Compat());
  std::map<std::string, std::pair<std::string, std::string>> cells;
  std::vector<std::string> headers;
  for (const auto& col : c.screen) {
    cells[col.header] = {col.base_cell, col.comparison_cell};
    headers.push_back(col.header);
  }
  EXPECT_EQ(cells["Uncovered Communication Time(Wait Time)"].first, " 0.000s( / )");
  EXPECT_EQ(cells["Uncovered Communication Time(Wait Time)"].second, " 0.000s(0.000s)");
  EXPECT_EQ(headers.back(), "E2E Time(Not minimal profiling)");
  EXPECT_EQ(cells["Cube Time(Num)"].first, "0.000s(1)");
  EXPECT_EQ(cells["Lccl Time(Num)"].first, "0.000s(2)");
  EXPECT_EQ(cells["Mem Usage"].first, "2.00G");
  EXPECT_EQ(cells["RDMA Bandwidth"].first, "10.000GB/s");
  EXPECT_EQ(cells.count("SDMA Bandwidth"), 0u);  // zero on both sides
  EXPECT_EQ(cells.count("Conv Time(Forward)(Num)"), 0u);
  EXPECT_EQ(cells["Other Time"].first, "0.000s");
  EXPECT_EQ(cells["SDMA Time(Num)"].first, "0.000s(1)");
  EXPECT_EQ(headers.front(), "Cube Time(Num)");

  OverallComparison d = Compare(base, comp, Exact());
  for (const auto& col : d.screen) {
    if (col.header == "Uncovered Communication Time(Wait Time)") {
      EXPECT_EQ(col.base_cell, "0.000s(0.000s)");
      EXPECT_EQ(col.comparison_cell, "0.000s(0.000s)");
    }
  }
}

TEST(OverallScreen, GpuHeaderAndHiddenOpDetails) {
  Profile g1 = MakeGpuProfile();
  Profile g2 = MakeGpuProfile();
  OverallComparison c = Compare(g1, g2, Exact());
  EXPECT_EQ(c.screen.back().header, "E2E Time");
  EXPECT_EQ(c.screen.back().base_cell, "0.000s");
  Profile n1 = MakeNpuProfile();
  n1.npu.kernel_details.has_aiv_vec_time = false;
  OverallComparison d = Compare(g1, n1, Exact());
  EXPECT_NE(d.screen.front().header, "Cube Time(Num)");  // hide_op_details on one side
  EXPECT_EQ(d.screen.back().header, "E2E Time(Not minimal profiling)");
}

TEST(OverallSummary, CategoriesSumToE2e) {
  for (const ReferencePolicy& policy : {Exact(), Compat()}) {
    OverallComparison c = Compare(MakeGpuProfile(), MakeNpuProfile(), policy);
    for (const SideSummary* s : {&c.base, &c.comparison}) {
      EXPECT_TRUE(s->has_overall);
      EXPECT_EQ(s->computing_ns + s->uncovered_communication_ns + s->free_ns, s->e2e_ns);
    }
    EXPECT_EQ(c.base.label, "GPU");
    EXPECT_EQ(c.comparison.label, "NPU");
    EXPECT_EQ(c.comparison.wait_ns, us(10));
  }
}

TEST(OverallRows, CustomMasksChangeCategories) {
  OverallOptions opt;
  KernelMasks masks = KernelMasks::Defaults();
  masks.matmul = {"nothing_matches"};
  opt.masks = masks;
  OverallComparison c = Compare(MakeGpuProfile(), MakeGpuProfile(), Exact(), opt);
  EXPECT_EQ(FindRow(c, "\tMatmul"), nullptr);
  EXPECT_NE(FindRow(c, "\tCube"), nullptr);  // sgemm is a cube kernel without its CPU op
}

}  // namespace
}  // namespace profdiff::analysis
