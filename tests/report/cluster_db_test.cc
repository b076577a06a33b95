// cluster_analysis.db written as the reference writes it (report/cluster/cluster_db.h).
#include "profdiff/report/cluster/cluster_db.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "report_test_util.h"

namespace profdiff::report {
namespace {

using analysis::ResultTable;
using analysis::SqlType;
using testing::TempDir;

// Each cell of `table` as "typeof:value" (SQLite's own text of the value).
std::vector<std::string> Cells(const std::string& path, const std::string& table) {
  sqlite3* db = nullptr;
  std::vector<std::string> out;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) return out;
  sqlite3_stmt* st = nullptr;
  const std::string sql = "SELECT * FROM \"" + table + "\" ORDER BY rowid";
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK) {
    while (sqlite3_step(st) == SQLITE_ROW) {
      for (int c = 0; c < sqlite3_column_count(st); ++c) {
        const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(st, c));
        const int kind = sqlite3_column_type(st, c);
        const char* name = kind == SQLITE_INTEGER ? "integer" : kind == SQLITE_FLOAT ? "real"
                           : kind == SQLITE_TEXT  ? "text" : "null";
        out.push_back(std::string(name) + ":" + (text != nullptr ? text : ""));
      }
    }
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  return out;
}

ResultTable Sample() {
  ResultTable t{"T", {{"s", SqlType::kText}, {"n", SqlType::kNumeric}, {"r", SqlType::kReal}, {"i", SqlType::kInteger}},
                {}, true};
  t.rows.push_back({SqlValue::Text("a"), SqlValue::Real(0.0), SqlValue::Int(2), SqlValue::Int(7)});
  t.rows.push_back({SqlValue::Int(5), SqlValue::Real(1.5), SqlValue::Real(std::numeric_limits<double>::quiet_NaN()),
                    SqlValue::Null()});
  t.rows.push_back({SqlValue::Null(), SqlValue::Int(3), SqlValue::Real(std::numeric_limits<double>::infinity()),
                    SqlValue::Int(1)});
  return t;
}

TEST(ClusterDb, CreateTableAsPandasOrTheReferencesConfiguration) {
  EXPECT_EQ(CreateTableSql(Sample()), "CREATE TABLE \"T\" (\n\"s\" TEXT,\n  \"n\" NUMERIC,\n  \"r\" REAL,\n  \"i\" INTEGER\n)");
  ResultTable own{"ClusterStepTraceTime", {{"step", SqlType::kText}, {"index", SqlType::kText}}, {}, false};
  EXPECT_EQ(CreateTableSql(own), "CREATE TABLE IF NOT EXISTS ClusterStepTraceTime(step TEXT,\"index\" TEXT)");
}

TEST(ClusterDb, StoresCellsUnderTheColumnsAffinity) {
  TempDir tmp;
  const std::string path = tmp / "cluster_analysis.db";
  ASSERT_TRUE(WriteClusterDb(path, {Sample()}, false).ok());
  EXPECT_EQ(Cells(path, "T"), (std::vector<std::string>{
                                  "text:a", "integer:0", "real:2.0", "integer:7",     // NUMERIC 0.0 -> 0
                                  "text:5", "real:1.5", "null:", "null:",             // NaN -> NULL
                                  "null:", "integer:3", "real:Inf", "integer:1"}));
  EXPECT_EQ(tmp.List(), std::vector<std::string>{"cluster_analysis.db"});  // no journal, no temporary file
}

TEST(ClusterDb, NeverReplacesWithoutForce) {
  TempDir tmp;
  const std::string path = tmp / "cluster_analysis.db";
  ASSERT_TRUE(WriteClusterDb(path, {Sample()}, false).ok());
  ResultTable other = Sample();
  other.name = "U";
  const Status again = WriteClusterDb(path, {other}, false);
  EXPECT_EQ(again.code(), StatusCode::kAlreadyExists);
  EXPECT_EQ(Cells(path, "T").size(), 12u);  // unchanged
  EXPECT_EQ(tmp.List().size(), 1u);
  ASSERT_TRUE(WriteClusterDb(path, {other}, true).ok());
  EXPECT_TRUE(Cells(path, "T").empty());
  EXPECT_EQ(Cells(path, "U").size(), 12u);
  EXPECT_EQ(tmp.List().size(), 1u);
}

TEST(ClusterDb, AFailedWriteLeavesNothing) {
  TempDir tmp;
  const std::string path = tmp / "cluster_analysis.db";
  ResultTable bad = Sample();
  ResultTable twice = Sample();  // the same table twice: the second CREATE TABLE fails
  EXPECT_FALSE(WriteClusterDb(path, {bad, twice}, false).ok());
  EXPECT_TRUE(tmp.List().empty());
}

TEST(ClusterDb, BaseInfoIsJsonDumpsOfTheFirstRanksDistributedArgs) {
  std::vector<analysis::RankSummary> ranks(3);
  ranks[1].db_tables.distributed_args_json = R"({"world_size":"4","ratio":0.1,"flags":[true,null],"name":"t\u00e9st"})";
  ranks[2].db_tables.distributed_args_json = R"({"world_size":8})";
  const auto t = ClusterBaseInfoTable(ranks);
  ASSERT_TRUE(t.has_value());
  EXPECT_FALSE(t->pandas);
  ASSERT_EQ(t->rows.size(), 1u);
  EXPECT_EQ(t->rows[0][0], SqlValue::Text("distributed_args"));
  EXPECT_EQ(t->rows[0][1],
            SqlValue::Text(R"({"world_size": "4", "ratio": 0.1, "flags": [true, null], "name": "t\u00e9st"})"));
  EXPECT_FALSE(ClusterBaseInfoTable({analysis::RankSummary{}}).has_value());
}

}  // namespace
}  // namespace profdiff::report
