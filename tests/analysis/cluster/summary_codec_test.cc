// The RankSummary JSON codec (summary_codec.h): a summary written and read back gives the same
// summary (the same JSON again, and the same doubles bit for bit), summaries of real corpus ranks
// included; a bad file is a ParseError naming the JSON pointer of the bad field, never an exception.
#include "profdiff/analysis/cluster/summary_codec.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "profdiff/analysis/cluster/rank_summary.h"
#include "profdiff/analysis/timeline/timeline.h"
#include "profdiff/loaders/loader.h"
#include "sql_rows.h"

namespace profdiff::analysis {
namespace {

using testing::Rows;

namespace fs = std::filesystem;
using J = nlohmann::ordered_json;

const std::string kCorpus = PROFDIFF_SOURCE_DIR "/../shared/corpus";

#define SKIP_WITHOUT_CORPUS()                                                                  \
  do {                                                                                         \
    if (!fs::is_directory(kCorpus)) GTEST_SKIP() << "shared corpus not found at " << kCorpus; \
  } while (0)

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int64_t kMin64 = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax64 = std::numeric_limits<int64_t>::max();
constexpr uint64_t kMaxU64 = std::numeric_limits<uint64_t>::max();
const double kNegNan = std::bit_cast<double>(uint64_t{0xfff8000000000000});  // x86's 0.0 * inf
const double kPayloadNan = std::bit_cast<double>(uint64_t{0x7ff0000000000001});
const std::string kBadUtf8 = std::string("op\xff\xfe", 4) + std::string(1, '\0') + "\xc3\x28";  // not UTF-8
const std::string kQuoted = "a \"quoted\" path\\with\nnew\tlines and \xc3\xa9";             // UTF-8

uint64_t Bits(double v) { return std::bit_cast<uint64_t>(v); }

CommunicationOpRecords Records(const std::string& tag) {
  CommunicationOpRecords r;
  r.present = true;
  r.ops = {{"step50", "collective", "hcom_allReduce__586_0_1@1752" + tag, R"({"Communication Time Info":{"a":1.5}})"},
           {"step51", "p2p", "hcom_send__1_0_1@7" + tag, "{}"}};
  r.skipped = {"step52: not an object", tag};
  return r;
}

void FillDbTables(ClusterDbTables& d) {
  d.present = true;
  d.has_analysis_db = true;
  d.comm_time = Rows({"hccl_op_name", "group_name", "elapsed_time", "start", "n", "x"},
                     {{SqlValue::Text("hcom_allReduce_1"), SqlValue::Text(kBadUtf8), SqlValue::Real(3.0),
                       SqlValue::Int(kMin64), SqlValue::Null(), SqlValue::Real(-0.0)},
                      {SqlValue::Text(""), SqlValue::Text(kQuoted), SqlValue::Real(kNan), SqlValue::Int(kMax64),
                       SqlValue::Real(kInf), SqlValue::Real(-kInf)}});
  d.comm_bandwidth = Rows({"band_type", "bandwidth"}, {{SqlValue::Text("HCCS"), SqlValue::Real(0.1)},
                                                       {SqlValue::Text("RDMA"), SqlValue::Real(1e300)}});
  d.comm_matrix = Rows({"src_rank", "dst_rank"}, {{SqlValue::Int(0), SqlValue::Int(1)}, {SqlValue::Int(-1)}});
  d.host_info = Rows({"hostUid", "hostName"}, {{SqlValue::Text("1234"), SqlValue::Text("node-a")}});
  d.rank_device_map = Rows({"rankId", "deviceId"}, {{SqlValue::Int(7), SqlValue::Real(kNegNan)}});
  d.has_parallel_group_info = true;
  d.parallel_groups = {{"10.0.0.1%enp_60000_0", "dp", {0, 2, 4}}, {"g2", "", {}}};
  d.distributed_args_json = R"({"tensor_model_parallel_size":2})";
  d.notes = {"META_DATA parallel_group_info is not JSON: x", "second"};
}

// Every field, recursively, away from its default, with the hard values the codec must keep.
RankSummary FullSummary() {
  RankSummary s;
  s.rank = 7;
  s.world_size = 16;
  s.export_kind = "db";
  s.source_path = kQuoted;
  s.device = DeviceKind::kNpu;
  s.step_source = RankStepSource::kAnalysisDb;
  s.columns = {"Computing", "Free", "Stage", kBadUtf8};
  s.steps = {{"50", {1, kAbsentNs, kMax64, 0}, {8873.756000000001, kNan, -0.0, 5e-324}, 123},
             {"", {kMin64, -1, 2, 3}, {kInf, -kInf, kNegNan, kPayloadNan}, kAbsentNs},
             {kBadUtf8, {}, {}, 0}};
  s.groups = {{"Group 0 Communication", 100, 60, 30, 10}, {kQuoted, kMax64, kMin64, -1, 0}};
  s.collectives = {
      {"dp", "hcom_allReduce__586_0_1", 10, 20, "1752268860347708058", 3, "50", "HCCS", 0.1, 12.5, 4, 5, 1, 6},
      {"communication kernels", "ncclKernel_AllReduce", kMin64, kMax64, "", kMax64, "", "", -1, kNan, 0, 0, -1, 0},
      {kBadUtf8, kQuoted, -5, -4, kBadUtf8, -1, kBadUtf8, kBadUtf8, -0.0, kInf, 7, 8, 2147483647, 9},
      {"tp", "hcom_broadcast_", 1, 2, "tp", 0, "51", "RDMA", 1e-300, -kInf, 1, 2, -2147483647 - 1, 3}};
  s.kernel_names = {"MatMul", kBadUtf8, ""};
  s.communication_ops = Records("a");
  s.matrix_ops = Records(kBadUtf8);
  s.time.present = s.time.has_comm_ops = s.time.has_comm_groups = true;
  s.time.steps = {{-1, kAbsentNs, kAbsentNs, kAbsentNs}, {50, 1000, 20, kMax64}};
  s.time.comm_ops = {{kMaxU64, "hcom_allReduce_1", 50, 300}, {uint64_t{1} << 63, kBadUtf8, -1, kMin64}, {0, "", 0, 0}};
  FillDbTables(s.db_tables);
  s.parallel_group_names = {{"0", "dp"}, {kBadUtf8, "bad key"}, {"", kQuoted}, {"bytes_hex", "x"}};
  s.parallel_group_ranks = {{"0", {0, 1, kMax64}}, {"1", {}}, {kBadUtf8, {kMin64}}};
  s.distributed_args_json = R"({"world_size":16,"tensor_model_parallel_size":2})";
  s.missing = {"trace_view.json", "communication.json"};
  s.notes = {"no step windows", kBadUtf8};
  return s;
}

// What a reduce on another machine reads: the summary written to text and read back.
StatusOr<RankSummary> ThroughText(const RankSummary& s) {
  return RankSummaryFromJson(J::parse(RankSummaryToJson(s).dump()));
}

TEST(SummaryCodec, FullSummaryReadsBackToTheSameJson) {
  const RankSummary s = FullSummary();
  const std::string text = RankSummaryToJson(s).dump();
  auto back = ThroughText(s);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(RankSummaryToJson(*back).dump(), text);
  EXPECT_EQ(RankSummaryToJson(*back).dump(2), RankSummaryToJson(s).dump(2));
  // Also read straight from the in-memory JSON (no text in between).
  auto direct = RankSummaryFromJson(RankSummaryToJson(s));
  ASSERT_TRUE(direct.ok()) << direct.status().ToString();
  EXPECT_EQ(RankSummaryToJson(*direct).dump(), text);
}

TEST(SummaryCodec, KeysAreTheFieldsInDeclarationOrder) {
  const J j = RankSummaryToJson(FullSummary());
  std::vector<std::string> keys;
  for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"rank", "world_size", "export_kind", "source_path", "device",
                                            "step_source", "columns", "steps", "groups", "collectives",
                                            "kernel_names", "communication_ops", "matrix_ops", "time", "db_tables",
                                            "parallel_group_names", "parallel_group_ranks", "distributed_args_json",
                                            "missing", "notes"}));
  std::vector<std::string> collective_keys;
  for (auto it = j["collectives"][0].begin(); it != j["collectives"][0].end(); ++it)
    collective_keys.push_back(it.key());
  EXPECT_EQ(collective_keys,
            (std::vector<std::string>{"group", "name", "start_ns", "end_ns", "source_group", "seq", "step",
                                      "transport", "size_mb", "bandwidth_gbps", "lead_in_busy_ns", "lead_in_idle_ns",
                                      "lead_in_top", "lead_in_top_ns"}));
}

TEST(SummaryCodec, DoublesComeBackBitForBit) {
  auto back = ThroughText(FullSummary());
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  const RankSummary& r = *back;
  const RankSummary s = FullSummary();
  for (size_t i = 0; i < s.steps.size(); ++i) {
    ASSERT_EQ(r.steps[i].values_us_float.size(), s.steps[i].values_us_float.size());
    for (size_t k = 0; k < s.steps[i].values_us_float.size(); ++k)
      EXPECT_EQ(Bits(r.steps[i].values_us_float[k]), Bits(s.steps[i].values_us_float[k])) << i << " " << k;
  }
  EXPECT_EQ(Bits(r.steps[0].values_us_float[2]), Bits(-0.0));
  EXPECT_EQ(Bits(r.steps[1].values_us_float[2]), 0xfff8000000000000u);
  EXPECT_EQ(Bits(r.steps[1].values_us_float[3]), 0x7ff0000000000001u);
  for (size_t i = 0; i < s.collectives.size(); ++i) {
    EXPECT_EQ(Bits(r.collectives[i].size_mb), Bits(s.collectives[i].size_mb)) << i;
    EXPECT_EQ(Bits(r.collectives[i].bandwidth_gbps), Bits(s.collectives[i].bandwidth_gbps)) << i;
  }
  // The text itself: -0.0 written as such, NaN as null, infinities as strings.
  const std::string text = RankSummaryToJson(s).dump();
  EXPECT_NE(text.find(R"("values_us_float":[8873.756000000001,null,-0.0,5e-324])"), std::string::npos) << text;
  EXPECT_NE(text.find(R"(["inf","-inf","nan:0xfff8000000000000","nan:0x7ff0000000000001"])"), std::string::npos);
}

TEST(SummaryCodec, IntegersAndEnumsComeBackExactly) {
  auto back = ThroughText(FullSummary());
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  const RankSummary& r = *back;
  EXPECT_EQ(r.rank, 7);
  EXPECT_EQ(r.world_size, 16);
  EXPECT_EQ(r.device, DeviceKind::kNpu);
  EXPECT_EQ(r.step_source, RankStepSource::kAnalysisDb);
  EXPECT_EQ(r.steps[0].values_ns, (std::vector<int64_t>{1, kAbsentNs, kMax64, 0}));
  EXPECT_EQ(r.steps[1].values_ns[0], kMin64);
  EXPECT_EQ(r.time.comm_ops[0].group, kMaxU64);
  EXPECT_EQ(r.time.comm_ops[1].group, uint64_t{1} << 63);
  EXPECT_EQ(r.time.comm_ops[1].dur_ns, kMin64);
  EXPECT_EQ(r.collectives[2].lead_in_top, 2147483647);
  EXPECT_EQ(r.collectives[3].lead_in_top, -2147483647 - 1);
  EXPECT_EQ(r.groups[1].uncovered_ns, kMax64);
  EXPECT_TRUE(r.time.present && r.time.has_comm_ops && r.time.has_comm_groups);
  EXPECT_TRUE(r.db_tables.present && r.db_tables.has_analysis_db && r.db_tables.has_parallel_group_info);
  EXPECT_EQ(r.parallel_group_ranks.at("0"), (std::vector<int64_t>{0, 1, kMax64}));
  EXPECT_EQ(r.db_tables.parallel_groups[0].global_ranks, (std::vector<int64_t>{0, 2, 4}));
}

TEST(SummaryCodec, SqlCellsKeepTheirKind) {
  const RankSummary s = FullSummary();
  auto back = ThroughText(s);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  const auto& rows = back->db_tables.comm_time.rows;
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0][1], SqlValue::Text(kBadUtf8));
  EXPECT_EQ(rows[0][2].kind, SqlValue::Kind::kReal);  // 3.0, integral, is still a REAL
  EXPECT_EQ(rows[0][2].r, 3.0);
  EXPECT_EQ(rows[0][3], SqlValue::Int(kMin64));
  EXPECT_EQ(rows[0][4], SqlValue::Null());
  EXPECT_EQ(rows[0][5].kind, SqlValue::Kind::kReal);
  EXPECT_EQ(Bits(rows[0][5].r), Bits(-0.0));
  EXPECT_EQ(rows[1][0], SqlValue::Text(""));
  EXPECT_EQ(rows[1][2].kind, SqlValue::Kind::kReal);  // a NaN REAL is not a NULL
  EXPECT_EQ(Bits(rows[1][2].r), Bits(kNan));
  EXPECT_EQ(rows[1][4], SqlValue::Real(kInf));
  EXPECT_EQ(rows[1][5], SqlValue::Real(-kInf));
  EXPECT_EQ(back->db_tables.rank_device_map.rows[0][1].kind, SqlValue::Kind::kReal);
  EXPECT_EQ(Bits(back->db_tables.rank_device_map.rows[0][1].r), Bits(kNegNan));
  for (size_t t = 0; t < 2; ++t) {
    for (size_t c = 0; c < rows[t].size(); ++c) {
      if (rows[t][c].kind == SqlValue::Kind::kReal && std::isnan(rows[t][c].r)) continue;  // NaN != NaN
      EXPECT_EQ(rows[t][c], s.db_tables.comm_time.rows[t][c]) << t << " " << c;
    }
  }
  const std::string cells = RankSummaryToJson(s)["db_tables"]["comm_time"]["rows"].dump();
  EXPECT_NE(cells.find(R"(3.0,-9223372036854775808,null,-0.0])"), std::string::npos) << cells;
  EXPECT_NE(cells.find(R"({"real":null},9223372036854775807,{"real":"inf"},{"real":"-inf"}])"), std::string::npos)
      << cells;
}

TEST(SummaryCodec, StringsThatAreNotUtf8AreKeptAsHex) {
  const RankSummary s = FullSummary();
  const J j = RankSummaryToJson(s);
  EXPECT_EQ(j["columns"][3].dump(), R"({"bytes_hex":"6f70fffe00c328"})");
  EXPECT_EQ(j["source_path"].get<std::string>(), kQuoted);  // UTF-8 stays a plain string
  EXPECT_EQ(j["parallel_group_names"].dump(),
            R"([["",)" + J(kQuoted).dump() +
                R"(],["0","dp"],["bytes_hex","x"],[{"bytes_hex":"6f70fffe00c328"},"bad key"]])");
  auto back = ThroughText(s);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->columns, s.columns);
  EXPECT_EQ(back->source_path, kQuoted);
  EXPECT_EQ(back->kernel_names, s.kernel_names);
  EXPECT_EQ(back->parallel_group_names, s.parallel_group_names);
  EXPECT_EQ(back->parallel_group_ranks, s.parallel_group_ranks);
  EXPECT_EQ(back->collectives[2].group, kBadUtf8);
  EXPECT_EQ(back->matrix_ops.ops[1].name, "hcom_send__1_0_1@7" + kBadUtf8);
  EXPECT_EQ(back->db_tables.notes, s.db_tables.notes);
}

// Random byte strings: written as a string exactly when nlohmann's strict dump() takes them, and
// read back whole either way.
TEST(SummaryCodec, AnyByteStringRoundTrips) {
  std::mt19937 rng(12345);
  const unsigned char kBytes[] = {0x00, 0x22, 0x41, 0x5c, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2,
                                  0xdf, 0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xff};
  for (int n = 0; n < 5000; ++n) {
    std::string text(rng() % 6, '\0');
    for (char& c : text) c = static_cast<char>(kBytes[rng() % sizeof(kBytes)]);
    RankSummary s;
    s.export_kind = text;
    const J j = RankSummaryToJson(s);
    bool strict_dump_takes_it = true;
    try {
      (void)J(text).dump();
    } catch (const J::exception&) {
      strict_dump_takes_it = false;
    }
    ASSERT_EQ(j["export_kind"].is_string(), strict_dump_takes_it) << j["export_kind"].dump();
    auto back = RankSummaryFromJson(J::parse(j.dump()));
    ASSERT_TRUE(back.ok()) << back.status().ToString();
    ASSERT_EQ(back->export_kind, text) << j["export_kind"].dump();
  }
}

TEST(SummaryCodec, DefaultSummaryRoundTrips) {
  const RankSummary s;
  auto back = ThroughText(s);
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(RankSummaryToJson(*back).dump(), RankSummaryToJson(s).dump());
  EXPECT_EQ(back->world_size, kNoNumber);
  EXPECT_EQ(back->device, DeviceKind::kUnknown);
  EXPECT_EQ(back->step_source, RankStepSource::kNone);
}

// ---- Real ranks --------------------------------------------------------------------------------

// A corpus rank as the map step of `profdiff cluster` summarises it (pipeline/cluster_run.cc's
// SummarizeOne), written and read back.
void RoundTripCorpusRank(const std::string& relative, std::string_view kind, int64_t rank,
                         void (*check)(const RankSummary&)) {
  const std::string path = kCorpus + "/" + relative;
  ASSERT_TRUE(fs::exists(path)) << path;
  LoadOptions load;
  load.accept_side_files = true;
  load.python_functions = false;
  load.cluster_tables = true;
  auto profile = LoadProfile(path, load);
  ASSERT_TRUE(profile.ok()) << profile.status().ToString();
  const Timeline timeline = BuildTimeline(**profile, {});
  const RankSummary s = SummarizeRank(**profile, &timeline, rank, kind, path, {});
  check(s);
  const std::string text = RankSummaryToJson(s).dump();
  auto back = RankSummaryFromJson(J::parse(text));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(RankSummaryToJson(*back).dump(), text);
  ASSERT_EQ(back->steps.size(), s.steps.size());
  for (size_t i = 0; i < s.steps.size(); ++i) {
    ASSERT_EQ(back->steps[i].values_us_float.size(), s.steps[i].values_us_float.size());
    for (size_t k = 0; k < s.steps[i].values_us_float.size(); ++k)
      EXPECT_EQ(Bits(back->steps[i].values_us_float[k]), Bits(s.steps[i].values_us_float[k]));
  }
}

TEST(SummaryCodec, CorpusAscendTextRank) {
  SKIP_WITHOUT_CORPUS();
  RoundTripCorpusRank("msinsight_pt_text_2025_level1/rank0_ascend_pt", "text", 0, [](const RankSummary& s) {
    EXPECT_EQ(s.device, DeviceKind::kNpu);
    EXPECT_EQ(s.step_source, RankStepSource::kStepTraceTime);
    EXPECT_FALSE(s.steps.empty());
    EXPECT_FALSE(s.collectives.empty());
    EXPECT_TRUE(s.communication_ops.present && !s.communication_ops.ops.empty());
    EXPECT_TRUE(s.matrix_ops.present && !s.matrix_ops.ops.empty());
  });
}

TEST(SummaryCodec, CorpusAscendDbRank) {
  SKIP_WITHOUT_CORPUS();
  RoundTripCorpusRank("msinsight_pt_db_2025_level1/rank0_ascend_pt", "db", 0, [](const RankSummary& s) {
    EXPECT_EQ(s.device, DeviceKind::kNpu);
    EXPECT_TRUE(s.db_tables.present);
    EXPECT_TRUE(s.time.present);
    EXPECT_FALSE(s.collectives.empty());
  });
}

TEST(SummaryCodec, CorpusKinetoRank) {
  SKIP_WITHOUT_CORPUS();
  RoundTripCorpusRank("hta_nccl_parser_config/nccl_data.json.gz", "kineto", 0, [](const RankSummary& s) {
    EXPECT_EQ(s.device, DeviceKind::kGpu);
    EXPECT_EQ(s.world_size, 2);
    EXPECT_FALSE(s.collectives.empty());
  });
}

// ---- Bad input ---------------------------------------------------------------------------------

std::string ErrorOf(const J& j) {
  auto r = RankSummaryFromJson(j);
  if (r.ok()) return "(read)";
  EXPECT_EQ(r.status().code(), StatusCode::kParseError) << r.status().ToString();
  return r.status().message();
}

TEST(SummaryCodec, MissingKeyIsNamed) {
  J j = RankSummaryToJson(FullSummary());
  j["collectives"][1].erase("start_ns");
  EXPECT_EQ(ErrorOf(j), "/collectives/1/start_ns: missing");
  j = RankSummaryToJson(FullSummary());
  j.erase("notes");
  EXPECT_EQ(ErrorOf(j), "/notes: missing");
  j = RankSummaryToJson(FullSummary());
  j["db_tables"]["host_info"].erase("present");
  EXPECT_EQ(ErrorOf(j), "/db_tables/host_info/present: missing");
}

TEST(SummaryCodec, WrongTypeDeepInsideIsNamed) {
  J j = RankSummaryToJson(FullSummary());
  j["collectives"][3]["start_ns"] = "12";
  EXPECT_EQ(ErrorOf(j), R"(/collectives/3/start_ns: expected an integer, got the string "12")");
  j = RankSummaryToJson(FullSummary());
  j["db_tables"]["comm_time"]["rows"][1][2] = J::array();
  EXPECT_EQ(ErrorOf(j), "/db_tables/comm_time/rows/1/2: expected a cell (null, a number, a string, "
                        R"({"real": ...} or {"bytes_hex": ...}), got an array)");
  j = RankSummaryToJson(FullSummary());
  j["time"]["steps"][1]["memory_ns"] = 1.5;
  EXPECT_EQ(ErrorOf(j), "/time/steps/1/memory_ns: expected an integer, got a float");
  j = RankSummaryToJson(FullSummary());
  j["communication_ops"]["present"] = 1;
  EXPECT_EQ(ErrorOf(j), "/communication_ops/present: expected a boolean, got an integer");
  j = RankSummaryToJson(FullSummary());
  j["parallel_group_ranks"][0] = J::array({"0"});
  EXPECT_EQ(ErrorOf(j), "/parallel_group_ranks/0: expected a [key, value] pair, got an array");
  EXPECT_EQ(ErrorOf(J::array()), "the summary: expected an object, got an array");
}

TEST(SummaryCodec, OutOfRangeIntegers) {
  J j = RankSummaryToJson(FullSummary());
  j["time"]["comm_ops"][0]["group"] = -1;
  EXPECT_EQ(ErrorOf(j), "/time/comm_ops/0/group: -1 is out of range (uint64)");
  j = RankSummaryToJson(FullSummary());
  j["rank"] = kMaxU64;
  EXPECT_EQ(ErrorOf(j), "/rank: 18446744073709551615 is out of range (int64)");
  j = RankSummaryToJson(FullSummary());
  j["collectives"][0]["lead_in_top"] = int64_t{1} << 31;
  EXPECT_EQ(ErrorOf(j), "/collectives/0/lead_in_top: 2147483648 is out of range (int32)");
}

TEST(SummaryCodec, UnknownEnumNames) {
  J j = RankSummaryToJson(FullSummary());
  j["device"] = "XPU";
  EXPECT_EQ(ErrorOf(j), R"(/device: unknown device kind "XPU" (known: unknown, GPU, NPU))");
  j = RankSummaryToJson(FullSummary());
  j["step_source"] = "kineto";
  EXPECT_EQ(ErrorOf(j), R"(/step_source: unknown step source "kineto")");
  j["step_source"] = "timeline";
  auto r = RankSummaryFromJson(j);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->step_source, RankStepSource::kTimeline);
}

TEST(SummaryCodec, BadEncodedDoubles) {
  const std::string what = R"(expected a number, null (NaN), "inf", "-inf" or "nan:0x...", got )";
  for (const char* bad : {"nan", "Infinity", "1.5", "nan:0x0000000000000001", "nan:0x7ff800000000000", ""}) {
    J j = RankSummaryToJson(FullSummary());
    j["steps"][0]["values_us_float"][1] = bad;
    EXPECT_EQ(ErrorOf(j), "/steps/0/values_us_float/1: " + what + "the string \"" + bad + "\"") << bad;
  }
  J j = RankSummaryToJson(FullSummary());
  j["collectives"][0]["size_mb"] = J::object();
  EXPECT_EQ(ErrorOf(j), "/collectives/0/size_mb: " + what + "an object");
  j["collectives"][0]["size_mb"] = kMaxU64;  // 2^64 - 1 is no double
  EXPECT_EQ(ErrorOf(j), "/collectives/0/size_mb: 18446744073709551615 is not exactly a double");
  j["collectives"][0]["size_mb"] = 3;  // a tool that rewrote 3.0 as 3
  auto r = RankSummaryFromJson(j);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->collectives[0].size_mb, 3.0);
  j["db_tables"]["comm_time"]["rows"][1][2] = J::object({{"real", "nan"}});
  EXPECT_EQ(ErrorOf(j), "/db_tables/comm_time/rows/1/2/real: " + what + "the string \"nan\"");
}

TEST(SummaryCodec, BadStringsAndKeys) {
  J j = RankSummaryToJson(FullSummary());
  j["columns"][3]["bytes_hex"] = "6f7";
  EXPECT_EQ(ErrorOf(j), "/columns/3/bytes_hex: expected an even number of lowercase hexadecimal digits, got the "
                        "string \"6f7\"");
  j["columns"][3] = J::object({{"bytes", "6f"}});
  EXPECT_EQ(ErrorOf(j), R"(/columns/3: expected a string or {"bytes_hex": ...}, got an object)");
  j = RankSummaryToJson(FullSummary());
  j["steps"][1]["extra/field"] = 1;
  EXPECT_EQ(ErrorOf(j), "/steps/1/extra~1field: not a field");
  j = RankSummaryToJson(FullSummary());
  j["parallel_group_names"].push_back(J::array({"0", "again"}));
  EXPECT_EQ(ErrorOf(j), "/parallel_group_names/4/0: the key is repeated");
}

// Any leaf replaced by a value of any type: read or a ParseError, never an exception.
TEST(SummaryCodec, NoExceptionOnAnyWrongValue) {
  const J good = RankSummaryToJson(FullSummary());
  const J flat = good.flatten();
  const J replacements = J::array({nullptr, "x", 1.5, -1, kMaxU64, true, J::array(), J::object(),
                                   J::object({{"bytes_hex", "zz"}}), J::object({{"real", 1}})});
  size_t errors = 0;
  for (auto it = flat.begin(); it != flat.end(); ++it) {
    for (const J& replacement : replacements) {
      J j = good;
      j[J::json_pointer(it.key())] = replacement;
      EXPECT_NO_THROW({
        auto r = RankSummaryFromJson(j);
        if (!r.ok()) {
          ++errors;
          EXPECT_EQ(r.status().code(), StatusCode::kParseError);
          EXPECT_EQ(r.status().message().rfind(it.key(), 0), 0u) << r.status().message() << " at " << it.key();
        }
      });
    }
  }
  EXPECT_GT(errors, flat.size());
}

}  // namespace
}  // namespace profdiff::analysis
