// The kernel comparison on hand-built side tables (docs/reference/kernels.md).
#include "profdiff/analysis/kernel/kernel_compare.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "../../common/profile_builder.h"
#include "profdiff/analysis/overall/overall.h"

namespace profdiff::analysis {
namespace {

using testing::ProfileBuilder;

constexpr double kInf = std::numeric_limits<double>::infinity();

// A kernel_details.csv row: op type, input shapes, duration in ns, step id (kNoNumber = empty cell).
struct K {
  std::string type;
  std::string shapes;
  int64_t dur_ns;
  int64_t step = kNoNumber;
};

Profile NpuWithKernels(const std::vector<K>& kernels) {
  ProfileBuilder b(DeviceKind::kNpu);
  b.p.meta.input_path = "prof_ascend_pt";
  KernelDetailsTable& t = b.p.npu.kernel_details;
  t.present = true;
  t.file = "prof_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv";
  int64_t start = 1000;
  for (const K& k : kernels) {
    KernelDetailRow r;
    r.type = b.p.strings.Intern(k.type);
    r.name = b.p.strings.Intern(k.type + "_" + std::to_string(start));
    r.input_shapes = b.p.strings.Intern(k.shapes);
    r.start_ns = start;
    r.dur_ns = k.dur_ns;
    r.step_id = k.step;
    start += 100000;
    t.rows.push_back(r);
  }
  return std::move(b.p);
}

// An op_statistic.csv row: op type, core type, count, total/avg/max/min in ns.
struct S {
  std::string type, core;
  int64_t count, total_ns, avg_ns, max_ns, min_ns;
};

Profile NpuWithStatistic(const std::vector<S>& stats) {
  ProfileBuilder b(DeviceKind::kNpu);
  b.p.npu.has_op_statistic = true;
  for (const S& s : stats) {
    OpStatisticRow r;
    r.op_type = b.p.strings.Intern(s.type);
    r.core_type = b.p.strings.Intern(s.core);
    r.count = s.count;
    r.total_ns = s.total_ns;
    r.avg_ns = s.avg_ns;
    r.max_ns = s.max_ns;
    r.min_ns = s.min_ns;
    b.p.npu.op_statistic.push_back(r);
  }
  return std::move(b.p);
}

KernelComparison Compare(const Profile& base, const Profile& comparison, const ReferencePolicy& policy,
                         const KernelCompareOptions& options = {}) {
  Timeline tb = BuildTimeline(base, {});
  Timeline tc = BuildTimeline(comparison, {});
  return CompareKernels(tb, tc, policy, options);
}

KernelCompareOptions ByType() {
  KernelCompareOptions o;
  o.use_kernel_type = true;
  return o;
}

TEST(KernelCompare, GroupsByTypeThenShapeAndRoundsLikeTheReference) {
  // Five MatMul kernels of 12.345 µs in all: the reference's float sum is 12.344999999999999 (12.34),
  // the exact sum 12.345 (12.35 with the reference's rounding). max 3.456 -> 3.46, min 1.234 -> 1.23.
  // The default mode does not round (deviation 19): checked after the loop.
  Profile base = NpuWithKernels({{"MatMul", "256x512", 3456},
                                 {"Add", "\"8\"", 1000},
                                 {"MatMul", "256x512", 1234},
                                 {"MatMul", "1x1", 2000},
                                 {"MatMul", "256x512", 2500},
                                 {"MatMul", "256x512", 2500},
                                 {"MatMul", "256x512", 2655}});
  Profile comparison = NpuWithKernels({{"MatMul", "256x512", 10000}, {"Add", "\"8\"", 1500}});
  ReferencePolicy rounded = ExactPolicy();  // exact sums, rounded as the reference rounds
  rounded.rounded_diffs_and_ratios = true;
  for (bool compat : {false, true}) {
    SCOPED_TRACE(compat);
    KernelComparison cmp =
        Compare(base, comparison, compat ? ReferenceCompatPolicy(ReferenceLine::k8_2) : rounded);
    ASSERT_EQ(cmp.kind, KernelCompareKind::kShape);
    ASSERT_EQ(cmp.rows.size(), 3u);
    // Types in first-seen order, then each type's shapes in first-seen order.
    EXPECT_EQ(cmp.rows[0].type + "|" + cmp.rows[0].shapes, "MatMul|256x512");
    EXPECT_EQ(cmp.rows[1].type + "|" + cmp.rows[1].shapes, "MatMul|1x1");
    EXPECT_EQ(cmp.rows[2].type + "|" + cmp.rows[2].shapes, "Add|\"8\"");
    const KernelGroupSide& mm = cmp.rows[0].base;
    EXPECT_EQ(mm.total.count, 5);
    EXPECT_EQ(mm.total.Ns(), 12345);
    EXPECT_DOUBLE_EQ(mm.total_us, compat ? 12.34 : 12.35);
    EXPECT_DOUBLE_EQ(mm.avg_us, 2.47);
    EXPECT_DOUBLE_EQ(mm.max_us, 3.46);
    EXPECT_DOUBLE_EQ(mm.min_us, 1.23);
    EXPECT_DOUBLE_EQ(cmp.rows[0].comparison.total_us, 10.0);
    EXPECT_DOUBLE_EQ(cmp.rows[0].diff_total_ratio, compat ? 0.8104 : 0.8097);  // 10 / 12.34, 10 / 12.35
    EXPECT_DOUBLE_EQ(cmp.rows[0].diff_avg_ratio, 4.0486);                      // 10 / 2.47
    EXPECT_DOUBLE_EQ(cmp.rows[2].diff_total_ratio, 1.5);
    EXPECT_EQ(cmp.base.kernels, 7);
    EXPECT_EQ(cmp.base.total_ns, 15345);
  }
  const KernelComparison exact = Compare(base, comparison, ExactPolicy());
  EXPECT_DOUBLE_EQ(exact.rows[0].base.total_us, 12.345);
  EXPECT_DOUBLE_EQ(exact.rows[0].base.avg_us, 12.345 / 5);
  EXPECT_DOUBLE_EQ(exact.rows[0].base.max_us, 3.456);
  EXPECT_DOUBLE_EQ(exact.rows[0].diff_total_ratio, 10 / 12.345);
}

TEST(KernelCompare, MissingSideShowsZeroTotalsAndInfRatio) {
  Profile base = NpuWithKernels({{"A", "1", 2000}, {"OnlyBase", "2", 4000}});
  Profile comparison = NpuWithKernels({{"A", "1", 3000}, {"OnlyComp", "", 1000}});
  KernelComparison cmp = Compare(base, comparison, ExactPolicy());
  ASSERT_EQ(cmp.rows.size(), 3u);
  EXPECT_EQ(cmp.rows[1].type, "OnlyBase");
  EXPECT_FALSE(cmp.rows[1].comparison.present);
  EXPECT_DOUBLE_EQ(cmp.rows[1].comparison.total_us, 0);
  EXPECT_DOUBLE_EQ(cmp.rows[1].diff_total_ratio, 0);
  EXPECT_EQ(cmp.rows[2].type, "OnlyComp");  // comparison-only keys come last
  EXPECT_EQ(cmp.rows[2].shapes, "N/A");     // an empty shape reads "N/A"
  EXPECT_FALSE(cmp.rows[2].base.present);
  EXPECT_EQ(cmp.rows[2].diff_total_ratio, kInf);
  EXPECT_EQ(cmp.rows[2].diff_avg_ratio, kInf);
}

TEST(KernelCompare, DropsKernelsWithoutTypeAndFiltersBySteps) {
  Profile base = NpuWithKernels({{"A", "1", 1000, 4}, {"N/A", "1", 9000, 5}, {"", "1", 9000, 5},
                                 {"A", "1", 2000, 5}, {"B", "1", 5000, kNoNumber}});
  Profile comparison = NpuWithKernels({{"A", "1", 3000, 5}, {"B", "1", 7000, kNoNumber}});
  KernelComparison all = Compare(base, comparison, ExactPolicy());
  ASSERT_EQ(all.rows.size(), 2u);
  EXPECT_EQ(all.rows[0].base.total.Ns(), 3000);
  KernelCompareOptions step5;
  step5.base_step = 5;
  step5.comparison_step = 5;
  KernelComparison s5 = Compare(base, comparison, ExactPolicy(), step5);
  ASSERT_EQ(s5.rows.size(), 1u);  // B's rows have no step id (-1 for the reference)
  EXPECT_EQ(s5.rows[0].base.total.Ns(), 2000);
  EXPECT_TRUE(s5.warnings.empty());
  KernelCompareOptions step_none;
  step_none.base_step = -1;  // an empty step cell counts as -1
  step_none.comparison_step = -1;
  KernelComparison sn = Compare(base, comparison, ExactPolicy(), step_none);
  ASSERT_EQ(sn.rows.size(), 1u);
  EXPECT_EQ(sn.rows[0].type, "B");
}

TEST(KernelCompare, StepWithoutKernelDetailsIsAWarningAndNoRows) {
  Profile base = NpuWithKernels({{"A", "1", 1000, 4}});
  Profile comparison = NpuWithKernels({{"A", "1", 1000, 7}});
  KernelCompareOptions options;
  options.base_step = 7;
  options.comparison_step = 7;
  KernelComparison cmp = Compare(base, comparison, ExactPolicy(), options);
  EXPECT_EQ(cmp.kind, KernelCompareKind::kNone);
  EXPECT_TRUE(cmp.rows.empty());
  ASSERT_EQ(cmp.warnings.size(), 1u);
  EXPECT_NE(cmp.warnings[0].find("base: there is no kernel details information for step 7"), std::string::npos)
      << cmp.warnings[0];
}

TEST(KernelCompare, ASideWithoutKernelDetailsGivesNoRows) {
  Profile npu = NpuWithKernels({{"A", "1", 1000}});
  Profile gpu = ProfileBuilder(DeviceKind::kGpu).p;
  // The reference refuses GPU data (the exact mode's GPU sides: KernelCompareGpu.*).
  KernelComparison g = Compare(gpu, npu, ReferenceCompatPolicy(ReferenceLine::k26_1));
  EXPECT_EQ(g.kind, KernelCompareKind::kNone);
  EXPECT_TRUE(g.rows.empty());
  EXPECT_TRUE(g.warnings.empty());  // a trace file: the reference says nothing either
  Profile no_table = ProfileBuilder(DeviceKind::kNpu).p;  // a profile directory without the file
  no_table.meta.input_path = "r0_ascend_pt";
  KernelComparison n = Compare(npu, no_table, ExactPolicy());
  EXPECT_TRUE(n.rows.empty());
  ASSERT_EQ(n.warnings.size(), 1u);
  EXPECT_NE(n.warnings[0].find("comparison: can't find any valid kernels in r0_ascend_pt"), std::string::npos);
  Profile only_na = NpuWithKernels({{"N/A", "1", 1000}});
  KernelComparison na = Compare(npu, only_na, ExactPolicy());
  ASSERT_EQ(na.warnings.size(), 1u);
  EXPECT_NE(na.warnings[0].find("no kernel with an op type"), std::string::npos) << na.warnings[0];
}

TEST(KernelCompare, ConcatenatedKeysCollideOnlyUnderReferenceCompat) {
  // ("A", "B1") and ("AB", "1") are both "AB1" for the reference: one row, the first group's values.
  Profile base = NpuWithKernels({{"A", "B1", 1000}, {"AB", "1", 5000}});
  Profile comparison = NpuWithKernels({{"AB", "1", 2000}});
  KernelComparison exact = Compare(base, comparison, ExactPolicy());
  ASSERT_EQ(exact.rows.size(), 2u);
  EXPECT_FALSE(exact.rows[0].comparison.present);
  EXPECT_DOUBLE_EQ(exact.rows[1].base.total_us, 5);
  EXPECT_DOUBLE_EQ(exact.rows[1].comparison.total_us, 2);
  KernelComparison compat = Compare(base, comparison, ReferenceCompatPolicy(ReferenceLine::k26_1));
  ASSERT_EQ(compat.rows.size(), 1u);
  EXPECT_EQ(compat.rows[0].type, "A");
  EXPECT_EQ(compat.rows[0].shapes, "B1");
  EXPECT_DOUBLE_EQ(compat.rows[0].base.total_us, 1);
  EXPECT_DOUBLE_EQ(compat.rows[0].comparison.total_us, 2);
  EXPECT_DOUBLE_EQ(compat.rows[0].diff_total_ratio, 2);
}

TEST(KernelTypeCompare, SortsByTotalRatioWithMissingSidesAndLaterDuplicates) {
  Profile base = NpuWithStatistic({{"Add", "AI_VECTOR_CORE", 2, 8400, 4200, 5000, 3400},
                                   {"MatMul", "AI_CORE", 1, 10000, 10000, 10000, 10000},
                                   {"OnlyBase", "AI_CORE", 1, 1000, 1000, 1000, 1000},
                                   {"Add", "AI_VECTOR_CORE", 1, 8000, 8000, 8000, 8000}});  // replaces the first
  Profile comparison = NpuWithStatistic({{"MatMul", "AI_CORE", 1, 9000, 9000, 9000, 9000},
                                         {"Add", "AI_VECTOR_CORE", 1, 10480, 10480, 10480, 10480},
                                         {"New", "MIX_AIC", 3, 300, 100, 100, 100}});
  KernelComparison cmp = Compare(base, comparison, ExactPolicy(), ByType());
  ASSERT_EQ(cmp.kind, KernelCompareKind::kType);
  ASSERT_EQ(cmp.type_rows.size(), 4u);
  EXPECT_EQ(cmp.type_rows[0].op_type, "New");  // INF first
  EXPECT_EQ(cmp.type_rows[0].diff_total_ratio, kInf);
  EXPECT_EQ(cmp.type_rows[0].base.count, 0);
  EXPECT_EQ(cmp.type_rows[1].op_type, "Add");
  EXPECT_EQ(cmp.type_rows[1].base.count, 1);
  EXPECT_DOUBLE_EQ(cmp.type_rows[1].base.total_us, 8.0);
  EXPECT_DOUBLE_EQ(cmp.type_rows[1].diff_total_ratio, 1.31);
  EXPECT_EQ(cmp.type_rows[2].op_type, "MatMul");
  EXPECT_DOUBLE_EQ(cmp.type_rows[2].diff_total_ratio, 0.9);
  EXPECT_EQ(cmp.type_rows[3].op_type, "OnlyBase");
  EXPECT_EQ(cmp.type_rows[3].core_type, "AI_CORE");
  EXPECT_DOUBLE_EQ(cmp.type_rows[3].comparison.total_us, 0);
  EXPECT_DOUBLE_EQ(cmp.type_rows[3].diff_total_ratio, 0);
  EXPECT_DOUBLE_EQ(cmp.type_rows[3].diff_avg_ratio, 0);
}

TEST(KernelTypeCompare, ASideWithoutOpStatisticGivesNoRows) {
  Profile base = NpuWithStatistic({{"Add", "AI_CORE", 1, 1000, 1000, 1000, 1000}});
  Profile comparison = ProfileBuilder(DeviceKind::kNpu).p;
  comparison.meta.input_path = "r1_ascend_pt";
  KernelComparison cmp = Compare(base, comparison, ExactPolicy(), ByType());
  EXPECT_EQ(cmp.kind, KernelCompareKind::kNone);
  EXPECT_TRUE(cmp.type_rows.empty());
  ASSERT_EQ(cmp.warnings.size(), 1u);
  EXPECT_NE(cmp.warnings[0].find("no op_statistic.csv in r1_ascend_pt"), std::string::npos);
}

// ---- GPU sides (default mode; docs/deviations.md kernel comparison row 6) ----------------------

// A GPU side: on the CPU thread two aten::mm ops (different Input Dims) each call cudaLaunchKernel,
// whose ac2g flows end at a GEMM kernel on stream 7; an elementwise kernel without a flow and a memcpy.
struct GpuKernels {
  int64_t gemm_a_ns, gemm_b_ns, gemm_a2_ns, elementwise_ns, memcpy_ns;
};

SliceId AddJsonDims(ProfileBuilder& b, TrackId track, std::string_view name, int64_t ts, int64_t dur,
                    std::string_view dims) {
  const SliceId op = b.Add(track, SliceKind::kCpuOp, name, "cpu_op", ts, dur);
  b.p.slices[op].args_begin = static_cast<uint32_t>(b.p.args.size());
  b.p.args.push_back(Arg::Text(ArgKey::kInputDims, ArgType::kJson, b.p.strings.Intern(dims)));
  b.p.slices[op].args_count = 1;
  return op;
}

Profile GpuWithKernels(const GpuKernels& k) {
  ProfileBuilder b(DeviceKind::kGpu);
  b.p.meta.input_path = "gpu_trace.json";
  const TrackId cpu = b.Track("100", "100");
  const TrackId s7 = b.Track("0", "7");
  AddJsonDims(b, cpu, "aten::linear", 0, 400, "[[8,3],[4,3]]");  // encloses the first mm
  AddJsonDims(b, cpu, "aten::mm", 100, 100, "[[8,3],[3,4]]");
  b.Add(cpu, SliceKind::kCudaRuntime, "cudaLaunchKernel", "cuda_runtime", 110, 20);
  AddJsonDims(b, cpu, "aten::mm", 500, 100, "[[16,16],[16,16]]");
  b.Add(cpu, SliceKind::kCudaRuntime, "cudaLaunchKernel", "cuda_runtime", 510, 20);
  b.Add(cpu, SliceKind::kCudaRuntime, "cudaLaunchKernel", "cuda_runtime", 560, 20);
  const std::vector<std::pair<ArgKey, int64_t>> stream7 = {{ArgKey::kStream, 7}};
  b.Add(s7, SliceKind::kKernel, "sm90_gemm", "kernel", 1000, k.gemm_a_ns, stream7);
  b.Add(s7, SliceKind::kKernel, "sm90_gemm", "kernel", 3000, k.gemm_b_ns, stream7);
  b.Add(s7, SliceKind::kKernel, "sm90_gemm", "kernel", 5000, k.gemm_a2_ns, stream7);
  b.Add(s7, SliceKind::kKernel, "elementwise_kernel", "kernel", 7000, k.elementwise_ns, stream7);
  b.Add(s7, SliceKind::kGpuMemcpy, "Memcpy DtoD (Device -> Device)", "gpu_memcpy", 9000, k.memcpy_ns, stream7);
  b.Flow(1, "ac2g", 110, cpu, 1000, s7);  // the first mm
  b.Flow(2, "ac2g", 510, cpu, 3000, s7);  // the second mm
  b.Flow(3, "ac2g", 560, cpu, 5000, s7);  // the second mm again
  return std::move(b.p);
}

TEST(KernelCompareGpu, GroupsKernelsByNameAndLaunchingOpShapes) {
  const Profile base = GpuWithKernels({1000, 2000, 3000, 500, 100});
  const Profile comparison = GpuWithKernels({1500, 1000, 1000, 400, 100});
  const KernelComparison cmp = Compare(base, comparison, ExactPolicy());
  ASSERT_EQ(cmp.kind, KernelCompareKind::kShape);
  EXPECT_FALSE(cmp.by_category);
  EXPECT_FALSE(cmp.ByType());
  EXPECT_EQ(cmp.base.source, KernelSource::kDeviceKernels);
  EXPECT_EQ(cmp.base.kernels, 5);
  EXPECT_EQ(cmp.base.total_ns, 6600);
  ASSERT_EQ(cmp.rows.size(), 4u);
  // The innermost cpu_op around each launch (not aten::linear, not the runtime call), its Input Dims
  // as Python prints them; kernels without a flow read "N/A".
  EXPECT_EQ(cmp.rows[0].type + "|" + cmp.rows[0].shapes, "sm90_gemm|[[8, 3], [3, 4]]");
  EXPECT_EQ(cmp.rows[1].type + "|" + cmp.rows[1].shapes, "sm90_gemm|[[16, 16], [16, 16]]");
  EXPECT_EQ(cmp.rows[2].type + "|" + cmp.rows[2].shapes, "elementwise_kernel|N/A");
  EXPECT_EQ(cmp.rows[3].type + "|" + cmp.rows[3].shapes, "Memcpy DtoD (Device -> Device)|N/A");
  const KernelRow& big = cmp.rows[1];
  EXPECT_EQ(big.base.total.count, 2);
  EXPECT_EQ(big.base.total.Ns(), 5000);
  EXPECT_EQ(big.base.max_ns, 3000);
  EXPECT_EQ(big.base.min_ns, 2000);
  EXPECT_DOUBLE_EQ(big.base.avg_us, 2.5);
  EXPECT_DOUBLE_EQ(big.comparison.total_us, 2.0);
  EXPECT_DOUBLE_EQ(big.diff_total_ratio, 0.4);
  EXPECT_DOUBLE_EQ(cmp.rows[0].diff_total_ratio, 1.5);
  EXPECT_TRUE(cmp.warnings.empty());
  // The reference refuses GPU data: no rows, and no warning for a trace file.
  for (ReferenceLine line : {ReferenceLine::k8_2, ReferenceLine::k26_1}) {
    const KernelComparison compat = Compare(base, comparison, ReferenceCompatPolicy(line));
    EXPECT_EQ(compat.kind, KernelCompareKind::kNone);
    EXPECT_TRUE(compat.rows.empty());
    EXPECT_TRUE(compat.warnings.empty());
  }
}

TEST(KernelCompareGpu, StepSelectionReadsTheStepsWindow) {
  ProfileBuilder b(DeviceKind::kGpu);
  b.p.meta.input_path = "steps.json";
  const TrackId cpu = b.Track("100", "100");
  const TrackId s7 = b.Track("0", "7");
  b.Add(cpu, SliceKind::kStepMarker, "ProfilerStep#1", "user_annotation", 0, 1000);
  b.Add(cpu, SliceKind::kStepMarker, "ProfilerStep#2", "user_annotation", 1000, 1000);
  b.Add(s7, SliceKind::kKernel, "k", "kernel", 200, 300, {{ArgKey::kStream, 7}});
  b.Add(s7, SliceKind::kKernel, "k", "kernel", 1200, 700, {{ArgKey::kStream, 7}});
  b.Add(s7, SliceKind::kKernel, "only_in_2", "kernel", 1500, 100, {{ArgKey::kStream, 7}});
  const Profile p = std::move(b.p);
  KernelCompareOptions options;
  options.base_step = 1;
  options.comparison_step = 2;
  const KernelComparison cmp = Compare(p, p, ExactPolicy(), options);
  ASSERT_EQ(cmp.rows.size(), 2u);
  EXPECT_EQ(cmp.rows[0].base.total.Ns(), 300);
  EXPECT_EQ(cmp.rows[0].comparison.total.Ns(), 700);
  EXPECT_EQ(cmp.rows[1].type, "only_in_2");
  EXPECT_FALSE(cmp.rows[1].base.present);
  options.base_step = 3;  // no such step: a warning, no rows
  const KernelComparison none = Compare(p, p, ExactPolicy(), options);
  EXPECT_EQ(none.kind, KernelCompareKind::kNone);
  EXPECT_TRUE(none.warnings.empty());  // said on stderr when the comparison is asked for by name
  ASSERT_EQ(none.no_data.size(), 1u);
  EXPECT_NE(none.no_data[0].find("base: steps.json has no device kernel in step 3"), std::string::npos)
      << none.no_data[0];
}

// Categories as the overall comparison counts them: (category, [durations]).
CategoryTotals Categories(const std::vector<std::pair<KernelCategory, std::vector<int64_t>>>& cats) {
  CategoryTotals t;
  for (const auto& [c, durs] : cats)
    for (int64_t d : durs) t.Add(c, d);
  return t;
}

TEST(KernelTypeCompareGpu, GpuVersusNpuComparesByCategoryWithoutAsking) {
  const Profile gpu = GpuWithKernels({1000, 2000, 3000, 500, 100});
  const Profile npu = NpuWithKernels({{"MatMul", "1,2", 4000}});
  const CategoryTotals gpu_cats =
      Categories({{KernelCategory::kMatmulCube, {1000, 2000, 3000}}, {KernelCategory::kVectorNoTrans, {500}}});
  const CategoryTotals npu_cats = Categories({{KernelCategory::kMatmulCube, {4000, 2000}},
                                              {KernelCategory::kFaFwdCube, {900}},
                                              {KernelCategory::kMc2, {100}}});
  KernelCompareOptions options;
  options.base_categories = &gpu_cats;
  options.comparison_categories = &npu_cats;
  const KernelComparison cmp = Compare(gpu, npu, ExactPolicy(), options);
  ASSERT_EQ(cmp.kind, KernelCompareKind::kType);
  EXPECT_TRUE(cmp.by_category && cmp.automatic_type && cmp.ByType());
  EXPECT_EQ(cmp.base.source, KernelSource::kKernelCategories);
  EXPECT_EQ(cmp.base.kernels, 4);
  EXPECT_EQ(cmp.comparison.total_ns, 7000);
  ASSERT_EQ(cmp.warnings.size(), 1u);
  EXPECT_NE(cmp.warnings[0].find("the base side is GPU"), std::string::npos) << cmp.warnings[0];
  EXPECT_NE(cmp.warnings[0].find("and the comparison side NPU"), std::string::npos) << cmp.warnings[0];
  ASSERT_EQ(cmp.type_rows.size(), 4u);  // sorted by the total ratio, INF first, in category order
  EXPECT_EQ(cmp.type_rows[0].op_type, "mc2");
  EXPECT_EQ(cmp.type_rows[0].core_type, "");
  EXPECT_EQ(cmp.type_rows[1].op_type, "flash_attention_fwd_cube");
  EXPECT_EQ(cmp.type_rows[1].core_type, "cube");
  const KernelTypeRow& mm = cmp.type_rows[2];
  EXPECT_EQ(mm.op_type, "matmul_cube");
  EXPECT_EQ(mm.base.count, 3);
  EXPECT_EQ(mm.base.total_ns, 6000);
  EXPECT_EQ(mm.base.avg_ns, 2000);
  EXPECT_EQ(mm.base.max_ns, 3000);
  EXPECT_EQ(mm.base.min_ns, 1000);
  EXPECT_DOUBLE_EQ(mm.comparison.avg_us, 3.0);
  EXPECT_DOUBLE_EQ(mm.diff_total_ratio, 1.0);
  EXPECT_EQ(cmp.type_rows[3].op_type, "vector_no_trans");
  EXPECT_EQ(cmp.type_rows[3].core_type, "vector");
  EXPECT_FALSE(cmp.type_rows[3].comparison.present);
  // The reference refuses it.
  const KernelComparison compat = Compare(gpu, npu, ReferenceCompatPolicy(ReferenceLine::k26_1), options);
  EXPECT_EQ(compat.kind, KernelCompareKind::kNone);
  EXPECT_FALSE(compat.by_category);
}

// NVIDIA against AMD: CUDA and HIP kernel names never match (cutlass against Tensile GEMMs), so the
// two GPU sides are compared by category without asking, as GPU against NPU.
TEST(KernelTypeCompareGpu, TwoGpuVendorsCompareByCategoryWithoutAsking) {
  const Profile base = GpuWithKernels({1000, 2000, 3000, 500, 100});
  const Profile comparison = GpuWithKernels({1500, 1000, 1000, 400, 100});
  Timeline tb = BuildTimeline(base, {}), tc = BuildTimeline(comparison, {});
  const OverallComparison overall = CompareOverall(tb, tc, ExactPolicy(), {});
  KernelCompareOptions options;
  options.base_categories = &overall.base.kernel_categories;
  options.comparison_categories = &overall.comparison.kernel_categories;
  tb.identity.vendor = "NVIDIA";
  tc.identity.vendor = "NVIDIA";
  EXPECT_FALSE(CompareKernels(tb, tc, ExactPolicy(), options).by_category);  // one vendor: by name
  tc.identity.vendor = "AMD";
  const KernelComparison cmp = CompareKernels(tb, tc, ExactPolicy(), options);
  ASSERT_EQ(cmp.kind, KernelCompareKind::kType);
  EXPECT_TRUE(cmp.by_category && cmp.automatic_type);
  ASSERT_EQ(cmp.warnings.size(), 1u);
  EXPECT_NE(cmp.warnings[0].find("the base side is GPU (NVIDIA) and the comparison side GPU (AMD)"),
            std::string::npos)
      << cmp.warnings[0];
  tc.identity.vendor.clear();  // an unknown vendor is never a difference
  EXPECT_FALSE(CompareKernels(tb, tc, ExactPolicy(), options).by_category);
  EXPECT_EQ(CompareKernels(tb, tc, ReferenceCompatPolicy(ReferenceLine::k26_1), options).kind, KernelCompareKind::kNone);
}

TEST(KernelTypeCompareGpu, GpuSidesByCategoryWithUseKernelTypeFromTheOverallComparison) {
  const Profile base = GpuWithKernels({1000, 2000, 3000, 500, 100});
  const Profile comparison = GpuWithKernels({1500, 1000, 1000, 400, 100});
  const Timeline tb = BuildTimeline(base, {}), tc = BuildTimeline(comparison, {});
  const OverallComparison overall = CompareOverall(tb, tc, ExactPolicy(), {});
  KernelCompareOptions options = ByType();
  options.base_categories = &overall.base.kernel_categories;
  options.comparison_categories = &overall.comparison.kernel_categories;
  const KernelComparison cmp = CompareKernels(tb, tc, ExactPolicy(), options);
  ASSERT_EQ(cmp.kind, KernelCompareKind::kType);
  EXPECT_TRUE(cmp.by_category);
  EXPECT_FALSE(cmp.automatic_type);
  EXPECT_TRUE(cmp.warnings.empty());
  // The overall comparison's categories: the GEMMs (launched by aten::mm, a MATMUL_MASK op; "gemm" a
  // CUBE_MASK name) are matmul_cube, the elementwise kernel vector; copies are not categorised.
  ASSERT_EQ(cmp.type_rows.size(), 2u);
  EXPECT_EQ(cmp.type_rows[0].op_type, "vector_no_trans");
  EXPECT_EQ(cmp.type_rows[0].base.total_ns, 500);
  EXPECT_EQ(cmp.type_rows[1].op_type, "matmul_cube");
  EXPECT_EQ(cmp.type_rows[1].base.total_ns, 6000);
  EXPECT_EQ(cmp.type_rows[1].comparison.total_ns, 3500);
  EXPECT_EQ(cmp.type_rows[1].base.count, 3);
  EXPECT_EQ(cmp.base.kernels, 4);
  // A side the overall comparison categorised nothing of: a warning, no rows.
  const CategoryTotals empty;
  options.comparison_categories = &empty;
  const KernelComparison none = CompareKernels(tb, tc, ExactPolicy(), options);
  EXPECT_EQ(none.kind, KernelCompareKind::kNone);
  EXPECT_TRUE(none.warnings.empty());
  ASSERT_EQ(none.no_data.size(), 1u);
  EXPECT_NE(none.no_data[0].find("comparison: no kernel of gpu_trace.json was categorised"), std::string::npos)
      << none.no_data[0];
}

}  // namespace
}  // namespace profdiff::analysis
