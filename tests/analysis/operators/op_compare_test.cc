// Operator and module comparison on small profiles built in code (docs/reference/operators.md,
// #module-comparison).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "../../common/profile_builder.h"
#include "profdiff/analysis/operators/operator_compare.h"

namespace profdiff::analysis {
namespace {

using testing::ProfileBuilder;

// A GPU profile with top-level cpu_ops named `names` (each 100 ns long, 1 µs apart), no kernels.
Profile OpsOnly(const std::vector<std::string>& names) {
  ProfileBuilder b(DeviceKind::kGpu);
  TrackId cpu = b.Track("1", "1");
  int64_t ts = 1000;
  for (const std::string& n : names) {
    b.Add(cpu, SliceKind::kCpuOp, n, "cpu_op", ts, 100);
    ts += 1000;
  }
  return std::move(b.p);
}

// CompareOperators on the profiles' timelines.
OperatorComparison Compare(const Profile& base, const Profile& comparison, const ReferencePolicy& policy = ExactPolicy(),
                           const OperatorCompareOptions& o = {}, const TimelineOptions& to = {}) {
  return CompareOperators(BuildTimeline(base, to), BuildTimeline(comparison, to), policy, o);
}

// --reference-compat on a release line (8.2 matches with the reference's recurrence).
ReferencePolicy Compat(ReferenceLine line = ReferenceLine::k8_2) { return ReferenceCompatPolicy(line); }

TEST(OperatorCompare, DefaultTrueLcsPairsMoreOperatorsThanTheReferenceRecurrence) {
  // docs/reference/operators.md#sequence-matching: B = [b, b, a, a], C = [a, a, b]: the reference's
  // recurrence pairs 1, a true LCS 2.
  Profile base = OpsOnly({"b", "b", "a", "a"});
  Profile comp = OpsOnly({"a", "a", "b"});
  OperatorComparison exact = Compare(base, comp);
  OperatorComparison compat = Compare(base, comp, Compat());
  EXPECT_EQ(exact.kind, OperatorCompareKind::kOperator);
  EXPECT_EQ(exact.matched, 2u);
  EXPECT_EQ(compat.matched, 1u);
  EXPECT_EQ(exact.base_items, 4u);
  EXPECT_EQ(exact.comparison_items, 3u);
  EXPECT_EQ(exact.operator_rows.size(), 5u);
  EXPECT_EQ(compat.operator_rows.size(), 6u);
  for (const OperatorRow& r : exact.operator_rows) {
    if (r.base.present && r.comparison.present) {
      EXPECT_EQ(r.base.name, r.comparison.name);
    }
  }
}

TEST(OperatorCompare, DisableDetailsIsNoMatching) {
  Profile base = OpsOnly({"a", "b"});
  Profile comp = OpsOnly({"a", "b"});
  OperatorCompareOptions o;
  o.disable_details = true;
  OperatorComparison r = Compare(base, comp, ExactPolicy(), o);
  EXPECT_FALSE(r.details);
  EXPECT_EQ(r.matched, 0u);
  ASSERT_EQ(r.operator_rows.size(), 4u);
  EXPECT_TRUE(r.operator_rows[0].base.present && !r.operator_rows[0].comparison.present);
  EXPECT_TRUE(!r.operator_rows[3].base.present && r.operator_rows[3].comparison.present);
  // Statistics still group both sides by name.
  ASSERT_EQ(r.operator_stats.size(), 2u);
  EXPECT_EQ(r.operator_stats[0].base_count, 1);
  EXPECT_EQ(r.operator_stats[0].comparison_count, 1);
}

// op1 [100, 200] with a cudaLaunchKernel child starting at the same ts; the flow starts at 100 and
// ends on a 50 ns kernel.
Profile SameStartLaunch(int64_t kernel_dur) {
  ProfileBuilder b(DeviceKind::kGpu);
  TrackId cpu = b.Track("1", "1");
  TrackId stream = b.Track("0", "stream 7");
  b.Add(cpu, SliceKind::kCpuOp, "op1", "cpu_op", 100, 100);
  b.Add(cpu, SliceKind::kCudaRuntime, "cudaLaunchKernel", "cuda_runtime", 100, 10);
  b.Add(stream, SliceKind::kKernel, "k1", "kernel", 300, kernel_dur);
  b.Flow(1, "ac2g", 100, cpu, 300, stream);
  return std::move(b.p);
}

TEST(OperatorCompare, KernelCountedOnceByDefaultTwiceUnderReferenceCompat) {
  Profile base = SameStartLaunch(50);
  Profile comp = SameStartLaunch(80);
  OperatorComparison exact = Compare(base, comp);
  ASSERT_EQ(exact.operator_rows.size(), 1u);
  EXPECT_EQ(exact.operator_rows[0].base.kernels.size(), 1u);
  EXPECT_EQ(E5ToNs(exact.operator_rows[0].base.device.e5), 50);
  EXPECT_EQ(E5ToNs(exact.operator_rows[0].comparison.device.e5), 80);
  EXPECT_DOUBLE_EQ(exact.operator_rows[0].diff_us, 0.03);
  EXPECT_DOUBLE_EQ(exact.operator_rows[0].ratio, 1.6);

  OperatorComparison compat = Compare(base, comp, Compat());
  ASSERT_EQ(compat.operator_rows.size(), 1u);
  // the quirk of docs/reference/loading.md#kernel-linking
  EXPECT_EQ(compat.operator_rows[0].base.kernels.size(), 2u);
  EXPECT_TRUE(compat.policy.attach_kernels_by_start_ts);  // the result carries its policy
  EXPECT_FALSE(exact.policy.attach_kernels_by_start_ts);
  EXPECT_EQ(E5ToNs(compat.operator_rows[0].base.device.e5), 100);
}

// One GPU op launching (at its start) one device event per entry of `kernels` (kind, category, ns).
struct K {
  SliceKind kind;
  const char* cat;
  int64_t dur;
};
Profile OneOp(DeviceKind device, const std::vector<K>& kernels) {
  ProfileBuilder b(device);
  TrackId cpu = b.Track("1", "1");
  TrackId dev = b.Track("2", "7");
  b.Add(cpu, SliceKind::kCpuOp, "op", "cpu_op", 100, 100);
  int64_t ts = 1000000;
  uint64_t id = 1;
  for (const K& k : kernels) {
    b.Add(dev, k.kind, "k", k.cat, ts, k.dur);
    b.Flow(id++, device == DeviceKind::kNpu ? "async_npu" : "ac2g", 100, cpu, ts, dev);
    ts += 1000000;
  }
  return std::move(b.p);
}

TEST(OperatorCompare, ReferenceCompatUsesTheReferenceFloatSums) {
  // 164380 + 98589 + 82031 ns = 0.345 ms exactly; the reference's float sum is 0.34500000000000003,
  // so its rounded diff is -0.35 where the exact value would round to -0.34; the default mode does
  // not round at all (deviations.md rows 6 and 19).
  Profile base = OneOp(DeviceKind::kGpu, {{SliceKind::kKernel, "kernel", 164380},
                                          {SliceKind::kKernel, "kernel", 98589},
                                          {SliceKind::kKernel, "kernel", 82031}});
  Profile comp = OneOp(DeviceKind::kGpu, {});
  OperatorComparison exact = Compare(base, comp);
  OperatorComparison compat = Compare(base, comp, Compat());
  ASSERT_EQ(exact.operator_stats.size(), 1u);
  ASSERT_EQ(compat.operator_stats.size(), 1u);
  EXPECT_DOUBLE_EQ(exact.operator_stats[0].diff_ms, -0.345);
  EXPECT_DOUBLE_EQ(compat.operator_stats[0].diff_ms, -0.35);
}

TEST(OperatorCompare, OldKinetoMemcpyIsAKernelByDefaultOnly) {
  Profile old_style = OneOp(DeviceKind::kGpu, {{SliceKind::kGpuMemcpy, "Memcpy", 500}});
  Profile new_style = OneOp(DeviceKind::kGpu, {{SliceKind::kGpuMemcpy, "gpu_memcpy", 500}});
  EXPECT_EQ(Compare(old_style, new_style).operator_rows[0].base.kernels.size(), 1u);
  OperatorComparison compat = Compare(old_style, new_style, Compat());
  EXPECT_EQ(compat.operator_rows[0].base.kernels.size(), 0u);  // the reference's category rule
  EXPECT_EQ(compat.operator_rows[0].comparison.kernels.size(), 1u);
}

TEST(OperatorCompare, HcclOpsAttachUnlessTheReferenceWouldNotCollectThem) {
  Profile p = OneOp(DeviceKind::kNpu, {{SliceKind::kHcclOp, "", 700}, {SliceKind::kNpuTask, "", 300}});
  OperatorCompareOptions o;
  EXPECT_EQ(E5ToNs(Compare(p, p, ExactPolicy(), o).operator_rows[0].base.device.e5), 1000);
  // --reference-compat without the overall/communication comparison: no HCCL ops (either line).
  for (ReferenceLine line : {ReferenceLine::k8_2, ReferenceLine::k26_1})
    EXPECT_EQ(E5ToNs(Compare(p, p, Compat(line), o).operator_rows[0].base.device.e5), 300);
  o.overall_or_communication_runs = true;
  EXPECT_EQ(E5ToNs(Compare(p, p, Compat(), o).operator_rows[0].base.device.e5), 1000);
}

TEST(OperatorCompare, GpuFlowCatReplacesTheFlowCategories) {
  ProfileBuilder b(DeviceKind::kGpu);
  TrackId cpu = b.Track("1", "1");
  TrackId stream = b.Track("0", "stream 7");
  b.Add(cpu, SliceKind::kCpuOp, "op", "cpu_op", 100, 100);
  b.Add(stream, SliceKind::kKernel, "k1", "kernel", 1000, 40);
  b.Add(stream, SliceKind::kKernel, "k2", "kernel", 2000, 60);
  b.Flow(1, "ac2g", 120, cpu, 1000, stream);
  b.Flow(2, "My_Flow", 130, cpu, 2000, stream);
  OperatorCompareOptions o;
  TimelineOptions to;
  EXPECT_EQ(E5ToNs(Compare(b.p, b.p, ExactPolicy(), o, to).operator_rows[0].base.device.e5), 40);
  to.gpu_flow_cat = "my_flow";  // compared with the lower-cased category
  EXPECT_EQ(E5ToNs(Compare(b.p, b.p, ExactPolicy(), o, to).operator_rows[0].base.device.e5), 60);
  // the option itself is not lower-cased (docs/reference/inputs.md#kineto-trace)
  to.gpu_flow_cat = "My_Flow";
  EXPECT_EQ(Compare(b.p, b.p, ExactPolicy(), o, to).operator_rows[0].base.kernels.size(), 0u);
}

TEST(OperatorCompare, MissingBaseGivesInfRatioAndStatisticsSortByDiff) {
  ProfileBuilder b(DeviceKind::kGpu);
  TrackId cpu = b.Track("1", "1");
  b.Add(cpu, SliceKind::kCpuOp, "x", "cpu_op", 100, 100);
  Profile base = std::move(b.p);
  Profile comp = SameStartLaunch(2000);  // "op1" with a 2 µs kernel
  OperatorComparison r = Compare(base, comp);
  ASSERT_EQ(r.operator_rows.size(), 2u);
  EXPECT_EQ(r.operator_rows[0].base.name, "x");  // in a gap, base-only items come first by default
  const OperatorRow& only_comp = r.operator_rows[1];
  EXPECT_FALSE(only_comp.base.present);
  EXPECT_TRUE(std::isinf(only_comp.ratio));
  EXPECT_DOUBLE_EQ(only_comp.diff_us, 2.0);
  // The 8.2 reference puts the comparison-only item first (its recurrence's backtrack).
  EXPECT_FALSE(Compare(base, comp, Compat(ReferenceLine::k8_2)).operator_rows[0].base.present);
  EXPECT_TRUE(Compare(base, comp, Compat(ReferenceLine::k26_1)).operator_rows[0].base.present);
  ASSERT_EQ(r.operator_stats.size(), 2u);
  // The exact diffs (default mode): op1 +0.002 ms before x's 0 (the reference's rounded diffs are
  // both 0.0 ms, and its stable sort keeps base names first).
  EXPECT_EQ(r.operator_stats[0].name, "op1");
  EXPECT_DOUBLE_EQ(r.operator_stats[0].diff_ms, 0.002);
  EXPECT_TRUE(std::isinf(r.operator_stats[0].ratio));
  EXPECT_EQ(r.operator_stats[1].name, "x");
}

TEST(OperatorCompare, DrillDownOracleFromSpec) {
  // docs/reference/operators.md#drill-down: P (kernel_num 10, children [c1, c2]) vs P (10, [c1,
  // c3]), max 5 -> (c1,c1),(−,c3),(c2,−) on the 8.2 line; the default (and 26.1) emits the gap's
  // base-only item first: (c1,c1),(c2,−),(−,c3).
  auto make = [](const char* second) {
    ProfileBuilder b(DeviceKind::kGpu);
    TrackId cpu = b.Track("1", "1");
    TrackId stream = b.Track("0", "stream 7");
    b.Add(cpu, SliceKind::kCpuOp, "P", "cpu_op", 0, 10000);
    b.Add(cpu, SliceKind::kCpuOp, "c1", "cpu_op", 100, 1000);
    b.Add(cpu, SliceKind::kCpuOp, second, "cpu_op", 2000, 1000);
    for (int i = 0; i < 10; ++i) {
      const int64_t launch = i < 5 ? 100 : 2000;  // at the child's start: both attachment rules agree
      b.Add(stream, SliceKind::kKernel, "k", "kernel", 20000 + 100 * i, 10);
      b.Flow(static_cast<uint64_t>(i + 1), "ac2g", launch, cpu, 20000 + 100 * i, stream);
    }
    return std::move(b.p);
  };
  Profile base = make("c2");
  Profile comp = make("c3");
  OperatorCompareOptions o;
  o.max_kernel_num = 5;
  OperatorComparison r = Compare(base, comp, Compat(ReferenceLine::k8_2), o);
  ASSERT_EQ(r.operator_rows.size(), 3u);
  EXPECT_EQ(r.operator_rows[0].base.name, "c1");
  EXPECT_EQ(r.operator_rows[0].comparison.name, "c1");
  EXPECT_FALSE(r.operator_rows[1].base.present);
  EXPECT_EQ(r.operator_rows[1].comparison.name, "c3");
  EXPECT_EQ(r.operator_rows[2].base.name, "c2");
  EXPECT_FALSE(r.operator_rows[2].comparison.present);
  for (const ReferencePolicy& policy : {ExactPolicy(), Compat(ReferenceLine::k26_1)}) {
    OperatorComparison d = Compare(base, comp, policy, o);
    ASSERT_EQ(d.operator_rows.size(), 3u);
    EXPECT_EQ(d.operator_rows[0].comparison.name, "c1");
    EXPECT_EQ(d.operator_rows[1].base.name, "c2");
    EXPECT_FALSE(d.operator_rows[1].comparison.present);
    EXPECT_EQ(d.operator_rows[2].comparison.name, "c3");
  }
  o.max_kernel_num = 10;  // not more than the limit: no drill-down
  EXPECT_EQ(Compare(base, comp, ExactPolicy(), o).operator_rows.size(), 1u);
}

// Top-level ops named `ops` (name, on the backward thread?) 1 µs apart; thread ids are text. With
// `fwd_bwd`, a fwdbwd flow ends on the backward thread, which makes it the side's backward thread.
Profile TextTidOps(const std::vector<std::pair<std::string, bool>>& ops, bool fwd_bwd) {
  ProfileBuilder b(DeviceKind::kGpu);
  TrackId main = b.Track("1", "main thread");
  TrackId bwd = b.Track("1", "autograd thread");
  int64_t ts = 1000;
  for (const auto& [name, on_bwd] : ops) {
    b.Add(on_bwd ? bwd : main, SliceKind::kCpuOp, name, "cpu_op", ts, 100);
    ts += 1000;
  }
  if (fwd_bwd) b.Flow(1, "fwdbwd", 1000, main, 2000, bwd);
  return std::move(b.p);
}

TEST(OperatorCompare, SegmentsByTheBackwardThreadAsWritten) {
  // docs/reference/operators.md#fwd-bwd-segmentation: base [A, B(bwd), C] vs comparison [A, C] (no
  // op on the backward thread there): segments [A][B][C] vs [A, C] -> (A,A),(−,C),(B,−),(C,−).
  // Without fwdbwd flows, one list: (A,A),(B,−),(C,C).
  Profile base = TextTidOps({{"A", false}, {"B", true}, {"C", false}}, true);
  Profile comp = TextTidOps({{"A", false}, {"C", false}}, true);
  OperatorComparison r = Compare(base, comp);
  ASSERT_EQ(r.operator_rows.size(), 4u);
  EXPECT_EQ(r.matched, 1u);
  EXPECT_FALSE(r.operator_rows[1].base.present);
  EXPECT_EQ(r.operator_rows[1].comparison.name, "C");
  EXPECT_EQ(r.operator_rows[2].base.name, "B");
  EXPECT_EQ(r.operator_rows[3].base.name, "C");
  Profile base_plain = TextTidOps({{"A", false}, {"B", true}, {"C", false}}, false);
  EXPECT_EQ(Compare(base_plain, comp).matched, 2u);
}

TEST(OperatorPairing, KeepsBothTreesAndTheNodePairsForReuse) {
  // NPU sides with a step: the pairing is over the step's ops; a missing step is a warning.
  auto make = [](const std::vector<std::string>& names) {
    ProfileBuilder b(DeviceKind::kNpu);
    TrackId cpu = b.Track("1", "1");
    b.Add(cpu, SliceKind::kStepMarker, "ProfilerStep#5", "cpu_op", 0, 100000);
    int64_t ts = 1000;
    for (const std::string& n : names) {
      b.Add(cpu, SliceKind::kCpuOp, n, "cpu_op", ts, 100);
      ts += 1000;
    }
    return std::move(b.p);
  };
  Profile base = make({"a", "b"});
  Profile comp = make({"b"});
  const Timeline bt = BuildTimeline(base, {});
  const Timeline ct = BuildTimeline(comp, {});
  OperatorCompareOptions o;
  o.base_step = 5;
  o.comparison_step = 5;
  OperatorPairing pairing = PairOperators(bt, ct, ExactPolicy(), o);
  ASSERT_EQ(pairing.pairs.size(), 2u);
  EXPECT_TRUE(pairing.warnings.empty());
  EXPECT_EQ(pairing.algorithm, MatchAlgorithm::kLcs);
  const NodePair& matched = pairing.pairs[1];
  ASSERT_NE(matched.base, kNoNode);
  ASSERT_NE(matched.comparison, kNoNode);
  EXPECT_EQ(base.str(base.slices[pairing.base_tree.node(matched.base).slice].name), "b");
  EXPECT_EQ(comp.str(comp.slices[pairing.comparison_tree.node(matched.comparison).slice].name), "b");
  EXPECT_EQ(pairing.pairs[0].comparison, kNoNode);
  o.comparison_step = 6;
  pairing = PairOperators(bt, ct, ExactPolicy(), o);
  ASSERT_EQ(pairing.warnings.size(), 1u);
  EXPECT_NE(pairing.warnings[0].find("step 6"), std::string::npos);
  EXPECT_EQ(pairing.pairs.size(), 2u);  // the base's ops, unmatched
  o.disable_details = true;
  EXPECT_EQ(PairOperators(bt, ct, ExactPolicy(), o).algorithm, MatchAlgorithm::kNone);
}

TEST(OperatorCompare, MatchKeys) {
  ProfileBuilder b(DeviceKind::kGpu);
  TrackId cpu = b.Track("1", "1");
  SliceId s = b.Add(cpu, SliceKind::kCpuOp, "aten::add", "cpu_op", 0, 10);
  const Arg a = Arg::Text(ArgKey::kInputDims, ArgType::kJson, b.p.strings.Intern("[[1, 1], [1, 1], []]"));
  b.p.slices[s].args_begin = static_cast<uint32_t>(b.p.args.size());
  b.p.slices[s].args_count = 1;
  b.p.args.push_back(a);
  OperatorCompareOptions o;
  EXPECT_EQ(OperatorMatchKey(b.p, s, o), "aten::add");
  o.op_name_map = {{"aten::add", "add"}};
  EXPECT_EQ(OperatorMatchKey(b.p, s, o), "add");
  o.use_input_shape = true;
  EXPECT_EQ(OperatorMatchKey(b.p, s, o), "add1,1;\r\n1,1;\r\n");
}

TEST(OperatorCompare, ModuleClassOfDropsTheInstanceNumber) {
  EXPECT_EQ(ModuleClassOf("nn.Module: Linear_0"), "nn.Module: Linear");
  EXPECT_EQ(ModuleClassOf("[ BACKWARD ]/nn.Module: A_0/nn.Module: Linear_2"), "nn.Module: Linear");
  EXPECT_EQ(ModuleClassOf("Optimizer.step#SGD.step"), "Optimizer.step#SGD.step");
  EXPECT_EQ(ModuleClassOf("x_"), "x_");
}

// An NPU profile with modules Net_0 [100, 10000] > Linear_0 [1000, 5000]; aten::linear [1500, 3000]
// inside Linear_0 launches one device task of `dur` ns at 2000 (flow from 1600).
Profile WithModules(int64_t dur, bool extra_module) {
  ProfileBuilder b(DeviceKind::kNpu);
  TrackId py = b.Track("1", "1");
  TrackId dev = b.Track("2", "7");
  b.Add(py, SliceKind::kPythonFunction, "nn.Module: Net_0", "python_function", 100, 9900);
  b.Add(py, SliceKind::kPythonFunction, "nn.Module: Linear_0", "python_function", 1000, 4000);
  if (extra_module) b.Add(py, SliceKind::kPythonFunction, "nn.Module: ReLU_0", "python_function", 6000, 1000);
  b.Add(py, SliceKind::kPythonFunction, "main.py(1): train", "python_function", 0, 20000);
  b.Add(py, SliceKind::kCpuOp, "aten::linear", "cpu_op", 1500, 1500);
  b.Add(py, SliceKind::kCpuOp, "aclnnMatmul", "cpu_op", 1600, 100);
  b.Add(dev, SliceKind::kNpuTask, "MatMul", "", 20000, dur, {{ArgKey::kTaskId, 5}}, {{ArgKey::kTaskType, "AI_CORE"}});
  b.Flow(1, "async_npu", 1600, py, 20000, dev);
  return std::move(b.p);
}

TEST(ModuleCompare, TreesRowsAndStatistics) {
  Profile base = WithModules(100, false);
  Profile comp = WithModules(300, true);
  OperatorComparison r = Compare(base, comp);
  ASSERT_EQ(r.kind, OperatorCompareKind::kModule);
  // Pairs (breadth-first): (Net, Net), (Linear, Linear), (−, ReLU).
  EXPECT_EQ(r.matched, 2u);
  EXPECT_EQ(r.comparison_items, 3u);
  ASSERT_EQ(r.module_blocks.size(), 3u);
  const ModuleBlock& net = r.module_blocks[0];
  EXPECT_EQ(net.base.path, "/nn.Module: Net_0");
  EXPECT_EQ(net.base.display_name, "/ Net_0");
  EXPECT_EQ(net.base.module_class, "nn.Module: Net");
  EXPECT_EQ(net.base.level, 2);
  EXPECT_EQ(net.base.call_stack, "main.py(1): train");  // the innermost call function
  EXPECT_EQ(E5ToNs(net.base.total.e5), 100);
  EXPECT_EQ(E5ToNs(net.base.self.e5), 0);
  const ModuleBlock& lin = r.module_blocks[1];
  EXPECT_EQ(lin.base.level, 3);
  EXPECT_EQ(E5ToNs(lin.base.self.e5), 100);
  EXPECT_EQ(E5ToNs(lin.comparison.self.e5), 300);
  ASSERT_EQ(lin.ops.size(), 1u);
  EXPECT_EQ(lin.ops[0].base.name, "aten::linear");
  EXPECT_EQ(lin.ops[0].base.kernels.size(), 1u);
  EXPECT_DOUBLE_EQ(lin.ops[0].self_diff_us, 0.2);
  EXPECT_DOUBLE_EQ(lin.ops[0].ratio, 3.0);
  EXPECT_FALSE(r.module_blocks[2].base.present);
  EXPECT_EQ(r.module_blocks[2].comparison.module_class, "nn.Module: ReLU");

  ASSERT_EQ(r.module_stats.size(), 3u);
  EXPECT_EQ(r.module_stats[1].level, 2);  // '/' count: one less than ModuleCompare's level
  EXPECT_EQ(r.module_stats[1].base.count, 1);
  ASSERT_EQ(r.module_stats[1].ops.size(), 1u);
  ASSERT_EQ(r.module_stats[1].ops[0].base.kernels.size(), 1u);
  EXPECT_EQ(r.module_stats[1].ops[0].base.kernels[0].name, "MatMul");
  EXPECT_EQ(r.module_stats[2].base.count, 0);

  OperatorCompareOptions no_module;
  no_module.disable_module = true;
  EXPECT_EQ(Compare(base, comp, ExactPolicy(), no_module).kind, OperatorCompareKind::kOperator);
}

TEST(ModuleCompare, BackwardModulesFollowFwdBwdFlowsIntoTheBackwardProcess) {
  // A fwdbwd flow from inside Linear_0 (1600) to the backward op at 30000 (process 1): that op becomes
  // the module "/[ BACKWARD ]/nn.Module: Net_0/nn.Module: Linear_0" and its kernel its self time.
  auto make = [](int64_t bwd_kernel_ns) {
    Profile p = WithModules(100, false);
    ProfileBuilder b(DeviceKind::kNpu);
    b.p = std::move(p);
    TrackId bwd = b.Track("1", "2");
    TrackId dev = b.Track("2", "7");
    b.Add(bwd, SliceKind::kCpuOp, "LinearBackward0", "cpu_op", 30000, 2000);
    b.Add(bwd, SliceKind::kCpuOp, "aclnnMatmulGrad", "cpu_op", 30100, 100);
    b.Add(dev, SliceKind::kNpuTask, "MatMulGrad", "", 40000, bwd_kernel_ns);
    b.Flow(2, "async_npu", 30100, bwd, 40000, dev);
    b.Flow(3, "fwdbwd", 1600, b.Track("1", "1"), 30000, bwd);
    return std::move(b.p);
  };
  Profile base = make(400);
  Profile comp = make(500);
  OperatorComparison r = Compare(base, comp);
  ASSERT_EQ(r.kind, OperatorCompareKind::kModule);
  const ModuleBlock* back = nullptr;
  for (const ModuleBlock& blk : r.module_blocks)
    if (blk.base.path == "/[ BACKWARD ]/nn.Module: Net_0/nn.Module: Linear_0") back = &blk;
  ASSERT_NE(back, nullptr);
  EXPECT_TRUE(back->comparison.present);
  EXPECT_EQ(E5ToNs(back->base.self.e5), 400);
  EXPECT_EQ(E5ToNs(back->comparison.self.e5), 500);
  ASSERT_EQ(back->ops.size(), 1u);
  EXPECT_EQ(back->ops[0].base.name, "aclnnMatmulGrad");  // the backward op itself starts the module: not inside it
}

TEST(ModuleCompare, SideWithoutModulesFallsBackToOperators) {
  Profile base = WithModules(100, false);
  Profile comp = SameStartLaunch(10);
  EXPECT_EQ(Compare(base, comp).kind, OperatorCompareKind::kOperator);
}

}  // namespace
}  // namespace profdiff::analysis

namespace profdiff::analysis {
namespace {

// Top-level ops given as (name, children); a child launches one 10 ns kernel at its start; with
// `own_kernel`, a wrapper also launches one itself, outside its children.
struct TopOp {
  std::string name;
  std::vector<std::string> children;
  bool own_kernel = false;
};

Profile Wrapped(const std::vector<TopOp>& ops) {
  ProfileBuilder b(DeviceKind::kGpu);
  TrackId cpu = b.Track("1", "1");
  TrackId stream = b.Track("0", "stream 7");
  int64_t ts = 1000, kernel_ts = 1000000;
  uint64_t flow = 1;
  auto kernel = [&](int64_t launch) {
    b.Add(stream, SliceKind::kKernel, "k", "kernel", kernel_ts, 10);
    b.Flow(flow++, "ac2g", launch, cpu, kernel_ts, stream);
    kernel_ts += 100;
  };
  for (const TopOp& op : ops) {
    const int64_t len = 1000 * static_cast<int64_t>(op.children.size() + 2);
    b.Add(cpu, SliceKind::kCpuOp, op.name, "cpu_op", ts, len);
    if (op.own_kernel || op.children.empty()) kernel(ts + 1);
    int64_t child_ts = ts + 500;
    for (const std::string& c : op.children) {
      b.Add(cpu, SliceKind::kCpuOp, c, "cpu_op", child_ts, 400);
      kernel(child_ts);
      child_ts += 1000;
    }
    ts += len + 1000;
  }
  return std::move(b.p);
}

int64_t DeviceE5(const OperatorComparison& r, bool base) {
  int64_t sum = 0;
  for (const OperatorRow& row : r.operator_rows) sum += base ? row.base.device.e5 : row.comparison.device.e5;
  return sum;
}

TEST(OperatorCompare, UnmatchedWrappersAreDrilledIntoInTheDefaultModeOnly) {
  // Base wraps a and b in W (no kernel of its own); the comparison runs a and b at the top level.
  Profile base = Wrapped({{"W", {"a", "b"}}, {"c", {}}});
  Profile comp = Wrapped({{"a", {}}, {"b", {}}, {"c", {}}});
  OperatorComparison exact = Compare(base, comp);
  EXPECT_EQ(exact.matched, 3u);
  EXPECT_EQ(exact.base_items, 3u);
  EXPECT_EQ(exact.wrappers_drilled.base, 1u);
  EXPECT_EQ(exact.wrappers_drilled.comparison, 0u);
  ASSERT_EQ(exact.operator_rows.size(), 3u);
  for (const OperatorRow& row : exact.operator_rows) EXPECT_EQ(row.base.name, row.comparison.name);
  ReferencePolicy keep = ExactPolicy();
  keep.keep_unmatched_wrappers = true;  // the reference's pairing, exact arithmetic
  for (const ReferencePolicy& policy : {Compat(ReferenceLine::k8_2), Compat(ReferenceLine::k26_1), keep}) {
    OperatorComparison compat = Compare(base, comp, policy);
    EXPECT_EQ(compat.matched, 1u);  // c only: W stays one unmatched row
    EXPECT_EQ(compat.wrappers_drilled.base, 0u);
  }
  // Every kernel is counted once either way: 3 on each side.
  const OperatorComparison kept = Compare(base, comp, keep);
  EXPECT_EQ(DeviceE5(kept, true), DeviceE5(exact, true));
  EXPECT_EQ(DeviceE5(kept, false), DeviceE5(exact, false));
  EXPECT_EQ(DeviceE5(exact, true), 3 * 10 * Slice::kE5PerNs);
  // The other side wrapped: drilled there.
  OperatorComparison swapped = Compare(comp, base);
  EXPECT_EQ(swapped.matched, 3u);
  EXPECT_EQ(swapped.wrappers_drilled.comparison, 1u);
  // --disable_details matches nothing, so it drills nothing.
  OperatorCompareOptions o;
  o.disable_details = true;
  EXPECT_EQ(Compare(base, comp, ExactPolicy(), o).wrappers_drilled.base, 0u);
}

TEST(OperatorCompare, AWrapperWithItsOwnKernelOrNoMatchInsideStaysOneRow) {
  Profile comp = Wrapped({{"a", {}}, {"b", {}}});
  // W launches a kernel itself: replacing it by its children would lose that kernel.
  const Profile own_kernel = Wrapped({{"W", {"a", "b"}, true}});  // the rows' names view its strings
  OperatorComparison own = Compare(own_kernel, comp);
  EXPECT_EQ(own.matched, 0u);
  EXPECT_EQ(own.wrappers_drilled.base, 0u);
  ASSERT_EQ(own.operator_rows.size(), 3u);
  EXPECT_EQ(own.operator_rows[0].base.name, "W");
  // V's children match nothing: V stays one row while W, beside it, is drilled.
  const Profile two_wrappers = Wrapped({{"V", {"x", "y"}}, {"W", {"a", "b"}}});
  OperatorComparison mixed = Compare(two_wrappers, comp);
  EXPECT_EQ(mixed.matched, 2u);
  EXPECT_EQ(mixed.wrappers_drilled.base, 1u);
  int v_rows = 0;
  for (const OperatorRow& row : mixed.operator_rows) {
    EXPECT_NE(row.base.name, "x");
    v_rows += row.base.name == "V";
  }
  EXPECT_EQ(v_rows, 1);
  ReferencePolicy keep = ExactPolicy();
  keep.keep_unmatched_wrappers = true;
  EXPECT_EQ(DeviceE5(mixed, true), DeviceE5(Compare(two_wrappers, comp, keep), true));
  EXPECT_EQ(DeviceE5(mixed, true), 4 * 10 * Slice::kE5PerNs);
}

}  // namespace
}  // namespace profdiff::analysis

namespace profdiff::analysis {
namespace {

// A GPU profile of two steps: Linear_0 runs in ProfilerStep#1, ReLU_0 in ProfilerStep#2, each op
// launching one kernel that runs after its host step ended (an asynchronous loop).
Profile TwoGpuSteps() {
  testing::ProfileBuilder b(DeviceKind::kGpu);
  TrackId py = b.Track("1", "1");
  TrackId gpu = b.Track("0", "7");
  b.Add(py, SliceKind::kStepMarker, "ProfilerStep#1", "user_annotation", 0, 10000);
  b.Add(py, SliceKind::kStepMarker, "ProfilerStep#2", "user_annotation", 10000, 10000);
  b.Add(py, SliceKind::kPythonFunction, "nn.Module: Linear_0", "python_function", 1000, 4000);
  b.Add(py, SliceKind::kPythonFunction, "nn.Module: ReLU_0", "python_function", 11000, 4000);
  b.Add(py, SliceKind::kCpuOp, "aten::linear", "cpu_op", 1500, 1500);
  b.Add(py, SliceKind::kCpuOp, "aten::relu", "cpu_op", 11500, 1500);
  b.Add(gpu, SliceKind::kKernel, "gemm", "kernel", 12000, 300, {{ArgKey::kStream, 7}});  // step 1's, late
  b.Add(gpu, SliceKind::kKernel, "relu_kernel", "kernel", 25000, 200, {{ArgKey::kStream, 7}});
  b.Flow(1, "ac2g", 1600, py, 12000, gpu);
  b.Flow(2, "ac2g", 11600, py, 25000, gpu);
  return std::move(b.p);
}

// --base_step/--comparison_step: the module comparison of a GPU side reads the selected step's
// modules, ops and the kernels they launched (default mode); the reference's rule reads everything.
TEST(ModuleCompare, StepSelectionReadsThatStepOfAGpuSide) {
  const Profile p = TwoGpuSteps();
  OperatorCompareOptions step2;
  step2.base_step = 2;
  step2.comparison_step = 2;
  const OperatorComparison one = Compare(p, p, ExactPolicy(), step2);
  ASSERT_EQ(one.kind, OperatorCompareKind::kModule);
  ASSERT_EQ(one.module_blocks.size(), 1u);
  EXPECT_EQ(one.module_blocks[0].base.display_name, "/ ReLU_0");
  ASSERT_EQ(one.module_blocks[0].ops.size(), 1u);
  EXPECT_EQ(one.module_blocks[0].ops[0].base.kernels.size(), 1u);  // launched in step 2, ran at 25000
  const OperatorComparison all = Compare(p, p, ExactPolicy(), {});
  EXPECT_EQ(all.module_blocks.size(), 2u);
  const OperatorComparison compat = Compare(p, p, Compat(ReferenceLine::k26_1), step2);
  EXPECT_EQ(compat.module_blocks.size(), 2u);  // the reference restricts an Ascend DB side only
}

}  // namespace
}  // namespace profdiff::analysis
