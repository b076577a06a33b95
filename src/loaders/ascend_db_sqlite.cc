// Read-only SQLite access for the Ascend DB loader (ascend_db_sqlite.h).
#include "ascend_db_sqlite.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <utility>

#include "profdiff/base/ascii.h"

namespace profdiff::db {
namespace {

// A TEXT cell as an integer (PYTORCH_API stores its times as text: "1736410576395167660").
IntCell IntOfText(std::string_view text) {
  if (auto v = io::ParseDecimalInt(text)) return {IntCell::State::kValue, *v};
  return {IntCell::State::kBad, 0};
}

// A text as a number, as SQLite reads it for sqlite3_column_double (the whole text must be a number).
std::optional<double> RealOfText(std::string_view t) {
  // No exceptions and no locale: strtod on a NUL-terminated copy, the whole text must be used.
  const std::string text(t);
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size()) return std::nullopt;
  return v;
}

// A REAL as sqlite3_column_text writes it ("%!.15g": 15 significant digits, ".0" on a whole number).
std::string RealText(double d) {
  std::string t = fmt::format("{:.15g}", d);
  if (t.find_first_of(".ni") != std::string::npos) return t;  // a fraction, inf or nan
  const size_t e = t.find('e');
  t.insert(e == std::string::npos ? t.size() : e, ".0");  // "1e+300" -> "1.0e+300"
  return t;
}

// Whether a column's declared type gives it REAL affinity (SQLite's rules, "Determination Of
// Column Affinity", in their order: INT, then CHAR/CLOB/TEXT, then BLOB, then REAL/FLOA/DOUB).
bool RealAffinity(std::string_view declared) {
  const std::string t = ascii::ToLower(declared);
  auto has = [&](const char* s) { return t.find(s) != std::string::npos; };
  if (has("int") || has("char") || has("clob") || has("text") || has("blob")) return false;
  return has("real") || has("floa") || has("doub");
}

// Whether a CREATE TABLE statement ends in WITHOUT ROWID (its rows live in an index b-tree).
bool WithoutRowid(std::string_view sql) {
  const std::string t = ascii::ToLower(sql);
  const size_t close = t.rfind(')');
  const size_t without = t.find("without", close == std::string::npos ? 0 : close);
  return without != std::string::npos && t.find("rowid", without) != std::string::npos;
}

// `name` as an SQL identifier in double quotes.
std::string Quoted(std::string_view name) {
  std::string q = "\"";
  for (char c : name) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

}  // namespace

std::string FileUri(std::string_view path) {
  std::string out = "file:";
  for (char c : path) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '/' || c == '.' || c == '_' || c == '-' || c == '~') {
      out.push_back(c);
    } else {
      out += fmt::format("%{:02X}", u);
    }
  }
  return out;
}

StatusOr<bool> Statement::Step() {
  if (scan_ != nullptr) {
    PD_ASSIGN_OR_RETURN(bool row, scan_->Next());
    rows_ += row ? 1 : 0;
    row_ = row ? &scan_->value(0) : nullptr;
    return row;
  }
  const int rc = sqlite3_step(stmt_.get());
  if (rc == SQLITE_ROW) {
    ++rows_;
    return true;
  }
  if (rc == SQLITE_DONE) return false;
  sqlite3* db = sqlite3_db_handle(stmt_.get());
  return ParseError(fmt::format("{}: table {}: cannot read the rows: {}", file_, table_, sqlite3_errmsg(db)));
}

IntCell Statement::IntSlow(int col) const {
  if (scan_ == nullptr) return SqliteInt(col);
  return CellOf(scan_->value(static_cast<size_t>(col)));
}

IntCell Statement::SqliteInt(int col) const {
  switch (sqlite3_column_type(stmt_.get(), col)) {
    case SQLITE_NULL: return {IntCell::State::kNull, 0};
    case SQLITE_INTEGER: return {IntCell::State::kValue, sqlite3_column_int64(stmt_.get(), col)};
    case SQLITE_FLOAT: return IntOfReal(sqlite3_column_double(stmt_.get(), col));
    case SQLITE_TEXT: return IntOfText(*Text(col));
    default: return {IntCell::State::kBad, 0};
  }
}

std::optional<double> Statement::Real(int col) const {
  if (scan_ != nullptr) {
    const io::SqlValue& v = scan_->value(static_cast<size_t>(col));
    switch (v.type) {
      case io::SqlValue::Type::kInt: return static_cast<double>(v.i);
      case io::SqlValue::Type::kReal: return v.d;
      case io::SqlValue::Type::kText: return RealOfText(scan_->bytes(static_cast<size_t>(col)));
      default: return std::nullopt;
    }
  }
  switch (sqlite3_column_type(stmt_.get(), col)) {
    case SQLITE_INTEGER:
    case SQLITE_FLOAT: return sqlite3_column_double(stmt_.get(), col);
    case SQLITE_TEXT: return RealOfText(*Text(col));
    default: return std::nullopt;
  }
}

bool Statement::IsNull(int col) const {
  if (scan_ != nullptr) return scan_->value(static_cast<size_t>(col)).type == io::SqlValue::Type::kNull;
  return sqlite3_column_type(stmt_.get(), col) == SQLITE_NULL;
}

std::optional<std::string_view> Statement::Text(int col) const {
  if (scan_ != nullptr) {
    const io::SqlValue& v = scan_->value(static_cast<size_t>(col));
    switch (v.type) {
      case io::SqlValue::Type::kText: return scan_->bytes(static_cast<size_t>(col));
      case io::SqlValue::Type::kInt: number_text_ = std::to_string(v.i); return std::string_view(number_text_);
      case io::SqlValue::Type::kReal: number_text_ = RealText(v.d); return std::string_view(number_text_);
      default: return std::nullopt;
    }
  }
  const int type = sqlite3_column_type(stmt_.get(), col);
  if (type == SQLITE_NULL || type == SQLITE_BLOB) return std::nullopt;
  const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_.get(), col));
  const int n = sqlite3_column_bytes(stmt_.get(), col);
  if (p == nullptr) return std::string_view();
  return std::string_view(p, static_cast<size_t>(n));
}

StatusOr<Database> Database::Open(const std::string& path, bool read_pages, int readers) {
  Database d;
  d.file_ = path;
  PD_ASSIGN_OR_RETURN(d.wal_copy_, ApplyWal(path));
  const std::string& read_path = d.wal_copy_ != nullptr ? d.wal_copy_->db() : path;
  sqlite3* raw = nullptr;
  const std::string uri = FileUri(read_path) + "?immutable=1";
  // One connection per loader thread: no mutex around every column read (about a tenth of a DB load).
  const int rc =
      sqlite3_open_v2(uri.c_str(), &raw, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nullptr);
  d.db_.reset(raw);
  if (rc != SQLITE_OK) {
    return IoError(fmt::format("{}: cannot open the database: {}", path,
                               raw != nullptr ? sqlite3_errmsg(raw) : sqlite3_errstr(rc)));
  }
  // Reading the schema is the first read of the file: a file that is not a database fails here.
  // Views too: a table the export (or a tool after it) made a view of is read through SQLite (it has
  // no pages of its own), not reported absent.
  auto st = d.Prepare("sqlite_master",
                      "SELECT name, rootpage, sql FROM sqlite_master WHERE type IN ('table', 'view')");
  if (!st.ok()) {
    return ParseError(fmt::format("{}: not a readable SQLite database ({})", path, st.status().message()));
  }
  for (;;) {
    auto row = st->Step();
    if (!row.ok()) {
      return ParseError(fmt::format("{}: not a readable SQLite database ({})", path, row.status().message()));
    }
    if (!*row) break;
    const auto name = st->Text(0);
    if (!name) continue;
    TableInfo info;
    const IntCell root = st->Int(1);
    info.root = root.ok() && root.value > 0 && root.value <= UINT32_MAX ? static_cast<uint32_t>(root.value) : 0;
    info.rowid_table = info.root != 0 && !WithoutRowid(st->Text(2).value_or(std::string_view()));
    d.tables_.emplace(std::string(*name), info);
  }
  // The page reader where the file allows it (UTF-8); else SQLite reads every table.
  if (read_pages) {
    auto pages = io::SqlitePages::Open(read_path, path);
    if (pages.ok()) d.pages_ = std::move(*pages);
    d.readers_ = readers;
  }
  return d;
}

StatusOr<Statement> Database::Prepare(std::string_view table, const std::string& sql) const {
  sqlite3_stmt* raw = nullptr;
  const int rc = sqlite3_prepare_v2(db_.get(), sql.c_str(), static_cast<int>(sql.size()), &raw, nullptr);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(raw);
    return ParseError(fmt::format("{}: table {}: unexpected schema: {}", file_, table, sqlite3_errmsg(db_.get())));
  }
  return Statement(raw, file_, std::string(table));
}

StatusOr<Database::Columns> Database::ColumnsOf(std::string_view table) const {
  PD_ASSIGN_OR_RETURN(Statement st, Prepare(table, "PRAGMA table_info(" + Quoted(table) + ")"));
  Columns c;
  int pk_columns = 0, pk_column = -1;
  bool pk_integer = false;
  for (;;) {
    PD_ASSIGN_OR_RETURN(bool row, st.Step());
    if (!row) break;
    c.names.emplace_back(st.Text(1).value_or(std::string_view()));
    const auto dflt = st.Text(4);
    c.default_null.push_back(st.IsNull(4) || (dflt && ascii::EqualsLower(*dflt, "null")));
    c.real.push_back(RealAffinity(st.Text(2).value_or(std::string_view())));
    if (st.Int(5).ok() && st.Int(5).value > 0) {
      ++pk_columns;
      pk_column = static_cast<int>(c.names.size()) - 1;
      pk_integer = ascii::EqualsLower(st.Text(2).value_or(std::string_view()), "integer");
    }
  }
  // A sole INTEGER PRIMARY KEY is the rowid: the record stores NULL in its place.
  if (pk_columns == 1 && pk_integer) c.rowid_column = pk_column;
  return c;
}

StatusOr<std::optional<std::vector<uint32_t>>> Database::PageLeaves(std::string_view table) const {
  auto it = tables_.find(table);
  if (pages_ == nullptr || it == tables_.end() || !it->second.rowid_table) {
    return std::optional<std::vector<uint32_t>>();
  }
  auto cached = leaves_.find(table);
  if (cached == leaves_.end()) {
    PD_ASSIGN_OR_RETURN(std::vector<uint32_t> leaves, pages_->TableLeaves(it->second.root, table));
    cached = leaves_.emplace(std::string(table), std::move(leaves)).first;
  }
  return std::optional<std::vector<uint32_t>>(cached->second);
}

StatusOr<int64_t> Database::EstimateRows(std::string_view table) const {
  PD_ASSIGN_OR_RETURN(auto leaves, PageLeaves(table));
  if (!leaves) return CountRows(table);
  if (leaves->empty()) return int64_t{0};
  constexpr size_t kSamples = 9;
  uint32_t most = 0;
  for (size_t i = 0; i < kSamples; ++i) {
    const size_t at = (leaves->size() - 1) * i / (kSamples - 1);
    PD_ASSIGN_OR_RETURN(uint32_t cells, pages_->LeafCells((*leaves)[at], table));
    most = std::max(most, cells);
  }
  return static_cast<int64_t>(leaves->size()) * most;
}

StatusOr<Statement> Database::Scan(std::string_view table, const std::vector<std::string_view>& columns,
                                   OnlyRows only, int readers) const {
  PD_ASSIGN_OR_RETURN(auto leaves, PageLeaves(table));
  if (leaves) {
    PD_ASSIGN_OR_RETURN(Columns cols, ColumnsOf(table));
    std::vector<int> index;
    std::vector<bool> real;
    for (std::string_view name : columns) {
      const std::string lower = ascii::ToLower(name);  // SQLite's column names ignore case
      for (size_t i = 0; i < cols.names.size(); ++i) {
        const int col = static_cast<int>(i);
        if (ascii::EqualsLower(cols.names[i], lower) && cols.default_null[i] &&
            std::find(index.begin(), index.end(), col) == index.end()) {
          index.push_back(col);
          real.push_back(cols.real[i]);
          break;
        }
      }
    }
    // Every column found, distinct, without a default a short record would take: from the pages.
    if (index.size() == columns.size()) {
      io::RowFilter filter;
      if (only.column >= 0) filter = {only.column, std::move(only.values)};
      return Statement(std::make_unique<io::SqliteTableScan>(pages_, std::string(table), std::move(*leaves),
                                                             std::move(index), std::move(real), cols.rowid_column,
                                                             readers < 0 ? readers_ : readers, std::move(filter)));
    }
  }
  std::string sql = "SELECT ";
  for (size_t i = 0; i < columns.size(); ++i) sql += (i == 0 ? "" : ", ") + std::string(columns[i]);
  return Prepare(table, sql + " FROM " + Quoted(table));
}

StatusOr<std::vector<std::string>> Database::QueryPlan(std::string_view table, const std::string& sql) const {
  PD_ASSIGN_OR_RETURN(Statement st, Prepare(table, "EXPLAIN QUERY PLAN " + sql));
  std::vector<std::string> steps;
  for (;;) {
    PD_ASSIGN_OR_RETURN(bool row, st.Step());
    if (!row) return steps;
    steps.emplace_back(st.Text(3).value_or(std::string_view()));
  }
}

StatusOr<int> Database::IndexColumns(std::string_view table, std::string_view name) const {
  PD_ASSIGN_OR_RETURN(Statement st, Prepare(table, "PRAGMA index_info(" + Quoted(name) + ")"));
  int columns = 0;
  for (;;) {
    PD_ASSIGN_OR_RETURN(bool row, st.Step());
    if (!row) return columns;
    ++columns;
  }
}

StatusOr<int64_t> Database::CountRows(std::string_view table) const {
  PD_ASSIGN_OR_RETURN(auto leaves, PageLeaves(table));
  if (leaves) {
    PD_ASSIGN_OR_RETURN(uint64_t rows, pages_->CountCells(*leaves, table));
    return static_cast<int64_t>(rows);
  }
  PD_ASSIGN_OR_RETURN(Statement st, Prepare(table, "SELECT count(*) FROM " + Quoted(table)));
  PD_ASSIGN_OR_RETURN(bool row, st.Step());
  if (!row) return int64_t{0};
  const IntCell c = st.Int(0);
  return c.ok() ? c.value : 0;
}

}  // namespace profdiff::db
