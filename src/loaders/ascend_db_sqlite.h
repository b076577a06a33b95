// A thin read-only SQLite layer for the Ascend DB loader: the connection (opened immutable), one
// prepared statement, and typed cell reads that say what they found (value, NULL or not a number).
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "profdiff/base/status.h"

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

class Statement {
 public:
  Statement(sqlite3_stmt* stmt, std::string file, std::string table)
      : stmt_(stmt), file_(std::move(file)), table_(std::move(table)) {}
  // true: a row is ready; false: done. Errors (a corrupt page met mid-table) name file and table.
  StatusOr<bool> Step();
  IntCell Int(int col) const;
  // A numeric cell (INTEGER, REAL, or a text SQLite reads as a number); nullopt for NULL, blobs and
  // other text.
  std::optional<double> Real(int col) const;
  // The cell as text (NULL and blobs give nullopt).
  std::optional<std::string_view> Text(int col) const;
  bool IsNull(int col) const { return sqlite3_column_type(stmt_.get(), col) == SQLITE_NULL; }

 private:
  std::unique_ptr<sqlite3_stmt, StmtFinalizer> stmt_;
  std::string file_;
  std::string table_;
};

class Database {
 public:
  // Opens read-only with the URI `file:<path>?immutable=1` (no lock, no journal, no write) and
  // checks that the file is an SQLite database by reading its schema.
  static StatusOr<Database> Open(const std::string& path);
  // `sql` reads `table` (named in any error message).
  StatusOr<Statement> Prepare(std::string_view table, const std::string& sql) const;
  bool HasTable(std::string_view table) const { return tables_.count(std::string(table)) != 0; }
  StatusOr<int64_t> CountRows(std::string_view table) const;
  const std::string& file() const { return file_; }

 private:
  std::unique_ptr<sqlite3, SqliteCloser> db_;
  std::string file_;
  std::set<std::string> tables_;
};

// `path` as the path part of an SQLite file: URI (the characters URIs reserve percent-encoded).
std::string FileUri(std::string_view path);

}  // namespace profdiff::db
