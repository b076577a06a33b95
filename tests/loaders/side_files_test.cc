#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "profdiff/base/time.h"
#include "profdiff/loaders/ascend_side_files.h"

namespace profdiff {
namespace {

namespace fs = std::filesystem;

const std::string kShared = PROFDIFF_SOURCE_DIR "/../shared";
const std::string kCorpus = kShared + "/corpus";

#define SKIP_WITHOUT_CORPUS()                                                                  \
  do {                                                                                         \
    if (!fs::is_directory(kCorpus)) GTEST_SKIP() << "shared corpus not found at " << kCorpus; \
  } while (0)

class SideFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(PROFDIFF_BINARY_DIR) / "side_files_test_tmp" /
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }

  fs::path dir_;
};

std::string Output(const std::string& case_dir) {
  return kCorpus + "/" + case_dir + "/ASCEND_PROFILER_OUTPUT/";
}

// ---- kernel_details.csv: inline ------------------------------------------------------------------

TEST_F(SideFiles, KernelDetailsInlineValuesAndAbsentCells) {
  const std::string path = Write(
      "kernel_details.csv",
      "\xEF\xBB\xBFStep ID,Task ID,Stream ID,Name,Type,Accelerator Core,Start Time(us),Duration(us),"
      "Wait Time(us),Input Shapes,aicore_time(us),mac_time(us),aiv_vec_time(us)\r\n"
      "7,11051,2,conv,Conv2D,AI_CORE,1736408883704643.212\t,53.741,0,\"\"\"32,3,224,224\"\"\",1.5,N/A,\r\n"
      "7,N/A,N/A,hcom_x,hcom_allReduce_,HCCL,\"1736408883704700.000\t\",10,,N/A,N/A,N/A,N/A\r\n"
      ",1,1,odd,N/A,N/A,1,0.0005,0,,0,0,0\r\n");
  Profile p;
  ASSERT_TRUE(KernelDetailsCsvLoader().Load(path, p, {}).ok());
  const KernelDetailsTable& t = p.npu.kernel_details;
  ASSERT_TRUE(t.present);
  EXPECT_EQ(t.file, path);
  EXPECT_TRUE(t.has_mac_time);
  EXPECT_TRUE(t.has_aiv_vec_time);
  EXPECT_EQ(t.columns.size(), 13u);
  ASSERT_EQ(t.rows.size(), 3u);

  const KernelDetailRow& a = t.rows[0];
  EXPECT_EQ(a.start_ns, 1736408883704643212);
  EXPECT_EQ(a.dur_ns, 53741);
  EXPECT_EQ(a.step_id, 7);
  EXPECT_EQ(p.str(a.name), "conv");
  EXPECT_EQ(p.str(a.type), "Conv2D");
  EXPECT_EQ(p.str(a.accelerator_core), "AI_CORE");
  EXPECT_EQ(p.str(a.input_shapes), "\"32,3,224,224\"");
  EXPECT_FALSE(a.has_mac_or_vec_time);   // mac_time N/A, aiv_vec_time empty
  EXPECT_TRUE(a.mac_or_aicore_positive);  // aicore_time 1.5 us
  EXPECT_EQ(a.aic_mac_time_ns, kAbsentNs);  // no such column
  EXPECT_EQ(a.line, 2u);

  const KernelDetailRow& b = t.rows[1];
  EXPECT_EQ(b.start_ns, 1736408883704700000);
  EXPECT_EQ(b.dur_ns, 10000);
  EXPECT_FALSE(b.has_mac_or_vec_time);
  EXPECT_FALSE(b.mac_or_aicore_positive);
  EXPECT_EQ(p.str(b.input_shapes), "N/A");

  const KernelDetailRow& c = t.rows[2];
  EXPECT_EQ(c.step_id, kNoNumber);  // empty step id
  EXPECT_EQ(c.dur_ns, 0);           // 0.0005 us = 0.5 ns, rounded half-even to 0
  EXPECT_TRUE(c.has_mac_or_vec_time);      // mac_time and aiv_vec_time 0
  EXPECT_FALSE(c.mac_or_aicore_positive);  // none above 0
  EXPECT_EQ(p.diagnostics.count(DiagId::sub_ns_rounded), 1u);
  EXPECT_EQ(p.diagnostics.total(DiagSeverity::kWarning), 0u);
}

TEST_F(SideFiles, KernelDetailsBadCellsAreDiagnosedWithLine) {
  const std::string path = Write("kernel_details.csv",
                                 "Step Id,Name,Type,Start Time(us),Duration(us),aicore_time(us)\n"
                                 "1,a,T,100,1,abc\n"
                                 "1,b,T,not-a-time,1,0\n"
                                 "1,c,T,200,\n"
                                 "x,d,T,300,2,0\n"
                                 "1,e,T,,2,0\n");
  Profile p;
  ASSERT_TRUE(KernelDetailsCsvLoader().Load(path, p, {}).ok());
  const auto& rows = p.npu.kernel_details.rows;
  ASSERT_EQ(rows.size(), 2u);  // b: bad start, c: wrong width, e: empty start
  EXPECT_EQ(p.str(rows[0].name), "a");
  EXPECT_FALSE(rows[0].mac_or_aicore_positive);  // aicore_time "abc": no value
  EXPECT_EQ(p.str(rows[1].name), "d");
  EXPECT_EQ(rows[1].step_id, kNoNumber);
  EXPECT_EQ(rows[1].start_ns, 300000);
  EXPECT_FALSE(p.npu.kernel_details.has_mac_time);
  EXPECT_FALSE(p.npu.kernel_details.has_aiv_vec_time);

  const Diagnostics& d = p.diagnostics;
  EXPECT_EQ(d.count(DiagId::csv_bad_number), 2u);  // aicore "abc", step "x"
  EXPECT_EQ(d.entry(DiagId::csv_bad_number).examples[0].where.ToString(), path + ":2");
  EXPECT_NE(d.entry(DiagId::csv_bad_number).examples[0].detail.find("aicore_time(us)"), std::string::npos);
  EXPECT_EQ(d.count(DiagId::csv_bad_time), 2u);
  EXPECT_EQ(d.entry(DiagId::csv_bad_time).examples[0].where.ToString(), path + ":3");
  EXPECT_EQ(d.entry(DiagId::csv_bad_time).examples[1].where.ToString(), path + ":6");
  EXPECT_EQ(d.count(DiagId::csv_row_width), 1u);
  EXPECT_EQ(d.entry(DiagId::csv_row_width).examples[0].where.ToString(), path + ":4");
}

// Times beyond base/time.h's range: a start or an end (start + duration) outside it skips the row, a
// metric outside it is absent; each is a time_out_of_range diagnostic naming the line.
TEST_F(SideFiles, KernelDetailsTimesOutOfRangeSkipTheRow) {
  const std::string path = Write("kernel_details.csv",
                                 "Step Id,Name,Type,Start Time(us),Duration(us),aicore_time(us)\n"
                                 "1,a,T,100,1,4611686018427388\n"
                                 "1,b,T,4611686018427388,1,0\n"
                                 "1,c,T,4611686018427387,1,0\n"
                                 "1,d,T,-1152921504606847,1,0\n"
                                 "1,e,T,4611686018427387,0.904,0\n");
  Profile p;
  ASSERT_TRUE(KernelDetailsCsvLoader().Load(path, p, {}).ok());
  const auto& rows = p.npu.kernel_details.rows;
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(p.str(rows[0].name), "a");
  EXPECT_FALSE(rows[0].mac_or_aicore_positive);  // aicore_time "abc": no value
  EXPECT_EQ(p.str(rows[1].name), "e");
  EXPECT_EQ(rows[1].start_ns + rows[1].dur_ns, kMaxTimeNs);
  const Diagnostics& d = p.diagnostics;
  EXPECT_EQ(d.count(DiagId::time_out_of_range), 4u);
  EXPECT_EQ(d.count(DiagId::csv_bad_time), 0u);
  EXPECT_EQ(d.entry(DiagId::time_out_of_range).examples[0].where.ToString(), path + ":2");
  EXPECT_EQ(d.entry(DiagId::time_out_of_range).examples[2].where.ToString(), path + ":4");
}

TEST_F(SideFiles, KernelDetailsMissingRequiredColumnOrBadFileIsAnError) {
  Profile p;
  Status s = KernelDetailsCsvLoader().Load(Write("k.csv", "Name,Duration(us)\na,1\n"), p, {});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("k.csv:1"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("Start Time(us)"), std::string::npos) << s.message();
  EXPECT_FALSE(p.npu.kernel_details.present);

  s = KernelDetailsCsvLoader().Load(Write("empty.csv", ""), p, {});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("empty.csv"), std::string::npos);

  s = KernelDetailsCsvLoader().Load(Write("bin.csv", std::string("\x1f\x8b\x08\0\0", 5)), p, {});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("bin.csv:1"), std::string::npos) << s.message();

  s = KernelDetailsCsvLoader().Load((dir_ / "nope.csv").string(), p, {});
  EXPECT_EQ(s.code(), StatusCode::kNotFound);
  EXPECT_FALSE(p.npu.kernel_details.present);
}

// ---- kernel_details.csv: corpus ------------------------------------------------------------------

TEST_F(SideFiles, KernelDetailsCorpusLevel1) {
  SKIP_WITHOUT_CORPUS();
  Profile p;
  const std::string file = Output("msinsight_pt_text_2025_level1/rank0_ascend_pt") + "kernel_details.csv";
  ASSERT_TRUE(KernelDetailsCsvLoader().Load(file, p, {}).ok());
  const KernelDetailsTable& t = p.npu.kernel_details;
  ASSERT_EQ(t.rows.size(), 191u);
  EXPECT_FALSE(t.has_mac_time);  // current CANN writes aic_mac_time(us)
  EXPECT_TRUE(t.has_aiv_vec_time);
  const KernelDetailRow& first = t.rows.front();
  EXPECT_EQ(p.str(first.name), "trans_TransData_0");
  EXPECT_EQ(p.str(first.type), "TransData");
  EXPECT_EQ(p.str(first.accelerator_core), "AI_VECTOR_CORE");
  EXPECT_EQ(first.start_ns, 1736408883704643212);
  EXPECT_EQ(first.dur_ns, 53741);
  EXPECT_EQ(first.step_id, 50);
  EXPECT_EQ(p.str(first.input_shapes), "\"32,3,224,224\"");
  EXPECT_FALSE(first.mac_or_aicore_positive);  // aicore_time 0
  EXPECT_EQ(first.aic_mac_time_ns, 0);
  EXPECT_EQ(first.aiv_time_ns, 50522);
  EXPECT_TRUE(first.has_mac_or_vec_time);  // aiv_vec_time 9.406 us
  EXPECT_EQ(first.line, 2u);
  const KernelDetailRow& last = t.rows.back();
  EXPECT_EQ(p.str(last.type), "ForeachAddList");
  EXPECT_EQ(last.start_ns, 1736408883840600069);
  EXPECT_EQ(last.dur_ns, 624152);
  EXPECT_EQ(last.line, 192u);
  EXPECT_EQ(p.diagnostics.total(DiagSeverity::kInfo), 0u) << p.diagnostics.Summary();
}

TEST_F(SideFiles, KernelDetailsCorpusLevel0AndLevel2) {
  SKIP_WITHOUT_CORPUS();
  Profile p0;
  ASSERT_TRUE(KernelDetailsCsvLoader()
                  .Load(Output("msinsight_pt_text_2025_level0/rank1_ascend_pt") + "kernel_details.csv", p0, {})
                  .ok());
  const KernelDetailsTable& t0 = p0.npu.kernel_details;
  ASSERT_EQ(t0.rows.size(), 191u);
  EXPECT_EQ(t0.columns.size(), 8u);
  EXPECT_FALSE(t0.has_mac_time);
  EXPECT_FALSE(t0.has_aiv_vec_time);
  const KernelDetailRow& r0 = t0.rows[5];
  EXPECT_EQ(p0.str(r0.name), "aclnnMaxPool2dWithMask_TransDataSpecial_TransData");
  EXPECT_EQ(p0.str(r0.type), "N/A");
  EXPECT_EQ(r0.start_ns, 1736405443897935347);
  EXPECT_EQ(r0.dur_ns, 22360);
  EXPECT_FALSE(r0.has_mac_or_vec_time);
  EXPECT_FALSE(r0.mac_or_aicore_positive);
  EXPECT_EQ(r0.input_shapes, kEmptyString);

  Profile p2;
  ASSERT_TRUE(KernelDetailsCsvLoader()
                  .Load(Output("msinsight_pt_text_2025_level2/rank1_ascend_pt") + "kernel_details.csv", p2, {})
                  .ok());
  ASSERT_EQ(p2.npu.kernel_details.rows.size(), 191u);
  const KernelDetailRow& r2 = p2.npu.kernel_details.rows[5];
  EXPECT_EQ(r2.start_ns, 1736412474732040737);
  EXPECT_TRUE(r2.has_mac_or_vec_time);
  EXPECT_EQ(p2.str(r2.input_shapes), "\"32,64,55,55\"");
}

TEST_F(SideFiles, KernelDetailsCorpusGpt3TrimmedAndAdvisorSets) {
  SKIP_WITHOUT_CORPUS();
  Profile g;
  ASSERT_TRUE(KernelDetailsCsvLoader()
                  .Load(kCorpus + "/msinsight_server_gpt3_2rank_trimmed/test_rank_0/ASCEND_PROFILER_OUTPUT/"
                                  "kernel_details.csv",
                        g, {})
                  .ok());
  // 22 lines: the header and 21 rows, one of which (line 17, FlashAttentionScore) has 31 fields
  // for 32 columns: it is skipped with a csv_row_width diagnostic rather than read shifted.
  ASSERT_EQ(g.npu.kernel_details.rows.size(), 20u);
  EXPECT_EQ(g.diagnostics.count(DiagId::csv_row_width), 1u);
  const KernelDetailRow& z = g.npu.kernel_details.rows[0];
  EXPECT_EQ(g.str(z.name), "ZerosLike");
  EXPECT_EQ(z.start_ns, 1695115378713661000);
  EXPECT_EQ(z.dur_ns, 496851);  // 496.8508 us: sub-ns digits rounded
  EXPECT_TRUE(z.mac_or_aicore_positive);  // aicore_time 982.72 us
  EXPECT_EQ(z.step_id, 2);
  const KernelDetailRow& h = g.npu.kernel_details.rows[1];
  EXPECT_EQ(g.str(h.accelerator_core), "HCCL");
  EXPECT_EQ(h.start_ns, 1695115378715400200);
  EXPECT_FALSE(h.mac_or_aicore_positive);
  EXPECT_GE(g.diagnostics.count(DiagId::sub_ns_rounded), 1u);
  EXPECT_EQ(g.diagnostics.total(DiagSeverity::kWarning), 1u) << g.diagnostics.Summary();  // line 17

  Profile g1;
  ASSERT_TRUE(KernelDetailsCsvLoader()
                  .Load(kCorpus + "/msinsight_server_gpt3_2rank_trimmed/test_rank_1/ASCEND_PROFILER_OUTPUT/"
                                  "kernel_details.csv",
                        g1, {})
                  .ok());
  ASSERT_EQ(g1.npu.kernel_details.rows.size(), 22u);
  EXPECT_EQ(g1.npu.kernel_details.rows.back().start_ns, 1695115378726665800);

  Profile a23;
  ASSERT_TRUE(KernelDetailsCsvLoader().Load(kCorpus + "/mstt_advisor_kernel_details_2023/kernel_details.csv", a23, {}).ok());
  ASSERT_EQ(a23.npu.kernel_details.rows.size(), 591u);
  EXPECT_FALSE(a23.npu.kernel_details.has_aiv_vec_time);
  const KernelDetailRow& d = a23.npu.kernel_details.rows[100];
  EXPECT_EQ(a23.str(d.name), "DropOutDoMask24");
  EXPECT_EQ(d.start_ns, 1699529623161702500);
  EXPECT_EQ(d.dur_ns, 128720);
  EXPECT_EQ(d.aiv_time_ns, 120710);
  EXPECT_EQ(a23.str(d.input_shapes), "\"1024,4,12288;6291456;\"");
  EXPECT_EQ(a23.diagnostics.total(DiagSeverity::kWarning), 0u) << a23.diagnostics.Summary();

  Profile a25;
  ASSERT_TRUE(KernelDetailsCsvLoader().Load(kCorpus + "/mstt_advisor_kernel_details_2025/kernel_details.csv", a25, {}).ok());
  ASSERT_EQ(a25.npu.kernel_details.rows.size(), 29u);  // last line has no newline
  const KernelDetailRow& m = a25.npu.kernel_details.rows[0];
  EXPECT_EQ(a25.str(m.type), "MatMulV2");
  EXPECT_EQ(m.start_ns, 1736413971558972912);  // quoted cell with a TAB inside
  EXPECT_EQ(m.aic_mac_time_ns, 151425);
  EXPECT_EQ(m.aic_mte2_time_ns, 177314);
  EXPECT_EQ(a25.str(m.input_shapes), "\"81920,4096;8192,512\"");
  const KernelDetailRow& last = a25.npu.kernel_details.rows.back();
  EXPECT_EQ(last.start_ns, 1736413974268747953);
  EXPECT_EQ(a25.str(last.input_shapes), "\";\"");
  EXPECT_EQ(a25.diagnostics.total(DiagSeverity::kInfo), 0u) << a25.diagnostics.Summary();
}

// ---- other CSVs ----------------------------------------------------------------------------------

TEST_F(SideFiles, OpStatisticInlineAndCorpus) {
  Profile p;
  ASSERT_TRUE(OpStatisticCsvLoader()
                  .Load(Write("op_statistic.csv",
                              "OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),Max Time(us)\n"
                              "MatMul,AI_CORE,3,30.5,9,10.166,11.5\n"
                              "Bad,AI_CPU,x,,1,1,1\n"),
                        p, {})
                  .ok());
  ASSERT_TRUE(p.npu.has_op_statistic);
  ASSERT_EQ(p.npu.op_statistic.size(), 2u);
  const OpStatisticRow& r = p.npu.op_statistic[0];
  EXPECT_EQ(p.str(r.op_type), "MatMul");
  EXPECT_EQ(p.str(r.core_type), "AI_CORE");
  EXPECT_EQ(r.count, 3);
  EXPECT_EQ(r.total_ns, 30500);
  EXPECT_EQ(r.min_ns, 9000);
  EXPECT_EQ(r.avg_ns, 10166);
  EXPECT_EQ(r.max_ns, 11500);
  EXPECT_EQ(p.npu.op_statistic[1].count, 0);
  EXPECT_EQ(p.npu.op_statistic[1].total_ns, 0);
  EXPECT_EQ(p.diagnostics.count(DiagId::csv_bad_number), 1u);

  SKIP_WITHOUT_CORPUS();
  Profile c;
  ASSERT_TRUE(OpStatisticCsvLoader()
                  .Load(Output("msinsight_pt_text_2025_level1/rank0_ascend_pt") + "op_statistic.csv", c, {})
                  .ok());
  ASSERT_EQ(c.npu.op_statistic.size(), 33u);
  const OpStatisticRow& f = c.npu.op_statistic[0];
  EXPECT_EQ(c.str(f.op_type), "ForeachAddList");
  EXPECT_EQ(f.count, 3);
  EXPECT_EQ(f.total_ns, 1959079);
  EXPECT_EQ(f.min_ns, 624152);
  EXPECT_EQ(f.avg_ns, 653026);
  EXPECT_EQ(f.max_ns, 706614);
}

TEST_F(SideFiles, OperatorMemoryCorpus) {
  SKIP_WITHOUT_CORPUS();
  Profile p;
  ASSERT_TRUE(OperatorMemoryCsvLoader()
                  .Load(Output("msinsight_pt_text_2025_level1/rank0_ascend_pt") + "operator_memory.csv", p, {})
                  .ok());
  ASSERT_TRUE(p.npu.has_operator_memory);
  ASSERT_EQ(p.npu.operator_memory.size(), 184u);
  const OperatorMemoryRow& a = p.npu.operator_memory[0];
  EXPECT_EQ(p.str(a.name), "aten::empty_strided");
  EXPECT_DOUBLE_EQ(a.size_kb, 18816.5);
  EXPECT_EQ(a.allocation_ns, 1736408883694624810);
  EXPECT_EQ(a.release_ns, kAbsentNs);
  EXPECT_EQ(a.duration_ns, kAbsentNs);
  EXPECT_EQ(p.str(a.device_type), "NPU:0");
  EXPECT_EQ(a.line, 2u);
  const OperatorMemoryRow& c = p.npu.operator_memory[2];
  EXPECT_EQ(p.str(c.name), "aten::_convolution");
  EXPECT_EQ(c.release_ns, 1736408883736793940);
  EXPECT_EQ(c.duration_ns, 34058240);
  size_t unreleased = 0;
  for (const auto& r : p.npu.operator_memory) unreleased += r.release_ns == kAbsentNs;
  EXPECT_EQ(unreleased, 24u);
  EXPECT_EQ(p.diagnostics.total(DiagSeverity::kInfo), 0u) << p.diagnostics.Summary();
}

TEST_F(SideFiles, MemoryRecordInlineAndCorpus) {
  Profile p;
  ASSERT_TRUE(MemoryRecordCsvLoader()
                  .Load(Write("memory_record.csv",
                              "Component,Timestamp(us),Total Allocated(MB),Total Reserved(MB),Total Active(MB),"
                              "Stream Ptr,Device Type\r\n"
                              "APP,1.5\t,,2048,,,NPU:0\r\n"
                              "PTA,,12.25,oops,1,2,NPU:0\r\n"),
                        p, {})
                  .ok());
  EXPECT_EQ(p.npu.memory_record.rows, 2);
  EXPECT_DOUBLE_EQ(p.npu.memory_record.peak_reserved_mb, 2048);  // "oops" -> 0, diagnosed
  EXPECT_EQ(p.diagnostics.count(DiagId::csv_bad_number), 1u);
  EXPECT_EQ(p.diagnostics.entry(DiagId::csv_bad_number).examples[0].where.line, 3);

  Profile q;
  EXPECT_FALSE(MemoryRecordCsvLoader().Load(Write("m2.csv", "Component,Timestamp(us)\nA,1\n"), q, {}).ok());
  EXPECT_FALSE(q.npu.has_memory_record);

  SKIP_WITHOUT_CORPUS();
  Profile c;
  ASSERT_TRUE(MemoryRecordCsvLoader()
                  .Load(Output("msinsight_pt_text_2025_level1/rank0_ascend_pt") + "memory_record.csv", c, {})
                  .ok());
  EXPECT_EQ(c.npu.memory_record.rows, 1004);
  EXPECT_DOUBLE_EQ(c.npu.memory_record.peak_reserved_mb, 2113.73046875);
}

TEST_F(SideFiles, StepTraceTimeCorpusAndGenericColumns) {
  Profile p;
  ASSERT_TRUE(StepTraceTimeCsvLoader()
                  .Load(Write("step_trace_time.csv", "Step,Computing,Free\n,1.5,\n3,2,x\n"), p, {})
                  .ok());
  const StepTraceTable& t = p.npu.step_trace;
  ASSERT_TRUE(t.present);
  EXPECT_EQ(t.columns, (std::vector<std::string>{"Computing", "Free"}));
  EXPECT_EQ(t.steps, (std::vector<std::string>{"", "3"}));
  ASSERT_EQ(t.values_ns.size(), 2u);
  EXPECT_EQ(t.values_ns[0], (std::vector<int64_t>{1500, kAbsentNs}));
  EXPECT_EQ(t.values_ns[1], (std::vector<int64_t>{2000, kAbsentNs}));
  EXPECT_EQ(p.diagnostics.count(DiagId::csv_bad_number), 1u);

  SKIP_WITHOUT_CORPUS();
  Profile c;
  ASSERT_TRUE(StepTraceTimeCsvLoader()
                  .Load(Output("msinsight_pt_text_2025_level1/rank0_ascend_pt") + "step_trace_time.csv", c, {})
                  .ok());
  const StepTraceTable& s = c.npu.step_trace;
  ASSERT_EQ(s.columns.size(), 9u);
  EXPECT_EQ(s.columns.back(), "Preparing");
  ASSERT_EQ(s.steps, (std::vector<std::string>{"50"}));
  EXPECT_EQ(s.values_ns[0][0], 8873756);   // 8873.756000000001 us
  EXPECT_EQ(s.values_ns[0][1], 101963203);
  EXPECT_EQ(s.values_ns[0][8], 17902500);

  Profile g;
  ASSERT_TRUE(StepTraceTimeCsvLoader()
                  .Load(kCorpus + "/msinsight_server_gpt3_2rank_trimmed/test_rank_0/ASCEND_PROFILER_OUTPUT/"
                                  "step_trace_time.csv",
                        g, {})
                  .ok());
  EXPECT_EQ(g.npu.step_trace.columns.size(), 8u);  // older set: no "Preparing"
  EXPECT_EQ(g.npu.step_trace.steps.size(), g.npu.step_trace.values_ns.size());
}

// ---- JSON side files -----------------------------------------------------------------------------

TEST_F(SideFiles, CommunicationJsonInline) {
  Profile p;
  ASSERT_TRUE(CommunicationJsonLoader()
                  .Load(Write("communication.json",
                              R"J({"step2": {"collective": {"Total Op Info": {"Communication Bandwidth Info": {
                                   "RDMA": {"Transit Size(MB)": 10, "Transit Time(ms)": 4},
                                   "SDMA": {"Transit Size(MB)": 5, "Transit Time(ms)": 0}}}}, "p2p": {}},
                                 "step1": {"collective": {}, "p2p": {}}})J"),
                        p, {})
                  .ok());
  const CommunicationInfo& c = p.npu.communication;
  ASSERT_TRUE(c.present);
  EXPECT_FALSE(c.empty);
  ASSERT_EQ(c.steps.size(), 2u);
  EXPECT_EQ(c.steps[0].step, "step2");  // file order kept
  EXPECT_TRUE(c.steps[0].has_collective_bandwidth);
  EXPECT_DOUBLE_EQ(c.steps[0].collective_bandwidth.at("RDMA").bandwidth_gb_s, 2.5);
  EXPECT_DOUBLE_EQ(c.steps[0].collective_bandwidth.at("SDMA").bandwidth_gb_s, 0);  // time <= 0
  EXPECT_DOUBLE_EQ(c.steps[0].collective_bandwidth.at("SDMA").transit_size_mb, 5);
  EXPECT_EQ(c.steps[1].step, "step1");
  EXPECT_FALSE(c.steps[1].has_collective_bandwidth);  // absent block: not fatal
}

TEST_F(SideFiles, CommunicationJsonEmptyAndBroken) {
  Profile p;
  ASSERT_TRUE(CommunicationJsonLoader().Load(Write("a.json", ""), p, {}).ok());
  EXPECT_TRUE(p.npu.communication.present);
  EXPECT_TRUE(p.npu.communication.empty);
  Profile q;
  ASSERT_TRUE(CommunicationJsonLoader().Load(Write("b.json", " {} \n"), q, {}).ok());
  EXPECT_TRUE(q.npu.communication.empty);
  // The quirk case of the reference (q_bw oracle): no bandwidth anywhere is not fatal.
  Profile r;
  ASSERT_TRUE(CommunicationJsonLoader()
                  .Load(Write("c.json", R"J({"step50": {"collective": {}, "p2p": {}}})J"), r, {})
                  .ok());
  ASSERT_EQ(r.npu.communication.steps.size(), 1u);
  EXPECT_FALSE(r.npu.communication.steps[0].has_collective_bandwidth);

  Profile s;
  Status st = CommunicationJsonLoader().Load(Write("d.json", "{\"step1\": [1, 2,}"), s, {});
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.code(), StatusCode::kParseError);
  EXPECT_NE(st.message().find("d.json@byte"), std::string::npos) << st.message();
  EXPECT_FALSE(s.npu.communication.present);
  st = CommunicationJsonLoader().Load(Write("e.json", "[1]"), s, {});
  EXPECT_FALSE(st.ok());
}

TEST_F(SideFiles, CommunicationJsonCorpus) {
  SKIP_WITHOUT_CORPUS();
  Profile p;
  ASSERT_TRUE(CommunicationJsonLoader()
                  .Load(Output("msinsight_pt_text_2025_level1/rank0_ascend_pt") + "communication.json", p, {})
                  .ok());
  const CommunicationInfo& c = p.npu.communication;
  ASSERT_EQ(c.steps.size(), 1u);
  EXPECT_EQ(c.steps[0].step, "step50");
  ASSERT_TRUE(c.steps[0].has_collective_bandwidth);
  const auto& bw = c.steps[0].collective_bandwidth;
  EXPECT_EQ(bw.size(), 5u);  // RDMA, HCCS, PCIE, SDMA, SIO
  EXPECT_DOUBLE_EQ(bw.at("RDMA").bandwidth_gb_s, 0);
  EXPECT_NEAR(bw.at("SDMA").bandwidth_gb_s, 427.59609599999993 / 27.315705875000003, 1e-12);

  Profile g;
  ASSERT_TRUE(CommunicationJsonLoader()
                  .Load(kCorpus + "/msinsight_server_gpt3_2rank_trimmed/test_rank_0/ASCEND_PROFILER_OUTPUT/"
                                  "communication.json",
                        g, {})
                  .ok());
  ASSERT_EQ(g.npu.communication.steps.size(), 1u);
  EXPECT_NEAR(g.npu.communication.steps[0].collective_bandwidth.at("RDMA").bandwidth_gb_s,
              131.07281199999997 / 5.410613242187499, 1e-12);
}

TEST_F(SideFiles, ProfilerInfoAndMetadata) {
  Profile p;
  const std::string info = Write("profiler_info_3.json",
                                 R"J({"config": {"experimental_config": {"_profiler_level": "Level2"}},
                                     "rank_id": "3"})J");
  ASSERT_TRUE(ProfilerInfoJsonLoader().Load(info, p, {}).ok());
  EXPECT_EQ(p.meta.profiler_level, "Level2");
  EXPECT_EQ(p.meta.rank, 3);
  EXPECT_NE(p.meta.profiler_info_json.find("\"rank_id\": \"3\""), std::string::npos);
  EXPECT_FALSE(ProfilerInfoJsonLoader().Load(Write("i2.json", "[]"), p, {}).ok());
  EXPECT_FALSE(ProfilerInfoJsonLoader().Load(Write("i3.json", "{}"), p, {}).ok());

  ASSERT_TRUE(ProfilerMetadataJsonLoader()
                  .Load(Write("profiler_metadata.json",
                              R"J({"parallel_group_info": {"10": {"group_name": "dp", "group_rank": 0},
                                  "11": {"group_name": "tp"}, "12": {"x": 1}}})J"),
                        p, {})
                  .ok());
  EXPECT_EQ(p.npu.parallel_group_names,
            (std::map<std::string, std::string>{{"10", "dp"}, {"11", "tp"}}));
  ASSERT_TRUE(ProfilerMetadataJsonLoader()
                  .Load(Write("profiler_metadata.json",
                              R"J({"parallel_group_info": {"10": {"group_name": "dp", "global_ranks": [3, 1, "x"]},
                                  "12": {"x": 1}, "13": 5}})J"),
                        p, {})
                  .ok());
  EXPECT_EQ(p.npu.parallel_group_ranks,
            (std::map<std::string, std::vector<int64_t>>{{"10", {1, 3}}, {"12", {}}}));  // every group id

  SKIP_WITHOUT_CORPUS();
  Profile c;
  ASSERT_TRUE(ProfilerInfoJsonLoader()
                  .Load(kCorpus + "/msinsight_pt_text_2025_level1/rank1_ascend_pt/profiler_info_1.json", c, {})
                  .ok());
  EXPECT_EQ(c.meta.profiler_level, "Level1");
  EXPECT_EQ(c.meta.rank, 1);
  ASSERT_TRUE(ProfilerMetadataJsonLoader()
                  .Load(kCorpus + "/msinsight_pt_text_2025_level1/rank1_ascend_pt/profiler_metadata.json", c, {})
                  .ok());
  EXPECT_TRUE(c.npu.parallel_group_names.empty());  // this corpus has no parallel_group_info
}

TEST_F(SideFiles, CommunicationOperatorsWholeForTheClusterFiles) {
  const std::string text = R"J({"step1": {"p2p": {"send@9": {"a": 1}},
      "collective": {"ar@7": {"t": 0.30000000000000004, "n": [1, 2]}, "Total Op Info": {"x": 1}}},
    "bad": [1], "step2": {"collective": 3, "custom": {"odd@7": {}}}})J";
  Profile p;
  ASSERT_TRUE(CommunicationJsonLoader().Load(Write("communication.json", text), p, {}).ok());
  EXPECT_FALSE(p.npu.communication.records.present);  // compare does not keep them
  LoadOptions cluster;
  cluster.cluster_tables = true;
  ASSERT_TRUE(CommunicationJsonLoader().Load(Write("communication.json", text), p, cluster).ok());
  const CommunicationOpRecords& r = p.npu.communication.records;
  ASSERT_EQ(r.ops.size(), 3u);  // "Total Op Info" is not kept
  EXPECT_EQ(r.ops[0].step + "/" + r.ops[0].type + "/" + r.ops[0].name, "step1/p2p/send@9");
  EXPECT_EQ(r.ops[1].value_json, R"({"t":0.30000000000000004,"n":[1,2]})");
  EXPECT_EQ(r.ops[2].type, "custom");
  EXPECT_EQ(r.skipped, (std::vector<std::string>{"bad: not an object", "step2/collective: not an object"}));

  Profile m;
  ASSERT_TRUE(CommunicationMatrixJsonLoader()
                  .Load(Write("communication_matrix.json", R"({"step1": {"collective": {"ar-top1@7": {"0-1": {}}}}})"),
                        m, {})
                  .ok());
  ASSERT_EQ(m.npu.communication_matrix.ops.size(), 1u);
  EXPECT_EQ(m.npu.communication_matrix.ops[0].value_json, R"({"0-1":{}})");
  const Status bad = CommunicationMatrixJsonLoader().Load(Write("communication_matrix.json", "[1]"), m, {});
  EXPECT_NE(bad.ToString().find("communication_matrix.json@byte 0"), std::string::npos) << bad.ToString();
}

// ---- LoadAscendSideFiles -------------------------------------------------------------------------

TEST_F(SideFiles, LoadAllSideFilesOfCorpusRank) {
  SKIP_WITHOUT_CORPUS();
  ResolvedInput in;
  in.path_level = "profiling";
  in.profiling_dir = kCorpus + "/msinsight_pt_text_2025_level0/rank0_ascend_pt";
  in.ascend_output = in.profiling_dir + "/ASCEND_PROFILER_OUTPUT";
  in.info_file = in.profiling_dir + "/profiler_info_0.json";
  Profile p;
  ASSERT_TRUE(LoadAscendSideFiles(in, p, {}).ok());
  EXPECT_TRUE(p.npu.kernel_details.present);
  EXPECT_EQ(p.npu.kernel_details.rows.size(), 191u);
  EXPECT_TRUE(p.npu.has_operator_memory);
  EXPECT_TRUE(p.npu.has_memory_record);
  EXPECT_TRUE(p.npu.step_trace.present);
  // Level0 has no op_statistic.csv / communication.json: noted, not fatal.
  EXPECT_FALSE(p.npu.has_op_statistic);
  EXPECT_FALSE(p.npu.communication.present);
  EXPECT_EQ(p.diagnostics.count(DiagId::side_file_missing), 2u);
  EXPECT_EQ(p.meta.profiler_level, "Level0");
  EXPECT_EQ(p.meta.rank, 0);
  EXPECT_EQ(p.meta.files.size(), 6u);  // 4 CSVs + metadata + info

  // Trace level reads nothing; read_side_files=false reads nothing.
  Profile t;
  in.path_level = "trace";
  ASSERT_TRUE(LoadAscendSideFiles(in, t, {}).ok());
  EXPECT_FALSE(t.npu.kernel_details.present);
  in.path_level = "profiling";
  LoadOptions no_side;
  no_side.read_side_files = false;
  ASSERT_TRUE(LoadAscendSideFiles(in, t, no_side).ok());
  EXPECT_TRUE(t.meta.files.empty());
}

TEST_F(SideFiles, UnreadableSideFileIsDiagnosedNotFatal) {
  Write("kernel_details.csv", "");  // 0-byte file
  Write("memory_record.csv", "Component,Total Reserved(MB)\nAPP,10\n");
  ResolvedInput in;
  in.path_level = "ascend_output";
  in.ascend_output = dir_.string();
  Profile p;
  ASSERT_TRUE(LoadAscendSideFiles(in, p, {}).ok());
  EXPECT_FALSE(p.npu.kernel_details.present);
  EXPECT_TRUE(p.npu.has_memory_record);
  EXPECT_EQ(p.diagnostics.count(DiagId::side_file_unreadable), 1u);
  EXPECT_NE(p.diagnostics.entry(DiagId::side_file_unreadable).examples[0].detail.find("kernel_details.csv"),
            std::string::npos);
  EXPECT_EQ(p.diagnostics.count(DiagId::side_file_missing), 4u);
  EXPECT_EQ(p.meta.files, (std::vector<std::string>{(dir_ / "memory_record.csv").string()}));
}

}  // namespace
}  // namespace profdiff
