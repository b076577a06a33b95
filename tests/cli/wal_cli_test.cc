// A WAL-mode DB export (Ascend's exports are) whose -wal holds committed frames is read as SQLite
// reads it, by inspect and compare, and nothing is written beside it (issue 32, item 3); a view is
// read like the table it stands for (item 7).
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "../common/ascend_db_fixture.h"
#include "../report/report_test_util.h"
#include "run_profdiff.h"

namespace profdiff::testing {
namespace {

namespace fs = std::filesystem;
using report::testing::TempDir;

constexpr const char* kDbName = "ascend_pytorch_profiler_0.db";

std::vector<std::string> Listing(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::recursive_directory_iterator(dir)) names.push_back(e.path().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::string Exec(sqlite3* db, const std::string& sql) {
  char* msg = nullptr;
  std::string error;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &msg) != SQLITE_OK) error = msg != nullptr ? msg : "exec";
  sqlite3_free(msg);
  return error;
}

// Three profiles: `full` (every row, no -wal), `wal` (the full file and a -wal whose committed
// transaction deleted half of TASK: what SQLite reads) and `applied` (that content in a plain file).
class WalCli : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* p : {"full", "wal", "applied"}) fs::create_directories(Out(p));
    const std::string work = dir_ / "work.db";
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(work.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(Exec(db, "PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0;"), "");
    ASSERT_EQ(Exec(db, std::string(kDbSchema) + kDbRows), "");
    ASSERT_EQ(Exec(db, "PRAGMA wal_checkpoint(TRUNCATE);"), "");  // every row in the main file
    fs::copy_file(work, Out("full") + "/" + kDbName);
    tasks_before_ = SqliteCount(db, "TASK");
    ASSERT_EQ(Exec(db, "DELETE FROM TASK WHERE globalTaskId IN (11, 13);"), "");  // committed, in the -wal
    tasks_after_ = SqliteCount(db, "TASK");
    ASSERT_GT(fs::file_size(work + "-wal"), 0u);
    fs::copy_file(work, Out("wal") + "/" + kDbName);  // the main file still holds every row
    fs::copy_file(work + "-wal", Out("wal") + "/" + kDbName + "-wal");
    ASSERT_EQ(Exec(db, "VACUUM INTO '" + Out("applied") + "/" + kDbName + "';"), "");
    sqlite3_close(db);
  }
  std::string Profile(const std::string& name) { return dir_ / (name + "_ascend_pt"); }
  std::string Out(const std::string& name) { return Profile(name) + "/ASCEND_PROFILER_OUTPUT"; }
  static int64_t TaskRows(const nlohmann::json& inspect) {
    for (const auto& t : inspect["db"]["tables"])
      if (t["name"] == "TASK") return t["rows"].get<int64_t>();
    return -1;
  }

  TempDir dir_;
  int64_t tasks_before_ = 0, tasks_after_ = 0;
};

TEST_F(WalCli, CommittedFramesAreReadAndNothingIsWrittenBeside) {
  ASSERT_EQ(tasks_before_, 4);
  ASSERT_EQ(tasks_after_, 2);
  const std::vector<std::string> before = Listing(Profile("wal"));
  const std::string db_bytes = ReadAll(Out("wal") + "/" + kDbName);
  const std::string wal_bytes = ReadAll(Out("wal") + "/" + kDbName + "-wal");

  const CliResult wal = RunProfdiff({"inspect", "--json", Profile("wal")});
  const CliResult applied = RunProfdiff({"inspect", "--json", Profile("applied")});
  const CliResult full = RunProfdiff({"inspect", "--json", Profile("full")});
  ASSERT_EQ(wal.exit_code, 0) << wal.err;
  ASSERT_EQ(applied.exit_code, 0) << applied.err;
  ASSERT_EQ(full.exit_code, 0) << full.err;
  const auto w = nlohmann::json::parse(wal.out), a = nlohmann::json::parse(applied.out),
             f = nlohmann::json::parse(full.out);
  EXPECT_EQ(TaskRows(w), tasks_after_);  // was 4: the main file alone
  EXPECT_EQ(TaskRows(f), tasks_before_);
  EXPECT_EQ(w["slice_count"], a["slice_count"]);
  EXPECT_EQ(w["slices_by_kind"], a["slices_by_kind"]);
  EXPECT_EQ(w["db"]["tables"], a["db"]["tables"]);
  EXPECT_NE(w["slice_count"], f["slice_count"]);
  // The text output and the compare path read the same.
  const CliResult text = RunProfdiff({"inspect", Profile("wal")});
  EXPECT_NE(text.out.find("TASK                     2 rows"), std::string::npos) << text.out;
  const CliResult cmp = RunProfdiff({"compare", "-bp", Profile("applied"), "-d", Profile("wal"), "--no-xlsx",
                                     "--format", "json", "-q"});
  ASSERT_EQ(cmp.exit_code, 0) << cmp.err;
  const auto c = nlohmann::json::parse(cmp.out);
  EXPECT_EQ(c["sides"]["base"], c["sides"]["comparison"]);
  EXPECT_EQ(c["deltas"]["e2e_delta_ns"], 0);
  const CliResult vs_full = RunProfdiff({"compare", "-bp", Profile("full"), "-d", Profile("wal"), "--no-xlsx",
                                         "--format", "json", "-q"});
  ASSERT_EQ(vs_full.exit_code, 0) << vs_full.err;
  const auto v = nlohmann::json::parse(vs_full.out);
  EXPECT_NE(v["sides"]["base"], v["sides"]["comparison"]);
  // Nothing written beside the input: no -shm, no -journal, the -wal not checkpointed.
  EXPECT_EQ(Listing(Profile("wal")), before);
  EXPECT_EQ(ReadAll(Out("wal") + "/" + kDbName), db_bytes);
  EXPECT_EQ(ReadAll(Out("wal") + "/" + kDbName + "-wal"), wal_bytes);
}

// A -wal that is not a write-ahead log of the file cannot be applied: an error naming it (exit 3),
// not a silent read of the main file. An empty -wal is no -wal.
TEST_F(WalCli, AWalThatCannotBeAppliedIsAnErrorNamingIt) {
  const std::string wal = Out("full") + "/" + kDbName + "-wal";
  std::ofstream(wal) << "";
  const CliResult empty = RunProfdiff({"inspect", "--json", Profile("full")});
  ASSERT_EQ(empty.exit_code, 0) << empty.err;
  EXPECT_EQ(TaskRows(nlohmann::json::parse(empty.out)), tasks_before_);
  std::ofstream(wal) << std::string(4096, 'x');
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"inspect", Profile("full")},
        std::vector<std::string>{"compare", "-bp", Profile("full"), "-d", Profile("applied"), "--no-xlsx"}}) {
    const CliResult r = RunProfdiff(args);
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_NE(r.err.find(wal + "@byte 0: not a write-ahead log"), std::string::npos) << r.err;
  }
}

// A view named TASK (over a table of another name) is read through SQLite like the table: it was
// reported "table absent" and its tasks left out.
TEST(DbViewCli, AViewIsReadLikeItsTable) {
  TempDir d;
  const std::string out = d / "view_ascend_pt/ASCEND_PROFILER_OUTPUT";
  fs::create_directories(out);
  std::string sql = std::string(kDbSchema) + kDbRows;
  sql += "ALTER TABLE TASK RENAME TO TASK_ROWS; CREATE VIEW TASK AS SELECT * FROM TASK_ROWS;";
  ASSERT_EQ(WriteDb(out + "/" + kDbName, sql), "");
  const CliResult r = RunProfdiff({"inspect", "--json", d / "view_ascend_pt"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  int64_t tasks = -1;
  for (const auto& t : j["db"]["tables"])
    if (t["name"] == "TASK") tasks = t["present"] ? t["rows"].get<int64_t>() : -2;
  EXPECT_EQ(tasks, 4) << j["db"]["tables"];
  EXPECT_EQ(j["slices_by_kind"]["npu_task"], 4) << j["slices_by_kind"];
}

}  // namespace
}  // namespace profdiff::testing
