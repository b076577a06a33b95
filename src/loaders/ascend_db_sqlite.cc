// Read-only SQLite access for the Ascend DB loader (ascend_db_sqlite.h).
#include "ascend_db_sqlite.h"

#include <fmt/format.h>

#include <cctype>
#include <cstdlib>
#include <utility>

namespace profdiff::db {
namespace {

// "12345" / "-7" -> value; anything else (empty, a fraction, letters) -> nullopt.
std::optional<int64_t> ParseDecimalInt(std::string_view t) {
  if (t.empty()) return std::nullopt;
  size_t i = 0;
  const bool negative = t[0] == '-';
  if (negative || t[0] == '+') i = 1;
  if (i == t.size()) return std::nullopt;
  uint64_t v = 0;
  for (; i < t.size(); ++i) {
    const char c = t[i];
    if (c < '0' || c > '9') return std::nullopt;
    const auto digit = static_cast<uint64_t>(c - '0');
    if (v > (static_cast<uint64_t>(INT64_MAX) - digit) / 10) return std::nullopt;
    v = v * 10 + digit;
  }
  return negative ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
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
  const int rc = sqlite3_step(stmt_.get());
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  sqlite3* db = sqlite3_db_handle(stmt_.get());
  return ParseError(fmt::format("{}: table {}: cannot read the rows: {}", file_, table_, sqlite3_errmsg(db)));
}

IntCell Statement::Int(int col) const {
  switch (sqlite3_column_type(stmt_.get(), col)) {
    case SQLITE_NULL: return {IntCell::State::kNull, 0};
    case SQLITE_INTEGER: return {IntCell::State::kValue, sqlite3_column_int64(stmt_.get(), col)};
    case SQLITE_FLOAT: {
      const double d = sqlite3_column_double(stmt_.get(), col);
      const auto i = static_cast<int64_t>(d);
      if (d >= -9.2e18 && d <= 9.2e18 && static_cast<double>(i) == d) return {IntCell::State::kValue, i};
      return {IntCell::State::kBad, 0};
    }
    case SQLITE_TEXT: {
      // PYTORCH_API stores its times as text ("1736410576395167660").
      if (auto v = ParseDecimalInt(*Text(col))) return {IntCell::State::kValue, *v};
      return {IntCell::State::kBad, 0};
    }
    default: return {IntCell::State::kBad, 0};
  }
}

std::optional<double> Statement::Real(int col) const {
  switch (sqlite3_column_type(stmt_.get(), col)) {
    case SQLITE_INTEGER:
    case SQLITE_FLOAT: return sqlite3_column_double(stmt_.get(), col);
    case SQLITE_TEXT: {
      // No exceptions and no locale: strtod on a NUL-terminated copy, the whole text must be used.
      const std::string text(*Text(col));
      char* end = nullptr;
      const double v = std::strtod(text.c_str(), &end);
      if (text.empty() || end != text.c_str() + text.size()) return std::nullopt;
      return v;
    }
    default: return std::nullopt;
  }
}

std::optional<std::string_view> Statement::Text(int col) const {
  const int type = sqlite3_column_type(stmt_.get(), col);
  if (type == SQLITE_NULL || type == SQLITE_BLOB) return std::nullopt;
  const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_.get(), col));
  const int n = sqlite3_column_bytes(stmt_.get(), col);
  if (p == nullptr) return std::string_view();
  return std::string_view(p, static_cast<size_t>(n));
}

StatusOr<Database> Database::Open(const std::string& path) {
  Database d;
  d.file_ = path;
  sqlite3* raw = nullptr;
  const std::string uri = FileUri(path) + "?immutable=1";
  // One connection per loader thread: no mutex around every column read (about a tenth of a DB load).
  const int rc =
      sqlite3_open_v2(uri.c_str(), &raw, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nullptr);
  d.db_.reset(raw);
  if (rc != SQLITE_OK) {
    return IoError(fmt::format("{}: cannot open the database: {}", path,
                               raw != nullptr ? sqlite3_errmsg(raw) : sqlite3_errstr(rc)));
  }
  // Reading the schema is the first read of the file: a file that is not a database fails here.
  auto st = d.Prepare("sqlite_master", "SELECT name FROM sqlite_master WHERE type = 'table'");
  if (!st.ok()) {
    return ParseError(fmt::format("{}: not a readable SQLite database ({})", path, st.status().message()));
  }
  for (;;) {
    auto row = st->Step();
    if (!row.ok()) {
      return ParseError(fmt::format("{}: not a readable SQLite database ({})", path, row.status().message()));
    }
    if (!*row) break;
    if (auto name = st->Text(0)) d.tables_.emplace(*name);
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

StatusOr<int64_t> Database::CountRows(std::string_view table) const {
  PD_ASSIGN_OR_RETURN(Statement st, Prepare(table, fmt::format("SELECT count(*) FROM \"{}\"", table)));
  PD_ASSIGN_OR_RETURN(bool row, st.Step());
  if (!row) return int64_t{0};
  const IntCell c = st.Int(0);
  return c.ok() ? c.value : 0;
}

}  // namespace profdiff::db
