// The page reader (io/sqlite_pages.h) against SQLite itself: every cell of every table read both
// ways is the same, on synthetic databases that exercise the file format (every serial type,
// overflow pages, deep trees, reserved bytes, big pages, short records, rowid aliases) and on the
// corpus's DB exports; tables the reader does not read fall back to SQLite; corrupt files are
// errors naming the file, the table and the page.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <fstream>
#include <string>
#include <vector>

#include "../../src/loaders/ascend_db_sqlite.h"
#include "../common/ascend_db_fixture.h"
#include "../report/report_test_util.h"

namespace profdiff {
namespace {

namespace fs = std::filesystem;
using report::testing::TempDir;

// A new database at `path`: `pragmas` (page size, encoding), then `sql`, with `reserve` bytes
// reserved per page; "" on success, else SQLite's message.
std::string Build(const std::string& path, const std::string& pragmas, const std::string& sql,
                  int reserve = 0) {
  return testing::WriteDb(path, pragmas + sql, reserve);
}

// Rows of every kind of value: each serial type's integer sizes, reals, texts and blobs of every
// length up to several pages (overflow chains), NULLs; `rows` of them.
std::string ValueRows(const std::string& table, int rows) {
  std::string sql = "BEGIN;";
  static const char* kValues[] = {"NULL",
                                  "0",
                                  "1",
                                  "-1",
                                  "127",
                                  "-128",
                                  "32767",
                                  "8388607",
                                  "-8388608",
                                  "2147483647",
                                  "140737488355327",
                                  "-140737488355328",
                                  "9223372036854775807",
                                  "-9223372036854775808",
                                  "1.5",
                                  "-2.0",
                                  "1e300",
                                  "'1736410576395167660'",
                                  "'+007'",  // decimal texts: their own bytes read back, not the number's
                                  "'-00000000000000000000042'",
                                  "''",
                                  "'text'",
                                  "x''",
                                  "x'00ff'",
                                  "'12x'",
                                  "3.0"};
  constexpr int kCount = sizeof kValues / sizeof kValues[0];
  for (int i = 0; i < rows; ++i) {
    const std::string big = i % 97 == 0
                                ? "printf('%.*c', " + std::to_string(100 + i * 7 % 20000) + ", 'z')"
                                : "'n" + std::to_string(i) + "'";
    sql += "INSERT INTO " + table + " (a, b, c, d) VALUES (" + kValues[i % kCount] + ", " +
           kValues[(i * 7 + 3) % kCount] + ", " + big + ", " + std::to_string(i) + ");";
  }
  return sql + "COMMIT;";
}

// Reads every row of `table` (the named columns) from the pages, one batch after another and with
// one, two and three threads reading ahead, and through SQLite, and expects the same cells; returns
// the rows read.
int64_t ExpectSameCells(const std::string& path, const std::string& table,
                        const std::vector<std::string_view>& cols, bool expect_pages = true) {
  auto sqlite_db = db::Database::Open(path, false);
  EXPECT_TRUE(sqlite_db.ok());
  if (!sqlite_db.ok()) return -1;
  int64_t rows = -1;
  for (const int readers : {0, 1, 2, 3}) {
    auto pages_db = db::Database::Open(path, true, readers);
    EXPECT_TRUE(pages_db.ok());
    if (!pages_db.ok()) return -1;
    auto a = pages_db->Scan(table, cols);
    auto b = sqlite_db->Scan(table, cols);
    EXPECT_TRUE(a.ok()) << a.status().message();
    EXPECT_TRUE(b.ok()) << b.status().message();
    if (!a.ok() || !b.ok()) return -1;
    EXPECT_EQ(a->from_pages(), expect_pages) << table;
    EXPECT_FALSE(b->from_pages());
    if (readers == 0) {
      EXPECT_FALSE(a->reads_ahead());
    }
    rows = 0;
    for (;; ++rows) {
      auto ra = a->Step();
      auto rb = b->Step();
      EXPECT_TRUE(ra.ok() && rb.ok()) << (ra.ok() ? rb.status().message() : ra.status().message());
      if (!ra.ok() || !rb.ok()) return -1;
      EXPECT_EQ(*ra, *rb) << table << " row " << rows;
      if (!*ra || !*rb) break;
      for (int c = 0; c < static_cast<int>(cols.size()); ++c) {
        const db::IntCell ia = a->Int(c), ib = b->Int(c);
        EXPECT_EQ(ia.state, ib.state) << table << " row " << rows << " col " << c;
        EXPECT_EQ(ia.value, ib.value) << table << " row " << rows << " col " << c;
        EXPECT_EQ(a->Real(c), b->Real(c)) << table << " row " << rows << " col " << c;
        EXPECT_EQ(a->Text(c), b->Text(c)) << table << " row " << rows << " col " << c;
        EXPECT_EQ(a->IsNull(c), b->IsNull(c)) << table << " row " << rows << " col " << c;
      }
    }
    EXPECT_EQ(a->rows(), rows);
    auto count_pages = pages_db->CountRows(table);
    auto count_sqlite = sqlite_db->CountRows(table);
    EXPECT_TRUE(count_pages.ok() && count_sqlite.ok());
    if (count_pages.ok() && count_sqlite.ok()) {
      EXPECT_EQ(*count_pages, *count_sqlite) << table;
      EXPECT_EQ(*count_pages, rows) << table;
    }
  }
  return rows;
}

const std::vector<std::string_view> kCols = {"a", "b", "c", "d"};

// The communication join's held cells are packed losslessly: every state and value reads back.
TEST(PackedCells, EveryCellReadsBack) {
  using State = db::IntCell::State;
  const std::vector<db::IntCell> cells = {
      {State::kValue, 0}, {State::kValue, 7}, {State::kValue, (int64_t{1} << 31) - 1},
      {State::kValue, int64_t{1} << 31},
      {State::kValue, -1}, {State::kValue, std::numeric_limits<int64_t>::min()},
      {State::kValue, std::numeric_limits<int64_t>::max()}, {State::kNull, 0}, {State::kBad, 0}};
  db::PackedCells packed;
  std::vector<uint32_t> kept;
  for (const db::IntCell& c : cells) kept.push_back(packed.Pack(c));
  EXPECT_EQ(packed.side_size(), 6u);  // only 0, 7 and 2^31 - 1 fit in 4 bytes
  for (size_t i = 0; i < cells.size(); ++i) {
    EXPECT_EQ(packed.Unpack(kept[i]).state, cells[i].state) << i;
    EXPECT_EQ(packed.Unpack(kept[i]).value, cells[i].value) << i;
  }
  db::PackedTimes times;
  std::vector<db::PackedTimes::Pair> pairs;
  for (const db::IntCell& a : cells)
    for (const db::IntCell& b : cells) pairs.push_back(times.Pack(a, b));
  size_t k = 0;
  for (const db::IntCell& a : cells) {
    for (const db::IntCell& b : cells) {
      const auto [start, end] = times.Unpack(pairs[k++]);
      EXPECT_TRUE(start.state == a.state && start.value == a.value && end.state == b.state && end.value == b.value)
          << a.value << " " << b.value;
    }
  }
  // Only pairs with a NULL or bad cell, or INT64_MIN as the start, go to the side list.
  EXPECT_EQ(times.side_size(), 2 * 9u + 9u + 6 * 2u);  // a start not a value, INT64_MIN, an end not a value
}

TEST(SqliteScan, EveryValueKindReadsAsSqliteReadsIt) {
  for (const int page : {512, 4096, 65536}) {
    TempDir d;
    const std::string path = d / "values.db";
    ASSERT_EQ(Build(path, "PRAGMA page_size = " + std::to_string(page) + ";",
                    "CREATE TABLE T (a, b INTEGER, c TEXT, d REAL);" + ValueRows("T", 3000)),
              "");
    EXPECT_EQ(ExpectSameCells(path, "T", kCols), 3000) << "page size " << page;
    // Columns in another order and a subset.
    EXPECT_EQ(ExpectSameCells(path, "T", {"d", "a"}), 3000);
  }
}

// A scan told which rows the caller reads (OnlyRows) hands out from the pages exactly the rows
// SQLite's scan gives whose cell is an integer of the list, in order, and still counts every row.
TEST(SqliteScan, OnlyTheRowsTheCallerReads) {
  TempDir d;
  const std::string path = d / "only.db";
  ASSERT_EQ(Build(path, "PRAGMA page_size = 512;", "CREATE TABLE T (a, b, c, d);" + ValueRows("T", 3000)), "");
  auto sqlite_db = db::Database::Open(path, false);
  ASSERT_TRUE(sqlite_db.ok());
  // Column b holds each kind of value: integers of every size, reals (3.0 reads as 3), decimal text.
  // Integers far apart are searched for; a few close together are tested as bits (an integer
  // cell), or searched for (a real, a decimal text): both lists read as SQLite's scan.
  const std::vector<int64_t> wide = {-1, 0, 3, 127, 2147483647, 1736410576395167660};
  const std::vector<int64_t> narrow = {-1, 0, 3, 64, 127};
  for (const std::vector<int64_t>& keep : {wide, narrow})
  for (const int readers : {0, 1, 2}) {
    auto pages_db = db::Database::Open(path, true, readers);
    ASSERT_TRUE(pages_db.ok());
    auto a = pages_db->Scan("T", kCols, db::OnlyRows{1, keep});
    auto b = sqlite_db->Scan("T", kCols, db::OnlyRows{1, keep});  // a hint SQLite's scan ignores
    ASSERT_TRUE(a.ok() && b.ok());
    ASSERT_TRUE(a->from_pages());
    int64_t kept = 0;
    for (;;) {
      auto rb = b->Step();
      ASSERT_TRUE(rb.ok());
      if (!*rb) break;
      const db::IntCell cell = b->Int(1);
      if (!cell.ok() || !std::binary_search(keep.begin(), keep.end(), cell.value)) continue;
      ++kept;
      auto ra = a->Step();
      ASSERT_TRUE(ra.ok() && *ra) << "row " << b->rows();
      for (int c = 0; c < static_cast<int>(kCols.size()); ++c) {
        EXPECT_EQ(a->Int(c).value, b->Int(c).value) << "row " << b->rows() << " col " << c;
        EXPECT_EQ(a->Text(c), b->Text(c)) << "row " << b->rows() << " col " << c;
      }
    }
    auto ra = a->Step();
    ASSERT_TRUE(ra.ok());
    EXPECT_FALSE(*ra);
    EXPECT_GT(kept, 100);
    EXPECT_LT(kept, 3000 / 2);
    EXPECT_EQ(a->rows(), 3000);  // the rows kept back are counted
    EXPECT_EQ(b->rows(), 3000);
  }
}

// Rowids of every varint length (1 to 9 bytes, negative ones are 9), read from the pages as SQLite
// reads them.
TEST(SqliteScan, RowidsOfEveryVarintLength) {
  TempDir d;
  const std::string path = d / "rowids.db";
  std::string sql = "CREATE TABLE R (id INTEGER PRIMARY KEY, v); BEGIN;";
  std::vector<int64_t> ids = {-9223372036854775807LL - 1, -1, 0, 9223372036854775807LL};
  for (int bits = 7; bits <= 63; bits += 7) {
    for (const int64_t delta : {-1, 0, 1}) ids.push_back((int64_t{1} << (bits == 63 ? 62 : bits)) + delta);
  }
  for (size_t i = 0; i < ids.size(); ++i)
    sql += "INSERT OR IGNORE INTO R VALUES (" + std::to_string(ids[i]) + ", " + std::to_string(i) + ");";
  // Enough rows for a table of several leaves (read ahead too).
  for (int i = 0; i < 3000; ++i) sql += "INSERT INTO R (v) VALUES ('row" + std::to_string(i) + "');";
  ASSERT_EQ(Build(path, "PRAGMA page_size = 512;", sql + "COMMIT;"), "");
  EXPECT_GT(ExpectSameCells(path, "R", {"id", "v"}), 3000);
}

// A filter on an INTEGER PRIMARY KEY (stored as NULL in the record, read from the rowid) keeps the
// rows of those ids, and one on a column some records end before (ALTER TABLE ADD COLUMN) keeps
// none of those rows (NULL).
TEST(SqliteScan, OnlyRowsByTheRowidAndOnShortRecords) {
  TempDir d;
  const std::string path = d / "rowid.db";
  std::string sql = "CREATE TABLE R (id INTEGER PRIMARY KEY, v); BEGIN;";
  for (int i = 1; i <= 3000; ++i)
    sql += "INSERT INTO R VALUES (" + std::to_string(i) + ", 'v" + std::to_string(i) + "');";
  sql += "COMMIT; ALTER TABLE R ADD COLUMN w; UPDATE R SET w = 7 WHERE id > 2990;";
  ASSERT_EQ(Build(path, "PRAGMA page_size = 512;", sql), "");
  for (const int readers : {0, 2}) {
    auto db = db::Database::Open(path, true, readers);
    ASSERT_TRUE(db.ok());
    auto by_id = db->Scan("R", {"v", "id"}, db::OnlyRows{1, {5, 1500, 2999}});
    ASSERT_TRUE(by_id.ok() && by_id->from_pages());
    std::vector<std::string> kept;
    while (*by_id->Step()) kept.emplace_back(*by_id->Text(0));
    EXPECT_EQ(kept, (std::vector<std::string>{"v5", "v1500", "v2999"}));
    EXPECT_EQ(by_id->rows(), 3000);
    auto by_w = db->Scan("R", {"id", "w"}, db::OnlyRows{1, {7}});
    ASSERT_TRUE(by_w.ok() && by_w->from_pages());
    int64_t n = 0;
    while (*by_w->Step()) {
      EXPECT_GT(by_w->Int(0).value, 2990);
      ++n;
    }
    EXPECT_EQ(n, 10);
    EXPECT_EQ(by_w->rows(), 3000);
  }
}

TEST(SqliteScan, BigTablesAreReadAheadOnThreads) {
  TempDir d;
  const std::string path = d / "big.db";
  ASSERT_EQ(
      Build(path, "PRAGMA page_size = 512;", "CREATE TABLE T (a, b, c, d);" + ValueRows("T", 2000)),
      "");
  for (const int readers : {1, 2, 4}) {
    auto db = db::Database::Open(path, true, readers);
    ASSERT_TRUE(db.ok());
    auto st = db->Scan("T", kCols);
    ASSERT_TRUE(st.ok());
    EXPECT_TRUE(st->reads_ahead());
    EXPECT_EQ(st->readers(), readers);
    // Stopping after a few rows: the reader threads stop with the scan.
    for (int i = 0; i < 5; ++i) ASSERT_TRUE(*st->Step());
  }
}

TEST(SqliteScan, ReservedBytesPerPage) {
  TempDir d;
  const std::string path = d / "reserved.db";
  ASSERT_EQ(Build(path, "PRAGMA page_size = 1024;",
                  "CREATE TABLE T (a, b, c, d);" + ValueRows("T", 800), 40),
            "");
  std::ifstream file(path, std::ios::binary);
  char header[21] = {};
  file.read(header, sizeof header);
  ASSERT_EQ(static_cast<int>(static_cast<unsigned char>(header[20])),
            40);  // the bytes are reserved
  EXPECT_EQ(ExpectSameCells(path, "T", kCols), 800);
}

TEST(SqliteScan, RowidAliasShortRecordsAndDeletedRows) {
  TempDir d;
  const std::string path = d / "schema.db";
  ASSERT_EQ(Build(path, "PRAGMA page_size = 512;",
                  "CREATE TABLE S (id INTEGER PRIMARY KEY, value TEXT);"
                  "INSERT INTO S (value) VALUES ('x'), ('y'), (NULL);"
                  "INSERT INTO S VALUES (1000000000000, 'far');"
                  "CREATE TABLE T (a, b, c, d);" +
                      ValueRows("T", 1500) +
                      "DELETE FROM T WHERE d % 3 = 0;"
                      "ALTER TABLE T ADD COLUMN e INTEGER;"
                      "INSERT INTO T (a, b, c, d, e) VALUES (1, 2, 'new', 4, 5);"),
            "");
  EXPECT_EQ(ExpectSameCells(path, "S", {"id", "value"}), 4);
  EXPECT_EQ(ExpectSameCells(path, "T", {"a", "e", "d"}), 1001);
}

TEST(SqliteScan, TablesThePagesDoNotServeGoThroughSqlite) {
  TempDir d;
  const std::string path = d / "fallback.db";
  ASSERT_EQ(Build(path, "",
                  "CREATE TABLE W (a INTEGER PRIMARY KEY, b) WITHOUT ROWID;"
                  "INSERT INTO W VALUES (1, 'one'), (2, 'two');"
                  "CREATE TABLE T (a, b);"
                  "INSERT INTO T VALUES (1, 'x');"
                  "ALTER TABLE T ADD COLUMN c DEFAULT 7;"
                  "INSERT INTO T VALUES (2, 'y', 8);"),
            "");
  EXPECT_EQ(ExpectSameCells(path, "W", {"a", "b"}, false), 2);
  EXPECT_EQ(ExpectSameCells(path, "T", {"a", "c"}, false), 2);  // a default a short record takes
  EXPECT_EQ(ExpectSameCells(path, "T", {"a", "b"}), 2);
  const std::string utf16 = d / "utf16.db";
  ASSERT_EQ(Build(utf16, "PRAGMA encoding = 'UTF-16le';",
                  "CREATE TABLE T (a, b, c, d);" + ValueRows("T", 50)),
            "");
  EXPECT_EQ(ExpectSameCells(utf16, "T", kCols, false), 50);
}

// A copy of `path` with `bytes` written at `offset`.
std::string Damaged(const TempDir& d, const std::string& path, uint64_t offset,
                    const std::string& bytes) {
  const std::string out = d / ("damaged_" + std::to_string(offset) + ".db");
  fs::copy_file(path, out, fs::copy_options::overwrite_existing);
  std::fstream f(out, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(static_cast<std::streamoff>(offset));
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return out;
}

// Reads the whole table from the pages: Ok or the error.
Status ReadAll(const std::string& path, const std::string& table, int readers = 0) {
  PD_ASSIGN_OR_RETURN(db::Database db, db::Database::Open(path, true, readers));
  PD_ASSIGN_OR_RETURN(db::Statement st, db.Scan(table, kCols));
  for (;;) {
    PD_ASSIGN_OR_RETURN(bool row, st.Step());
    if (!row) return Status::Ok();
  }
}

TEST(SqliteScan, CorruptPagesAreErrorsNamingFileTableAndPage) {
  TempDir d;
  const std::string path = d / "good.db";
  ASSERT_EQ(
      Build(path, "PRAGMA page_size = 512;", "CREATE TABLE T (a, b, c, d);" + ValueRows("T", 600)),
      "");
  ASSERT_TRUE(ReadAll(path, "T").ok());
  const auto pages = fs::file_size(path) / 512;
  int errors = 0;
  // Every page's type byte, cell count and first cell pointer overwritten in turn: never a crash;
  // an error names the file and the table.
  for (uint64_t page = 2; page <= pages; ++page) {
    for (const std::string& bytes : {std::string("\x0a"), std::string("\x05\x00\x00\xff\xff", 5),
                                     std::string("\x0d\x00\x00\x7f\xff\x00\x00\x00\xff\xff", 10)}) {
      const std::string bad = Damaged(d, path, (page - 1) * 512, bytes);
      const Status st = ReadAll(bad, "T");
      for (const int readers : {1, 3}) {  // the same outcome with threads reading ahead
        const Status ahead = ReadAll(bad, "T", readers);
        EXPECT_EQ(st.ok(), ahead.ok());
        EXPECT_EQ(st.message(), ahead.message());
      }
      if (!st.ok()) {
        ++errors;
        EXPECT_NE(st.message().find(bad), std::string::npos) << st.message();
        EXPECT_NE(st.message().find("table T"), std::string::npos) << st.message();
      }
      fs::remove(bad);
    }
  }
  EXPECT_GT(errors, 0);
  // A file cut short: an error naming it (SQLite's own when the schema says the file is longer,
  // the reader's when a page is past the end), not a read past it.
  const std::string cut = d / "cut.db";
  fs::copy_file(path, cut);
  fs::resize_file(cut, fs::file_size(path) / 2);
  const Status st = ReadAll(cut, "T");
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find(cut), std::string::npos) << st.message();
}

// Every table the DB loader reads, on every DB export of the corpus: the same cells both ways.
TEST(SqliteScan, CorpusExportsReadAsSqliteReadsThem) {
  const std::vector<std::string> files = testing::CorpusDbExports();
  if (files.empty()) GTEST_SKIP() << "../shared/corpus is absent (a user's clone): skipped";
  for (const std::string& path : files) {
    auto db = db::Database::Open(path, false);
    ASSERT_TRUE(db.ok()) << path;
    const std::pair<const char*, std::vector<std::string_view>> tables[] = {
        {"STRING_IDS", {"id", "value"}},
        {"PYTORCH_API",
         {"startNs", "endNs", "globalTid", "connectionId", "name", "sequenceNumber", "fwdThreadId",
          "inputShapes", "type"}},
        {"TASK",
         {"startNs", "endNs", "connectionId", "globalTaskId", "taskType", "streamId", "taskId"}},
        {"COMPUTE_TASK_INFO", {"globalTaskId", "name", "opType", "taskType", "inputShapes"}},
        {"TASK_PMU_INFO", {"globalTaskId", "name", "value"}},
        {"MEMORY_RECORD",
         {"component", "timestamp", "totalAllocated", "totalReserved", "totalActive", "deviceId"}},
        {"CONNECTION_IDS", {"id", "connectionId"}},
    };
    for (const auto& [table, cols] : tables)
      if (db->HasTable(table)) {
        EXPECT_GE(ExpectSameCells(path, table, cols), 0) << path << " " << table;
      }
  }
}

}  // namespace
}  // namespace profdiff
