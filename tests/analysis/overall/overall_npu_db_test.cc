// The NPU overall metrics of a DB export (docs/reference/overall.md#npu-db-overall-metrics) on the
// synthetic export of tests/common/ascend_db_fixture.h: merged task intervals, E2E extended by the
// non-kernel tasks, categorisation by connection id, and the HCCL group from its groupName.
#include <gtest/gtest.h>

#include <string>

#include "../../common/ascend_db_fixture.h"
#include "../../report/report_test_util.h"
#include "profdiff/analysis/overall/npu_overall.h"
#include "profdiff/analysis/timeline/timeline.h"
#include "profdiff/loaders/ascend_db.h"

namespace profdiff::analysis {
namespace {

SideMetrics DbMetrics(const std::string& sql, std::optional<ReferenceLine> line,
                      std::optional<int64_t> step = std::nullopt) {
  report::testing::TempDir d;
  const std::string path = d / "ascend_pytorch_profiler_0.db";
  EXPECT_EQ(testing::WriteDb(path, sql), "");
  Profile p;
  EXPECT_TRUE(LoadAscendDb(path, p, LoadOptions{}).ok());
  const Timeline t = BuildTimeline(p, {});
  return ComputeNpuSideMetrics(t, KernelMasks::Defaults(), MakeReferencePolicy(line), step);
}

TEST(OverallNpuDb, IntervalsCategoriesAndGroups) {
  for (auto line : {std::optional<ReferenceLine>(), std::optional(ReferenceLine::k8_2),
                    std::optional(ReferenceLine::k26_1)}) {
    const SideMetrics m = DbMetrics(std::string(testing::kDbSchema) + testing::kDbRows, line);
    // Compute task 1500-1600; HCCL op 1610-1900; the event tasks lie inside.
    EXPECT_EQ(m.compute.Ns(), 100);
    EXPECT_EQ(m.comm_not_overlapped.Ns(), 290);
    EXPECT_EQ(m.e2e.Ns(), 400);
    EXPECT_TRUE(m.has_overlap_data);
    EXPECT_FALSE(m.hide_op_details);
    // KERNEL_AICORE without PMU rows is a cube kernel; aten::add is no cube CPU op; "Add" no op-type rule.
    EXPECT_EQ(m.categories.Count(KernelCategory::kOtherCube), 1);
    EXPECT_EQ(m.categories.Ns(KernelCategory::kOtherCube), 100);
    ASSERT_EQ(m.groups.size(), 1u);
    EXPECT_EQ(m.groups[0].name, "group_a");
    EXPECT_EQ(m.groups[0].wait_ns, 20);  // the Notify_Wait 1620-1640
    EXPECT_EQ(m.groups[0].wait_ns + m.groups[0].transmit_ns, line ? 290 : 20);  // exact: no transmit task
    EXPECT_EQ(m.memory_gib, 3.0 / 1024.0);  // 3 MiB reserved at most
  }
}

TEST(OverallNpuDb, LateNonKernelTaskExtendsE2e) {
  const std::string sql = std::string(testing::kDbSchema) + testing::kDbRows +
                          "INSERT INTO TASK VALUES (2500,2600,0,NULL,20,1,7,0,2,9,0,0);";
  const SideMetrics m = DbMetrics(sql, ReferenceLine::k26_1);
  EXPECT_EQ(m.e2e.Ns(), 1100);  // 1500 .. 2600
  EXPECT_EQ(m.compute.Ns(), 100);
}

// The 8.2 line (db_compute_runs_take_busy_ends): a compute task 1605-1615 starts the busy period
// 1605-1900 that the HCCL op 1610-1900 extends; the reference's in-place merge gave that compute run
// the period's end, so none of the period's communication is "not overlapped" for the group rows
// (Wait and Transmit 0), while the side's uncovered communication (busy - compute) is the same.
TEST(OverallNpuDb, DbComputeRunsTakeBusyEndsOnThe82Line) {
  const std::string sql = std::string(testing::kDbSchema) + testing::kDbRows +
                          "INSERT INTO TASK VALUES (1605,1615,0,NULL,15,1,6,0,2,7,0,0);"
                          "INSERT INTO COMPUTE_TASK_INFO VALUES (3,15,1,0,5,4,NULL,NULL,13,NULL,NULL,NULL,NULL,0);";
  const SideMetrics now = DbMetrics(sql, ReferenceLine::k26_1);
  const SideMetrics old = DbMetrics(sql, ReferenceLine::k8_2);
  for (const SideMetrics* m : {&now, &old}) {
    EXPECT_EQ(m->compute.Ns(), 110);
    EXPECT_EQ(m->comm_not_overlapped.Ns(), 285);  // 100 + 295 busy, 110 compute
    ASSERT_EQ(m->groups.size(), 1u);
  }
  EXPECT_EQ(now.groups[0].wait_ns, 20);  // the Notify_Wait 1620-1640, not overlapped
  EXPECT_EQ(now.groups[0].wait_ns + now.groups[0].transmit_ns, 285);
  EXPECT_EQ(old.groups[0].wait_ns, 0);
  EXPECT_EQ(old.groups[0].wait_ns + old.groups[0].transmit_ns, 0);
  EXPECT_FALSE(MakeReferencePolicy(std::nullopt).db_compute_runs_take_busy_ends);  // the default: as 26.1
}

// An MC2 kernel's computing time comes from TASK_PMU_INFO on a DB export, as aic_mac_time(us) etc.
// come from kernel_details.csv in the text export: max(aic_mac_time, aic_mte2_time) + aiv_time (ns,
// the fraction of a ns dropped); the PMU's aic_mac_time also makes the other kernel a cube kernel.
TEST(OverallNpuDb, Mc2ComputingTimeFromThePmuCounters) {
  const std::string sql = std::string(testing::kDbSchema) + testing::kDbRows +
                          "CREATE TABLE TASK_PMU_INFO (globalTaskId INTEGER, name INTEGER, value NUMERIC);"
                          "INSERT INTO STRING_IDS VALUES (30,'MatmulAllReduce'),(31,'aic_mac_time'),"
                          "(32,'aic_mte2_time'),(33,'aiv_time'),(34,'aic_total_time');"
                          "INSERT INTO TASK VALUES (1950,2250,0,NULL,16,1,6,0,2,8,0,0);"
                          "INSERT INTO COMPUTE_TASK_INFO VALUES (30,16,1,0,5,30,NULL,NULL,13,NULL,NULL,NULL,NULL,0);"
                          "INSERT INTO TASK_PMU_INFO VALUES (16,31,300),(16,32,500.4),(16,33,100),(10,31,0.0),(10,34,0);";
  for (auto line : {std::optional<ReferenceLine>(), std::optional(ReferenceLine::k8_2)}) {
    const SideMetrics m = DbMetrics(sql, line);
    ASSERT_EQ(m.mc2.size(), 1u);
    EXPECT_EQ(m.mc2[0].name, "MatmulAllReduce");
    EXPECT_EQ(m.mc2[0].dur.Ns(), 300);
    EXPECT_EQ(m.mc2[0].computing.Ns(), 600);  // max(300, 500) + 100
    // AddKernel has PMU rows, all zero: not a cube kernel (without PMU rows its KERNEL_AICORE type made it one).
    EXPECT_EQ(m.categories.Count(KernelCategory::kOtherCube), 0);
  }
}

// With a step, only the tasks, ops and memory records of its STEP_TIME range count.
TEST(OverallNpuDb, StepRestrictsToItsRange) {
  const std::string sql = std::string(testing::kDbSchema) + testing::kDbRows +
                          "INSERT INTO STEP_TIME VALUES (51, 2400, 3000);"
                          "INSERT INTO TASK VALUES (2500,2650,0,NULL,30,1,6,0,2,9,0,0);"
                          "INSERT INTO COMPUTE_TASK_INFO VALUES (3,30,1,0,5,4,NULL,NULL,13,NULL,NULL,NULL,NULL,0);";
  const SideMetrics all = DbMetrics(sql, ReferenceLine::k26_1);
  EXPECT_EQ(all.compute.Ns(), 250);
  EXPECT_EQ(all.e2e.Ns(), 1150);  // 1500 .. 2650
  const SideMetrics s50 = DbMetrics(sql, ReferenceLine::k26_1, 50);
  EXPECT_EQ(s50.compute.Ns(), 100);
  EXPECT_EQ(s50.e2e.Ns(), 400);
  EXPECT_EQ(s50.memory_gib, 3.0 / 1024.0);
  const SideMetrics s51 = DbMetrics(sql, ReferenceLine::k26_1, 51);
  EXPECT_EQ(s51.compute.Ns(), 150);
  EXPECT_EQ(s51.e2e.Ns(), 150);
  EXPECT_EQ(s51.comm_not_overlapped.Ns(), 0);
  EXPECT_EQ(s51.categories.Count(KernelCategory::kOtherCube), 1);
  EXPECT_EQ(s51.memory_gib, 0.0);  // no MEMORY_RECORD row in 2400..3000
}

}  // namespace
}  // namespace profdiff::analysis
