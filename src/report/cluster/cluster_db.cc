// cluster_analysis.db (cluster_db.h).
#include "profdiff/report/cluster/cluster_db.h"

#include <fmt/format.h>
#include <sqlite3.h>

#include <cmath>
#include <memory>

#include "profdiff/report/output_file.h"
#include "profdiff/report/python_json.h"

namespace profdiff::report {
namespace {

using analysis::ResultTable;

std::string QuotedName(const std::string& name) {
  std::string q = "\"";
  for (char c : name) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

// The reference's own CREATE TABLE quotes a column name only where SQL needs it ("index").
std::string ConfigName(const std::string& name) { return name == "index" ? QuotedName(name) : name; }

struct DbCloser {
  void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
};
struct StmtCloser {
  void operator()(sqlite3_stmt* s) const { sqlite3_finalize(s); }
};

Status SqlError(const std::string& path, sqlite3* db, const std::string& what) {
  return IoError(fmt::format("{}: {}: {}", path, what, db != nullptr ? sqlite3_errmsg(db) : "out of memory"));
}

Status Exec(const std::string& path, sqlite3* db, const std::string& sql) {
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) return SqlError(path, db, sql);
  return Status::Ok();
}

int Bind(sqlite3_stmt* st, int i, const SqlValue& v) {
  switch (v.kind) {
    case SqlValue::Kind::kNull: return sqlite3_bind_null(st, i);
    case SqlValue::Kind::kInt: return sqlite3_bind_int64(st, i, v.i);
    case SqlValue::Kind::kReal: return std::isnan(v.r) ? sqlite3_bind_null(st, i) : sqlite3_bind_double(st, i, v.r);
    case SqlValue::Kind::kText:
      return sqlite3_bind_text(st, i, v.text.data(), static_cast<int>(v.text.size()), SQLITE_TRANSIENT);
  }
  return sqlite3_bind_null(st, i);
}

Status WriteTable(const std::string& path, sqlite3* db, const ResultTable& t) {
  PD_RETURN_IF_ERROR(Exec(path, db, CreateTableSql(t)));
  std::string sql = "INSERT INTO " + QuotedName(t.name) + " VALUES (";
  for (size_t c = 0; c < t.columns.size(); ++c) sql += c > 0 ? ",?" : "?";
  sql += ")";
  sqlite3_stmt* raw = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &raw, nullptr) != SQLITE_OK) return SqlError(path, db, sql);
  std::unique_ptr<sqlite3_stmt, StmtCloser> st(raw);
  for (const std::vector<SqlValue>& row : t.rows) {
    sqlite3_reset(st.get());
    for (size_t c = 0; c < t.columns.size(); ++c) {
      if (Bind(st.get(), static_cast<int>(c + 1), c < row.size() ? row[c] : SqlValue::Null()) != SQLITE_OK)
        return SqlError(path, db, "table " + t.name);
    }
    if (sqlite3_step(st.get()) != SQLITE_DONE) return SqlError(path, db, "table " + t.name);
  }
  return Status::Ok();
}

Status WriteTables(const std::string& path, const std::vector<ResultTable>& tables) {
  sqlite3* raw = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  std::unique_ptr<sqlite3, DbCloser> db(raw);
  if (rc != SQLITE_OK) return SqlError(path, raw, "cannot open as an SQLite database");
  // A file of its own, written once: no journal beside it, no sync before the rename.
  PD_RETURN_IF_ERROR(Exec(path, db.get(), "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN"));
  for (const ResultTable& t : tables) PD_RETURN_IF_ERROR(WriteTable(path, db.get(), t));
  PD_RETURN_IF_ERROR(Exec(path, db.get(), "COMMIT"));
  if (sqlite3_close_v2(db.release()) != SQLITE_OK) return IoError(path + ": cannot close the SQLite database");
  return Status::Ok();
}

}  // namespace

std::optional<ResultTable> ClusterBaseInfoTable(const std::vector<analysis::RankSummary>& ranks) {
  for (const analysis::RankSummary& r : ranks) {
    const std::string& args = r.db_tables.distributed_args_json;
    if (args.empty()) continue;
    const OrderedJson doc = OrderedJson::parse(args, nullptr, false);
    if (doc.is_discarded()) continue;
    ResultTable t{"ClusterBaseInfo", {{"key", analysis::SqlType::kText}, {"value", analysis::SqlType::kText}}, {},
                  false};
    t.rows.push_back({SqlValue::Text("distributed_args"), SqlValue::Text(PythonJsonDumps(doc))});
    return t;
  }
  return std::nullopt;
}

std::string CreateTableSql(const ResultTable& t) {
  std::string sql;
  if (t.pandas) {  // pandas' SQLiteTable: the name quoted, one column a line
    sql = "CREATE TABLE " + QuotedName(t.name) + " (\n";
    for (size_t c = 0; c < t.columns.size(); ++c)
      sql += (c > 0 ? ",\n  " : "") + QuotedName(t.columns[c].name) + " " + std::string(SqlTypeName(t.columns[c].type));
    return sql + "\n)";
  }
  sql = "CREATE TABLE IF NOT EXISTS " + t.name + "(";
  for (size_t c = 0; c < t.columns.size(); ++c)
    sql += (c > 0 ? "," : "") + ConfigName(t.columns[c].name) + " " + std::string(SqlTypeName(t.columns[c].type));
  return sql + ")";
}

Status WriteClusterDb(const std::string& path, const std::vector<ResultTable>& tables, bool force) {
  return WriteViaTempFile(path, force, [&](const std::string& tmp) { return WriteTables(tmp, tables); });
}

}  // namespace profdiff::report
