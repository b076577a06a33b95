// The reference's cluster_analysis.db tables of a run of DB exports (db_tables.h) and its float
// arithmetic (float_sums.h). The whole tables are checked against the reference's own output in
// tests/scenarios/test_cluster_db_tables.py and tests/oracle/test_cluster_db.py; here each rule alone.
#include "profdiff/analysis/cluster/db_tables.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "profdiff/analysis/cluster/float_sums.h"
#include "profdiff/analysis/common/python_numbers.h"
#include "sql_rows.h"

namespace profdiff::analysis {
namespace {

using testing::Rows;

SqlValue T(const char* s) { return SqlValue::Text(s); }
SqlValue I(int64_t v) { return SqlValue::Int(v); }
SqlValue R(double v) { return SqlValue::Real(v); }
const SqlValue kNull = SqlValue::Null();

const std::vector<std::string> kTimeCols = {"hccl_op_name", "group_name", "start_timestamp", "elapse_time",
                                            "transit_time", "wait_time", "synchronization_time", "idle_time",
                                            "step", "type"};
const std::vector<std::string> kBwCols = {"hccl_op_name", "group_name", "transport_type", "transit_size",
                                          "transit_time", "bandwidth", "large_packet_ratio", "package_size",
                                          "count", "total_duration", "step", "type"};
const std::vector<std::string> kMatrixCols = {"hccl_op_name", "group_name", "src_rank", "dst_rank",
                                              "transport_type", "transit_size", "transit_time", "bandwidth",
                                              "step", "type", "op_name"};

RankSummary DbRank(int64_t rank) {
  RankSummary r;
  r.rank = rank;
  r.export_kind = "db";
  r.db_tables.present = true;
  return r;
}

// A time row: op, group, start, elapse, transit, wait, sync, idle, step.
std::vector<SqlValue> TimeRow(const char* op, SqlValue group, SqlValue transit, SqlValue wait, SqlValue sync,
                              const char* step = "step1") {
  return {T(op), std::move(group), R(1000.5), R(3.0), std::move(transit), std::move(wait), std::move(sync),
          R(0.5), T(step), T("collective")};
}

const ResultColumn* ColumnNamed(const ResultTable& t, std::string_view name) {
  for (const ResultColumn& c : t.columns)
    if (c.name == name) return &c;
  return nullptr;
}

TEST(ClusterDbFloats, NumpyPairwiseSumAddsBlocksThroughEightPartials) {
  const std::vector<double> tenths(10, 0.1);
  double sequential = 0;
  for (double v : tenths) sequential += v;
  EXPECT_EQ(sequential, 0.9999999999999999);
  EXPECT_EQ(NumpyPairwiseSum(tenths), 1.0);  // numpy.sum([0.1] * 10)
  const std::vector<double> few = {0.1, 0.2, std::numeric_limits<double>::quiet_NaN(), 0.3};
  EXPECT_EQ(NumpyPairwiseSum(few), 0.1 + 0.2 + 0.0 + 0.3);  // under 8 values: in order, NaN as 0
}

TEST(ClusterDbFloats, NumpyRoundScalesRoundsAndDividesBack) {
  // numpy.round(x, 4) against Python's round(x, 4) on the same doubles.
  EXPECT_EQ(NumpyRound(31.38305, 4), 31.383);
  EXPECT_EQ(PyRound(31.38305, 4), 31.3831);
  EXPECT_EQ(NumpyRound(55.88715, 4), 55.8872);
  EXPECT_EQ(PyRound(55.88715, 4), 55.8871);
  EXPECT_EQ(NumpyRound(15.72391, 4), 15.7239);
}

TEST(ClusterDbFloats, ExactSumIsTheNearestDoubleOfTheExactSum) {
  EXPECT_EQ(ExactSum(std::vector<double>{1e16, 1.0, -1e16}), 1.0);
  EXPECT_EQ(ExactSum(std::vector<double>(10, 0.1)), 1.0);
  EXPECT_EQ(ExactSum(std::vector<double>{0.1, 0.2}), 0.30000000000000004);  // the double nearest 0.1 + 0.2 exactly
  EXPECT_EQ(ExactSum(std::vector<double>{}), 0.0);
  EXPECT_TRUE(std::isinf(ExactSum(std::vector<double>{1.0, std::numeric_limits<double>::infinity()})));
  // Order does not matter.
  EXPECT_EQ(ExactSum(std::vector<double>{1.0, 1e100, 1.0, -1e100}), 2.0);
}

TEST(ClusterDbTables, GroupMappingSortsTypesAndGroupsAndTakesTheMetadata) {
  std::vector<RankSummary> ranks = {DbRank(0), DbRank(1), DbRank(2)};
  const std::string pp = std::to_string(GroupNameHash("pp_id"));
  ranks[0].db_tables.comm_time = Rows(kTimeCols, {TimeRow("hcom_send__1", T(pp.c_str()), R(1), R(1), I(0)),
                                                  TimeRow("hcom_allReduce__1", T("20"), R(1), R(1), I(0)),
                                                  TimeRow("hcom_allReduce__2", kNull, R(1), R(1), I(0))});
  ranks[1].db_tables.comm_time = Rows(kTimeCols, {TimeRow("hcom_allReduce__1", T("20"), R(1), R(1), I(0)),
                                                  TimeRow("hcom_Recv__1", T(pp.c_str()), R(1), R(1), I(0))});
  ranks[0].db_tables.parallel_groups = {{"pp_id", "pp", {0, 1, 5}}, {"other", "x", {}}};
  ranks[2].db_tables.parallel_groups = {{"ignored", "pp", {2}}};  // no CommAnalyzerTime row: not read
  const auto mapping = DbCommunicationGroupMapping(ranks, ExactPolicy());
  ASSERT_EQ(mapping.size(), 2u);
  EXPECT_EQ(mapping[0].type, "collective");
  EXPECT_EQ(mapping[0].group_name, "20");
  EXPECT_EQ(mapping[0].rank_set, (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(mapping[0].group_id, "");
  EXPECT_EQ(mapping[1].type, "p2p");  // "send" and "recv" in the op name, whatever the case
  EXPECT_EQ(mapping[1].rank_set, (std::vector<int64_t>{0, 1, 5}));  // the metadata's global ranks
  EXPECT_EQ(mapping[1].group_id, "pp_id");
  EXPECT_EQ(mapping[1].pg_name, "pp");
  const auto table = CommunicationGroupMappingTable(mapping);
  ASSERT_TRUE(table.has_value());
  EXPECT_EQ(table->rows[1][1], T("(0,1,5)"));
  EXPECT_EQ(DbRankSetText({}), "()");
  EXPECT_FALSE(CommunicationGroupMappingTable({}).has_value());
}

TEST(ClusterDbTables, EmptyGlobalRanksAndStagesFollowThePolicy) {
  std::vector<RankSummary> ranks = {DbRank(0), DbRank(1), DbRank(2), DbRank(3)};
  const std::string pp_a = std::to_string(GroupNameHash("pp_a")), pp_b = std::to_string(GroupNameHash("pp_b"));
  const std::string dp_a = std::to_string(GroupNameHash("dp_a")), dp_b = std::to_string(GroupNameHash("dp_b"));
  for (RankSummary& r : ranks) {
    const bool low = r.rank < 2;
    const std::string& pp = r.rank % 2 == 0 ? pp_a : pp_b;
    r.db_tables.comm_time = Rows(kTimeCols, {TimeRow("hcom_allReduce_", T((low ? dp_a : dp_b).c_str()), R(1), R(1), I(0)),
                                             TimeRow("hcom_send_", T(pp.c_str()), R(1), R(1), I(0))});
    r.db_tables.parallel_groups = {{"pp_a", "pp", {0, 2}}, {"pp_b", "pp", {1, 3}}, {"dp_a", "dp", {}}};
  }
  const auto exact = DbCommunicationGroupMapping(ranks, ExactPolicy());
  EXPECT_EQ(DbStageGroups(exact), (std::vector<std::vector<int64_t>>{{0, 1}, {2, 3}}));
  const auto compat = DbCommunicationGroupMapping(ranks, ReferenceCompatPolicy(ReferenceLine::k26_1));
  bool empty = false;
  for (const auto& g : compat) empty |= g.group_name == dp_a && g.rank_set.empty();
  EXPECT_TRUE(empty);  // dp_a lists no global rank: "()"
  EXPECT_TRUE(DbStageGroups(compat).empty());  // which the reference cannot read back: no stage rows
}

TEST(ClusterDbTables, CommunicationTimeSumsPerStepRankAndGroup) {
  std::vector<RankSummary> ranks = {DbRank(0), DbRank(1)};
  ranks[0].db_tables.comm_time = Rows(kTimeCols, {TimeRow("op_a", T("g"), R(0.1), R(0.2), I(1)),
                                                  TimeRow("op_b", T("g"), R(0.2), R(0.1), I(2)),
                                                  TimeRow("op_c", kNull, R(5), R(5), I(3))});
  ranks[0].db_tables.comm_bandwidth =
      Rows(kBwCols, {{T("op_a"), T("g"), T("HCCS"), R(10), R(2), R(5), I(0), R(1.5), I(3), R(0.25), T("step1"), T("c")},
                     {T("op_a"), T("g"), T("HCCS"), R(10), R(2), R(5), I(0), R(2.5), I(1), R(0.5), T("step1"), T("c")},
                     {T("op_b"), T("g"), T("HCCS"), R(6), R(0), R(0), I(0), R(1.5), I(2), R(0.125), T("step1"), T("c")}});
  ranks[1].db_tables.comm_time = Rows(kTimeCols, {TimeRow("op_a", T("g"), R(1), R(1), I(0))});  // no bandwidth: left out
  const std::vector<GroupParallelInfo> mapping = {{"collective", {0, 1}, "g", "", ""}, {"p2p", {0}, "g", "", ""}};
  std::vector<std::string> notes;
  const auto t = CommunicationTimeSumTables(ranks, mapping, ExactPolicy(), notes);
  ASSERT_TRUE(t.time && t.bandwidth);
  ASSERT_EQ(t.time->rows.size(), 4u);  // rank 0's three rows and one total (the NULL group has none)
  const auto& total = t.time->rows[3];
  EXPECT_EQ(total[2], T("Total Op Info"));
  EXPECT_EQ(total[6], R(ExactSum(std::vector<double>{0.1, 0.1, 0.2, 0.2})));  // the group has two rank sets: twice
  EXPECT_EQ(total[8], I(6));  // synchronization_time: integers, summed as integers
  EXPECT_EQ(ColumnNamed(*t.time, "synchronization_time")->type, SqlType::kInteger);
  EXPECT_EQ(ColumnNamed(*t.time, "elapsed_time")->type, SqlType::kReal);
  EXPECT_EQ(total[10], R(PyRound(6.0 / (0.6 + 6.0), 4)));  // sync / (transit + sync)
  // Bandwidth: one total per package size; the transit size and time of each distinct op once.
  ASSERT_EQ(t.bandwidth->rows.size(), 5u);
  EXPECT_EQ(t.bandwidth->rows[3][9], R(1.5));
  EXPECT_EQ(t.bandwidth->rows[3][5], R(16.0));
  EXPECT_EQ(t.bandwidth->rows[3][6], R(2.0));
  EXPECT_EQ(t.bandwidth->rows[3][7], R(8.0));
  EXPECT_EQ(t.bandwidth->rows[3][10], I(10));  // (3 + 2) twice
  EXPECT_EQ(ColumnNamed(*t.bandwidth, "large_packet_ratio")->type, SqlType::kInteger);
  EXPECT_EQ(ColumnNamed(*t.bandwidth, "count")->type, SqlType::kInteger);
  EXPECT_TRUE(notes.empty());
}

TEST(ClusterDbTables, CommunicationTimeWithoutAnyCompleteRankIsEmptyText) {
  std::vector<RankSummary> ranks = {DbRank(0)};
  ranks[0].db_tables.comm_time = Rows(kTimeCols, {TimeRow("op_a", T("g"), R(1), R(1), I(0))});
  std::vector<std::string> notes;
  const auto t = CommunicationTimeSumTables(ranks, {{"collective", {0}, "g", "", ""}}, ExactPolicy(), notes);
  ASSERT_TRUE(t.time && t.bandwidth);
  EXPECT_TRUE(t.time->rows.empty());
  EXPECT_EQ(t.time->columns.size(), 12u);
  EXPECT_EQ(t.time->columns[5].name, "elapsed_time");
  EXPECT_EQ(t.time->columns[5].type, SqlType::kText);
}

std::vector<SqlValue> Link(const char* op, const char* src, const char* dst, double size, double time,
                           const char* type = "collective") {
  return {T(op), T("g"), T(src), T(dst), T(std::string(src) == dst ? "LOCAL" : "HCCS"), R(size), R(time), R(0),
          T("step1"), T(type), T("")};
}

TEST(ClusterDbTables, MatrixMapsLocalRanksSumsLinksAndOrdersByLine) {
  std::vector<RankSummary> ranks = {DbRank(0), DbRank(1)};
  ranks[0].db_tables.comm_matrix = Rows(kMatrixCols, {Link("b-top1", "0", "1", 4, 2), Link("b-total", "0", "0", 1, 0),
                                                      Link("a-total", "0", "1", 2, 1), Link("a-total", "0", "7", 1, 1)});
  ranks[1].db_tables.comm_matrix = Rows(kMatrixCols, {Link("a-total", "1", "1", 3, 1), Link("a-total", "0", "1", 2, 3)});
  std::vector<std::string> notes;
  const auto t = CommunicationMatrixTable(ranks, ExactPolicy(), notes);
  ASSERT_TRUE(t.has_value());
  // First appearance: b-top1 0-1, b-total 0-0, a-total 0-1 (both ranks' rows summed), a-total 1-1.
  ASSERT_EQ(t->rows.size(), 4u + 3u);
  EXPECT_EQ(t->rows[0][1], T("b-top1"));
  EXPECT_EQ(t->rows[2][1], T("a-total"));
  EXPECT_EQ(t->rows[2][7], R(4.0));
  EXPECT_EQ(t->rows[2][9], R(1.0));  // 4 / 4
  EXPECT_EQ(t->rows[1][9], R(0.0));  // a time of 0: bandwidth 0
  EXPECT_EQ(t->rows[4][1], T("Total Op Info"));
  EXPECT_TRUE(std::isinf(t->rows[4][9].r));  // b-total 0-0 over a time of 0: the reference's inf
  EXPECT_EQ(t->rows[3][3], R(1.0));  // global ranks as REAL
  ASSERT_EQ(notes.size(), 1u);       // local rank 7: no rank maps it
  EXPECT_NE(notes[0].find("local rank 7"), std::string::npos);
  const auto sorted = CommunicationMatrixTable(ranks, ReferenceCompatPolicy(ReferenceLine::k8_2), notes);
  ASSERT_TRUE(sorted.has_value());
  EXPECT_EQ(sorted->rows[0][1], T("a-total"));  // 8.2: groups sorted
  EXPECT_EQ(sorted->rows[2][1], T("b-top1"));
  EXPECT_EQ(sorted->rows[4][1], T("Total Op Info"));
  EXPECT_EQ(sorted->rows[4][3], R(0.0));
  EXPECT_EQ(sorted->rows[4][4], R(0.0));  // (g, step1, 0, 0) before (g, step1, 0, 1)
}

TEST(ClusterDbTables, StepTraceTimeRowsExactByDefaultFloatsUnderCompat) {
  ClusterStepTable steps;
  steps.columns = {std::string(kColComputing), std::string(kColFree)};
  ClusterStepRow rank_row{"50", false, "0", {8873756, 0}, {8873.756000000001, 0.0}, {0}};
  ClusterStepRow stage_row{"50", true, "(0, 1)", {8873756, 0}, {8873.756000000001, 0.0}, {0, 1}};
  steps.rows = {rank_row, stage_row};
  const auto exact = ClusterStepTraceTimeTable(steps, ExactPolicy());
  ASSERT_TRUE(exact.has_value());
  EXPECT_FALSE(exact->pandas);
  EXPECT_EQ(exact->columns.size(), 15u);
  EXPECT_EQ(exact->rows[0][3], R(8873.756));
  EXPECT_EQ(exact->rows[0][4], kNull);  // overlapped: the rank has no such column
  EXPECT_EQ(exact->rows[1][2], T("(0,1)"));
  EXPECT_EQ(exact->rows[1][14], I(0));
  const auto compat = ClusterStepTraceTimeTable(steps, ReferenceCompatPolicy(ReferenceLine::k26_1));
  EXPECT_EQ(compat->rows[0][3], R(8873.756000000001));
  EXPECT_FALSE(ClusterStepTraceTimeTable(ClusterStepTable{}, ExactPolicy()).has_value());
}

TEST(ClusterDbTables, HostsAndDevicesAsTheReferenceMergesThem) {
  std::vector<RankSummary> ranks = {DbRank(0), DbRank(1), DbRank(2)};
  ranks[0].db_tables.host_info = Rows({"hostUid", "hostName"}, {{T("9"), T("a")}});
  ranks[0].db_tables.rank_device_map = Rows({"rankId", "deviceId"}, {{I(5), I(1)}});
  ranks[1].db_tables.host_info = Rows({"hostUid", "hostName"}, {{I(9), T("b")}});
  ranks[1].db_tables.rank_device_map = Rows({"rankId", "deviceId"}, {{I(2), I(0)}});
  ranks[2].db_tables.host_info = Rows({"hostUid", "hostName"}, {{T("7"), T("c")}});  // no device row: left out
  const auto hosts = HostInfoTable(ranks);
  ASSERT_TRUE(hosts.has_value());
  ASSERT_EQ(hosts->rows.size(), 1u);
  EXPECT_EQ(hosts->rows[0][1], T("b"));  // one uid: its place first, its name last
  const auto devices = RankDeviceMapTable(ranks, {"/r/rank0", "/r/rank1", "/r/rank2"});
  ASSERT_TRUE(devices.has_value());
  ASSERT_EQ(devices->rows.size(), 2u);
  EXPECT_EQ(devices->rows[0][0], I(2));  // sorted
  EXPECT_EQ(devices->rows[0][3], T("/r/rank1"));
  EXPECT_FALSE(HostInfoTable({DbRank(0)}).has_value());
}

TEST(ClusterDbTables, TimeSummaryTablesExactByDefault) {
  ClusterTimeSummary s;
  TimeSummaryRow r;
  r.rank = 1;
  r.step = 50;
  r.ns.fill(8002);
  r.us.fill(8.001999999999953);
  s.rows = {r};
  const auto exact = ClusterTimeSummaryTable(s, ExactPolicy());
  ASSERT_TRUE(exact.has_value());
  EXPECT_EQ(exact->columns[2].name, "stepTime");
  EXPECT_EQ(exact->rows[0][2], R(8.002));
  EXPECT_EQ(ClusterTimeSummaryTable(s, ReferenceCompatPolicy(ReferenceLine::k26_1))->rows[0][2], R(8.001999999999953));
  TimeCompareRow c{1, 50, r, r};
  c.base.ns.fill(2);
  c.base.us.fill(0.002);
  const auto cmp = ClusterTimeCompareSummaryTable({c}, ExactPolicy());
  ASSERT_TRUE(cmp.has_value());
  EXPECT_EQ(cmp->columns.size(), 32u);
  EXPECT_EQ(cmp->columns[4].name, "stepTimeDiff");
  EXPECT_EQ(cmp->rows[0][4], R(8.0));
}

}  // namespace
}  // namespace profdiff::analysis
