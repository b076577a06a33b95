// Ascend DB exports through the real binary: good synthetic exports load (inspect) and compare; bad
// ones (not a database, truncated, a missing column, a missing table, NULL cells) give an error naming
// the file (and the table) with exit 3, or a load with a diagnostic; never a crash.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "../common/ascend_db_fixture.h"
#include "../report/report_test_util.h"
#include "run_profdiff.h"

namespace profdiff::testing {
namespace {

namespace fs = std::filesystem;
using report::testing::TempDir;

class DbCli : public ::testing::Test {
 protected:
  // An *_ascend_pt directory whose ASCEND_PROFILER_OUTPUT holds a DB made of `sql`.
  std::string Profile(const std::string& name, const std::string& sql) {
    const fs::path out = fs::path(dir_.path()) / name / "ASCEND_PROFILER_OUTPUT";
    fs::create_directories(out);
    EXPECT_EQ(WriteDb((out / "ascend_pytorch_profiler_0.db").string(), sql), "");
    return (fs::path(dir_.path()) / name).string();
  }
  std::string DbOf(const std::string& profile) {
    return (fs::path(profile) / "ASCEND_PROFILER_OUTPUT" / "ascend_pytorch_profiler_0.db").string();
  }
  TempDir dir_;
};

void ExpectInputError(const CliResult& r, const std::string& file, const std::string& detail) {
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("profdiff: error: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(file), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(detail), std::string::npos) << r.err;
}

// --verbose: what each step of the load cost, on stderr (inspect's output unchanged; a trace has no
// steps); compare --verbose names the side.
TEST_F(DbCli, VerboseTimesEachStepOfTheLoad) {
  const std::string a = Profile("a_ascend_pt", std::string(kDbSchema) + kDbRows);
  const CliResult plain = RunProfdiff({"inspect", a});
  const CliResult verbose = RunProfdiff({"inspect", "--verbose", a});
  ASSERT_EQ(verbose.exit_code, 0) << verbose.err;
  EXPECT_EQ(verbose.out, plain.out);
  EXPECT_EQ(plain.err, "");
  // (PYTORCH_API's step names the tables read beside it, if any.)
  for (const char* step : {"CONNECTION_IDS: ", "PYTORCH_API", "TASK, COMPUTE_TASK_INFO, COMMUNICATION_TASK_INFO: ",
                           "TASK_PMU_INFO: ", "OP_MEMORY, MEMORY_RECORD: ", "row counts: "})
    EXPECT_NE(verbose.err.find(std::string("profdiff: load ") + step), std::string::npos) << step << verbose.err;
  EXPECT_NE(verbose.err.find(" ms CPU, peak RSS "), std::string::npos) << verbose.err;
  const CliResult trace =
      RunProfdiff({"inspect", "--verbose", PROFDIFF_SOURCE_DIR "/tests/data/kineto_h100_tiny/before_fix_trace.json"});
  ASSERT_EQ(trace.exit_code, 0) << trace.err;
  EXPECT_EQ(trace.err.find("profdiff: load "), std::string::npos) << trace.err;
  const CliResult c = RunProfdiff({"compare", "-bp", a, "-d", a, "--no-xlsx", "--verbose", "-q"});
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_NE(c.err.find("profdiff: phase load base: PYTORCH_API"), std::string::npos) << c.err;
  EXPECT_NE(c.err.find("profdiff: phase load comparison: PYTORCH_API"), std::string::npos) << c.err;
}

TEST_F(DbCli, GoodExportLoadsAndCompares) {
  const std::string a = Profile("a_ascend_pt", std::string(kDbSchema) + kDbRows);
  const std::string b = Profile("b_ascend_pt", std::string(kDbSchema) + kDbRows);
  const CliResult r = RunProfdiff({"inspect", "--json", a});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["format"], "ascend-db");
  EXPECT_EQ(j["db"]["steps"][0]["id"], 50);
  EXPECT_EQ(j["slice_count"], 10);
  const CliResult text = RunProfdiff({"inspect", a});
  EXPECT_NE(text.out.find("PYTORCH_API              4 rows"), std::string::npos) << text.out;

  const CliResult c = RunProfdiff({"compare", "-bp", a, "-d", b, "--no-xlsx", "--format", "json"});
  EXPECT_EQ(c.exit_code, 0) << c.err;
  EXPECT_TRUE(nlohmann::json::accept(c.out)) << c.out.substr(0, 400);
}

// MEMORY_RECORD is a DB side's memory data: the usage is its largest reserved total (of the chosen
// step's range with --base_step), known; a DB without the table has it unknown (null), not 0.
TEST_F(DbCli, MemoryUsageFromMemoryRecordOfTheStepOrUnknownWithout) {
  // A third record, of 8 MiB, after step 50 [1000, 2000] (whose records reach 3 MiB).
  const std::string rows = std::string(kDbRows) + "INSERT INTO MEMORY_RECORD VALUES (16,2500,0,8388608,0,0,0);\n";
  const std::string a = Profile("a_ascend_pt", std::string(kDbSchema) + rows);
  std::string schema_without(kDbSchema), rows_without(kDbRows);
  schema_without.erase(schema_without.find("CREATE TABLE MEMORY_RECORD"));
  rows_without.erase(rows_without.find("INSERT INTO MEMORY_RECORD"));
  const std::string b = Profile("b_ascend_pt", schema_without + rows_without);
  auto memory = [&](const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"compare", "-bp", a, "-d", b, "--no-xlsx", "--format", "json"};
    args.insert(args.end(), extra.begin(), extra.end());
    const CliResult c = RunProfdiff(args);
    EXPECT_EQ(c.exit_code, 0) << c.err;
    const auto j = nlohmann::json::parse(c.out);
    return std::pair{j["sides"]["base"]["memory_used_gib"], j["sides"]["comparison"]["memory_used_gib"]};
  };
  const auto [whole, whole_without] = memory({});
  EXPECT_DOUBLE_EQ(whole.get<double>(), 8.0 / 1024);
  EXPECT_TRUE(whole_without.is_null());
  const auto [step, step_without] = memory({"--base_step", "50", "--comparison_step", "50"});
  EXPECT_DOUBLE_EQ(step.get<double>(), 3.0 / 1024);
  EXPECT_TRUE(step_without.is_null());
  const CliResult screen = RunProfdiff({"compare", "-bp", a, "-d", b, "-o", (fs::path(dir_.path()) / "out").string()});
  EXPECT_NE(screen.out.find("|   0.01G   |"), std::string::npos) << screen.out;
  EXPECT_NE(screen.out.find("n/a"), std::string::npos) << screen.out;
}

TEST_F(DbCli, NotADatabaseOrTruncated) {
  const std::string p = Profile("bad_ascend_pt", "CREATE TABLE X (a INTEGER);");
  const std::string db = DbOf(p);
  std::ofstream(db, std::ios::binary | std::ios::trunc) << std::string(8192, '\x5a');
  ExpectInputError(RunProfdiff({"inspect", p}), db, "not a readable SQLite database");
  ExpectInputError(RunProfdiff({"compare", "-bp", p, "-d", p, "--no-xlsx"}), db, "not a readable SQLite database");

  const std::string good = Profile("cut_ascend_pt", std::string(kDbSchema) + kDbRows);
  fs::resize_file(DbOf(good), 100);  // the header only
  ExpectInputError(RunProfdiff({"inspect", DbOf(good)}), DbOf(good), "SQLite");
}

TEST_F(DbCli, MissingColumnNamesTheTable) {
  const std::string p = Profile("col_ascend_pt", "CREATE TABLE TASK (startNs INTEGER, endNs INTEGER);");
  ExpectInputError(RunProfdiff({"inspect", p}), DbOf(p), "table TASK: unexpected schema");
}

TEST_F(DbCli, MissingTableAndNullCellsLoadWithDiagnostics) {
  const std::string sql = std::string(kDbSchema) + kDbRows +
                          "DROP TABLE MEMORY_RECORD;"
                          "INSERT INTO TASK VALUES (NULL,2,0,NULL,99,1,6,0,2,3,0,0);";
  const std::string p = Profile("null_ascend_pt", sql);
  const CliResult r = RunProfdiff({"inspect", "--json", p});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  std::string ids;
  for (const auto& e : j["diagnostics"]["entries"]) ids += e["id"].get<std::string>() + " ";
  EXPECT_NE(ids.find("db_table_missing"), std::string::npos) << ids;
  EXPECT_NE(ids.find("db_null_value"), std::string::npos) << ids;
  EXPECT_FALSE(j["side_tables"]["memory_record"]["present"].get<bool>());
  // --strict refuses nothing here: NULL cells are warnings, not errors.
  EXPECT_EQ(RunProfdiff({"inspect", "--strict", p}).exit_code, 0);
}

TEST_F(DbCli, InputFormatChoosesTheExport) {
  const std::string p = Profile("both_ascend_pt", std::string(kDbSchema) + kDbRows);
  const CliResult text = RunProfdiff({"inspect", "--input-format", "text", p});
  ExpectInputError(text, p, "--input-format text");
  fs::copy_file(PROFDIFF_SOURCE_DIR "/tests/golden/compare/npu_kernel_compare/inputs/base/ASCEND_PROFILER_OUTPUT/"
                "trace_view.json",
                fs::path(p) / "ASCEND_PROFILER_OUTPUT" / "trace_view.json");
  const CliResult as_text = RunProfdiff({"inspect", "--json", "--input-format", "text", p});
  ASSERT_EQ(as_text.exit_code, 0) << as_text.err;
  EXPECT_EQ(nlohmann::json::parse(as_text.out)["format"], "ascend-profile-dir");
  const CliResult as_db = RunProfdiff({"inspect", "--json", p});
  ASSERT_EQ(as_db.exit_code, 0) << as_db.err;
  EXPECT_EQ(nlohmann::json::parse(as_db.out)["format"], "ascend-db");
  EXPECT_EQ(RunProfdiff({"inspect", "--input-format", "xml", p}).exit_code, 2);
  const CliResult compare_db = RunProfdiff({"compare", "-bp", p, "-d", p, "--no-xlsx", "--input-format", "db"});
  EXPECT_EQ(compare_db.exit_code, 0) << compare_db.err;
}

}  // namespace
}  // namespace profdiff::testing
