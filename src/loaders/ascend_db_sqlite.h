// A thin read-only SQLite layer for the Ascend DB loader: the connection (opened immutable), one
// prepared statement, and typed cell reads that say what they found (value, NULL or not a number).
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ascend_db_wal.h"
#include "profdiff/base/status.h"
#include "profdiff/io/sqlite_pages.h"

namespace profdiff::db {

struct SqliteCloser {
  void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
};
struct StmtFinalizer {
  void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};

// One integer cell: a value, NULL, or something that is not an integer (a text that is not a
// decimal integer, a blob, a real with a fraction).
struct IntCell {
  enum class State : uint8_t { kValue, kNull, kBad } state = State::kNull;
  int64_t value = 0;
  bool ok() const { return state == State::kValue; }
};

// Integer cells kept in 4 bytes where they can be (a value in [0, 2^31): the string ids, plane ids
// and the like of the rows a join holds) and in a side list otherwise (NULL, not an integer,
// negative or larger: rare), so that a join's millions of held rows stay small; lossless.
class PackedCells {
 public:
  static constexpr uint32_t kSide = uint32_t{1} << 31;  // the bit of a cell kept in the side list
  uint32_t Pack(const IntCell& c) {
    if (c.ok() && c.value >= 0 && c.value < int64_t{kSide}) return static_cast<uint32_t>(c.value);
    side_.push_back(c);
    return kSide | static_cast<uint32_t>(side_.size() - 1);
  }
  IntCell Unpack(uint32_t v) const {
    if ((v & kSide) == 0) return {IntCell::State::kValue, v};
    return side_[v & ~kSide];
  }
  size_t side_size() const { return side_.size(); }
  void Clear() { std::vector<IntCell>().swap(side_); }

 private:
  std::vector<IntCell> side_;
};

// Two time cells (a start and an end) kept in 16 bytes: their values when both are values and the
// start is not INT64_MIN (never a time the loader keeps), else INT64_MIN and the pair's index in a
// side list; lossless.
class PackedTimes {
 public:
  struct Pair {
    int64_t start;
    int64_t end;
  };
  Pair Pack(const IntCell& start, const IntCell& end) {
    if (start.ok() && end.ok() && start.value != kSide) return {start.value, end.value};
    side_.push_back({start, end});
    return {kSide, static_cast<int64_t>(side_.size() - 1)};
  }
  // By value: a Pair may sit unaligned in a packed row.
  std::pair<IntCell, IntCell> Unpack(Pair p) const {
    if (p.start != kSide) return {{IntCell::State::kValue, p.start}, {IntCell::State::kValue, p.end}};
    return side_[static_cast<size_t>(p.end)];
  }
  size_t side_size() const { return side_.size(); }
  void Clear() { std::vector<std::pair<IntCell, IntCell>>().swap(side_); }

 private:
  static constexpr int64_t kSide = std::numeric_limits<int64_t>::min();
  std::vector<std::pair<IntCell, IntCell>> side_;
};

// A REAL cell as an integer: its value when it has no fraction.
inline IntCell IntOfReal(double d) {
  const std::optional<int64_t> i = io::ExactIntOfReal(d);
  return i ? IntCell{IntCell::State::kValue, *i} : IntCell{IntCell::State::kBad, 0};
}

// The rows of a query, from SQLite's statement engine or, for a whole-table scan, straight from the
// table's pages (io/sqlite_pages.h); the cells read the same either way (sqlite_scan_test.cc).
class Statement {
 public:
  Statement(sqlite3_stmt* stmt, std::string file, std::string table)
      : stmt_(stmt), file_(std::move(file)), table_(std::move(table)) {}
  explicit Statement(std::unique_ptr<io::SqliteTableScan> scan) : scan_(std::move(scan)) {}
  // true: a row is ready; false: done. Errors (a corrupt page met mid-table) name file and table.
  StatusOr<bool> Step();
  // Inline (forced: the loader's row loops are big): the loader reads about ten cells a row of
  // tables of tens of millions of rows, most of them integers or decimal texts from the pages.
  [[gnu::always_inline]] IntCell Int(int col) const {
    if (row_ != nullptr) [[likely]] {
      const io::SqlValue& v = row_[col];
      // `decimal`: a kText holding a decimal integer, in `i`.
      if (v.type == io::SqlValue::Type::kInt || v.decimal) [[likely]] return {IntCell::State::kValue, v.i};
      if (v.type == io::SqlValue::Type::kNull) return {IntCell::State::kNull, 0};
    }
    return IntSlow(col);
  }
  // A value read from the pages as Int() reads it: io::ExactInt's integer, NULL apart.
  static IntCell CellOf(const io::SqlValue& v) {
    // Integers first: most cells of the big tables.
    if (v.type == io::SqlValue::Type::kInt) [[likely]] return {IntCell::State::kValue, v.i};
    if (v.type == io::SqlValue::Type::kNull) return {IntCell::State::kNull, 0};
    const std::optional<int64_t> i = io::ExactInt(v);
    return i ? IntCell{IntCell::State::kValue, *i} : IntCell{IntCell::State::kBad, 0};
  }
  // A numeric cell (INTEGER, REAL, or a text SQLite reads as a number); nullopt for NULL, blobs and
  // other text.
  std::optional<double> Real(int col) const;
  // The cell as text (NULL and blobs give nullopt).
  std::optional<std::string_view> Text(int col) const;
  bool IsNull(int col) const;
  // Whether the rows come from the pages, and read ahead on a thread (tests).
  bool from_pages() const { return scan_ != nullptr; }
  bool reads_ahead() const { return scan_ != nullptr && scan_->reads_ahead(); }
  int readers() const { return scan_ != nullptr ? scan_->readers() : 0; }
  // The rows stepped so far, and those a Scan's filter kept back (after a whole Scan: the table's
  // rows).
  int64_t rows() const { return rows_ + (scan_ != nullptr ? scan_->filtered_rows() : 0); }

 private:
  IntCell SqliteInt(int col) const;
  IntCell IntSlow(int col) const;

  std::unique_ptr<sqlite3_stmt, StmtFinalizer> stmt_;
  std::unique_ptr<io::SqliteTableScan> scan_;
  const io::SqlValue* row_ = nullptr;  // the current row's values, from the pages (else null)
  mutable std::string number_text_;  // Text() of a number read from the pages
  int64_t rows_ = 0;
  std::string file_;
  std::string table_;
};

// Database::Scan's hint: the rows the caller reads (the others it skips).
struct OnlyRows {
  int column = -1;  // a requested column; -1: every row
  std::vector<int64_t> values;  // sorted
};

class Database {
 public:
  // Opens read-only with the URI `file:<path>?immutable=1` (no lock, no journal, no write) and
  // checks that the file is an SQLite database by reading its schema. `read_pages`: whole-table
  // scans read the pages themselves where they can (false: every read goes through SQLite);
  // `readers`: each such scan reads and decodes ahead of the caller on that many threads of its
  // own (0: on the caller's thread, as it reads). A file with a non-empty -wal is read from a
  // private copy with the -wal applied (ascend_db_wal.h); errors still name `path`.
  static StatusOr<Database> Open(const std::string& path, bool read_pages = true, int readers = 0);
  // `sql` reads `table` (named in any error message).
  StatusOr<Statement> Prepare(std::string_view table, const std::string& sql) const;
  // Every row of `table` in rowid order (SQLite's full-table scan), the named columns in that
  // order: from the pages for a rowid table of a UTF-8 file, else `SELECT columns FROM table`.
  // `only`: a hint that the caller skips the rows whose cell of requested column `only.column` is
  // not an integer in `only.values` (sorted); from the pages such rows are not handed out.
  // `readers`: the scan's reader threads (-1: the database's; 0: decoded on the caller's thread).
  StatusOr<Statement> Scan(std::string_view table, const std::vector<std::string_view>& columns,
                           OnlyRows only = {}, int readers = -1) const;
  // The reader threads of a whole-table scan from the pages (0: none).
  int readers() const { return pages_ != nullptr ? readers_ : 0; }
  // SQLite's plan for `sql` (EXPLAIN QUERY PLAN): each step's detail, in order ("SCAN t",
  // "SEARCH c USING INDEX CommunicationTaskIndex (globalTaskId=?)").
  StatusOr<std::vector<std::string>> QueryPlan(std::string_view table, const std::string& sql) const;
  // The columns of index `name` (0 when there is none).
  StatusOr<int> IndexColumns(std::string_view table, std::string_view name) const;
  bool HasTable(std::string_view table) const { return tables_.find(table) != tables_.end(); }
  StatusOr<int64_t> CountRows(std::string_view table) const;
  // About the rows of `table`, to size arrays before reading it: from the pages, its leaves times
  // the most cells of a few leaves spread over the table (no more than a few page reads); through
  // SQLite, CountRows.
  StatusOr<int64_t> EstimateRows(std::string_view table) const;
  const std::string& file() const { return file_; }

 private:
  // What a page scan needs of a table: its root page, its columns in order, its rowid alias.
  struct TableInfo {
    uint32_t root = 0;
    bool rowid_table = false;
  };
  struct Columns {
    std::vector<std::string> names;
    std::vector<bool> default_null;  // no DEFAULT, or DEFAULT NULL
    std::vector<bool> real;          // REAL affinity
    int rowid_column = -1;
  };
  StatusOr<Columns> ColumnsOf(std::string_view table) const;
  // The table's leaves when it can be read from the pages; nullopt: read it through SQLite.
  StatusOr<std::optional<std::vector<uint32_t>>> PageLeaves(std::string_view table) const;

  std::shared_ptr<const WalAppliedCopy> wal_copy_;  // what is read when the file has a -wal; outlives db_
  std::unique_ptr<sqlite3, SqliteCloser> db_;
  std::shared_ptr<const io::SqlitePages> pages_;  // null: SQLite reads every table
  int readers_ = 0;
  std::string file_;
  std::map<std::string, TableInfo, std::less<>> tables_;
  mutable std::map<std::string, std::vector<uint32_t>, std::less<>> leaves_;  // per table, walked once
};

// `path` as the path part of an SQLite file: URI (the characters URIs reserve percent-encoded).
std::string FileUri(std::string_view path);

}  // namespace profdiff::db
