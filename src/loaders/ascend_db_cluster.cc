// LoadClusterDbTables (ascend_db_cluster.h).
#include "ascend_db_cluster.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "profdiff/base/time.h"
#include "profdiff/io/byte_source.h"

namespace profdiff {
namespace {

namespace fs = std::filesystem;

// The connection ids the reference joins to CANN_API: its communication ops' and compute tasks'.
std::vector<int64_t> LaunchIds(const Profile& p) {
  std::vector<int64_t> ids;
  for (const DbComputeTask& t : p.npu.db.compute_tasks)
    if (t.connection_id != kNoNumber) ids.push_back(t.connection_id);
  for (const Slice& s : p.slices) {
    if (s.kind != SliceKind::kHcclOp) continue;
    const int64_t id = p.ArgInt(s, ArgKey::kConnectionId);
    if (id != kNoNumber) ids.push_back(id);
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

Status LoadCannStarts(const db::Database& db, Profile& p) {
  if (!db.HasTable("CANN_API")) return Status::Ok();
  std::vector<int64_t> ids = LaunchIds(p);
  auto& starts = p.npu.db.cann_api_starts;
  PD_ASSIGN_OR_RETURN(db::Statement st, db.Scan("CANN_API", {"startNs", "connectionId"}, db::OnlyRows{1, ids}));
  for (;;) {
    PD_ASSIGN_OR_RETURN(bool row, st.Step());
    if (!row) break;
    const db::IntCell start = st.Int(0), id = st.Int(1);
    if (!start.ok() || !id.ok() || !std::binary_search(ids.begin(), ids.end(), id.value)) continue;
    starts.emplace_back(id.value, start.value);
  }
  std::stable_sort(starts.begin(), starts.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  p.npu.db.has_cann_api = true;
  return Status::Ok();
}

// analysis.db's StepTraceTime columns as step_trace_time.csv names them.
std::string StepTraceColumnName(std::string_view db_column) {
  static const std::map<std::string_view, std::string_view> kNames = {
      {"computing", "Computing"},
      {"communication_not_overlapped", "Communication(Not Overlapped)"},
      {"overlapped", "Overlapped"},
      {"communication", "Communication"},
      {"free", "Free"},
      {"stage", "Stage"},
      {"bubble", "Bubble"},
      {"communication_not_overlapped_and_exclude_receive", "Communication(Not Overlapped and Exclude Receive)"},
      {"preparing", "Preparing"}};
  auto it = kNames.find(db_column);
  return std::string(it == kNames.end() ? db_column : it->second);
}

// A REAL cell in µs: the ns of its shortest decimal text (what the reference's Python float prints),
// rounded half to even as step_trace_time.csv's cells are.
int64_t NsOfMicros(double us) {
  if (!std::isfinite(us)) return kAbsentNs;
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, us);
  auto ns = ParseMicrosToNs(std::string_view(buf, static_cast<size_t>(res.ptr - buf)));
  return ns.ok() ? *ns : kAbsentNs;
}

StatusOr<std::vector<std::string>> ColumnNames(const db::Database& adb, std::string_view table) {
  PD_ASSIGN_OR_RETURN(db::Statement st,
                      adb.Prepare(table, fmt::format("SELECT name FROM pragma_table_info('{}')", table)));
  std::vector<std::string> names;
  for (;;) {
    PD_ASSIGN_OR_RETURN(bool row, st.Step());
    if (!row) break;
    if (auto t = st.Text(0)) names.emplace_back(*t);
  }
  return names;
}

Status LoadStepTraceTime(const db::Database& adb, Profile& p) {
  if (!adb.HasTable("StepTraceTime")) return Status::Ok();
  PD_ASSIGN_OR_RETURN(std::vector<std::string> names, ColumnNames(adb, "StepTraceTime"));
  auto step_col = std::find(names.begin(), names.end(), "step");
  if (step_col == names.end()) return Status::Ok();
  names.erase(step_col);
  std::vector<std::string_view> wanted = {"step"};
  for (const std::string& n : names) wanted.push_back(n);
  PD_ASSIGN_OR_RETURN(db::Statement st, adb.Scan("StepTraceTime", wanted, {}, 0));
  StepTraceTable t;
  for (const std::string& n : names) t.columns.push_back(StepTraceColumnName(n));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (;;) {
    PD_ASSIGN_OR_RETURN(bool row, st.Step());
    if (!row) break;
    const db::IntCell step = st.Int(0);
    t.steps.push_back(step.ok() ? std::to_string(step.value) : std::string(st.Text(0).value_or("")));
    std::vector<int64_t>& ns = t.values_ns.emplace_back();
    std::vector<double>& us = t.values_us_float.emplace_back();
    for (size_t c = 0; c < names.size(); ++c) {
      const std::optional<double> v = st.Real(static_cast<int>(c + 1));
      us.push_back(v.value_or(nan));
      ns.push_back(v ? NsOfMicros(*v) : kAbsentNs);
    }
  }
  t.present = true;
  p.npu.step_trace = std::move(t);
  return Status::Ok();
}

// `name` quoted as an SQL identifier.
std::string Quoted(std::string_view name) {
  std::string q = "\"";
  for (char c : name) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

// Every column of `table`, each cell by its storage class (as Python's sqlite3 hands it over), in
// rowid order; at most `limit` rows when it is positive. A table the file lacks is not `present`.
StatusOr<SqlRows> ReadTable(const db::Database& d, std::string_view table, int64_t limit = 0) {
  SqlRows out;
  if (!d.HasTable(table)) return out;
  out.present = true;
  PD_ASSIGN_OR_RETURN(out.columns, ColumnNames(d, table));
  if (out.columns.empty()) return out;
  std::string sql = "SELECT ";
  for (size_t c = 0; c < out.columns.size(); ++c)
    sql += fmt::format("{}typeof({}), {}", c > 0 ? ", " : "", Quoted(out.columns[c]), Quoted(out.columns[c]));
  sql += " FROM " + Quoted(table);
  if (limit > 0) sql += fmt::format(" LIMIT {}", limit);
  PD_ASSIGN_OR_RETURN(db::Statement st, d.Prepare(table, sql));
  for (;;) {
    PD_ASSIGN_OR_RETURN(bool row, st.Step());
    if (!row) break;
    std::vector<SqlValue>& cells = out.rows.emplace_back();
    for (size_t c = 0; c < out.columns.size(); ++c) {
      const int type = static_cast<int>(2 * c), value = type + 1;
      const std::string_view kind = st.Text(type).value_or("null");
      if (kind == "integer") cells.push_back(SqlValue::Int(st.Int(value).value));
      else if (kind == "real") cells.push_back(SqlValue::Real(st.Real(value).value_or(0.0)));
      else if (kind == "text") cells.push_back(SqlValue::Text(std::string(st.Text(value).value_or(""))));
      else cells.push_back(SqlValue::Null());  // NULL, or a BLOB
    }
  }
  return out;
}

// META_DATA's parallel_group_info (the first row of that name), read as the reference's json.loads
// reads it: each group id's "group_name" and sorted "global_ranks".
Status LoadParallelGroupInfo(const db::Database& d, ClusterDbTables& t) {
  if (!d.HasTable("META_DATA")) return Status::Ok();
  PD_ASSIGN_OR_RETURN(db::Statement st,
                      d.Prepare("META_DATA", "SELECT value FROM META_DATA WHERE name = 'parallel_group_info'"));
  PD_ASSIGN_OR_RETURN(bool row, st.Step());
  if (!row) return Status::Ok();
  const std::string text(st.Text(0).value_or(""));
  const nlohmann::ordered_json doc = nlohmann::ordered_json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    t.notes.push_back(fmt::format("{}: META_DATA parallel_group_info is not a JSON object: left out", d.file()));
    return Status::Ok();
  }
  t.has_parallel_group_info = true;
  for (const auto& [group_id, info] : doc.items()) {
    if (!info.is_object()) continue;
    DbParallelGroup g{group_id, "", {}};
    if (auto name = info.find("group_name"); name != info.end() && !name->is_null())
      g.pg_name = name->is_string() ? name->get<std::string>() : name->dump();
    if (auto ranks = info.find("global_ranks"); ranks != info.end() && ranks->is_array()) {
      for (const auto& r : *ranks)
        if (r.is_number_integer()) g.global_ranks.push_back(r.get<int64_t>());
      std::sort(g.global_ranks.begin(), g.global_ranks.end());
    }
    t.parallel_groups.push_back(std::move(g));
  }
  return Status::Ok();
}

// The rank folder's profiler_metadata.json distributed_args (the folder holding the export's
// ASCEND_PROFILER_OUTPUT), without its "rank".
void LoadDistributedArgs(const std::string& db_file, ClusterDbTables& t) {
  const fs::path out_dir = fs::path(db_file).parent_path();
  if (out_dir.filename() != "ASCEND_PROFILER_OUTPUT") return;
  const std::string path = (out_dir.parent_path() / "profiler_metadata.json").string();
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return;
  auto text = ReadWholeFile(path);
  if (!text.ok()) {
    t.notes.push_back(text.status().message());
    return;
  }
  nlohmann::ordered_json doc = nlohmann::ordered_json::parse(*text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    t.notes.push_back(fmt::format("{}: not a JSON object: its distributed_args are left out", path));
    return;
  }
  auto args = doc.find("distributed_args");
  if (args == doc.end() || !args->is_object() || args->empty()) return;
  args->erase("rank");
  t.distributed_args_json = args->dump();
}

Status LoadAnalysisDb(const std::string& db_file, Profile& p) {
  const std::string path = (fs::path(db_file).parent_path() / "analysis.db").string();
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return Status::Ok();
  PD_ASSIGN_OR_RETURN(db::Database adb, db::Database::Open(path, /*read_pages=*/false, 0));
  p.meta.files.push_back(path);
  PD_RETURN_IF_ERROR(LoadStepTraceTime(adb, p));
  if (adb.HasTable("CommAnalyzerTime")) {
    PD_ASSIGN_OR_RETURN(p.npu.db.comm_analyzer_time_rows, adb.CountRows("CommAnalyzerTime"));
  }
  ClusterDbTables& t = p.npu.db.cluster;
  PD_ASSIGN_OR_RETURN(t.comm_time, ReadTable(adb, "CommAnalyzerTime"));
  PD_ASSIGN_OR_RETURN(t.comm_bandwidth, ReadTable(adb, "CommAnalyzerBandwidth"));
  PD_ASSIGN_OR_RETURN(t.comm_matrix, ReadTable(adb, "CommAnalyzerMatrix"));
  t.has_analysis_db = true;
  p.npu.db.has_analysis_db = true;
  return Status::Ok();
}

}  // namespace

Status LoadClusterDbTables(const db::Database& db, Profile& profile) {
  PD_RETURN_IF_ERROR(LoadCannStarts(db, profile));
  ClusterDbTables& t = profile.npu.db.cluster;
  t.present = true;
  PD_ASSIGN_OR_RETURN(t.host_info, ReadTable(db, "HOST_INFO", 1));
  PD_ASSIGN_OR_RETURN(t.rank_device_map, ReadTable(db, "RANK_DEVICE_MAP"));
  PD_RETURN_IF_ERROR(LoadParallelGroupInfo(db, t));
  LoadDistributedArgs(db.file(), t);
  return LoadAnalysisDb(db.file(), profile);
}

}  // namespace profdiff
