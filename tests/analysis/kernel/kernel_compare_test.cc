// The kernel comparison on hand-built side tables (docs/reference/kernels.md).
#include "profdiff/analysis/kernel/kernel_compare.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "../../common/profile_builder.h"

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
  KernelComparison g = Compare(gpu, npu, ExactPolicy());
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

}  // namespace
}  // namespace profdiff::analysis
